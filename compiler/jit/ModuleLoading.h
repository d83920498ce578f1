// Loading the JIT's modules (libshardgen-jit.so, libshardgen-jit-clang.so)
// by a path derived from the file holding the loading code, never from
// anything the environment, the graph or the working directory chooses.
// Host side: no LLVM.
#pragma once

#include <filesystem>

namespace shardgen::jit {

/// The folder of the file this code was linked into: the executable as the
/// kernel names it (/proc/self/exe; never argv[0] or PATH), or the shared
/// library holding it (a module, an embedder's library) as the dynamic
/// loader opened it.
std::filesystem::path ownFolder();

/// Loads the shared module at `path` (an absolute path: nothing is
/// searched; RTLD_NOW | RTLD_LOCAL) and returns its function `entryName`.
/// The module and every folder above it must belong to root or this user
/// and be writable by no one else (sticky folders excepted), as the program
/// itself would. Throws InputError (an installation problem: exit 1) when it
/// is not fit, cannot be loaded or lacks the function.
void *loadModuleEntry(const std::filesystem::path &path, const char *entryName);

} // namespace shardgen::jit
