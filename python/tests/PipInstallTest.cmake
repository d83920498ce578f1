# `pip install --no-build-isolation` of the checkout into a fresh virtual
# environment made with --system-site-packages (numpy from Debian), then
# `import shardgen` there, from another folder. The build reuses this build
# tree (SHARDGEN_CMAKE_BUILD_DIR): the packaging path is what is tested, a
# from-scratch build is the same CMake build. No network: --no-index.
# cmake -DPYTHON=... -DSOURCE_DIR=... -DBUILD_DIR=... -DWORK_DIR=... -P PipInstallTest.cmake

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(run)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${WORK_DIR} RESULT_VARIABLE status
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${ARGN}\n${out}\n${err}")
  endif()
  set(output "${out}" PARENT_SCOPE)
endfunction()

run(${PYTHON} -m venv --system-site-packages ${WORK_DIR}/venv)
run(${CMAKE_COMMAND} -E env SHARDGEN_CMAKE_BUILD_DIR=${BUILD_DIR}
    SHARDGEN_PIP_BUILD_DIR=${WORK_DIR}/pip-build PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1
    ${WORK_DIR}/venv/bin/python -m pip install --no-build-isolation ${SOURCE_DIR})
# (A script file: CMake would split a -c argument at its semicolons.)
file(WRITE ${WORK_DIR}/use.py [[
import sys
import numpy
import shardgen
print(shardgen.__file__)
prog = shardgen.compile(shardgen.load(sys.argv[1]), cache=False)
print(prog(*[numpy.ones(s.shape, s.dtype) for s in prog.inputs])[0].shape)
]])
run(${WORK_DIR}/venv/bin/python ${WORK_DIR}/use.py ${SOURCE_DIR}/samples/mlp.json)
if(NOT output MATCHES "^${WORK_DIR}/venv/lib/python[0-9.]+/site-packages/shardgen/__init__.py\n\\(8, 16\\)\n$")
  message(FATAL_ERROR "shardgen was not imported from the venv, or did not run:\n${output}")
endif()
message(STATUS "pip installed shardgen into ${WORK_DIR}/venv and imported it: ${output}")
