#pragma once
// The bodies of Shardy's attributes in MLIR text, to and from the IR:
// meshes `["x"=2, "y"=4], device_ids=[...]`, shardings (also with an inline
// `mesh<...>`), lists of shardings, manual axes `{"x", "y"}`.
// Parsers return nullopt with `error` set; the caller knows the location.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/ir/Mesh.h"
#include "compiler/ir/Sharding.h"

namespace shardgen::mlir {

/// `["x"=2, "y"=4]` or `[], device_ids=[3]` (the text inside sdy.mesh<...>).
std::optional<Mesh> parseMeshBody(std::string_view body, std::string *error);
std::string printMeshBody(const Mesh &mesh);

/// The text inside #sdy.sharding<...>. A sharding on an inline mesh
/// (`mesh<["x"=2]>, [...]`) gets the name of an equal mesh of `meshes`, or of
/// one it appends (named "inline_mesh", "inline_mesh_1", ...).
std::optional<TensorSharding> parseShardingBody(std::string_view body, std::vector<Mesh> &meshes,
                                                std::string *error);
/// "[<@mesh, [...]>, <@mesh, [...]>]" (the body of #sdy.sharding_per_value).
std::optional<std::vector<TensorSharding>>
parseShardingList(std::string_view body, std::vector<Mesh> &meshes, std::string *error);
/// `{"x", "y"}` (also written `manual_axes{"x"}`).
std::optional<std::vector<std::string>> parseManualAxes(std::string_view body, std::string *error);

/// The body of #sdy.sharding<...> (printSharding without its angle brackets).
std::string shardingBody(const TensorSharding &sharding);
std::string printShardingList(const std::vector<TensorSharding> &shardings); // [<...>, <...>]
std::string printManualAxes(const std::vector<std::string> &axes);           // {"x", "y"}

/// Splits `text` at commas outside brackets and strings, trimming space.
std::vector<std::string> splitTopLevel(std::string_view text);
/// An MLIR string literal: quoted, with '"', '\\' and non-printable bytes escaped.
std::string quoteString(std::string_view text);
/// `name` as MLIR prints a symbol or attribute name: bare when it can be.
std::string printSymbol(std::string_view name);

} // namespace shardgen::mlir
