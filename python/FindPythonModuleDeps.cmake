# Whether the Python module can be built: Python 3 with its development
# files, pybind11 and DLPack's header (Debian: python3-dev, pybind11-dev,
# libdlpack-dev). Sets SHARDGEN_BUILD_PYTHON_MODULE and, when it is ON,
# SHARDGEN_PYTHON_INSTALL_DIR and SHARDGEN_DLPACK_INCLUDE_DIR. Nothing here
# is required: without them the module is skipped.

# Debian's interpreter, not whatever python3 comes first on PATH (a pyenv
# shim, a venv): its numpy and pytest are the ones the packages provide.
set(SHARDGEN_PYTHON_EXECUTABLE /usr/bin/python3 CACHE FILEPATH
  "The Python interpreter the module is built for (default: Debian's /usr/bin/python3)")
if(EXISTS ${SHARDGEN_PYTHON_EXECUTABLE})
  set(Python3_EXECUTABLE ${SHARDGEN_PYTHON_EXECUTABLE})
endif()
set(SHARDGEN_BUILD_PYTHON_MODULE OFF)
find_package(Python3 COMPONENTS Interpreter Development.Module QUIET)
if(Python3_FOUND)
  find_package(pybind11 CONFIG QUIET)
endif()
find_path(SHARDGEN_DLPACK_INCLUDE_DIR dlpack/dlpack.h)
if(NOT Python3_FOUND OR NOT pybind11_FOUND OR NOT SHARDGEN_DLPACK_INCLUDE_DIR)
  message(STATUS "shardgen: the Python module is not built (it needs python3-dev, pybind11-dev "
                 "and libdlpack-dev)")
  return()
endif()
set(SHARDGEN_BUILD_PYTHON_MODULE ON)
message(STATUS "shardgen: the Python module is built for ${Python3_EXECUTABLE}")

# Where `cmake --install` puts the package, relative to the install prefix:
# the interpreter's platlib as it lies under the prefix (Debian's python3
# with /usr/local: lib/python3.11/dist-packages), or under its own prefix (a
# virtual environment: lib/python3.11/site-packages).
execute_process(
  COMMAND ${Python3_EXECUTABLE} -c
    "import os, sys, sysconfig
platlib = sysconfig.get_path('platlib')
for prefix in (sys.argv[1], sys.prefix):
    relative = os.path.relpath(platlib, prefix)
    if not relative.startswith('..'):
        print(relative); break
else:
    print('lib/python%d.%d/site-packages' % sys.version_info[:2])"
    ${CMAKE_INSTALL_PREFIX}
  OUTPUT_VARIABLE python_install_dir OUTPUT_STRIP_TRAILING_WHITESPACE)
set(SHARDGEN_PYTHON_INSTALL_DIR ${python_install_dir} CACHE STRING
  "Where cmake --install puts the Python package, relative to the install prefix")
