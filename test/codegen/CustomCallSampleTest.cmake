# The custom-call sample end to end (samples/custom_call): its C implementation
# built as a shared library with the system compiler serves `shardgen eval`
# and `shardgen run --check` (--custom-calls), and is linked into the AOT app
# (samples/app) built from `shardgen compile`, which needs no library; the
# app's output must equal both. Run as cmake -DSHARDGEN=... -DCC=...
# -DGENERATOR=... -DSOURCE_DIR=... -DWORK_DIR=... -P this.
include(${CMAKE_CURRENT_LIST_DIR}/RunStep.cmake)

set(sample ${SOURCE_DIR}/samples/custom_call)
set(graph ${sample}/rms_norm_mlp.json)
set(library ${WORK_DIR}/librms_norm.so)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/inputs)
run_step(${CC} -shared -fPIC -O2 -I${SOURCE_DIR}/runtime/include ${sample}/rms_norm.c
         -o ${library} -lm)
run_step(${SHARDGEN} compile ${graph} -o ${WORK_DIR}/gen)
run_step(${CMAKE_COMMAND} -S ${SOURCE_DIR}/samples/app -B ${WORK_DIR}/app -G ${GENERATOR}
         -DSHARDGEN_GENERATED_DIR=${WORK_DIR}/gen -DSHARDGEN_PROGRAM=rms_norm_mlp
         -DSHARDGEN_CUSTOM_CALL_SOURCES=${sample}/rms_norm.c -DCMAKE_BUILD_TYPE=Release)
run_step(${CMAKE_COMMAND} --build ${WORK_DIR}/app --parallel 2)
run_step(${WORK_DIR}/app/rms_norm_mlp_app --write-inputs ${WORK_DIR}/inputs)
file(GLOB inputs ${WORK_DIR}/inputs/in*.npy)
list(SORT inputs)
run_step(${SHARDGEN} eval ${graph} --inputs ${inputs} --custom-calls ${library} -o ${WORK_DIR}/eval)
run_step(${SHARDGEN} run ${graph} --inputs ${inputs} --custom-calls ${library} --check
         -o ${WORK_DIR}/run)
run_step(${WORK_DIR}/app/rms_norm_mlp_app --compare ${WORK_DIR}/eval)
run_step(${WORK_DIR}/app/rms_norm_mlp_app --compare ${WORK_DIR}/run)
