// Several modules in one process, include resolution, threads.
#include "compiler/jit/JitCompiler.h"

#include <doctest/doctest.h>

#include <string>
#include <thread>
#include <vector>

namespace shardgen {
namespace {

std::string counterModule(int start) {
  return "static int counter = " + std::to_string(start) +
         ";\n"
         "extern \"C\" int next() { return counter++; }\n";
}

TEST_CASE("two modules defining the same symbols coexist") {
  auto first = compileCpp(counterModule(100), "program.cpp");
  auto second = compileCpp(counterModule(200), "program.cpp");
  auto nextFirst = first->lookupFunction<int()>("next");
  auto nextSecond = second->lookupFunction<int()>("next");
  CHECK(reinterpret_cast<void *>(nextFirst) != reinterpret_cast<void *>(nextSecond));
  CHECK(nextFirst() == 100);
  CHECK(nextSecond() == 200);
  CHECK(nextFirst() == 101);
  first.reset(); // the other module does not depend on it
  CHECK(nextSecond() == 201);
}

TEST_CASE("virtual headers are found through include dirs and by path") {
  JitOptions options;
  options.virtualFiles = {{"virtual/include/shardgen_test/helpers.h",
                           "#pragma once\ninline int tripled(int x) { return 3 * x; }\n"},
                          {"/shardgen-virtual/constants.h", "#define MAGIC 11\n"}};
  options.includeDirs = {"virtual/include", "/shardgen-virtual"};
  options.defines = {"OFFSET=5", "USE_OFFSET"};
  auto module = compileCpp(R"(
    #include <shardgen_test/helpers.h>
    #include "constants.h"
    #include "virtual/include/shardgen_test/helpers.h"
    #ifdef USE_OFFSET
    extern "C" int magic() { return tripled(MAGIC) + OFFSET; }
    #endif
  )",
                           "uses_virtual.cpp", options);
  CHECK(module->lookupFunction<int()>("magic")() == 38);
}

TEST_CASE("an error inside a virtual header names that header") {
  JitOptions options;
  options.virtualFiles = {{"/shardgen-virtual/bad.h", "int a = ;\n"}};
  CHECK_THROWS_WITH_AS(compileCpp("#include \"/shardgen-virtual/bad.h\"\n", "main.cpp", options),
                       doctest::Contains("/shardgen-virtual/bad.h:1:"), JitError);
}

TEST_CASE("a module runs from several threads at once") {
  auto module = compileCpp(R"(
    extern "C" long long sumRange(long long from, long long to) {
      long long sum = 0;
      for (long long i = from; i < to; ++i) sum += i % 7;
      return sum;
    }
  )",
                           "threads.cpp");
  auto sumRange = module->lookupFunction<long long(long long, long long)>("sumRange");
  constexpr int threadCount = 4;
  std::vector<long long> results(threadCount);
  std::vector<std::thread> threads;
  for (int t = 0; t < threadCount; ++t)
    threads.emplace_back([&, t] { results[t] = sumRange(0, 7000 * (t + 1)); });
  for (auto &thread : threads)
    thread.join();
  for (int t = 0; t < threadCount; ++t)
    CHECK(results[t] == 21LL * 1000 * (t + 1)); // 0+1+...+6 per 7 numbers
}

TEST_CASE("modules compile concurrently on two threads") {
  std::unique_ptr<JitModule> modules[2];
  std::thread threads[2];
  for (int t = 0; t < 2; ++t)
    threads[t] = std::thread([&, t] {
      modules[t] = compileCpp("extern \"C\" int id() { return " + std::to_string(t + 1) + "; }\n",
                              "concurrent.cpp");
    });
  for (auto &thread : threads)
    thread.join();
  CHECK(modules[0]->lookupFunction<int()>("id")() == 1);
  CHECK(modules[1]->lookupFunction<int()>("id")() == 2);
}

} // namespace
} // namespace shardgen
