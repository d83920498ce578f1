# The AOT round trip: `shardgen compile samples/mlp.json`, build samples/app
# against it, run it, and compare its output with `shardgen run` on the same
# inputs. With -DPACKAGE_DIR=<shardgen build tree>, samples/app finds shardgen
# there as a package and compiles the graph itself (shardgen_add_program).
# Run as cmake -DSHARDGEN=... -DSOURCE_DIR=... -DWORK_DIR=... -P this.
include(${CMAKE_CURRENT_LIST_DIR}/RunStep.cmake)

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/inputs)
if(PACKAGE_DIR) # the shardgen build tree as a package: shardgen_add_program compiles
  run_step(${CMAKE_COMMAND} -S ${SOURCE_DIR}/samples/app -B ${WORK_DIR}/app
           -Dshardgen_DIR=${PACKAGE_DIR})
else()
  run_step(${SHARDGEN} compile ${SOURCE_DIR}/samples/mlp.json -o ${WORK_DIR}/mlp_gen)
  run_step(${CMAKE_COMMAND} -S ${SOURCE_DIR}/samples/app -B ${WORK_DIR}/app
           -DSHARDGEN_GENERATED_DIR=${WORK_DIR}/mlp_gen)
endif()
run_step(${CMAKE_COMMAND} --build ${WORK_DIR}/app)
run_step(${WORK_DIR}/app/mlp_app --write-inputs ${WORK_DIR}/inputs)
file(GLOB inputs ${WORK_DIR}/inputs/in*.npy)
list(SORT inputs)
run_step(${SHARDGEN} run ${SOURCE_DIR}/samples/mlp.json --inputs ${inputs} -o ${WORK_DIR}/run)
run_step(${WORK_DIR}/app/mlp_app --compare ${WORK_DIR}/run)
