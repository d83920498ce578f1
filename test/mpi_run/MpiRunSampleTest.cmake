# Samples through `shardgen run --backend mpi --check` with 1, 2 and 4 ranks
# (4 devices: 4 threads in one rank, 2 ranks x 2 threads, one rank per
# device; RANKS replaces the list, e.g. 1|2|3|6 for 6 devices); each run's
# outputs must equal the threads backend's bit for bit. The 2-rank run calls
# the program twice (--repeat 2: the last call's outputs are written, and
# the timings are reported).
# Run as cmake -DSHARDGEN=... -DGRAPH=a.json[|b.json...] [-DRANKS=1|2|4]
# [-DINPUTS=a.npy|b.npy] [-DLIBRARY=lib.so] -DWORK_DIR=... -P this.
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
if(RANKS)
  string(REPLACE "|" ";" RANKS "${RANKS}")
else()
  set(RANKS 1 2 4)
endif()
string(REPLACE "|" ";" GRAPHS "${GRAPH}")

# check_sample(GRAPH DIR): the threads backend's outputs, then each rank count's.
function(check_sample graph dir)
  file(REMOVE_RECURSE ${dir})
  run_step(${SHARDGEN} run ${graph} ${extra} -o ${dir}/threads)
  file(GLOB expected RELATIVE ${dir}/threads ${dir}/threads/*.npy)
  if(NOT expected)
    message(FATAL_ERROR "the threads backend wrote no outputs for ${graph}")
  endif()
  foreach(ranks ${RANKS})
    set(repeat)
    if(ranks EQUAL 2)
      set(repeat --repeat 2)
    endif()
    # Shared memory only, on the loopback interface (containers have no other).
    execute_process(COMMAND ${SHARDGEN} run ${graph} ${extra} --backend mpi --ranks ${ranks}
                            --check ${repeat} -o ${dir}/mpi${ranks}
                            --mpirun-args "--mca btl self,vader --mca oob_tcp_if_include lo"
                    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
    if(NOT status EQUAL 0)
      message(FATAL_ERROR "${graph} with ${ranks} rank(s) failed (${status}):\n${out}\n${err}")
    endif()
    if(repeat AND NOT err MATCHES "\n  JIT +[0-9.]+ ms\n  run +min [0-9.]+ ms, median [0-9.]+ ms per call \\(2 calls\\)\n")
      message(FATAL_ERROR "${graph}: no --repeat timings from rank 0:\n${err}")
    endif()
    foreach(file ${expected})
      execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${dir}/threads/${file}
                              ${dir}/mpi${ranks}/${file} RESULT_VARIABLE differs)
      if(differs)
        message(FATAL_ERROR "${graph}: ${file} with ${ranks} rank(s) differs from the threads "
                            "backend's")
      endif()
    endforeach()
  endforeach()
endfunction()

foreach(graph ${GRAPHS})
  get_filename_component(name ${graph} NAME)
  check_sample(${graph} ${WORK_DIR}/${name})
endforeach()
