# build_app(SOURCE BUILD ARGS...): configures (with GENERATOR, and ccache as
# the compiler launcher when present) and builds an application with the
# cache arguments ARGS, failing the test script on error.
find_program(SHARDGEN_TEST_CCACHE ccache)
function(build_app source build)
  set(launcher "")
  if(SHARDGEN_TEST_CCACHE)
    set(launcher -DCMAKE_CXX_COMPILER_LAUNCHER=${SHARDGEN_TEST_CCACHE}
                 -DCMAKE_C_COMPILER_LAUNCHER=${SHARDGEN_TEST_CCACHE})
  endif()
  run_step(${CMAKE_COMMAND} -S ${source} -B ${build} -G ${GENERATOR} ${launcher} ${ARGN})
  run_step(${CMAKE_COMMAND} --build ${build} --parallel 2)
endfunction()
