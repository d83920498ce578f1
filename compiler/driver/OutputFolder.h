#pragma once
// An output folder written all-or-nothing. Files are written into a staging
// folder on the target's file system; commit() then moves them in:
// - a target that does not exist is staged beside it and appears whole, by
//   one rename of the folder (folders made for its parent go again if it
//   never appears);
// - an existing folder (a mount point too) is staged inside itself, and each
//   file replaces the file of its name (other files stay); every destination
//   is checked before the first one moves, so a destination that is a
//   folder, or a subfolder that is a symlink, fails the commit with nothing
//   changed, and folders a failed commit made are removed again.
// Renames never follow a symlink: a symlinked destination file is replaced
// by the new file, not written through. Without commit() (an error on the
// way), the staging folder is removed and the target is untouched.

#include <filesystem>
#include <string>
#include <vector>

namespace shardgen::driver {

/// `mode` less the process's umask: what open()/mkdir() would have given a
/// new file or folder. mkstemp/mkdtemp create theirs private (0600/0700);
/// outputs get the ordinary permissions once they are renamed into place.
unsigned withUmask(unsigned mode);

class OutputFolder {
public:
  /// Throws InputError(target, ...) when the staging folder cannot be made.
  explicit OutputFolder(std::string target);
  ~OutputFolder();
  OutputFolder(const OutputFolder &) = delete;
  OutputFolder &operator=(const OutputFolder &) = delete;

  /// Where to write the files (a path inside the staging folder).
  const std::filesystem::path &staging() const { return staging_; }
  /// Moves the staged files into the target; throws InputError.
  void commit();

private:
  void removeCreatedParents();

  std::string target_;
  std::filesystem::path staging_;
  bool stagedInside_ = false;
  /// Folders made for the target's parent, deepest first.
  std::vector<std::filesystem::path> createdParents_;
  bool committed_ = false;
};

/// `path`'s text with the errno message of `error`, e.g. "File name too long".
std::string errorText(const std::error_code &error);

} // namespace shardgen::driver
