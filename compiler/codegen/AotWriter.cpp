#include "compiler/codegen/AotWriter.h"

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "compiler/codegen/EmbeddedFiles.h"

namespace shardgen {

namespace fs = std::filesystem;

static void writeFile(const fs::path &path, std::string_view contents) {
  fs::create_directories(path.parent_path());
  std::FILE *out = std::fopen(path.c_str(), "wb");
  bool written = out && std::fwrite(contents.data(), 1, contents.size(), out) == contents.size();
  int error = written ? 0 : errno; // the system's reason, e.g. "File name too long"
  if (out && std::fclose(out) != 0 && written)
    error = errno;
  if (error)
    throw fs::filesystem_error("cannot write", path,
                               std::error_code(error, std::generic_category()));
}

void writeAotProject(const std::string &dir, const GeneratedProgram &generated) {
  const fs::path root(dir);
  for (const auto &[name, source] : deviceSources(generated))
    writeFile(root / name, source);
  writeFile(root / (generated.name + ".h"), generated.header);
  writeFile(root / (generated.name + "_host.cpp"), generated.hostSource);
  writeFile(root / "CMakeLists.txt", generated.cmakeLists);
  const bool mpi = !generated.mpiSource.empty();
  if (mpi)
    writeFile(root / (generated.name + "_mpi.cpp"), generated.mpiSource);
  for (const codegen::EmbeddedFile &file : codegen::embeddedFiles()) {
    std::string_view path = file.path;
    if (path.starts_with("templates/kernels/"))
      writeFile(root / path.substr(std::string_view("templates/").size()), file.contents);
    else if (path.starts_with("runtime/") && (mpi || !path.starts_with("runtime/mpi/")))
      writeFile(root / path, file.contents);
  }
}

} // namespace shardgen
