# shardgen_add_program(TARGET <name> GRAPH <graph.json> [BACKEND threads|mpi]
#                      [STRATEGY <strategy>])
#
# Compiles GRAPH with `shardgen compile` at build time (again whenever the
# graph or the shardgen tool changes) into ${CMAKE_CURRENT_BINARY_DIR}/shardgen/<name>/
# and defines the static library target <name>: include "<name>.h", whose
# namespace is <name>, and link it. BACKEND mpi adds the MPI call styles
# (runRank, runRankShards) and links shardgen::runtime_mpi. STRATEGY is the
# propagation strategy (`shardgen compile --strategy`).
#
# The device code is compiled with -O2 -march=native (-O2 alone when the
# compiler lacks the flag or <name>_NATIVE is OFF), or with exactly the options
# in SHARDGEN_PROGRAM_OPTIONS when that variable is defined.
include_guard(GLOBAL)
include(CheckCXXCompilerFlag)

function(shardgen_add_program)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "TARGET;GRAPH;BACKEND;STRATEGY" "")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "shardgen_add_program: unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_TARGET OR NOT arg_GRAPH)
    message(FATAL_ERROR "shardgen_add_program: TARGET and GRAPH are required")
  endif()
  if(NOT arg_BACKEND)
    set(arg_BACKEND threads)
  endif()
  if(NOT arg_BACKEND MATCHES "^(threads|mpi)$")
    message(FATAL_ERROR "shardgen_add_program: BACKEND is threads or mpi, not '${arg_BACKEND}'")
  endif()
  if(arg_BACKEND STREQUAL "mpi" AND NOT (TARGET shardgen::runtime_mpi AND TARGET MPI::MPI_C))
    message(FATAL_ERROR "shardgen_add_program(${arg_TARGET}): BACKEND mpi needs "
                        "shardgen::runtime_mpi (shardgen built with MPI, and MPI found here)")
  endif()

  set(name ${arg_TARGET})
  cmake_path(ABSOLUTE_PATH arg_GRAPH BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
             NORMALIZE OUTPUT_VARIABLE graph)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/shardgen/${name})
  set(sources ${dir}/${name}.cpp ${dir}/${name}_host.cpp)
  set(options --backend ${arg_BACKEND} --name ${name})
  if(arg_STRATEGY)
    list(APPEND options --strategy ${arg_STRATEGY})
  endif()
  if(arg_BACKEND STREQUAL "mpi")
    list(APPEND sources ${dir}/${name}_mpi.cpp)
  endif()
  add_custom_command(OUTPUT ${sources} ${dir}/${name}.h
    COMMAND shardgen::shardgen compile ${graph} -o ${dir} ${options}
    DEPENDS ${graph} $<TARGET_FILE:shardgen::shardgen>
    COMMENT "shardgen compile ${arg_GRAPH} (${name}, ${arg_BACKEND})"
    VERBATIM)

  add_library(${name} STATIC ${sources} ${dir}/${name}.h)
  target_include_directories(${name} PUBLIC ${dir})
  target_link_libraries(${name} PUBLIC shardgen::runtime)
  target_compile_features(${name} PUBLIC cxx_std_20)
  if(arg_BACKEND STREQUAL "mpi")
    target_link_libraries(${name} PUBLIC shardgen::runtime_mpi)
    target_compile_definitions(${name} PUBLIC SHARDGEN_BACKEND_MPI=1)
  endif()

  # As the CMakeLists.txt of `shardgen compile`'s folder: the kernels are
  # written for the compiler to vectorize, so optimize them in any build.
  option(${name}_NATIVE "Compile ${name} for this machine's CPU (-march=native)" ON)
  if(DEFINED SHARDGEN_PROGRAM_OPTIONS)
    set(device_options ${SHARDGEN_PROGRAM_OPTIONS})
  else()
    check_cxx_compiler_flag(-march=native SHARDGEN_HAS_MARCH_NATIVE)
    set(device_options -O2)
    if(${name}_NATIVE AND SHARDGEN_HAS_MARCH_NATIVE)
      list(APPEND device_options -march=native)
    endif()
  endif()
  set_source_files_properties(${dir}/${name}.cpp PROPERTIES COMPILE_OPTIONS "${device_options}")
endfunction()
