// The only system headers the JIT offers: <stddef.h> and <stdint.h>, written
// from the compiler's predefined macros (__SIZE_TYPE__, __INT64_TYPE__, ...),
// so they are exact for the target without reading clang's or the system's
// include folders.
#include "compiler/jit/CppFrontend.h"

namespace shardgen::jit {
namespace {

constexpr const char *kStddef = R"(/* shardgen JIT: freestanding <stddef.h> */
#ifndef SHARDGEN_JIT_STDDEF_H
#define SHARDGEN_JIT_STDDEF_H
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
#ifdef __cplusplus
#define NULL __null
#else
#define NULL ((void *)0)
#endif
#define offsetof(type, member) __builtin_offsetof(type, member)
#endif
)";

constexpr const char *kStdint = R"(/* shardgen JIT: freestanding <stdint.h> */
#ifndef SHARDGEN_JIT_STDINT_H
#define SHARDGEN_JIT_STDINT_H
#define SHARDGEN_JIT_PASTE2(a, b) a##b
#define SHARDGEN_JIT_PASTE(a, b) SHARDGEN_JIT_PASTE2(a, b)
#define SHARDGEN_JIT_INT_TYPES(N)                                              \
  typedef __INT##N##_TYPE__ int##N##_t;                                        \
  typedef __UINT##N##_TYPE__ uint##N##_t;                                      \
  typedef __INT_LEAST##N##_TYPE__ int_least##N##_t;                            \
  typedef __UINT_LEAST##N##_TYPE__ uint_least##N##_t;                          \
  typedef __INT_FAST##N##_TYPE__ int_fast##N##_t;                              \
  typedef __UINT_FAST##N##_TYPE__ uint_fast##N##_t;
SHARDGEN_JIT_INT_TYPES(8)
SHARDGEN_JIT_INT_TYPES(16)
SHARDGEN_JIT_INT_TYPES(32)
SHARDGEN_JIT_INT_TYPES(64)
#undef SHARDGEN_JIT_INT_TYPES
typedef __INTPTR_TYPE__ intptr_t;
typedef __UINTPTR_TYPE__ uintptr_t;
typedef __INTMAX_TYPE__ intmax_t;
typedef __UINTMAX_TYPE__ uintmax_t;

#define INT8_MAX __INT8_MAX__
#define INT16_MAX __INT16_MAX__
#define INT32_MAX __INT32_MAX__
#define INT64_MAX __INT64_MAX__
#define INT8_MIN (-INT8_MAX - 1)
#define INT16_MIN (-INT16_MAX - 1)
#define INT32_MIN (-INT32_MAX - 1)
#define INT64_MIN (-INT64_MAX - 1)
#define UINT8_MAX __UINT8_MAX__
#define UINT16_MAX __UINT16_MAX__
#define UINT32_MAX __UINT32_MAX__
#define UINT64_MAX __UINT64_MAX__
#define INTPTR_MAX __INTPTR_MAX__
#define INTPTR_MIN (-INTPTR_MAX - 1)
#define UINTPTR_MAX __UINTPTR_MAX__
#define INTMAX_MAX __INTMAX_MAX__
#define INTMAX_MIN (-INTMAX_MAX - 1)
#define UINTMAX_MAX __UINTMAX_MAX__
#define PTRDIFF_MAX __PTRDIFF_MAX__
#define PTRDIFF_MIN (-PTRDIFF_MAX - 1)
#define SIZE_MAX __SIZE_MAX__

#define INT8_C(c) SHARDGEN_JIT_PASTE(c, __INT8_C_SUFFIX__)
#define INT16_C(c) SHARDGEN_JIT_PASTE(c, __INT16_C_SUFFIX__)
#define INT32_C(c) SHARDGEN_JIT_PASTE(c, __INT32_C_SUFFIX__)
#define INT64_C(c) SHARDGEN_JIT_PASTE(c, __INT64_C_SUFFIX__)
#define UINT8_C(c) SHARDGEN_JIT_PASTE(c, __UINT8_C_SUFFIX__)
#define UINT16_C(c) SHARDGEN_JIT_PASTE(c, __UINT16_C_SUFFIX__)
#define UINT32_C(c) SHARDGEN_JIT_PASTE(c, __UINT32_C_SUFFIX__)
#define UINT64_C(c) SHARDGEN_JIT_PASTE(c, __UINT64_C_SUFFIX__)
#define INTMAX_C(c) SHARDGEN_JIT_PASTE(c, __INTMAX_C_SUFFIX__)
#define UINTMAX_C(c) SHARDGEN_JIT_PASTE(c, __UINTMAX_C_SUFFIX__)
#endif
)";

} // namespace

const std::vector<std::pair<std::string, std::string>> &freestandingHeaders() {
  static const std::vector<std::pair<std::string, std::string>> headers = {
      {std::string(kSystemIncludeDir) + "/stddef.h", kStddef},
      {std::string(kSystemIncludeDir) + "/stdint.h", kStdint}};
  return headers;
}

} // namespace shardgen::jit
