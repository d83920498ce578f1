#include "compiler/jit/CppFrontend.h"
#include "compiler/jit/HostTarget.h"
#include "compiler/jit/JitCompiler.h"

#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Frontend/Utils.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>

namespace shardgen::jit {
namespace {

/// The only file system the compiler sees: the main source, the virtual
/// files and the freestanding C headers, in memory. Nothing of the disk is
/// underneath, so no header planted in the working directory (or anywhere)
/// can be compiled in.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
makeFileSystem(const std::string &source, const std::string &fileName, const JitOptions &options) {
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  if (std::error_code error = memory->setCurrentWorkingDirectory(kMainFileDir))
    throw JitError("JIT file system: " + error.message(), "");
  auto addFile = [&](const std::string &path, const std::string &contents) {
    if (!memory->addFile(path, /*ModificationTime=*/0,
                         llvm::MemoryBuffer::getMemBufferCopy(contents, path)))
      throw JitError("JIT input file '" + path + "' is given twice with different contents", "");
  };
  addFile(fileName, source);
  for (const auto &[path, contents] : options.virtualFiles)
    addFile(path, contents);
  for (const auto &[path, contents] : freestandingHeaders())
    addFile(path, contents);
  return memory;
}

/// Targets the host CPU with all its features, as -march=native would.
void targetHostCpu(clang::TargetOptions &target) {
  target.CPU = hostCpuName();
  target.TuneCPU = target.CPU;
  for (auto &feature : hostCpuFeatures())
    target.FeaturesAsWritten.push_back(std::move(feature));
}

} // namespace

std::unique_ptr<llvm::Module> clangEmitLlvmModule(const std::string &source,
                                                  const std::string &fileName,
                                                  const JitOptions &options,
                                                  llvm::LLVMContext &context) {
  std::string diagnostics;
  llvm::raw_string_ostream diagnosticsStream(diagnostics);
  auto fileSystem = makeFileSystem(source, fileName, options);

  auto driverDiagOptions = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  driverDiagOptions->ShowColors = false;
  clang::CreateInvocationOptions invocationOptions;
  invocationOptions.Diags = clang::CompilerInstance::createDiagnostics(
      driverDiagOptions.get(),
      new clang::TextDiagnosticPrinter(diagnosticsStream, driverDiagOptions.get()));
  invocationOptions.VFS = fileSystem;
  std::vector<std::string> args = driverArguments(fileName, options);
  std::vector<const char *> argv;
  for (const auto &arg : args)
    argv.push_back(arg.c_str());
  std::shared_ptr<clang::CompilerInvocation> invocation =
      clang::createInvocation(argv, invocationOptions);
  if (!invocation)
    throw JitError("cannot set up the C++ compiler for '" + fileName + "':",
                   diagnosticsStream.str());
  // The driver asks cc1 not to free memory at exit (-disable-free sets both:
  // code generation then buries its TargetMachine, ~1.4 MB a compile); we
  // live on, so free it.
  invocation->getFrontendOpts().DisableFree = false;
  invocation->getCodeGenOpts().DisableFree = false;
  targetHostCpu(invocation->getTargetOpts());

  clang::CompilerInstance compiler;
  compiler.setInvocation(std::move(invocation));
  compiler.createDiagnostics(
      new clang::TextDiagnosticPrinter(diagnosticsStream, &compiler.getDiagnosticOpts()));
  compiler.setVerboseOutputStream(diagnosticsStream); // "N errors generated."
  compiler.createFileManager(fileSystem);

  // EmitLLVMOnly still runs the -O<n> IR pipeline, tuned for the host target.
  clang::EmitLLVMOnlyAction action(&context);
  std::unique_ptr<llvm::Module> module;
  if (compiler.ExecuteAction(action))
    module = action.takeModule();
  if (!module)
    throw JitError("C++ compilation of '" + fileName + "' failed:", diagnosticsStream.str());
  return module;
}

} // namespace shardgen::jit
