#include "compiler/driver/OutputFolder.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "compiler/ir/InputError.h"

namespace shardgen::driver {

namespace fs = std::filesystem;

std::string errorText(const std::error_code &error) {
  return error.category() == std::generic_category() || error.category() == std::system_category()
             ? std::strerror(error.value())
             : error.message();
}

namespace {

std::error_code lastError() { return {errno, std::generic_category()}; }

/// The relative paths of the regular files under `root`, folders first.
void listStaged(const fs::path &root, std::vector<fs::path> &folders,
                std::vector<fs::path> &files) {
  for (const fs::directory_entry &entry : fs::recursive_directory_iterator(root)) {
    fs::path relative = entry.path().lexically_relative(root);
    (entry.is_directory() ? folders : files).push_back(relative);
  }
}

/// Whether `path` exists, without following a final symlink.
bool exists(const fs::path &path, struct stat &info) { return ::lstat(path.c_str(), &info) == 0; }

} // namespace

OutputFolder::OutputFolder(std::string target) : target_(std::move(target)) {
  fs::path path = fs::path(target_).lexically_normal();
  if (path.filename().empty())
    path = path.parent_path(); // "out/" -> "out"
  struct stat info{};
  // Into an existing folder the files are staged inside it: a rename
  // between file systems fails, and the folder may be a mount point.
  stagedInside_ = ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
  fs::path parent = stagedInside_                ? path
                    : path.parent_path().empty() ? fs::path(".")
                                                 : path.parent_path();
  if (!stagedInside_) {
    // The folders made for it are removed again if nothing is written.
    for (fs::path missing = parent; !missing.empty() && !exists(missing, info);
         missing = missing.parent_path())
      createdParents_.push_back(missing);
    std::error_code error;
    fs::create_directories(parent, error);
    if (error) {
      removeCreatedParents();
      throw InputError(target_, "cannot create the output folder: " + errorText(error));
    }
  }
  std::string pattern = (parent / ("." + path.filename().string())).string();
  if (pattern.size() > 200 || stagedInside_) // keep the staging name within NAME_MAX
    pattern = (parent / ".shardgen-output").string();
  pattern += ".partial-XXXXXX";
  if (!::mkdtemp(pattern.data())) {
    std::error_code error = lastError();
    removeCreatedParents();
    throw InputError(target_, "cannot create the output folder: " + errorText(error));
  }
  staging_ = pattern;
  ::chmod(staging_.c_str(), withUmask(0777));
}

void OutputFolder::removeCreatedParents() {
  for (const fs::path &folder : createdParents_) // deepest first
    if (::rmdir(folder.c_str()) != 0)
      break;
  createdParents_.clear();
}

unsigned withUmask(unsigned mode) {
  mode_t mask = ::umask(0); // reading the umask means setting it: put it back
  ::umask(mask);
  return mode & ~mask;
}

OutputFolder::~OutputFolder() {
  std::error_code ignored;
  if (!committed_ || stagedInside_)
    fs::remove_all(staging_, ignored);
  if (!committed_)
    removeCreatedParents();
}

void OutputFolder::commit() {
  fs::path target = fs::path(target_).lexically_normal();
  if (target.filename().empty())
    target = target.parent_path();
  struct stat info{};
  if (!stagedInside_ && !exists(target, info)) {
    if (::rename(staging_.c_str(), target.c_str()) != 0)
      throw InputError(target_, "cannot write the output folder: " + errorText(lastError()));
    committed_ = true;
    return;
  }
  if (::stat(target.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
    throw InputError(target_, "cannot write into it: " + std::string(std::strerror(ENOTDIR)));

  std::vector<fs::path> folders, files;
  listStaged(staging_, folders, files);
  // Check every destination before moving anything.
  for (const fs::path &folder : folders)
    if (exists(target / folder, info) && !S_ISDIR(info.st_mode))
      throw InputError((target / folder).string(),
                       S_ISLNK(info.st_mode)
                           ? "cannot write into it: a symlink (shardgen writes only inside the "
                             "output folder)"
                           : "cannot write into it: " + std::string(std::strerror(ENOTDIR)));
  for (const fs::path &file : files)
    if (exists(target / file, info) && S_ISDIR(info.st_mode))
      throw InputError((target / file).string(),
                       "cannot replace it: " + std::string(std::strerror(EISDIR)));
  // A rename into another file system (a mount point inside the target)
  // would fail half-way: found before anything moves.
  struct stat staged{};
  ::stat(staging_.c_str(), &staged);
  for (const fs::path &folder : folders)
    if (::stat((target / folder).c_str(), &info) == 0 && info.st_dev != staged.st_dev)
      throw InputError((target / folder).string(),
                       "cannot write into it: it is on another file system than " + target_ +
                           " (a mount point)");
  // Folders made here go again if a move fails: no empty skeleton is left.
  std::vector<fs::path> created;
  auto undo = [&] {
    for (auto folder = created.rbegin(); folder != created.rend(); ++folder)
      ::rmdir(folder->c_str());
  };
  for (const fs::path &folder : folders) {
    if (exists(target / folder, info))
      continue;
    if (::mkdir((target / folder).c_str(), 0777) != 0) {
      std::error_code error = lastError();
      undo();
      throw InputError((target / folder).string(), "cannot create the folder: " + errorText(error));
    }
    created.push_back(target / folder);
  }
  for (const fs::path &file : files)
    if (::rename((staging_ / file).c_str(), (target / file).c_str()) != 0) {
      std::error_code error = lastError();
      undo(); // only the folders still empty go
      throw InputError((target / file).string(), "cannot write: " + errorText(error));
    }
  committed_ = true;
}

} // namespace shardgen::driver
