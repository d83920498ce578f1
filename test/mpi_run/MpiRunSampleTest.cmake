# One sample through `shardgen run --backend mpi --check` with 1, 2 and 4
# ranks (4 devices: 4 threads in one rank, 2 ranks x 2 threads, one rank per
# device); each run's outputs must equal the threads backend's bit for bit.
# Run as cmake -DSHARDGEN=... -DGRAPH=... [-DINPUTS=a.npy|b.npy]
# [-DLIBRARY=lib.so] -DWORK_DIR=... -P this.
# Not registered in the ASan/UBSan build: Open MPI's startup there makes it
# slow and LeakSanitizer cannot attribute Open MPI's plugin state; the
# runtime's MPI tests (test/runtime/mpi) cover the backend under ASan.
include(${CMAKE_CURRENT_LIST_DIR}/../codegen/RunStep.cmake)

set(extra)
if(INPUTS)
  string(REPLACE "|" ";" INPUTS "${INPUTS}")
  list(APPEND extra --inputs ${INPUTS})
endif()
if(LIBRARY)
  list(APPEND extra --custom-calls ${LIBRARY})
endif()
file(REMOVE_RECURSE ${WORK_DIR})
run_step(${SHARDGEN} run ${GRAPH} ${extra} -o ${WORK_DIR}/threads)
file(GLOB expected RELATIVE ${WORK_DIR}/threads ${WORK_DIR}/threads/*.npy)
if(NOT expected)
  message(FATAL_ERROR "the threads backend wrote no outputs")
endif()
foreach(ranks 1 2 4)
  # Shared memory only, on the loopback interface (containers have no other).
  run_step(${SHARDGEN} run ${GRAPH} ${extra} --backend mpi --ranks ${ranks} --check
           --mpirun-args "--mca btl self,vader --mca oob_tcp_if_include lo"
           -o ${WORK_DIR}/mpi${ranks})
  foreach(file ${expected})
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK_DIR}/threads/${file}
                            ${WORK_DIR}/mpi${ranks}/${file} RESULT_VARIABLE differs)
    if(differs)
      message(FATAL_ERROR "${file} with ${ranks} rank(s) differs from the threads backend's")
    endif()
  endforeach()
endforeach()
