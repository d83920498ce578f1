#include "compiler/codegen/EmbeddedFiles.h"

#include <string>

#include "compiler/ir/InternalError.h"

namespace shardgen::codegen {

std::string_view embeddedFile(std::string_view path) {
  for (const EmbeddedFile &file : embeddedFiles())
    if (file.path == path)
      return file.contents;
  internalError(__FILE__, __LINE__, "shardgen was built without the file " + std::string(path));
}

} // namespace shardgen::codegen
