#include "compiler/driver/GraphSource.h"

#include <cstdlib>

#include "compiler/frontend/GraphReader.h"
#include "compiler/frontend/JsonPointerPosition.h"
#include "compiler/mlir/MlirParser.h"

namespace shardgen::driver {

bool isMlirSource(const std::string &name, std::string_view text) {
  return name.ends_with(".mlir") || mlir::looksLikeMlir(text);
}

GraphSource readGraphSource(GraphText &text, const std::string &name,
                            const std::string &mlirFunction) {
  if (!isMlirSource(name, text.view()))
    return GraphSource{readGraph(text), nullptr};
  mlir::ImportedGraph imported = mlir::importMlir(text.view(), mlir::ImportOptions{mlirFunction});
  return GraphSource{std::move(imported.graph),
                     std::make_shared<const mlir::SourcePlaces>(std::move(imported.places))};
}

namespace {

/// "12:5" as line and column; false for anything else.
bool parsePlace(const std::string &place, int64_t &line, int64_t &column) {
  size_t colon = place.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == place.size())
    return false;
  char *end = nullptr;
  line = std::strtoll(place.c_str(), &end, 10);
  if (end != place.c_str() + colon)
    return false;
  column = std::strtoll(place.c_str() + colon + 1, &end, 10);
  return *end == '\0' && line > 0 && column > 0;
}

/// The "at line L, column C" nlohmann's parser puts in a syntax error.
bool syntaxErrorPosition(const std::string &message, int64_t &line, int64_t &column) {
  size_t at = message.find("at line ");
  if (at == std::string::npos)
    return false;
  char *end = nullptr;
  line = std::strtoll(message.c_str() + at + 8, &end, 10);
  std::string_view rest(end);
  if (!rest.starts_with(", column "))
    return false;
  column = std::strtoll(end + 9, &end, 10);
  return line > 0 && column > 0;
}

} // namespace

ErrorPlace placeOfError(const mlir::SourcePlaces *places, const std::string &pointer,
                        const std::string &message, std::string_view jsonText) {
  ErrorPlace error{pointer, message};
  if (!places && parsePlace(pointer, error.line, error.column))
    return error; // an MLIR error before the import finished: already a place
  error.line = error.column = 0;
  if (places) {
    error.place = places->place(pointer);
    error.message = places->annotate(pointer, message);
    if (!parsePlace(error.place, error.line, error.column))
      error.line = error.column = 0;
    return error;
  }
  if (jsonText.empty())
    return error;
  if (syntaxErrorPosition(message, error.line, error.column))
    return error;
  if (std::optional<TextPosition> position = jsonPointerPosition(jsonText, pointer)) {
    error.line = position->line;
    error.column = position->column;
  }
  return error;
}

} // namespace shardgen::driver
