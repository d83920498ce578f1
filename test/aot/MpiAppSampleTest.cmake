# samples/mpi_app from `shardgen compile --backend mpi`'s folder, under
# `mpirun -np 4`: both MPI call styles (runRank, runRankShards) must equal
# `shardgen run` on the same inputs bit for bit, and a null buffer on one rank
# must throw on every rank (no hang, no abort), as must a wrong rank count. A
# folder compiled for threads refuses SHARDGEN_BACKEND_MPI with a clear message.
# Run as cmake -DSHARDGEN=... -DMPIRUN=... -DGENERATOR=... -DSOURCE_DIR=...
# -DWORK_DIR=... -P this.
include(${CMAKE_CURRENT_LIST_DIR}/../codegen/RunStep.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/AppBuild.cmake)

set(graph ${SOURCE_DIR}/samples/mlp.json)
set(mpirun ${MPIRUN} -np 4 --allow-run-as-root --oversubscribe --mca btl self,vader
           --mca oob_tcp_if_include lo)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/inputs)
run_step(${SHARDGEN} compile ${graph} -o ${WORK_DIR}/gen --backend mpi)
foreach(file mlp_mpi.cpp runtime/mpi/MpiLaunch.cpp)
  if(NOT EXISTS ${WORK_DIR}/gen/${file})
    message(FATAL_ERROR "compile --backend mpi wrote no ${file}")
  endif()
endforeach()
build_app(${SOURCE_DIR}/samples/mpi_app ${WORK_DIR}/app -DSHARDGEN_GENERATED_DIR=${WORK_DIR}/gen)
run_step(${mpirun} ${WORK_DIR}/app/mlp_mpi_app --write-inputs ${WORK_DIR}/inputs)
file(GLOB inputs ${WORK_DIR}/inputs/in*.npy)
list(SORT inputs)
run_step(${SHARDGEN} run ${graph} --inputs ${inputs} -o ${WORK_DIR}/run)
run_step(${mpirun} ${WORK_DIR}/app/mlp_mpi_app --compare ${WORK_DIR}/run)
run_step(${mpirun} ${WORK_DIR}/app/mlp_mpi_app --check-errors)
# A wrong rank count is an exception on every rank, which the app reports.
string(REPLACE "-np;4" "-np;2" mpirun_2 "${mpirun}")
execute_process(COMMAND ${mpirun_2} ${WORK_DIR}/app/mlp_mpi_app RESULT_VARIABLE status
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(expected "rank 1: the mesh has 4 devices but MPI runs 2 ranks \\(use mpirun -np 4\\)")
if(status EQUAL 0 OR NOT out MATCHES "${expected}")
  message(FATAL_ERROR "mlp_mpi_app on 2 ranks: expected the rank count error, got "
                      "(${status}) ${out}${err}")
endif()

# --backend threads: no MPI sources, and the option says why.
run_step(${SHARDGEN} compile ${graph} -o ${WORK_DIR}/threads_gen)
if(EXISTS ${WORK_DIR}/threads_gen/mlp_mpi.cpp OR EXISTS ${WORK_DIR}/threads_gen/runtime/mpi)
  message(FATAL_ERROR "compile --backend threads wrote MPI sources")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/samples/mpi_app
                        -B ${WORK_DIR}/threads_app -G ${GENERATOR}
                        -DSHARDGEN_GENERATED_DIR=${WORK_DIR}/threads_gen -DSHARDGEN_BACKEND_MPI=ON
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REPLACE "\n" " " err "${err}")
if(status EQUAL 0 OR NOT err MATCHES "mlp was compiled with --backend threads: its folder has no MPI")
  message(FATAL_ERROR "a threads folder with SHARDGEN_BACKEND_MPI=ON: expected the error, got "
                      "(${status}) ${err}")
endif()
