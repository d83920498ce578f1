#include "compiler/ops/OpTable.h"

#include <vector>

namespace shardgen {

namespace {

using namespace opsig; // the operand groups the rows name

constexpr ResultArity one = ResultArity::One;
constexpr ResultArity none = ResultArity::None;
constexpr ResultArity declared = ResultArity::Declared;
constexpr ResultArity variadic = ResultArity::Variadic;

using namespace rowvalues;

#define SHARDGEN_UNPAREN(...) __VA_ARGS__
#define SHARDGEN_DIALECT(dialect, syntax) SHARDGEN_DIALECT_##dialect
#define SHARDGEN_DIALECT_stablehlo MlirDialect::StableHlo
#define SHARDGEN_DIALECT_sdy MlirDialect::Sdy
#define SHARDGEN_DIALECT_shardgen MlirDialect::Shardgen
#define SHARDGEN_DIALECT_none MlirDialect::None
#define SHARDGEN_DIALECT_chlo MlirDialect::Chlo

template <typename Attrs> Attributes emptyOf() { return Attrs{}; }

const OpRow kRows[] = {
#define SHARDGEN_OP(Kind, Name, Category, Operands, Results, Attrs, Elements, Bound, Mlir, ...)    \
  OpRow{OpKind::Kind,                                                                              \
        Name,                                                                                      \
        OpCategory::Category,                                                                      \
        OperandList{SHARDGEN_UNPAREN Operands},                                                    \
        Results,                                                                                   \
        Elements,                                                                                  \
        BoundClass::Bound,                                                                         \
        SHARDGEN_DIALECT Mlir,                                                                     \
        &Attrs::schema,                                                                            \
        &emptyOf<Attrs>},
#include "compiler/ops/Ops.def"
};
static_assert(std::size(kRows) == kNumOpKinds);

#undef SHARDGEN_UNPAREN
#undef SHARDGEN_DIALECT
#undef SHARDGEN_DIALECT_stablehlo
#undef SHARDGEN_DIALECT_sdy
#undef SHARDGEN_DIALECT_shardgen
#undef SHARDGEN_DIALECT_none
#undef SHARDGEN_DIALECT_chlo

} // namespace

const OpRow &opRow(OpKind kind) { return kRows[static_cast<size_t>(kind)]; }

std::vector<OperandRole> operandRoles(OpKind kind, size_t count) {
  const OperandList &operands = opRow(kind).operands;
  const size_t fixed = operands.minimum();
  // Several variadic groups (scatter's inputs and updates) share the extra
  // operands equally.
  size_t variadicGroups = 0;
  for (const OperandGroup &group : operands.all())
    variadicGroups += group.variadic ? 1 : 0;
  const size_t extra = count > fixed && variadicGroups ? (count - fixed) / variadicGroups : 0;
  std::vector<OperandRole> roles;
  for (const OperandGroup &group : operands.all()) {
    size_t take = group.variadic ? group.minimum + extra : 1;
    roles.insert(roles.end(), take, group.role);
  }
  roles.resize(count, OperandRole::Data);
  return roles;
}

std::span<const std::string_view> attributeKeys(OpKind kind) {
  static const std::vector<std::vector<std::string_view>> keys = [] {
    std::vector<std::vector<std::string_view>> all;
    for (OpKind k : kAllOpKinds) {
      all.emplace_back();
      for (const AttrField &field : attributeSchema(k))
        all.back().push_back(field.json);
    }
    return all;
  }();
  return keys[static_cast<size_t>(kind)];
}

void completeDefaults(Attributes &attrs) {
  std::visit(
      [](auto &alternative) {
        if constexpr (requires { alternative.completeDefaults(); })
          alternative.completeDefaults();
      },
      attrs);
}

void *attributeStruct(Attributes &attrs) {
  return std::visit([](auto &alternative) -> void * { return &alternative; }, attrs);
}
const void *attributeStruct(const Attributes &attrs) {
  return std::visit([](const auto &alternative) -> const void * { return &alternative; }, attrs);
}

std::string mlirOpName(OpKind kind) {
  const OpRow &row = opRow(kind);
  switch (row.dialect) {
  case MlirDialect::StableHlo:
    return "stablehlo." + std::string(row.name);
  case MlirDialect::Sdy:
    return "sdy." + std::string(row.name);
  case MlirDialect::Shardgen:
    return "shardgen." + std::string(row.name);
  case MlirDialect::Chlo:
    return "chlo." + std::string(row.name);
  case MlirDialect::None:
    return "";
  }
  return "";
}

} // namespace shardgen
