#include "compiler/mlir/MlirParser.h"

#include <cctype>
#include <map>

#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/NestingLimit.h"
#include "compiler/mlir/MlirLexer.h"

namespace shardgen::mlir {

namespace {

/// Nesting limit for regions and attributes: recursion stays bounded.
constexpr int kMaxDepth = kMaxNestingDepth;

class Parser {
public:
  explicit Parser(std::string_view text) : lex_(text) {}
  Module parseModule();

private:
  // Tokens.
  const Token &peek() { return lex_.peek(); }
  bool atPunct(std::string_view p) { return peek().isPunct(p); }
  bool atWord(std::string_view w) { return peek().is(TokenKind::BareId, w); }
  bool consumePunct(std::string_view p) {
    if (!atPunct(p))
      return false;
    lex_.next();
    return true;
  }
  bool consumeWord(std::string_view w) {
    if (!atWord(w))
      return false;
    lex_.next();
    return true;
  }
  [[noreturn]] void failHere(const std::string &message) { fail(peek().loc.str(), message); }
  std::string describe(const Token &t) {
    switch (t.kind) {
    case TokenKind::End:
      return "the end of the file";
    case TokenKind::PercentId:
      return "'%" + t.text + "'";
    case TokenKind::AtId:
      return "'@" + t.text + "'";
    case TokenKind::HashId:
      return "'#" + t.text + "'";
    case TokenKind::CaretId:
      return "'^" + t.text + "'";
    case TokenKind::String:
      return "a string";
    default:
      return "'" + t.text + "'";
    }
  }
  void expectPunct(std::string_view p) {
    noPendingComma();
    if (!consumePunct(p))
      failHere("expected '" + std::string(p) + "', found " + describe(peek()));
  }
  void expectWord(std::string_view w) {
    if (!consumeWord(w))
      failHere("expected '" + std::string(w) + "', found " + describe(peek()));
  }
  Token expect(TokenKind kind, const std::string &what) {
    if (peek().kind != kind)
      failHere("expected " + what + ", found " + describe(peek()));
    return lex_.next();
  }
  int64_t parseInteger();
  struct Guard {
    Parser &p;
    explicit Guard(Parser &parser) : p(parser) {
      if (++p.depth_ > kMaxDepth)
        p.failHere("nested deeper than " + std::to_string(kMaxDepth) + " levels");
    }
    ~Guard() { --p.depth_; }
  };

  // Pieces.
  TypeRef parseType();
  std::vector<TypeRef> parseTypeList(); // t | (t, t) | ()
  void parseFunctionType(std::vector<TypeRef> &inputs, std::vector<TypeRef> &outputs);
  /// `typed`: an integer or float may carry `: type` (not in the pretty
  /// forms, where the ':' starts the op's types).
  Attribute parseAttribute(bool typed = true);
  /// `(inputs) -> outputs` as an attribute: two arrays of types.
  void parseFunctionTypeAttribute(Attribute &attr);
  /// A bare word's attribute (dense<...>, array<...>, unit, a type, a
  /// word); true when `attr` is complete (takes no `: type`).
  bool parseWordAttribute(Attribute &attr);
  /// The elements of array<i64: 1, 2> (`body`: what is inside <>).
  void parseArrayElements(Attribute &attr, const std::string &body);
  std::vector<NamedAttribute> parseAttributeDict(); // at '{'
  void parseOptionalAttrDict(Operation &op);
  std::string parseOptionalLoc();
  ValueUse parseOperand();
  std::vector<ValueUse> parseOperandList(); // %a, %b (possibly none)
  BlockArgument parseBlockArgument(bool withAttrs);
  Block parseRegion(bool entryArgsGiven, const std::vector<BlockArgument> &entryArgs);

  // Module structure.
  void parseTopLevel(Module &module, bool insideModule);
  void parseLocAlias(Module &module);
  MeshDefinition parseMesh();
  Function parseFunction();
  Function functionFromGeneric(Operation &op);
  MeshDefinition meshFromGeneric(Operation &op);

  // Operations.
  Operation parseOperation();
  void parseGeneric(Operation &op);
  void parsePretty(Operation &op);
  void parseTrailingTypes(Operation &op); // ':' then a simple or function type
  void parseKeywordAttributes(Operation &op);
  void parsePrettyReduce(Operation &op);
  void parsePrettySlice(Operation &op);
  /// `%a, %b : ta, tb`: the return ops and optimization_barrier.
  void parsePrettyValueList(Operation &op);
  void parsePrettyManual(Operation &op);
  /// `(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
  /// window = {stride = [..], pad = [[..]], ...} {attrs} : types`.
  void parsePrettyConvolution(Operation &op);
  // The pretty forms of constant, iota, compare, calls, sharding ops and
  // chlo.top_k (parsePretty's table).
  void parsePrettyConstant(Operation &op);
  void parsePrettyIota(Operation &op);
  void parsePrettyCompare(Operation &op);
  void parsePrettyCall(Operation &op);
  /// `"name" %a, %b {decomposition = @f, ...} : (ts) -> ts`.
  void parsePrettyComposite(Operation &op);
  /// `<@mesh, [...]>` after a pretty op's operand: an sdy.sharding.
  Attribute parseBareSharding();
  void parsePrettyShardingConstraint(Operation &op);
  void parsePrettyKeywordOperand(Operation &op);
  void parsePrettyDataFlowEdge(Operation &op);
  void parsePrettyTopK(Operation &op);
  /// `(%x: t, ...) { ... } {attrs} : (ts) -> ts`: a body with its entry
  /// arguments, then the type (manual_computation, named_computation).
  void parseBodyAndType(Operation &op);
  void parsePrettyWhile(Operation &op);
  void parsePrettyNamedComputation(Operation &op);

  /// A ',' after an operand list that no operand followed: the pretty
  /// forms continue with `key = value` or a keyword (compare's FLOAT).
  bool consumeComma() {
    if (commaPending_) {
      commaPending_ = false;
      return true;
    }
    return consumePunct(",");
  }
  void noPendingComma() {
    if (commaPending_)
      failHere("expected a value (%name) after ','");
  }

  Lexer lex_;
  int depth_ = 0;
  bool commaPending_ = false;
  int64_t resultsDeclared_ = 0; // by `%r:N =`, in the whole text
};

int64_t Parser::parseInteger() {
  Token t = expect(TokenKind::Integer, "an integer");
  int64_t value = 0;
  if (!integerValue(t.text, value))
    fail(t.loc.str(), "integer " + t.text + " is out of range");
  return value;
}

TypeRef Parser::parseType() {
  TypeRef type;
  type.loc = peek().loc;
  if (consumePunct("!")) {
    Token name = lex_.next();
    if (name.text == "stablehlo.token") { // the one type besides tensors: no data
      type.text = "!" + name.text;
      return type;
    }
    fail(type.loc.str(),
         "type !" + name.text + " is not supported (only tensor types and !stablehlo.token are)");
  }
  if (atPunct("(")) {
    failHere("expected a type, found '('");
  }
  Token word = expect(TokenKind::BareId, "a type");
  type.text = word.text;
  if (atPunct("<")) {
    lex_.next();
    type.text += "<" + lex_.balancedUntilClose('<', '>') + ">";
  }
  return type;
}

std::vector<TypeRef> Parser::parseTypeList() {
  std::vector<TypeRef> types;
  if (!consumePunct("(")) {
    types.push_back(parseType());
    return types;
  }
  if (consumePunct(")"))
    return types;
  do
    types.push_back(parseType());
  while (consumePunct(","));
  expectPunct(")");
  return types;
}

void Parser::parseFunctionType(std::vector<TypeRef> &inputs, std::vector<TypeRef> &outputs) {
  expectPunct("(");
  if (!consumePunct(")")) {
    do
      inputs.push_back(parseType());
    while (consumePunct(","));
    expectPunct(")");
  }
  expectPunct("->");
  outputs = parseTypeList();
}

Attribute Parser::parseAttribute(bool typed) {
  Guard guard(*this);
  Attribute attr;
  attr.loc = peek().loc;
  const Token &t = peek();
  if (t.kind == TokenKind::Integer) {
    attr.kind = Attribute::Kind::Integer;
    attr.text = t.text;
    attr.integer = parseInteger();
  } else if (t.kind == TokenKind::Float) {
    attr.kind = Attribute::Kind::Float;
    attr.text = lex_.next().text;
  } else if (t.kind == TokenKind::String) {
    attr.kind = Attribute::Kind::String;
    attr.text = lex_.next().text;
  } else if (t.kind == TokenKind::AtId) {
    attr.kind = Attribute::Kind::Symbol;
    attr.text = lex_.next().text;
  } else if (t.kind == TokenKind::HashId) {
    attr.kind = Attribute::Kind::Dialect;
    attr.text = lex_.next().text;
    if (consumePunct("<"))
      attr.body = lex_.balancedUntilClose('<', '>');
  } else if (t.isPunct("<")) { // a pretty form's own attribute, e.g. algorithm = <...>
    lex_.next();
    attr.kind = Attribute::Kind::Dialect;
    attr.body = lex_.balancedUntilClose('<', '>');
  } else if (t.isPunct("[")) {
    lex_.next();
    attr.kind = Attribute::Kind::Array;
    if (!consumePunct("]")) {
      do
        attr.elements.push_back(parseAttribute());
      while (consumePunct(","));
      expectPunct("]");
    }
  } else if (t.isPunct("{")) {
    attr.kind = Attribute::Kind::Dict;
    attr.fields = parseAttributeDict();
  } else if (t.isPunct("(")) {
    parseFunctionTypeAttribute(attr);
    return attr;
  } else if (t.kind == TokenKind::BareId) {
    if (parseWordAttribute(attr))
      return attr;
  } else {
    failHere("expected an attribute value, found " + describe(t));
  }
  bool canHaveType =
      attr.kind == Attribute::Kind::Dense ||
      (typed && (attr.kind == Attribute::Kind::Integer || attr.kind == Attribute::Kind::Float));
  if (canHaveType && consumePunct(":"))
    attr.typeText = parseType().text;
  return attr;
}

void Parser::parseFunctionTypeAttribute(Attribute &attr) {
  attr.kind = Attribute::Kind::Type;
  std::vector<TypeRef> inputs, outputs;
  parseFunctionType(inputs, outputs);
  Attribute in, out;
  for (auto &type : inputs)
    in.elements.push_back(makeAttribute(Attribute::Kind::Type, type.loc, type.text));
  for (auto &type : outputs)
    out.elements.push_back(makeAttribute(Attribute::Kind::Type, type.loc, type.text));
  attr.elements = {in, out};
}

bool Parser::parseWordAttribute(Attribute &attr) {
  Token word = lex_.next();
  if ((word.text == "dense" || word.text == "array") && atPunct("<")) {
    lex_.next();
    attr.kind = word.text == "dense" ? Attribute::Kind::Dense : Attribute::Kind::Array;
    std::string body = lex_.balancedUntilClose('<', '>');
    if (word.text == "dense")
      attr.body = body;
    else // array<i64: 1, 2>, array<i64> (empty)
      parseArrayElements(attr, body);
  } else if (word.text == "unit") {
    attr.kind = Attribute::Kind::Unit;
  } else if (atPunct("<")) { // a type such as tensor<4xf32> used as a value
    lex_.next();
    attr.kind = Attribute::Kind::Type;
    attr.text = word.text + "<" + lex_.balancedUntilClose('<', '>') + ">";
    return true;
  } else {
    attr.kind = Attribute::Kind::Word;
    attr.text = word.text;
  }
  return false;
}

void Parser::parseArrayElements(Attribute &attr, const std::string &body) {
  size_t colon = body.find(':');
  std::string elementType = body.substr(0, colon);
  elementType.erase(0, elementType.find_first_not_of(" \t\n"));
  elementType.erase(elementType.find_last_not_of(" \t\n") + 1);
  if (elementType != "i64" && elementType != "i32" && elementType != "i1")
    fail(attr.loc.str(), "unsupported array attribute array<" + body + ">");
  if (colon == std::string::npos)
    colon = body.size() - 1; // no elements
  Lexer inner(std::string_view(body).substr(colon + 1));
  while (inner.peek().kind != TokenKind::End) {
    Token number = inner.next();
    Attribute element;
    element.kind = Attribute::Kind::Integer;
    element.loc = attr.loc;
    if (number.kind == TokenKind::BareId && (number.text == "true" || number.text == "false"))
      element.integer = number.text == "true";
    else if (number.kind != TokenKind::Integer || !integerValue(number.text, element.integer))
      fail(attr.loc.str(), "expected integers in array<" + body + ">");
    attr.elements.push_back(element);
    if (inner.peek().isPunct(","))
      inner.next();
    else if (inner.peek().kind != TokenKind::End)
      fail(attr.loc.str(), "expected ',' in array<" + body + ">");
  }
}

std::vector<NamedAttribute> Parser::parseAttributeDict() {
  Guard guard(*this);
  std::vector<NamedAttribute> fields;
  expectPunct("{");
  if (consumePunct("}"))
    return fields;
  do {
    NamedAttribute field;
    SourceLoc loc = peek().loc;
    if (peek().kind == TokenKind::BareId || peek().kind == TokenKind::String)
      field.name = lex_.next().text;
    else
      failHere("expected an attribute name, found " + describe(peek()));
    if (consumePunct("=")) {
      field.value = parseAttribute();
    } else {
      field.value.kind = Attribute::Kind::Unit;
      field.value.loc = loc;
    }
    fields.push_back(std::move(field));
  } while (consumePunct(","));
  expectPunct("}");
  return fields;
}

void Parser::parseOptionalAttrDict(Operation &op) {
  if (!atPunct("{"))
    return;
  for (auto &field : parseAttributeDict())
    op.attrs.push_back(std::move(field));
}

std::string Parser::parseOptionalLoc() {
  if (!atWord("loc"))
    return "";
  lex_.next();
  expectPunct("(");
  return lex_.balancedUntilClose('(', ')');
}

ValueUse Parser::parseOperand() {
  ValueUse use;
  use.loc = peek().loc;
  use.name = expect(TokenKind::PercentId, "a value (%name)").text;
  return use;
}

std::vector<ValueUse> Parser::parseOperandList() {
  std::vector<ValueUse> operands;
  if (peek().kind != TokenKind::PercentId)
    return operands;
  do {
    operands.push_back(parseOperand());
    if (!consumePunct(","))
      return operands;
  } while (peek().kind == TokenKind::PercentId);
  commaPending_ = true;
  return operands;
}

BlockArgument Parser::parseBlockArgument(bool withAttrs) {
  BlockArgument arg;
  arg.loc = peek().loc;
  arg.name = expect(TokenKind::PercentId, "an argument (%name)").text;
  expectPunct(":");
  arg.type = parseType();
  if (withAttrs && atPunct("{"))
    arg.attrs = parseAttributeDict();
  arg.locText = parseOptionalLoc();
  return arg;
}

/// `{ ops }` or `{ ^bb0(args): ops }`; the entry arguments of a pretty form
/// (func.func, manual_computation) come from before the braces.
Block Parser::parseRegion(bool entryArgsGiven, const std::vector<BlockArgument> &entryArgs) {
  Guard guard(*this);
  Block block;
  block.loc = peek().loc;
  expectPunct("{");
  block.args = entryArgs;
  if (peek().kind == TokenKind::CaretId) {
    if (entryArgsGiven)
      failHere("a block label is not expected here");
    lex_.next();
    if (consumePunct("(") && !consumePunct(")")) {
      do
        block.args.push_back(parseBlockArgument(false));
      while (consumePunct(","));
      expectPunct(")");
    }
    expectPunct(":");
  }
  while (!atPunct("}")) {
    if (peek().kind == TokenKind::CaretId)
      failHere("a region with several blocks (control flow) is not supported");
    if (peek().kind == TokenKind::End)
      failHere("expected '}' to close the region opened at " + block.loc.str());
    block.ops.push_back(parseOperation());
  }
  lex_.next();
  return block;
}

void Parser::parseLocAlias(Module &module) {
  Token alias = lex_.next();
  expectPunct("=");
  expectWord("loc");
  expectPunct("(");
  module.locAliases.emplace_back(alias.text, lex_.balancedUntilClose('(', ')'));
}

Module Parser::parseModule() {
  lex_.requireUtf8();
  Module module;
  module.loc = peek().loc;
  while (peek().kind == TokenKind::HashId)
    parseLocAlias(module);
  if (atWord("module")) {
    module.loc = lex_.next().loc;
    if (peek().kind == TokenKind::AtId)
      module.name = lex_.next().text;
    if (consumeWord("attributes"))
      module.attrs = parseAttributeDict();
    expectPunct("{");
    parseTopLevel(module, true);
    expectPunct("}");
    parseOptionalLoc();
  } else if (peek().is(TokenKind::String, "builtin.module")) {
    Operation op = parseOperation();
    module.loc = op.loc;
    for (auto &attr : op.attrs) {
      if (attr.name == "sym_name" && attr.value.kind == Attribute::Kind::String)
        module.name = attr.value.text;
      else
        module.attrs.push_back(attr);
    }
    if (op.regions.size() != 1)
      fail(op.loc.str(), "\"builtin.module\" needs one region");
    for (auto &inner : op.regions[0].ops) {
      if (inner.name == "func.func")
        module.functions.push_back(functionFromGeneric(inner));
      else if (inner.name == "sdy.mesh")
        module.meshes.push_back(meshFromGeneric(inner));
      else
        fail(inner.loc.str(),
             "unexpected '" + inner.name + "' in a module (expected sdy.mesh or func.func)");
    }
  } else {
    parseTopLevel(module, false);
  }
  while (peek().kind == TokenKind::HashId)
    parseLocAlias(module);
  if (peek().kind != TokenKind::End)
    failHere("expected the end of the file, found " + describe(peek()));
  return module;
}

void Parser::parseTopLevel(Module &module, bool insideModule) {
  while (true) {
    const Token &t = peek();
    if (t.kind == TokenKind::End || (insideModule && t.isPunct("}")))
      return;
    if (t.is(TokenKind::BareId, "sdy.mesh")) {
      module.meshes.push_back(parseMesh());
    } else if (t.is(TokenKind::BareId, "func.func")) {
      module.functions.push_back(parseFunction());
    } else if (t.kind == TokenKind::HashId) {
      parseLocAlias(module);
    } else if (t.kind == TokenKind::String) {
      Operation op = parseOperation();
      if (op.name == "func.func")
        module.functions.push_back(functionFromGeneric(op));
      else if (op.name == "sdy.mesh")
        module.meshes.push_back(meshFromGeneric(op));
      else
        fail(op.loc.str(),
             "unexpected '" + op.name + "' in a module (expected sdy.mesh or func.func)");
    } else {
      failHere("expected sdy.mesh or func.func in the module, found " + describe(t));
    }
  }
}

MeshDefinition Parser::parseMesh() {
  MeshDefinition mesh;
  mesh.loc = lex_.next().loc;
  mesh.name = expect(TokenKind::AtId, "a mesh name (@name)").text;
  expectPunct("=");
  mesh.bodyLoc = peek().loc;
  if (peek().is(TokenKind::HashId, "sdy.mesh"))
    lex_.next();
  expectPunct("<");
  mesh.body = lex_.balancedUntilClose('<', '>');
  if (atPunct("{"))
    mesh.attrs = parseAttributeDict();
  parseOptionalLoc();
  return mesh;
}

MeshDefinition Parser::meshFromGeneric(Operation &op) {
  MeshDefinition mesh;
  bool haveBody = false;
  mesh.loc = op.loc;
  for (auto &attr : op.attrs) {
    if (attr.name == "sym_name" && attr.value.kind == Attribute::Kind::String) {
      mesh.name = attr.value.text;
    } else if (attr.name == "mesh" && attr.value.kind == Attribute::Kind::Dialect &&
               attr.value.text == "sdy.mesh") {
      mesh.body = attr.value.body;
      mesh.bodyLoc = attr.value.loc;
      haveBody = true;
    } else {
      mesh.attrs.push_back(attr);
    }
  }
  if (mesh.name.empty() || !haveBody)
    fail(op.loc.str(), "\"sdy.mesh\" needs sym_name and mesh = #sdy.mesh<...>");
  return mesh;
}

Function Parser::parseFunction() {
  Function fn;
  fn.loc = lex_.next().loc;
  if (atWord("public") || atWord("private") || atWord("nested"))
    fn.visibility = lex_.next().text;
  fn.name = expect(TokenKind::AtId, "a function name (@name)").text;
  expectPunct("(");
  if (!consumePunct(")")) {
    do
      fn.args.push_back(parseBlockArgument(true));
    while (consumePunct(","));
    expectPunct(")");
  }
  if (consumePunct("->")) {
    auto parseResult = [&](bool inParentheses) {
      FuncResult result;
      result.type = parseType();
      if (inParentheses && atPunct("{"))
        result.attrs = parseAttributeDict();
      parseOptionalLoc();
      fn.results.push_back(std::move(result));
    };
    if (consumePunct("(")) {
      if (!consumePunct(")")) {
        do
          parseResult(true);
        while (consumePunct(","));
        expectPunct(")");
      }
    } else {
      parseResult(false);
    }
  }
  if (consumeWord("attributes"))
    fn.attrs = parseAttributeDict();
  if (!atPunct("{"))
    failHere("a function declaration without a body is not supported");
  fn.body = parseRegion(true, fn.args);
  parseOptionalLoc();
  return fn;
}

Function Parser::functionFromGeneric(Operation &op) {
  Function fn;
  fn.loc = op.loc;
  const Attribute *argAttrs = nullptr, *resAttrs = nullptr, *type = nullptr;
  for (auto &attr : op.attrs) {
    if (attr.name == "sym_name" && attr.value.kind == Attribute::Kind::String)
      fn.name = attr.value.text;
    else if (attr.name == "sym_visibility" && attr.value.kind == Attribute::Kind::String)
      fn.visibility = attr.value.text;
    else if (attr.name == "function_type" && attr.value.kind == Attribute::Kind::Type &&
             attr.value.elements.size() == 2)
      type = &attr.value;
    else if (attr.name == "arg_attrs" && attr.value.kind == Attribute::Kind::Array)
      argAttrs = &attr.value;
    else if (attr.name == "res_attrs" && attr.value.kind == Attribute::Kind::Array)
      resAttrs = &attr.value;
    else
      fn.attrs.push_back(attr);
  }
  if (fn.name.empty() || !type)
    fail(op.loc.str(), "\"func.func\" needs sym_name and function_type");
  if (op.regions.size() != 1)
    fail(op.loc.str(), "a function declaration without a body is not supported");
  fn.body = std::move(op.regions[0]);
  fn.args = fn.body.args;
  const auto &inputs = type->elements[0].elements, &outputs = type->elements[1].elements;
  if (inputs.size() != fn.args.size())
    fail(op.loc.str(), "function_type has " + std::to_string(inputs.size()) +
                           " inputs but the entry block " + std::to_string(fn.args.size()));
  auto dictAt = [&](const Attribute *array, size_t i, SourceLoc loc) {
    if (!array)
      return std::vector<NamedAttribute>{};
    if (array->elements.size() != (array == argAttrs ? inputs.size() : outputs.size()))
      fail(array->loc.str(), "expected one dictionary per function argument/result");
    if (array->elements[i].kind != Attribute::Kind::Dict)
      fail(loc.str(), "expected a dictionary");
    return array->elements[i].fields;
  };
  for (size_t i = 0; i < fn.args.size(); ++i) {
    if (inputs[i].text != fn.args[i].type.text)
      fail(fn.args[i].type.loc.str(), "argument type " + fn.args[i].type.text +
                                          " differs from function_type's " + inputs[i].text);
    fn.args[i].attrs = dictAt(argAttrs, i, fn.args[i].loc);
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    FuncResult result;
    result.type = TypeRef{outputs[i].text, outputs[i].loc};
    result.attrs = dictAt(resAttrs, i, outputs[i].loc);
    fn.results.push_back(std::move(result));
  }
  return fn;
}

Operation Parser::parseOperation() {
  Guard guard(*this);
  Operation op;
  op.loc = peek().loc;
  if (peek().kind == TokenKind::PercentId) {
    do {
      Token name = lex_.next();
      if (name.text.find('#') != std::string::npos)
        fail(name.loc.str(), "a result name may not contain '#'");
      if (consumePunct(":")) {
        int64_t count = parseInteger();
        // Every result needs a type in the text: more results than the text
        // has characters cannot be right, and are not made (a few bytes of
        // `%r:1048576 =` per line would otherwise ask for gigabytes).
        if (count < 1 || count > 1 << 20 ||
            count > static_cast<int64_t>(lex_.text().size()) - resultsDeclared_)
          fail(name.loc.str(), "invalid result count " + std::to_string(count));
        resultsDeclared_ += count;
        for (int64_t i = 0; i < count; ++i)
          op.results.push_back(name.text + "#" + std::to_string(i));
      } else {
        op.results.push_back(name.text);
      }
    } while (consumePunct(","));
    expectPunct("=");
  }
  const Token &t = peek();
  if (t.kind == TokenKind::String) {
    op.name = lex_.next().text;
    op.generic = true;
    parseGeneric(op);
  } else if (t.kind == TokenKind::BareId) {
    op.name = lex_.next().text;
    parsePretty(op);
  } else {
    failHere("expected an operation, found " + describe(t));
  }
  noPendingComma();
  op.locText = parseOptionalLoc();
  return op;
}

void Parser::parseGeneric(Operation &op) {
  expectPunct("(");
  op.operands = parseOperandList();
  expectPunct(")");
  if (atPunct("[")) // successors
    failHere("control flow (block successors) is not supported");
  if (consumePunct("<")) { // properties <{...}>
    if (!atPunct("{"))
      failHere("expected '{' after '<'");
    for (auto &field : parseAttributeDict())
      op.attrs.push_back(std::move(field));
    expectPunct(">");
  }
  if (consumePunct("(")) {
    do
      op.regions.push_back(parseRegion(false, {}));
    while (consumePunct(","));
    expectPunct(")");
  }
  parseOptionalAttrDict(op);
  expectPunct(":");
  parseFunctionType(op.operandTypes, op.resultTypes);
}

void Parser::parseTrailingTypes(Operation &op) {
  expectPunct(":");
  if (atPunct("(")) {
    // `(a, b) -> c`; a bare `(t)` list does not occur in the forms we read.
    parseFunctionType(op.operandTypes, op.resultTypes);
    return;
  }
  // `t` (all operands and results of type t) or `t1, t2` (select: pred, value).
  std::vector<TypeRef> types;
  do
    types.push_back(parseType());
  while (consumePunct(","));
  if (consumePunct("->")) {
    // `t -> r`, `t, u -> r`: chlo's ops (`chlo.erf_inv %x : tensor<f32> ->
    // tensor<f32>`, `chlo.zeta %x, %q : tensor<f32>, tensor<f32> -> tensor<f32>`).
    op.operandTypes = types;
    op.resultTypes = parseTypeList();
    return;
  }
  op.resultTypes = {types.back()};
  op.operandTypes = types; // the importer interprets the short forms
  op.attrs.push_back({"_short_types", makeAttribute(Attribute::Kind::Unit, op.loc)});
}

/// `, key = value` pairs of the pretty forms: `dims = [1, 0]`, `dim = 0`,
/// `contracting_dims = [1] x [0]`, `precision = [DEFAULT, DEFAULT]`.
void Parser::parseKeywordAttributes(Operation &op) {
  while (consumeComma()) {
    NamedAttribute field;
    SourceLoc loc = peek().loc;
    field.name = expect(TokenKind::BareId, "an attribute name").text;
    expectPunct("=");
    field.value = parseAttribute(false);
    if (atWord("x")) { // lhs x rhs
      lex_.next();
      Attribute pair;
      pair.kind = Attribute::Kind::Array;
      pair.loc = loc;
      pair.text = "x";
      pair.elements = {field.value, parseAttribute(false)};
      field.value = std::move(pair);
    }
    op.attrs.push_back(std::move(field));
  }
}

void Parser::parsePrettyReduce(Operation &op) {
  // (%x init: %c) applies stablehlo.add across dimensions = [1] : types
  // or (%x init: %c) across dimensions = [1] : types reducer(%a: t, %b: t) { ... }
  std::vector<ValueUse> inits;
  do {
    expectPunct("(");
    op.operands.push_back(parseOperand());
    expectWord("init");
    expectPunct(":");
    inits.push_back(parseOperand());
    expectPunct(")");
  } while (consumePunct(","));
  op.operands.insert(op.operands.end(), inits.begin(), inits.end()); // inputs, then inits
  if (consumeWord("applies")) {
    NamedAttribute applies{"_applies", Attribute{}};
    applies.value.kind = Attribute::Kind::Word;
    applies.value.loc = peek().loc;
    applies.value.text = expect(TokenKind::BareId, "the reducer op").text;
    op.attrs.push_back(std::move(applies));
  }
  expectWord("across");
  expectWord("dimensions");
  expectPunct("=");
  NamedAttribute dims{"dimensions", parseAttribute(false)};
  op.attrs.push_back(std::move(dims));
  parseOptionalAttrDict(op);
  parseTrailingTypes(op);
  if (consumeWord("reducer")) {
    // reducer(%acc0: t, %x0: t) (%acc1: u, %x1: u) ...: one pair per input,
    // the block's arguments are every pair's first, then every pair's second
    // (StableHLO's order: the accumulators, then the elements).
    std::vector<BlockArgument> firsts, seconds;
    while (consumePunct("(")) {
      firsts.push_back(parseBlockArgument(false));
      expectPunct(",");
      seconds.push_back(parseBlockArgument(false));
      expectPunct(")");
    }
    firsts.insert(firsts.end(), seconds.begin(), seconds.end());
    op.regions.push_back(parseRegion(true, firsts));
  }
}

void Parser::parsePrettySlice(Operation &op) {
  // %x [0:2, 1:4:2]
  op.operands.push_back(parseOperand());
  SourceLoc loc = peek().loc;
  expectPunct("[");
  Attribute start, limit, strides;
  for (Attribute *a : {&start, &limit, &strides}) {
    a->kind = Attribute::Kind::Array;
    a->loc = loc;
  }
  auto integer = [&](int64_t v) {
    Attribute a;
    a.kind = Attribute::Kind::Integer;
    a.loc = loc;
    a.integer = v;
    return a;
  };
  if (!consumePunct("]")) {
    do {
      start.elements.push_back(integer(parseInteger()));
      expectPunct(":");
      limit.elements.push_back(integer(parseInteger()));
      bool given = consumePunct(":");
      strides.elements.push_back(integer(given ? parseInteger() : 1));
      if (given)
        strides.body = "given";
    } while (consumePunct(","));
    expectPunct("]");
  }
  op.attrs.push_back({"start_indices", start});
  op.attrs.push_back({"limit_indices", limit});
  op.attrs.push_back({"strides", strides});
  parseOptionalAttrDict(op);
  parseTrailingTypes(op);
}

void Parser::parseBodyAndType(Operation &op) {
  // (%x: t, ...) { ... } {attrs} : (ts) -> ts
  std::vector<BlockArgument> args;
  expectPunct("(");
  if (!consumePunct(")")) {
    do
      args.push_back(parseBlockArgument(false));
    while (consumePunct(","));
    expectPunct(")");
  }
  op.regions.push_back(parseRegion(true, args));
  parseOptionalAttrDict(op);
  expectPunct(":");
  parseFunctionType(op.operandTypes, op.resultTypes);
}

void Parser::parsePrettyManual(Operation &op) {
  // (%a, %b) in_shardings=[...] out_shardings=[...] manual_axes={...} (%x: t, ...) { ... } : type
  expectPunct("(");
  op.operands = parseOperandList();
  expectPunct(")");
  for (const char *key : {"in_shardings", "out_shardings", "manual_axes"}) {
    SourceLoc loc = peek().loc;
    expectWord(key);
    expectPunct("=");
    Attribute value;
    value.kind = Attribute::Kind::Dialect;
    value.loc = peek().loc;
    bool list = std::string_view(key) != "manual_axes";
    expectPunct(list ? "[" : "{");
    value.text = list ? "sdy.sharding_per_value" : "sdy.manual_axes";
    value.body = list ? "[" + lex_.balancedUntilClose('[', ']') + "]"
                      : "{" + lex_.balancedUntilClose('{', '}') + "}";
    (void)loc;
    op.attrs.push_back({key, value});
  }
  parseBodyAndType(op);
}

void Parser::parsePrettyWhile(Operation &op) {
  // (%iterArg = %a, %iterArg_0 = %b) : ta, tb [attributes {...}] cond { ... } do { ... }:
  // both regions take the iteration arguments, of the operands' types.
  std::vector<BlockArgument> args;
  expectPunct("(");
  if (!consumePunct(")")) {
    do {
      BlockArgument arg;
      arg.loc = peek().loc;
      arg.name = expect(TokenKind::PercentId, "an iteration argument (%name)").text;
      expectPunct("=");
      op.operands.push_back(parseOperand());
      args.push_back(std::move(arg));
    } while (consumePunct(","));
    expectPunct(")");
  }
  if (!args.empty()) {
    expectPunct(":");
    for (BlockArgument &arg : args) {
      if (&arg != &args.front())
        expectPunct(",");
      arg.type = parseType();
      op.operandTypes.push_back(arg.type);
    }
  }
  op.resultTypes = op.operandTypes;
  if (consumeWord("attributes"))
    for (auto &field : parseAttributeDict())
      op.attrs.push_back(std::move(field));
  expectWord("cond");
  op.regions.push_back(parseRegion(true, args));
  expectWord("do");
  op.regions.push_back(parseRegion(true, args));
}

void Parser::parsePrettyNamedComputation(Operation &op) {
  // <"name">(%a) [in_shardings=[...]] [out_shardings=[...]] (%x: t) { ... } : (ts) -> ts
  expectPunct("<");
  Attribute name = makeAttribute(Attribute::Kind::String, peek().loc);
  name.text = expect(TokenKind::String, "the computation's name (a string)").text;
  op.attrs.push_back({"name", name});
  expectPunct(">");
  expectPunct("(");
  op.operands = parseOperandList();
  expectPunct(")");
  for (const char *key : {"in_shardings", "out_shardings"}) {
    if (!consumeWord(key))
      continue;
    expectPunct("=");
    Attribute value = makeAttribute(Attribute::Kind::Dialect, peek().loc, "sdy.sharding_per_value");
    expectPunct("[");
    value.body = "[" + lex_.balancedUntilClose('[', ']') + "]";
    op.attrs.push_back({key, value});
  }
  parseBodyAndType(op);
}

void Parser::parsePrettyValueList(Operation &op) {
  // `%a, %b : ta, tb`: a barrier's operand i passes through as result i
  // (its attributes come first: `{...} %a, %b`).
  const bool barrier = op.name == "stablehlo.optimization_barrier";
  if (barrier)
    parseOptionalAttrDict(op);
  op.operands = parseOperandList();
  parseOptionalAttrDict(op);
  if (!op.operands.empty()) {
    expectPunct(":");
    do
      op.operandTypes.push_back(parseType());
    while (consumePunct(","));
  }
  if (barrier)
    op.resultTypes = op.operandTypes;
}

void Parser::parsePrettyConvolution(Operation &op) {
  expectPunct("(");
  op.operands = parseOperandList();
  expectPunct(")");
  expectWord("dim_numbers");
  expectPunct("=");
  // The dimension numbers' text up to the ',' before `window`, as the
  // generic form's #stablehlo.conv<...> holds it.
  Attribute numbers;
  numbers.kind = Attribute::Kind::Dialect;
  numbers.text = "stablehlo.conv";
  numbers.loc = peek().loc;
  int depth = 0;
  while (!(depth == 0 && (atPunct(",") || atPunct("{") || atPunct(":")))) {
    const Token &t = peek();
    if (t.kind == TokenKind::End)
      failHere("unterminated dimension numbers");
    depth += t.isPunct("[") ? 1 : t.isPunct("]") ? -1 : 0;
    numbers.body += lex_.next().text;
    if (numbers.body.size() > 4096)
      failHere("dimension numbers too long");
  }
  op.attrs.push_back({"dimension_numbers", numbers});
  if (consumePunct(",")) {
    expectWord("window");
    expectPunct("=");
    for (auto &field : parseAttributeDict())
      op.attrs.push_back(std::move(field));
  }
  parseOptionalAttrDict(op);
  expectPunct(":");
  parseFunctionType(op.operandTypes, op.resultTypes);
}

void Parser::parsePrettyConstant(Operation &op) {
  parseOptionalAttrDict(op);
  op.attrs.push_back({"value", parseAttribute()});
  if (op.attrs.back().value.typeText.empty())
    failHere("expected ': tensor<...>' after the constant's value");
  op.resultTypes.push_back(TypeRef{op.attrs.back().value.typeText, op.attrs.back().value.loc});
}

void Parser::parsePrettyIota(Operation &op) {
  expectWord("dim");
  expectPunct("=");
  op.attrs.push_back({"iota_dimension", parseAttribute(false)});
  parseOptionalAttrDict(op);
  parseTrailingTypes(op);
}

void Parser::parsePrettyCompare(Operation &op) {
  // stablehlo.compare  GT, %a, %b,  FLOAT : types
  NamedAttribute direction{"comparison_direction", parseAttribute()};
  op.attrs.push_back(std::move(direction));
  expectPunct(",");
  op.operands = parseOperandList();
  if (consumeComma()) // the compare type
    op.attrs.push_back({"compare_type", parseAttribute()});
  parseOptionalAttrDict(op);
  parseTrailingTypes(op);
}

void Parser::parsePrettyCall(Operation &op) {
  Attribute target;
  target.kind = Attribute::Kind::Symbol;
  target.loc = peek().loc;
  target.text = expect(TokenKind::AtId, "the callee (@name)").text;
  op.attrs.push_back({op.name == "stablehlo.custom_call" ? "call_target_name" : "callee", target});
  expectPunct("(");
  op.operands = parseOperandList();
  expectPunct(")");
  parseOptionalAttrDict(op);
  expectPunct(":");
  parseFunctionType(op.operandTypes, op.resultTypes);
}

void Parser::parsePrettyComposite(Operation &op) {
  Attribute name;
  name.kind = Attribute::Kind::String;
  name.loc = peek().loc;
  name.text = expect(TokenKind::String, "the composite's name (a string)").text;
  op.attrs.push_back({"name", name});
  op.operands = parseOperandList();
  parseOptionalAttrDict(op);
  expectPunct(":");
  parseFunctionType(op.operandTypes, op.resultTypes);
}

Attribute Parser::parseBareSharding() {
  Attribute sharding;
  sharding.kind = Attribute::Kind::Dialect;
  sharding.loc = peek().loc;
  sharding.text = "sdy.sharding";
  expectPunct("<");
  sharding.body = lex_.balancedUntilClose('<', '>');
  return sharding;
}

void Parser::parsePrettyShardingConstraint(Operation &op) {
  op.operands.push_back(parseOperand());
  op.attrs.push_back({"sharding", parseBareSharding()});
  parseOptionalAttrDict(op);
  parseTrailingTypes(op);
}

void Parser::parsePrettyKeywordOperand(Operation &op) {
  // sdy.sharding_group %x group_id = 0, sdy.propagation_barrier %x allowed_direction = NONE
  op.operands.push_back(parseOperand());
  const char *key = op.name == "sdy.sharding_group" ? "group_id" : "allowed_direction";
  expectWord(key);
  expectPunct("=");
  op.attrs.push_back({key, parseAttribute(false)});
  parseOptionalAttrDict(op);
  parseTrailingTypes(op);
}

void Parser::parsePrettyDataFlowEdge(Operation &op) {
  // sdy.data_flow_edge %x [sharding=<@mesh, [...]>] {attrs} : t
  op.operands.push_back(parseOperand());
  if (atWord("sharding")) {
    lex_.next();
    expectPunct("=");
    op.attrs.push_back({"sharding", parseBareSharding()});
  }
  parseOptionalAttrDict(op);
  parseTrailingTypes(op);
}

void Parser::parsePrettyTopK(Operation &op) {
  // chlo.top_k(%x, k = 5[, is_stable = true]) {attrs} : t -> (t, ti)
  expectPunct("(");
  op.operands = parseOperandList();
  parseKeywordAttributes(op);
  expectPunct(")");
  parseOptionalAttrDict(op);
  expectPunct(":");
  op.operandTypes = {parseType()};
  expectPunct("->");
  op.resultTypes = parseTypeList();
}

void Parser::parsePretty(Operation &op) {
  // The ops with a pretty form of their own; the others read as
  // `%a, %b[, key = value...] {attrs} : types`.
  using Reader = void (Parser::*)(Operation &);
  static const std::map<std::string, Reader, std::less<>> kReaders = {
      {"stablehlo.reduce", &Parser::parsePrettyReduce},
      {"stablehlo.slice", &Parser::parsePrettySlice},
      {"sdy.manual_computation", &Parser::parsePrettyManual},
      {"stablehlo.convolution", &Parser::parsePrettyConvolution},
      {"stablehlo.while", &Parser::parsePrettyWhile},
      {"sdy.named_computation", &Parser::parsePrettyNamedComputation},
      {"stablehlo.constant", &Parser::parsePrettyConstant},
      {"sdy.constant", &Parser::parsePrettyConstant},
      {"stablehlo.iota", &Parser::parsePrettyIota},
      {"stablehlo.compare", &Parser::parsePrettyCompare},
      {"stablehlo.custom_call", &Parser::parsePrettyCall},
      {"stablehlo.composite", &Parser::parsePrettyComposite},
      {"func.call", &Parser::parsePrettyCall},
      {"call", &Parser::parsePrettyCall},
      {"sdy.sharding_constraint", &Parser::parsePrettyShardingConstraint},
      {"sdy.reshard", &Parser::parsePrettyShardingConstraint}, // the same form
      {"sdy.sharding_group", &Parser::parsePrettyKeywordOperand},
      {"sdy.propagation_barrier", &Parser::parsePrettyKeywordOperand},
      {"sdy.data_flow_edge", &Parser::parsePrettyDataFlowEdge},
      {"stablehlo.optimization_barrier", &Parser::parsePrettyValueList},
      {"stablehlo.return", &Parser::parsePrettyValueList},
      {"func.return", &Parser::parsePrettyValueList},
      {"return", &Parser::parsePrettyValueList},
      {"sdy.return", &Parser::parsePrettyValueList},
      {"chlo.top_k", &Parser::parsePrettyTopK},
  };
  if (auto reader = kReaders.find(op.name); reader != kReaders.end())
    return (this->*reader->second)(op);
  if (peek().kind == TokenKind::PercentId || atPunct("{") || atPunct(":")) {
    op.operands = parseOperandList();
    parseKeywordAttributes(op);
    parseOptionalAttrDict(op);
    parseTrailingTypes(op);
    return;
  }
  failHere("cannot read '" + op.name + "' in this form (expected its operands)");
}

} // namespace

Module parseModule(std::string_view text) { return Parser(text).parseModule(); }

TensorType statedType(const TypeRef &ref, const std::string &where, const std::string &prefix) {
  std::string error;
  std::optional<TensorType> type = parseType(ref.text, &error);
  if (!type)
    fail(where, prefix + error);
  // The importer's expansions write text from an op's stated types before
  // the verifier sees them: a size no tensor can have stops here.
  if (!hasBoundedSize(*type))
    fail(where, prefix + "tensor type " + ref.text + " has too many elements");
  return *type;
}

bool looksLikeMlir(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    if (std::isspace(static_cast<unsigned char>(text[i]))) {
      ++i;
    } else if (text.substr(i, 2) == "//") {
      while (i < text.size() && text[i] != '\n')
        ++i;
    } else {
      break;
    }
  }
  std::string_view rest = text.substr(i);
  for (std::string_view start : {"module", "#", "func.func", "sdy.mesh", "\"builtin.module\""})
    if (rest.starts_with(start))
      return true;
  return false;
}

} // namespace shardgen::mlir
