// Compiling one translation unit and calling into it.
#include "compiler/jit/JitCompiler.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace shardgen {
namespace {

int hostScaleCalls = 0;
int hostScale(int x) {
  ++hostScaleCalls;
  return 10 * x;
}

int recordedByJit = 0;
void hostRecord(int value) { recordedByJit = value; }

TEST_CASE("a JIT-compiled function returns the value it computes") {
  // consteval and designated initializers: the TU is compiled as C++20.
  auto module = compileCpp(R"(
    consteval int square(int x) { return x * x; }
    struct Range { int first; int last; };
    extern "C" int sumOfSquares(int n) {
      Range range{.first = 1, .last = n};
      int sum = square(0);
      for (int i = range.first; i <= range.last; ++i) sum += i * i;
      return sum;
    }
  )",
                           "squares.cpp");
  auto sumOfSquares = module->lookupFunction<int(int)>("sumOfSquares");
  CHECK(sumOfSquares(10) == 385); // 10*11*21/6
  CHECK(sumOfSquares(0) == 0);
  CHECK(module->timings().frontendMs > 0);
  CHECK(module->timings().backendMs > 0);
}

TEST_CASE("JIT-compiled code calls a host function registered by address") {
  JitOptions options;
  options.hostSymbols["hostScale"] = reinterpret_cast<void *>(&hostScale);
  auto module = compileCpp(R"(
    extern "C" int hostScale(int);
    extern "C" int scalePlusOne(int x) { return hostScale(x) + 1; }
  )",
                           "host_call.cpp", options);
  hostScaleCalls = 0;
  CHECK(module->lookupFunction<int(int)>("scalePlusOne")(4) == 41);
  CHECK(hostScaleCalls == 1);
}

TEST_CASE("JIT-compiled code calls the base host symbols it is given") {
  JitOptions options;
  options.hostSymbols = baseHostSymbols();
  auto module = compileCpp(R"(
    extern "C" float expOf(float x) { return __builtin_expf(x); }
    extern "C" void copyBytes(void *to, const void *from, unsigned long n) {
      __builtin_memcpy(to, from, n); // not inlined: n is not a constant
    }
  )",
                           "libm_call.cpp", options);
  CHECK(module->lookupFunction<float(float)>("expOf")(0.0f) == 1.0f);
  char to[6] = {};
  module->lookupFunction<void(void *, const void *, unsigned long)>("copyBytes")(to, "shard", 6);
  CHECK(std::string(to) == "shard");
}

TEST_CASE("JIT-compiled code reaches no symbol of the process outside its table") {
  // remove, system and strlen are all defined in this process (libc).
  for (const std::string name : {"remove", "system", "strlen"}) {
    JitOptions options;
    options.hostSymbols = baseHostSymbols();
    CHECK_THROWS_WITH_AS(compileCpp("extern \"C\" int " + name +
                                        "(const char *);\n"
                                        "extern \"C\" int call() { return " +
                                        name + "(\"x\"); }\n",
                                    "outside.cpp", options),
                         ("cannot link 'outside.cpp': it uses symbols that are not in the JIT's "
                          "symbol table: " +
                          name)
                             .c_str(),
                         JitError);
  }
}

TEST_CASE("no system header is visible; <stddef.h> and <stdint.h> are the JIT's own") {
  for (const std::string header : {"cstring", "stdio.h", "stdlib.h", "vector"})
    CHECK_THROWS_WITH_AS(compileCpp("#include <" + header + ">\n", "system.cpp"),
                         doctest::Contains(("'" + header + "' file not found").c_str()), JitError);
  // The freestanding headers agree with the host's.
  auto module = compileCpp(R"(
    #include <stddef.h>
    #include <stdint.h>
    static_assert(sizeof(int8_t) == 1 && sizeof(int16_t) == 2 && sizeof(int32_t) == 4);
    static_assert(sizeof(int64_t) == 8 && sizeof(uint64_t) == 8 && sizeof(uintptr_t) == sizeof(void *));
    static_assert(sizeof(size_t) == sizeof(void *) && sizeof(ptrdiff_t) == sizeof(void *));
    static_assert(INT8_MIN == -128 && UINT8_MAX == 255 && INT32_MIN == -2147483647 - 1);
    static_assert(UINT32_MAX == 4294967295u && SIZE_MAX == (size_t)-1 && PTRDIFF_MAX > 0);
    static_assert(INT64_C(1) << 62 == 4611686018427387904LL && UINT64_C(1) << 63 != 0);
    struct Pair { int32_t a; int64_t b; };
    static_assert(offsetof(Pair, b) == 8 && NULL == 0);
    extern "C" int64_t int64Min() { return INT64_MIN; }
  )",
                           "freestanding.cpp");
  CHECK(module->lookupFunction<int64_t()>("int64Min")() == INT64_MIN);
}

TEST_CASE("static initializers run at compile time, destructors with the module") {
  JitOptions options;
  options.hostSymbols = baseHostSymbols(); // the handler of a throwing destructor
  options.hostSymbols["hostRecord"] = reinterpret_cast<void *>(&hostRecord);
  recordedByJit = 0;
  auto module = compileCpp(R"(
    extern "C" void hostRecord(int);
    struct Registrar {
      Registrar() { hostRecord(7); }
      ~Registrar() { hostRecord(-1); }
    };
    Registrar registrar;
    static int startupValue = [] { return 6 * 7; }();
    extern "C" int getStartupValue() { return startupValue; }
  )",
                           "static_init.cpp", options);
  CHECK(recordedByJit == 7); // before any lookup
  CHECK(module->lookupFunction<int()>("getStartupValue")() == 42);
  module.reset();
  CHECK(recordedByJit == -1);
}

int hostThrowIfOdd(int x) {
  if (x % 2 != 0)
    throw std::invalid_argument("odd value " + std::to_string(x));
  return x / 2;
}

TEST_CASE("a C++ exception of a host function unwinds through JIT-compiled code") {
  JitOptions options;
  options.hostSymbols = baseHostSymbols();
  options.hostSymbols["hostThrowIfOdd"] = reinterpret_cast<void *>(&hostThrowIfOdd);
  auto module = compileCpp(R"(
    extern "C" int hostThrowIfOdd(int);
    struct Buffer { // a destructor to run while unwinding
      unsigned char *data = new unsigned char[16];
      ~Buffer() { delete[] data; }
    };
    extern "C" int half(int x) { Buffer buffer; return hostThrowIfOdd(x); }
    extern "C" int caughtInside(int x) {
      try { return half(x); } catch (...) { return -1; }
    }
  )",
                           "throws.cpp", options);
  auto half = module->lookupFunction<int(int)>("half");
  CHECK(half(8) == 4);
  CHECK_THROWS_WITH_AS(half(7), "odd value 7", std::invalid_argument);
  CHECK(module->lookupFunction<int(int)>("caughtInside")(5) == -1);
}

TEST_CASE("a compile error is a JitError with clang's diagnostic and line") {
  const std::string source = "extern \"C\" int broken() {\n"
                             "  int fine = 1;\n"
                             "  return fine + undeclaredThing;\n"
                             "}\n";
  try {
    compileCpp(source, "broken.cpp");
    FAIL("expected a JitError");
  } catch (const JitError &error) {
    CHECK(error.diagnostics().find("broken.cpp:3:") != std::string::npos);
    CHECK(error.diagnostics().find("error:") != std::string::npos);
    CHECK(error.diagnostics().find("undeclaredThing") != std::string::npos);
    CHECK(std::string(error.what()).find("broken.cpp:3:") != std::string::npos);
  }
  // The process and the compiler are still usable afterwards.
  auto module = compileCpp("extern \"C\" int ok() { return 5; }", "ok.cpp");
  CHECK(module->lookupFunction<int()>("ok")() == 5);
}

TEST_CASE("errors in includes and anonymous namespaces do not crash") {
  // Both crash clang::Interpreter 19 (llvm-project #123300).
  CHECK_THROWS_WITH_AS(
      compileCpp("#include \"missing_header.h\"\nint x;\n", "includes_missing.cpp"),
      doctest::Contains("'missing_header.h' file not found"), JitError);
  CHECK_THROWS_WITH_AS(compileCpp("namespace { int f() { return nope; } }\n", "anon.cpp"),
                       doctest::Contains("anon.cpp:1:"), JitError);
}

TEST_CASE("a call to an undefined function is a JitError naming it") {
  CHECK_THROWS_WITH_AS(compileCpp(R"(
    extern "C" int notDefinedAnywhere(int);
    extern "C" int caller(int x) { return notDefinedAnywhere(x); }
  )",
                                  "undefined.cpp"),
                       doctest::Contains("notDefinedAnywhere"), JitError);
}

TEST_CASE("looking up a symbol the module does not define is a JitError") {
  auto module = compileCpp("extern \"C\" int present() { return 1; }", "one.cpp");
  CHECK_THROWS_WITH_AS(module->lookup("absent"), doctest::Contains("'absent'"), JitError);
}

TEST_CASE("an invalid optimization level is a JitError") {
  JitOptions options;
  options.optLevel = 7;
  CHECK_THROWS_AS(compileCpp("int x;", "opt.cpp", options), JitError);
}

TEST_CASE("the host CPU has a name") { CHECK(!hostCpuName().empty()); }

} // namespace
} // namespace shardgen
