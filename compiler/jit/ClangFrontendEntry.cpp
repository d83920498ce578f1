// The one symbol libshardgen-jit-clang.so exports: its entry point
// (CppFrontend.h), which the LLVM side finds with dlsym (ClangLoader.cpp).
#include "compiler/jit/CppFrontend.h"
#include "compiler/jit/JitBackend.h"

extern "C" __attribute__((visibility("default"))) const shardgen::jit::ClangFrontend *
shardgen_jit_clang_frontend() {
  static const shardgen::jit::ClangFrontend frontend{shardgen::jit::kBackendAbi,
                                                     &shardgen::jit::clangEmitLlvmModule};
  return &frontend;
}
