# shardgen as a CMake package: `cmake --install` installs the tool, the
# runtime libraries (threads and, when built, MPI) with their headers, and
# shardgenConfig.cmake, shardgenConfigVersion.cmake, the exported targets and
# shardgenProgram.cmake (shardgen_add_program). The build tree exports the
# same package, so an application also builds against an uninstalled build
# (-Dshardgen_DIR=<build>). The tool needs no other file at run time but
# its JIT modules, <libdir>/shardgen/libshardgen-jit.so (LLVM) and
# libshardgen-jit-clang.so (clang), which `run` alone loads: it embeds its
# templates and the runtime's sources.
include(CMakePackageConfigHelpers)
set(SHARDGEN_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/shardgen)

set(shardgen_exported shardgen shardgen_runtime)
set_target_properties(shardgen PROPERTIES EXPORT_NAME shardgen
  # Shared libraries it links outside the system's folders (MPI) are found.
  INSTALL_RPATH_USE_LINK_PATH ON)
set_target_properties(shardgen_runtime PROPERTIES EXPORT_NAME runtime)
# Its headers are C++20, as the project is.
target_compile_features(shardgen_runtime PUBLIC cxx_std_20)
set(SHARDGEN_BUILT_WITH_MPI OFF)
if(TARGET shardgen_runtime_mpi)
  set_target_properties(shardgen_runtime_mpi PROPERTIES EXPORT_NAME runtime_mpi)
  list(APPEND shardgen_exported shardgen_runtime_mpi)
  set(SHARDGEN_BUILT_WITH_MPI ON)
endif()

install(TARGETS ${shardgen_exported} EXPORT shardgenTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
# Where the tool looks for them (compiler/jit/JitLoader.cpp), seen from bindir.
install(TARGETS shardgen_jit_module shardgen_jit_clang_module
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/shardgen)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/shardgen
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT shardgenTargets NAMESPACE shardgen:: DESTINATION ${SHARDGEN_INSTALL_CMAKEDIR})

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/shardgenConfig.cmake.in
  ${PROJECT_BINARY_DIR}/shardgenConfig.cmake INSTALL_DESTINATION ${SHARDGEN_INSTALL_CMAKEDIR})
# 0.x: a minor version may break the API, so 0.1 accepts 0.1.* only.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/shardgenConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
configure_file(${CMAKE_CURRENT_LIST_DIR}/shardgenProgram.cmake
  ${PROJECT_BINARY_DIR}/shardgenProgram.cmake COPYONLY)
install(FILES ${PROJECT_BINARY_DIR}/shardgenConfig.cmake
  ${PROJECT_BINARY_DIR}/shardgenConfigVersion.cmake ${CMAKE_CURRENT_LIST_DIR}/shardgenProgram.cmake
  DESTINATION ${SHARDGEN_INSTALL_CMAKEDIR})
export(EXPORT shardgenTargets NAMESPACE shardgen:: FILE ${PROJECT_BINARY_DIR}/shardgenTargets.cmake)
