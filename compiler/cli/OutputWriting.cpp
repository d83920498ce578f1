#include "compiler/cli/OutputWriting.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "compiler/cli/Command.h"
#include "compiler/cli/LiteralPrinter.h"
#include "compiler/driver/OutputFolder.h"
#include "compiler/frontend/Npy.h"

namespace shardgen::cli {

namespace {

void stageNpy(const std::string &dir, const driver::OutputFolder &folder, const std::string &name,
              const Literal &value) {
  try {
    writeNpy((folder.staging() / name).string(), value);
  } catch (const NpyError &error) {
    // "STAGING/outN.npy: cannot write: REASON": the staging path means nothing to the user.
    std::string_view what = error.what();
    size_t reason = what.rfind(": ");
    throw InputError(dir, "cannot write " + name + ": " +
                              std::string(reason == what.npos ? what : what.substr(reason + 2)));
  }
}

} // namespace

void writeOutputs(const std::string &dir, const std::vector<Literal> &outputs) {
  writeOutputs(dir, outputs, {});
}

void writeOutputs(const std::string &dir, const std::vector<Literal> &outputs,
                  const std::vector<std::vector<Literal>> &shards) {
  driver::OutputFolder folder(dir);
  // A token output holds no data: it has no file (outN keeps the output's
  // index N).
  for (size_t i = 0; i < outputs.size(); ++i)
    if (!outputs[i].type().isToken())
      stageNpy(dir, folder, "out" + std::to_string(i) + ".npy", outputs[i]);
  for (size_t j = 0; j < shards.size(); ++j)
    for (size_t p = 0; p < shards[j].size(); ++p)
      if (!shards[j][p].type().isToken())
        stageNpy(dir, folder, "out" + std::to_string(j) + ".dev" + std::to_string(p) + ".npy",
                 shards[j][p]);
  folder.commit();
}

void emitOutputs(const ParsedArgs &args, const std::vector<Literal> &outputs) {
  if (auto dir = args.value("-o")) {
    writeOutputs(*dir, outputs);
    return;
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::cout << "out" << i << ": " << printType(outputs[i].type()) << "\n";
    if (!outputs[i].type().isToken()) // a token has no value to show
      std::cout << formatLiteral(outputs[i]) << "\n";
  }
}

void writeTextFile(const std::string &file, const std::string &text) {
  writeTextFile(file, [&](const TextSink &sink) { sink(text); });
}

void emitText(const ParsedArgs &args, const std::string &text) {
  if (auto out = args.value("-o"))
    writeTextFile(*out, text);
  else
    std::cout << text;
}

namespace {

/// Writes all of `text` to `fd`, keeping the first failure in `error` (and
/// writing nothing more after it).
void writeAll(int fd, std::string_view text, int &error) {
  size_t written = 0;
  while (!error && written < text.size()) {
    ssize_t count = ::write(fd, text.data() + written, text.size() - written);
    if (count < 0 && errno == EINTR)
      continue;
    if (count <= 0)
      error = count < 0 ? errno : EIO;
    else
      written += static_cast<size_t>(count);
  }
}

/// True when `file` exists (through symlinks) and is a device, FIFO or
/// socket (`>(gzip)`), or is a name in /dev or /proc (/dev/stdout links to
/// whatever standard output is, a regular file too): a stream to write
/// into, never a node to replace.
bool isStream(const std::string &file) {
  struct stat status{};
  if (::stat(file.c_str(), &status) != 0)
    return false;
  if (!S_ISREG(status.st_mode))
    return !S_ISDIR(status.st_mode);
  std::error_code ignored;
  const std::string folder = std::filesystem::weakly_canonical(
                                 std::filesystem::absolute(file, ignored).parent_path(), ignored)
                                 .string();
  for (const char *system : {"/dev", "/proc"})
    if (folder == system || folder.starts_with(std::string(system) + "/"))
      return true;
  return false;
}

} // namespace

void writeTextFile(const std::string &file, const std::function<void(const TextSink &)> &produce) {
  int error = 0; // the first write's failure; later pieces are dropped
  // A device or a pipe is written into as it is: renaming a file over it
  // would replace the node itself (as root, /dev/null).
  if (isStream(file)) {
    int fd = ::open(file.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
      throw InputError(file, "cannot write: " + std::string(std::strerror(errno)));
    try {
      produce([&](std::string_view text) { writeAll(fd, text, error); });
    } catch (...) {
      ::close(fd);
      throw;
    }
    if (::close(fd) != 0 && !error)
      error = errno;
    if (error)
      throw InputError(file, "cannot write: " + std::string(std::strerror(error)));
    return;
  }
  // A unique name beside the file, renamed over it: never half a file, and a
  // symlink at `file` is replaced, not written through.
  std::string aside = file + ".partial-XXXXXX";
  int fd = ::mkstemp(aside.data());
  if (fd < 0)
    throw InputError(file, "cannot write: " + std::string(std::strerror(errno)));
  ::fchmod(fd, driver::withUmask(0666));
  try {
    produce([&](std::string_view text) { writeAll(fd, text, error); });
  } catch (...) {
    ::close(fd);
    ::unlink(aside.c_str());
    throw;
  }
  if (::close(fd) != 0 && !error)
    error = errno;
  if (!error && ::rename(aside.c_str(), file.c_str()) != 0)
    error = errno;
  if (error) {
    ::unlink(aside.c_str());
    throw InputError(file, "cannot write: " + std::string(std::strerror(error)));
  }
}

} // namespace shardgen::cli
