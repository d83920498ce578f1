#pragma once
// The syntax tree the MLIR parser builds: operations with their operands,
// attributes, types and regions, each with its line and column. Pretty forms
// (`stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]`) are parsed
// into the same tree as the generic form, with the attributes under the
// graph format's keys, so the importer handles one shape only.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/TensorType.h"

namespace shardgen::mlir {

struct SourceLoc {
  int64_t line = 1, column = 1;
  /// "12:5", the form errors name it in (as a JSON pointer would be).
  std::string str() const { return std::to_string(line) + ":" + std::to_string(column); }
};

struct NamedAttribute;

struct Attribute {
  // Declared here, defined below NamedAttribute: `fields` holds a type that
  // is incomplete until then.
  Attribute();
  Attribute(const Attribute &);
  Attribute(Attribute &&) noexcept;
  Attribute &operator=(const Attribute &);
  Attribute &operator=(Attribute &&) noexcept;
  ~Attribute();

  enum class Kind {
    Integer, // 3, 3 : i64
    Float,
    String,
    Word,    // true, false, a bare keyword (GT, FLOAT, DEFAULT)
    Unit,    // a name with no value (use_global_device_ids)
    Array,   // [a, b] (also the pretty forms' [1, 2])
    Dict,    // {a = 1}
    Dense,   // dense<...> : tensor<...> (text: the raw body)
    Symbol,  // @name
    Dialect, // #sdy.sharding<...>, #stablehlo<comparison_direction GT> (text: name, body: raw)
    Type,    // a type as an attribute (function_type), kept as text
  };
  Kind kind = Kind::Unit;
  SourceLoc loc;
  std::string text;
  std::string body;
  int64_t integer = 0;
  std::vector<Attribute> elements;
  std::vector<NamedAttribute> fields;
  std::string typeText; // the `: type` after it, if any
};

inline Attribute makeAttribute(Attribute::Kind kind, SourceLoc loc, std::string text = "") {
  Attribute attr;
  attr.kind = kind;
  attr.loc = loc;
  attr.text = std::move(text);
  return attr;
}

struct NamedAttribute {
  std::string name;
  Attribute value;
};

inline Attribute::Attribute() = default;
inline Attribute::Attribute(const Attribute &) = default;
inline Attribute::Attribute(Attribute &&) noexcept = default;
inline Attribute &Attribute::operator=(const Attribute &) = default;
inline Attribute &Attribute::operator=(Attribute &&) noexcept = default;
inline Attribute::~Attribute() = default;

struct TypeRef {
  std::string text; // as written
  SourceLoc loc;
};

struct ValueUse {
  std::string name; // "x", "0", "r#1"
  SourceLoc loc;
};

struct BlockArgument {
  std::string name;
  TypeRef type;
  SourceLoc loc;
  std::vector<NamedAttribute> attrs; // func arguments only
  std::string locText;               // its trailing loc(...), if any
};

struct Operation;

struct Block {
  std::vector<BlockArgument> args;
  std::vector<Operation> ops;
  SourceLoc loc;
};

struct Operation {
  std::string name; // "stablehlo.add", "func.return", "sdy.manual_computation"
  SourceLoc loc;
  /// Result names without '%', one per result: `%r:2 = ` gives "r#0", "r#1".
  std::vector<std::string> results;
  std::vector<ValueUse> operands;
  std::vector<NamedAttribute> attrs;
  std::vector<TypeRef> operandTypes;
  std::vector<TypeRef> resultTypes;
  std::vector<Block> regions; // one block each
  std::string locText;        // the trailing loc(...), if any
  bool generic = false;

  const Attribute *find(const std::string &attrName) const {
    for (const auto &attr : attrs)
      if (attr.name == attrName)
        return &attr.value;
    return nullptr;
  }
};

struct FuncResult {
  TypeRef type;
  std::vector<NamedAttribute> attrs;
};

struct Function {
  std::string name;
  std::string visibility; // "", "public", "private"
  SourceLoc loc;
  std::vector<BlockArgument> args;
  std::vector<FuncResult> results;
  Block body;
  std::vector<NamedAttribute> attrs;
};

struct MeshDefinition {
  std::string name;
  std::string body; // the text inside <...>
  SourceLoc loc, bodyLoc;
  std::vector<NamedAttribute> attrs;
};

struct Module {
  std::string name;
  SourceLoc loc;
  std::vector<NamedAttribute> attrs;
  std::vector<MeshDefinition> meshes;
  std::vector<Function> functions;
  /// `#loc3 = loc(...)` definitions: alias name -> body text.
  std::vector<std::pair<std::string, std::string>> locAliases;
};

} // namespace shardgen::mlir
