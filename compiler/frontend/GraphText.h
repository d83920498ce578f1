#pragma once
// The text of a graph file. A large regular file is mapped, not copied, and
// the reader gives back the pages it has read as it goes (GraphText::release):
// the text of a million-op graph (140 MB) is then never resident beside the
// whole IR built from it. Standard input and small or special files are read
// into memory.

#include <cstddef>
#include <string>
#include <string_view>

namespace shardgen {

class GraphText {
public:
  /// The text of `path` ("-": standard input), refused unread when it is a
  /// directory, a device or over kMaxGraphFileBytes.
  static GraphText load(const std::string &path);
  /// A text held in memory (tests, other sources).
  explicit GraphText(std::string text) : owned_(std::move(text)) {}

  GraphText(GraphText &&other) noexcept;
  GraphText &operator=(GraphText &&other) noexcept;
  GraphText(const GraphText &) = delete;
  GraphText &operator=(const GraphText &) = delete;
  ~GraphText();

  std::string_view view() const {
    return mapped_ ? std::string_view(mapped_, size_) : std::string_view(owned_);
  }
  /// The reader is done with the text before `position` (in view()): a
  /// mapped file's whole pages there leave memory. It may still read them:
  /// they come back from the file (a read-only private mapping, never written).
  void release(const char *position);

private:
  GraphText() = default;
  void unmap();

  std::string owned_;
  const char *mapped_ = nullptr;
  size_t size_ = 0;
  size_t released_ = 0; // bytes from the start already given back
};

} // namespace shardgen
