#include "compiler/ir/OpShardingRule.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "compiler/ir/TextScanner.h"

namespace shardgen {

std::string factorName(int64_t index) {
  if (index < 18)
    return std::string(1, static_cast<char>('i' + index));
  return "z_" + std::to_string(index - 17);
}

namespace {

std::string printTensorFactors(const OpShardingRule::TensorFactors &tensor) {
  std::string out = "[";
  for (size_t d = 0; d < tensor.size(); ++d) {
    if (d)
      out += ", ";
    if (tensor[d].empty())
      out += "1";
    for (int64_t f : tensor[d])
      out += factorName(f);
  }
  return out + "]";
}

std::string printTensorList(const std::vector<OpShardingRule::TensorFactors> &tensors) {
  std::string out = "(";
  for (size_t t = 0; t < tensors.size(); ++t) {
    if (t)
      out += ", ";
    out += printTensorFactors(tensors[t]);
  }
  return out + ")";
}

class RuleParser {
public:
  explicit RuleParser(std::string_view text) : in_(text) {}

  std::optional<OpShardingRule> parse(std::string *error) {
    OpShardingRule rule;
    if (!parseRule(rule)) {
      if (error)
        *error = "invalid sharding_rule \"" + std::string(in_.text()) + "\": " + in_.error();
      return std::nullopt;
    }
    return rule;
  }

private:
  using NamedTensor = std::vector<std::vector<std::string>>; // per dim, factor names
  TextScanner in_;
  // Factor references by name, resolved once the size block is read.
  std::vector<NamedTensor> operandNames_, resultNames_;

  bool atLetter() {
    in_.skipSpace();
    return std::isalpha(static_cast<unsigned char>(in_.current()));
  }
  /// A factor name: a letter, optionally "_<digits>" (Shardy's z_1, z_2, ...).
  std::string factorToken() {
    size_t start = in_.position();
    in_.advance();
    if (in_.current() == '_') {
      in_.advance();
      while (std::isdigit(static_cast<unsigned char>(in_.current())))
        in_.advance();
    }
    return std::string(in_.text().substr(start, in_.position() - start));
  }

  bool parseTensor(NamedTensor &dims) {
    return in_.delimitedList('[', ']', [&] {
      std::vector<std::string> &factors = dims.emplace_back();
      if (in_.consume('1')) // a size-1 dim mapped to no factor
        return true;
      if (!atLetter())
        return in_.fail("expected a factor name");
      while (std::isalpha(static_cast<unsigned char>(in_.current())))
        factors.push_back(factorToken());
      return true;
    });
  }

  bool parseTensorList(std::vector<NamedTensor> &tensors) {
    return in_.delimitedList('(', ')', [&] { return parseTensor(tensors.emplace_back()); });
  }

  bool parseFactorName(std::string &name) {
    if (!atLetter())
      return in_.fail("expected a factor name");
    name = factorToken();
    return true;
  }

  bool parseNameList(std::vector<std::string> &names) {
    return in_.delimitedList('{', '}', [&] { return parseFactorName(names.emplace_back()); });
  }

  bool parseSizes(OpShardingRule &rule, std::map<std::string, int64_t> &index) {
    if (!in_.peek('{'))
      return true; // a rule without factors (scalars only) has no sizes, as Shardy prints it
    return in_.delimitedList('{', '}', [&] {
      std::string name;
      if (!parseFactorName(name))
        return false;
      if (index.count(name))
        return in_.fail("factor '" + name + "' declared twice");
      std::string_view digits;
      if (!in_.expect('=') || !in_.digits(digits))
        return in_.fail("expected a factor size");
      // 0 is a size (Shardy's factor of a size-0 dim); digits are never negative.
      int64_t size = std::stoll(std::string(digits));
      index[name] = rule.numFactors();
      rule.factorSizes.push_back(size);
      return true;
    });
  }

  bool parseFactorKinds(OpShardingRule &rule, const std::map<std::string, int64_t> &index) {
    while (true) {
      FactorKind kind = FactorKind::PassThrough;
      bool blocked = false;
      if (in_.consume("reduction="))
        kind = FactorKind::Reduction;
      else if (in_.consume("need_replication="))
        kind = FactorKind::NeedReplication;
      else if (in_.consume("permutation="))
        kind = FactorKind::Permutation;
      else if (in_.consume("blocked_propagation="))
        blocked = true;
      else if (in_.consume("custom") || (in_.consume(',') && in_.expect("custom")))
        continue; // Shardy prints a user's rule with a trailing ", custom"
      else
        return true;
      std::vector<std::string> names;
      if (!parseNameList(names))
        return false;
      for (const auto &name : names) {
        auto it = index.find(name);
        if (it == index.end())
          return in_.fail("unknown factor '" + name + "'");
        if (blocked)
          rule.blockedFactors.push_back(it->second);
        else if (rule.factorKinds[it->second] != FactorKind::PassThrough)
          return in_.fail("factor '" + name + "' has two kinds");
        else
          rule.factorKinds[it->second] = kind;
      }
    }
  }

  bool resolve(const std::vector<NamedTensor> &tensors, const std::map<std::string, int64_t> &index,
               std::vector<OpShardingRule::TensorFactors> &out) {
    for (const auto &tensor : tensors) {
      OpShardingRule::TensorFactors dims;
      for (const auto &dim : tensor) {
        std::vector<int64_t> factors;
        for (const auto &name : dim) {
          auto it = index.find(name);
          if (it == index.end())
            return in_.fail("factor '" + name + "' has no size");
          factors.push_back(it->second);
        }
        dims.push_back(std::move(factors));
      }
      out.push_back(std::move(dims));
    }
    return true;
  }

  bool parseRule(OpShardingRule &rule) {
    bool wrapped = in_.consume("#sdy.op_sharding_rule<");
    std::map<std::string, int64_t> index;
    if (!parseTensorList(operandNames_) || !in_.expect("->") || !parseTensorList(resultNames_) ||
        !parseSizes(rule, index))
      return false;
    rule.factorKinds.assign(rule.factorSizes.size(), FactorKind::PassThrough);
    if (!parseFactorKinds(rule, index) || (wrapped && !in_.expect('>')))
      return false;
    if (!in_.atEnd())
      return in_.fail("unexpected trailing text");
    return resolve(operandNames_, index, rule.operands) &&
           resolve(resultNames_, index, rule.results);
  }
};

} // namespace

std::string printOpShardingRule(const OpShardingRule &rule) {
  std::string out = printTensorList(rule.operands) + "->" + printTensorList(rule.results);
  for (int64_t f = 0; f < rule.numFactors(); ++f)
    out += (f ? ", " : " {") + factorName(f) + "=" + std::to_string(rule.factorSizes[f]);
  if (rule.numFactors() > 0)
    out += "}";
  auto list = [&](const char *label, auto predicate) {
    std::string names;
    for (int64_t f = 0; f < rule.numFactors(); ++f)
      if (predicate(f))
        names += (names.empty() ? "" : ", ") + factorName(f);
    if (!names.empty())
      out += std::string(" ") + label + "={" + names + "}";
  };
  list("reduction", [&](int64_t f) { return rule.factorKinds[f] == FactorKind::Reduction; });
  list("need_replication",
       [&](int64_t f) { return rule.factorKinds[f] == FactorKind::NeedReplication; });
  list("permutation", [&](int64_t f) { return rule.factorKinds[f] == FactorKind::Permutation; });
  list("blocked_propagation", [&](int64_t f) {
    return std::find(rule.blockedFactors.begin(), rule.blockedFactors.end(), f) !=
           rule.blockedFactors.end();
  });
  return out;
}

std::optional<OpShardingRule> parseOpShardingRule(std::string_view text, std::string *error) {
  return RuleParser(text).parse(error);
}

} // namespace shardgen
