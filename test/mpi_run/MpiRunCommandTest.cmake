# `run --backend mpi` besides the samples' numbers: --report's rank lines,
# and failures: a device failing on one rank ends the job (no hang) with its
# error and rank number, exit 1, nothing on stdout; a rank count that does
# not divide the devices and a missing mpirun are clear errors (exit 1)
# before anything starts.
# Run as cmake -DSHARDGEN=... -DSAMPLES=<samples/> -P this.
set(GRAPH ${SAMPLES}/mlp.json)

# expect_failure(CODE TEXT COMMAND...): exits CODE, stderr contains TEXT,
# stdout is empty.
function(expect_failure code text)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out
                  ERROR_VARIABLE err TIMEOUT 60)
  if(NOT status STREQUAL "${code}")
    message(FATAL_ERROR "expected exit ${code}, got '${status}': ${ARGN}\n${out}\n${err}")
  endif()
  string(FIND "${err}" "${text}" found)
  if(found EQUAL -1 OR NOT out STREQUAL "")
    message(FATAL_ERROR "expected '${text}' on stderr and nothing on stdout: ${ARGN}\n"
                        "stdout: ${out}\nstderr: ${err}")
  endif()
endfunction()

set(mpi --backend mpi --mpirun-args "--mca btl self,vader --mca oob_tcp_if_include lo")

# expect_report(GRAPH RANKS LINE...): the run succeeds and prints each LINE.
function(expect_report graph ranks)
  execute_process(COMMAND ${SHARDGEN} run ${graph} ${mpi} --ranks ${ranks} --report
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "--report with ${ranks} ranks failed (${status}):\n${out}\n${err}")
  endif()
  foreach(line ${ARGN})
    string(FIND "${out}" "\n${line}\n" found)
    if(found EQUAL -1)
      message(FATAL_ERROR "missing line '${line}' in --report:\n${out}")
    endif()
  endforeach()
endfunction()

# dp_grad_step: 4 devices on "data", 32-byte pieces. The all_reduce sends
# each other member 32 bytes: 2 members on the other rank, 2 devices per
# rank. The broadcast sends 32 bytes from device 0 to each other device.
expect_report(${SAMPLES}/dp_grad_step.json 2
  "MPI ranks: 2, 2 device(s) each (rank r runs mesh positions 2r..2r+1: the minor axes)"
  "  1  crosses ranks (MPI), bytes leaving each rank:  r0: 128  r1: 128"
  "  2  crosses ranks (MPI), bytes leaving each rank:  r0: 64  r1: 0"
  "bytes leaving each rank in all:  r0: 192  r1: 128")
# mlp: its all_reduce is over "model", the minor axis: inside a rank of 2
# devices, across ranks with one device each (its 4x16 f32 piece, 256 bytes,
# to the one other member).
expect_report(${GRAPH} 2 "  1  inside ranks (shared memory)"
  "bytes leaving each rank in all:  r0: 0  r1: 0")
expect_report(${GRAPH} 4
  "  1  crosses ranks (MPI), bytes leaving each rank:  r0: 256  r1: 256  r2: 256  r3: 256")
# A rank's devices are threads: a rank is not bound to one core (Open MPI
# binds up to 2 ranks to a core each by default), unless the user binds.
foreach(case "none:is not bound" "core:bound to socket 0[core")
  string(REPLACE ":" ";" pair "${case}")
  list(GET pair 0 binding)
  list(GET pair 1 expected)
  set(bind)
  if(binding STREQUAL core)
    set(bind "--bind-to core")
  endif()
  execute_process(COMMAND ${SHARDGEN} run ${GRAPH} --backend mpi --ranks 2
                          --mpirun-args "--mca btl self,vader --mca oob_tcp_if_include lo --report-bindings ${bind}"
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
  string(FIND "${err}" "MCW rank 1 ${expected}" found)
  if(NOT status EQUAL 0 OR found EQUAL -1)
    message(FATAL_ERROR "2 ranks x 2 threads (${binding}): expected 'MCW rank 1 ${expected}' "
                        "(${status}):\n${out}\n${err}")
  endif()
endforeach()
# Device 2 throws (test hook) while its peers run on: as 4 ranks (rank 2) and
# as 2 ranks x 2 threads (rank 1).
foreach(ranks_rank 4:2 2:1)
  string(REPLACE ":" ";" pair ${ranks_rank})
  list(GET pair 0 ranks)
  list(GET pair 1 rank)
  expect_failure(1 "shardgen: rank ${rank}: device 2 failed: device 2 failed on purpose"
                 ${CMAKE_COMMAND} -E env SHARDGEN_TEST_FAIL_DEVICE=2
                 ${SHARDGEN} run ${GRAPH} ${mpi} --ranks ${ranks})
endforeach()
expect_failure(1 ":/meshes/0: error: --ranks 3 does not divide the 4 devices of mesh @mesh"
               ${SHARDGEN} run ${GRAPH} ${mpi} --ranks 3)
expect_failure(2 "--ranks takes a positive whole number, not '0'"
               ${SHARDGEN} run ${GRAPH} ${mpi} --ranks 0)
expect_failure(1 "shardgen run: error: --backend mpi needs mpirun, which is not installed (Debian: apt-get install openmpi-bin libopenmpi-dev)"
               ${CMAKE_COMMAND} -E env PATH=/nonexistent ${SHARDGEN} run ${GRAPH} ${mpi})
