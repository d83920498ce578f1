# `cmake --install --component python` into a prefix: the package lands in
# PREFIX/INSTALL_DIR/shardgen (the interpreter's site-packages layout) and
# imports from there.
# cmake -DPYTHON=... -DBUILD_DIR=... -DINSTALL_DIR=... -DWORK_DIR=... -P CMakeInstallTest.cmake

file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --component python --prefix
                        ${WORK_DIR}/prefix
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cmake --install failed:\n${out}\n${err}")
endif()
set(site ${WORK_DIR}/prefix/${INSTALL_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${site} ${PYTHON} -c
                        "import shardgen; print(shardgen.__file__)"
                WORKING_DIRECTORY ${WORK_DIR} RESULT_VARIABLE status OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT status EQUAL 0 OR NOT out STREQUAL "${site}/shardgen/__init__.py\n")
  message(FATAL_ERROR "the installed package does not import from ${site}:\n${out}\n${err}")
endif()
