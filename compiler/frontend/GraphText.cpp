#include "compiler/frontend/GraphText.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/frontend/GraphReader.h"
#include "compiler/ir/Diagnostic.h"

namespace shardgen {

namespace {

/// Files below this are read: a mapping saves nothing on them.
constexpr uint64_t kMapAtLeastBytes = uint64_t(1) << 20;
/// Pages are given back in steps of this, not one system call per op.
constexpr size_t kReleaseStepBytes = size_t(4) << 20;

/// Appends what `file` holds to `text`, refusing more than kMaxGraphFileBytes.
/// `name` is the file as messages quote it.
void readAllBounded(std::FILE *file, const std::string &name, std::string &text) {
  char buffer[1 << 16];
  size_t count;
  while ((count = std::fread(buffer, 1, sizeof buffer, file)) > 0) {
    if (text.size() + count > kMaxGraphFileBytes)
      fail("", "cannot read file " + name + ": larger than the limit of " +
                   std::to_string(kMaxGraphFileBytes >> 20) + " MiB for a graph");
    text.append(buffer, count);
  }
  if (std::ferror(file))
    fail("", "cannot read file " + name + ": " + std::strerror(errno));
}

/// Why `path` is refused unread ("" when it is not).
std::string problemWith(const struct stat &info) {
  if (S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode))
    return "a device, not a file";
  if (S_ISREG(info.st_mode) && static_cast<uint64_t>(info.st_size) > kMaxGraphFileBytes)
    return "it has " + std::to_string(info.st_size) + " bytes, more than the limit of " +
           std::to_string(kMaxGraphFileBytes >> 20) + " MiB for a graph";
  return "";
}

} // namespace

GraphText GraphText::load(const std::string &path) {
  GraphText text;
  if (path == "-") {
    readAllBounded(stdin, "\"-\" (standard input)", text.owned_);
    return text;
  }
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file)
    fail("", "cannot read file \"" + path + "\": " + std::strerror(errno));
  struct stat info{};
  bool known = ::fstat(::fileno(file), &info) == 0;
  if (std::string problem = known ? problemWith(info) : ""; !problem.empty()) {
    std::fclose(file);
    fail("", "cannot read file \"" + path + "\": " + problem);
  }
  auto size = static_cast<uint64_t>(info.st_size);
  if (known && S_ISREG(info.st_mode) && size >= kMapAtLeastBytes) {
    void *mapped = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, ::fileno(file), 0);
    if (mapped != MAP_FAILED) { // else read it as any other file
      std::fclose(file);
      ::madvise(mapped, size, MADV_SEQUENTIAL);
      text.mapped_ = static_cast<const char *>(mapped);
      text.size_ = size;
      return text;
    }
  }
  if (known && S_ISREG(info.st_mode)) // one allocation, not a doubling per 64 KiB read
    text.owned_.reserve(size + 1);
  try {
    readAllBounded(file, "\"" + path + "\"", text.owned_);
  } catch (...) {
    std::fclose(file);
    throw;
  }
  std::fclose(file);
  return text;
}

GraphText::GraphText(GraphText &&other) noexcept
    : owned_(std::move(other.owned_)), mapped_(other.mapped_), size_(other.size_),
      released_(other.released_) {
  other.mapped_ = nullptr;
}

GraphText &GraphText::operator=(GraphText &&other) noexcept {
  if (this != &other) {
    unmap();
    owned_ = std::move(other.owned_);
    mapped_ = other.mapped_;
    size_ = other.size_;
    released_ = other.released_;
    other.mapped_ = nullptr;
  }
  return *this;
}

GraphText::~GraphText() { unmap(); }

void GraphText::unmap() {
  if (mapped_)
    ::munmap(const_cast<char *>(mapped_), size_);
  mapped_ = nullptr;
}

void GraphText::release(const char *position) {
  if (!mapped_ || position < mapped_ || position > mapped_ + size_)
    return;
  static const auto kPage = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  size_t end = static_cast<size_t>(position - mapped_) / kPage * kPage;
  if (end < released_ + kReleaseStepBytes)
    return;
  ::madvise(const_cast<char *>(mapped_) + released_, end - released_, MADV_DONTNEED);
  released_ = end;
}

} // namespace shardgen
