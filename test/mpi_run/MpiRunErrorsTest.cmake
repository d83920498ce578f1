# How `run --backend mpi` fails: a device failing on one rank ends the job
# (no hang) with its error and rank number, exit 1, nothing on stdout; a rank
# count that does not divide the devices and a missing mpirun are clear
# errors (exit 1) before anything starts.
# Run as cmake -DSHARDGEN=... -DGRAPH=<a 4-device graph> -P this.

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
