#pragma once
// How IR types and names are spelled in generated C++.

#include <string>
#include <string_view>

#include "compiler/ir/Attributes.h"
#include "compiler/ir/Mesh.h"
#include "compiler/ir/OpKind.h"
#include "compiler/ir/TensorType.h"

namespace shardgen::codegen {

/// The kernel library's element tag ("F32", "BF16", "I1", ...).
std::string_view elementTag(ElementType type);
/// The unsigned word as wide as one element ("uint32_t"): what copies move.
std::string_view storageWord(ElementType type);
/// The sum's identity as a storage word: -0.0 for floats and (-0, -0) for
/// complex numbers (x + -0.0 is x, signed zeros included), 0 for integers.
std::string sumIdentityWord(ElementType type);
/// The C++ type a buffer element is stored as ("float", "uint16_t" for f16).
std::string_view storageType(ElementType type);
/// The runtime's enum constant ("SHARDGEN_F32").
std::string_view runtimeElementType(ElementType type);
/// The kernel library's reducer functor ("ReduceAdd"), from the reducer's name.
std::string reducerFunctor(Reducer reducer);
/// The runtime's reducer ("rt::Reducer::Add").
std::string runtimeReducer(Reducer reducer);
/// The kernel library's comparison functor ("CmpLT").
std::string compareFunctor(ComparisonDirection direction);
/// The kernel library's functor of an elementwise unary or binary op: "Op"
/// and the op table's enumerator ("OpAdd", "OpExponential"); `not` of i1 is
/// "OpLogicalNot". "" for other ops.
std::string_view elementwiseFunctor(OpKind kind, ElementType type);
/// A C identifier made from `name` (letters, digits, '_'; never empty, never
/// starting with a digit).
std::string cIdentifier(std::string_view name);
/// The program's name in generated C++ (namespace, symbol prefix, file and
/// CMake target names) for a graph named `graphName`: the name itself when it
/// is a plain identifier with a lowercase letter that is no keyword, macro or
/// reserved name; else "sg_" + an injective escape of it. Deterministic,
/// distinct for distinct names, at most 201 characters (longer ones end in a
/// hash), never empty ("program" for an unnamed graph).
std::string programIdentifier(std::string_view graphName);
/// A C++ string literal of `text`; control characters as three-digit octal
/// escapes (never greedy, unlike \x).
std::string cppStringLiteral(std::string_view text);
/// "@mesh [data=2, model=4]".
std::string meshDescription(const Mesh &mesh);
/// A comment-safe copy of `text` (no "*/", no newlines).
std::string commentText(std::string_view text);

} // namespace shardgen::codegen
