# shardgen as an installed package: `cmake --install` into a temporary prefix,
# then samples/app (threads) and samples/mpi_app (BACKEND mpi, under
# `mpirun -np 4`), copied outside the source tree, are configured against the
# prefix alone (find_package(shardgen 0.1), shardgen_add_program), built and
# run; their outputs must equal the installed tool's `shardgen run`. The
# program is compiled again when the graph or the tool changes, STRATEGY
# reaches the tool, and a version the package does not provide or an unknown
# BACKEND is refused.
# Run as cmake -DBUILD_DIR=... -DMPIRUN=... (empty: no MPI) -DGENERATOR=...
# -DSOURCE_DIR=... -DWORK_DIR=... -P this.
include(${CMAKE_CURRENT_LIST_DIR}/../codegen/RunStep.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/AppBuild.cmake)

set(prefix ${WORK_DIR}/prefix)
set(outside ${WORK_DIR}/outside)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${outside} ${WORK_DIR}/inputs)
run_step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
set(shardgen ${prefix}/bin/shardgen)
# (The tool's JIT modules, which its `run` below loads from there.)
foreach(file include/shardgen/runtime.h include/shardgen/mpi.h lib/libshardgen_runtime.a
        lib/shardgen/libshardgen-jit.so lib/shardgen/libshardgen-jit-clang.so
        lib/cmake/shardgen/shardgenConfig.cmake lib/cmake/shardgen/shardgenConfigVersion.cmake)
  if(NOT EXISTS ${prefix}/${file})
    message(FATAL_ERROR "cmake --install put no ${file} under the prefix")
  endif()
endforeach()

# The applications and their graph, away from the source tree.
file(COPY ${SOURCE_DIR}/samples/app ${SOURCE_DIR}/samples/mpi_app ${SOURCE_DIR}/samples/common
          ${SOURCE_DIR}/samples/mlp.json
     DESTINATION ${outside})
set(graph ${outside}/mlp.json)
build_app(${outside}/app ${WORK_DIR}/app -DCMAKE_PREFIX_PATH=${prefix})
run_step(${WORK_DIR}/app/mlp_app --write-inputs ${WORK_DIR}/inputs)
file(GLOB inputs ${WORK_DIR}/inputs/in*.npy)
list(SORT inputs)
run_step(${shardgen} run ${graph} --inputs ${inputs} -o ${WORK_DIR}/run)
run_step(${WORK_DIR}/app/mlp_app --compare ${WORK_DIR}/run)

if(MPIRUN)
  build_app(${outside}/mpi_app ${WORK_DIR}/mpi_app -DCMAKE_PREFIX_PATH=${prefix})
  run_step(${MPIRUN} -np 4 --allow-run-as-root --oversubscribe --mca btl self,vader
           --mca oob_tcp_if_include lo ${WORK_DIR}/mpi_app/mlp_mpi_app --compare ${WORK_DIR}/run)
endif()

# A changed graph, then a changed tool, compile the program again (a dry run
# says what the next build would do).
function(expect_recompile why)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/app -- -n
                  OUTPUT_VARIABLE plan RESULT_VARIABLE status)
  if(NOT status EQUAL 0 OR NOT plan MATCHES "shardgen compile [^\n]*mlp.json")
    message(FATAL_ERROR "after ${why} the build does not run shardgen compile:\n${plan}")
  endif()
  run_step(${CMAKE_COMMAND} --build ${WORK_DIR}/app --parallel 2)
endfunction()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/app -- -n OUTPUT_VARIABLE plan)
if(plan MATCHES "shardgen compile")
  message(FATAL_ERROR "an up-to-date build compiles the graph again:\n${plan}")
endif()
file(TOUCH ${graph})
expect_recompile("the graph changed")
file(TOUCH ${shardgen})
expect_recompile("the tool changed")

# STRATEGY reaches `shardgen compile`; a BACKEND it does not know is refused.
file(WRITE ${outside}/options/CMakeLists.txt "cmake_minimum_required(VERSION 3.20)
project(options LANGUAGES CXX)
find_package(shardgen 0.1 REQUIRED)
if(BAD_BACKEND)
  shardgen_add_program(TARGET bad GRAPH ../mlp.json BACKEND cuda)
endif()
shardgen_add_program(TARGET basic_mlp GRAPH ../mlp.json STRATEGY basic)
")
run_step(${CMAKE_COMMAND} -S ${outside}/options -B ${WORK_DIR}/options -G ${GENERATOR}
         -DCMAKE_PREFIX_PATH=${prefix})
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/options -- -n -v
                OUTPUT_VARIABLE plan)
if(NOT plan MATCHES "compile [^\n]*mlp.json -o [^\n]*basic_mlp --backend threads --name basic_mlp --strategy basic")
  message(FATAL_ERROR "shardgen_add_program(... STRATEGY basic) does not compile so:\n${plan}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} ${WORK_DIR}/options -DBAD_BACKEND=ON
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(status EQUAL 0 OR NOT err MATCHES "BACKEND is threads or mpi, not 'cuda'")
  message(FATAL_ERROR "BACKEND cuda: expected a refusal, got (${status}) ${err}")
endif()

# find_package(shardgen 0.2) must not accept 0.1.
file(WRITE ${outside}/too_new/CMakeLists.txt "cmake_minimum_required(VERSION 3.20)
project(too_new LANGUAGES CXX)
find_package(shardgen 0.2 REQUIRED)
")
execute_process(COMMAND ${CMAKE_COMMAND} -S ${outside}/too_new -B ${WORK_DIR}/too_new
                        -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${prefix}
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(status EQUAL 0 OR NOT err MATCHES "version: 0\\.1\\.0")
  message(FATAL_ERROR "find_package(shardgen 0.2) against 0.1.0: expected a refusal, got "
                      "(${status}) ${err}")
endif()
