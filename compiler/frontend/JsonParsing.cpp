#include "compiler/frontend/JsonParsing.h"

#include "compiler/ir/Diagnostic.h"

namespace shardgen {

namespace {

/// nlohmann's DOM builder, counting open containers so a failure can be
/// placed: the open containers are the chain of last children from the root.
class PlacingSax : public nlohmann::detail::json_sax_dom_parser<Json> {
  using Base = nlohmann::detail::json_sax_dom_parser<Json>;

public:
  explicit PlacingSax(Json &root) : Base(root, /*allow_exceptions=*/false) {}

  bool start_object(std::size_t size) { return ++depth_, Base::start_object(size); }
  bool end_object() { return --depth_, Base::end_object(); }
  bool start_array(std::size_t size) { return ++depth_, Base::start_array(size); }
  bool end_array() { return --depth_, Base::end_array(); }

  template <class Exception>
  bool parse_error(std::size_t, const std::string &, const Exception &error) {
    message_ = error.what();
    numberOverflow_ = error.id == 406;
    return false;
  }

  size_t depth() const { return depth_; }
  const std::string &message() const { return message_; }
  bool numberOverflow() const { return numberOverflow_; }

private:
  size_t depth_ = 0;
  std::string message_;
  bool numberOverflow_ = false;
};

/// nlohmann's message without its "[json.exception.parse_error.101] " tag.
std::string withoutTag(const std::string &what) {
  size_t tagEnd = what.find("] ");
  return what.starts_with("[json.exception.") && tagEnd != std::string::npos
             ? what.substr(tagEnd + 2)
             : what;
}

/// The pointer of the value being read when parsing stopped `depth`
/// containers deep: the next element of the innermost open array, or the
/// last key of the innermost open object (its key is read, its value not).
std::string pointerOfFailure(const Json &root, size_t depth) {
  std::string pointer;
  const Json *at = &root;
  for (size_t level = 1; level <= depth && at->is_structured(); ++level) {
    bool innermost = level == depth;
    if (at->is_array()) {
      if (innermost || at->empty())
        return joinPointer(pointer, at->size());
      pointer = joinPointer(pointer, at->size() - 1);
      at = &at->back();
    } else {
      if (at->empty())
        return pointer;
      auto last = std::prev(at->end());
      pointer = joinPointer(pointer, last.key());
      at = &last.value();
    }
  }
  return pointer;
}

} // namespace

Json parseJsonDocument(std::string_view text) {
  Json root;
  PlacingSax sax(root);
  if (Json::sax_parse(text.begin(), text.end(), &sax))
    return root;
  if (sax.numberOverflow())
    fail(pointerOfFailure(root, sax.depth()),
         withoutTag(sax.message()) + ": a graph's numbers must fit a double");
  fail("", "malformed JSON: " + withoutTag(sax.message()));
}

} // namespace shardgen
