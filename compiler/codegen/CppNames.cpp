#include "compiler/codegen/CppNames.h"

#include <algorithm>
#include <cstdio>

#include "compiler/ir/CppKeywords.h"
#include "compiler/ir/Literal.h"

namespace shardgen::codegen {

std::string_view elementTag(ElementType type) {
  switch (type) {
  case ElementType::F32:
    return "F32";
  case ElementType::F64:
    return "F64";
  case ElementType::F16:
    return "F16";
  case ElementType::BF16:
    return "BF16";
  case ElementType::I1:
    return "I1";
  case ElementType::I8:
    return "I8";
  case ElementType::I32:
    return "I32";
  case ElementType::I64:
    return "I64";
  case ElementType::UI8:
    return "UI8";
  case ElementType::UI32:
    return "UI32";
  case ElementType::I16:
    return "I16";
  case ElementType::UI16:
    return "UI16";
  case ElementType::UI64:
    return "UI64";
  case ElementType::C64:
    return "C64";
  case ElementType::C128:
    return "C128";
  case ElementType::I2:
    return "I2";
  case ElementType::I4:
    return "I4";
  case ElementType::UI2:
    return "UI2";
  case ElementType::UI4:
    return "UI4";
  case ElementType::Token: // no kernel sees a token (the verifier keeps them out)
    return "UI8";
#define SHARDGEN_MINI_FLOAT_TAG(Name, mlirName)                                                    \
  case ElementType::Name:                                                                          \
    return #Name;
    SHARDGEN_FOR_EACH_MINI_FLOAT(SHARDGEN_MINI_FLOAT_TAG)
#undef SHARDGEN_MINI_FLOAT_TAG
  }
  return "F32";
}

std::string_view storageWord(ElementType type) {
  switch (elementByteWidth(type)) {
  case 1:
    return "uint8_t";
  case 2:
    return "uint16_t";
  case 4:
    return "uint32_t";
  case 8:
    return "uint64_t";
  case 0: // a token's buffer holds no element
    return "uint8_t";
  default: // complex<f64>
    return "Word128";
  }
}

std::string_view storageType(ElementType type) {
  switch (type) {
  case ElementType::F32:
    return "float";
  case ElementType::F64:
    return "double";
  case ElementType::F16:
  case ElementType::BF16:
    return "uint16_t";
  case ElementType::I1:
  case ElementType::UI8:
    return "uint8_t";
  case ElementType::I8:
    return "int8_t";
  case ElementType::I32:
    return "int32_t";
  case ElementType::I64:
    return "int64_t";
  case ElementType::UI32:
    return "uint32_t";
  case ElementType::I16:
    return "int16_t";
  case ElementType::UI16:
    return "uint16_t";
  case ElementType::UI64:
    return "uint64_t";
  case ElementType::C64:
    return "Complex<float>";
  case ElementType::C128:
    return "Complex<double>";
  case ElementType::I2:
  case ElementType::I4:
    return "int8_t";
  case ElementType::UI2:
  case ElementType::UI4:
  case ElementType::Token: // a token's buffer holds no element
    return "uint8_t";
#define SHARDGEN_MINI_FLOAT_STORAGE(Name, mlirName) case ElementType::Name:
    SHARDGEN_FOR_EACH_MINI_FLOAT(SHARDGEN_MINI_FLOAT_STORAGE)
#undef SHARDGEN_MINI_FLOAT_STORAGE
    return "uint8_t"; // the code
  }
  return "float";
}

std::string_view runtimeElementType(ElementType type) {
  switch (type) {
  case ElementType::F32:
    return "SHARDGEN_F32";
  case ElementType::F64:
    return "SHARDGEN_F64";
  case ElementType::F16:
    return "SHARDGEN_F16";
  case ElementType::BF16:
    return "SHARDGEN_BF16";
  case ElementType::I1:
    return "SHARDGEN_I1";
  case ElementType::I8:
    return "SHARDGEN_I8";
  case ElementType::I32:
    return "SHARDGEN_I32";
  case ElementType::I64:
    return "SHARDGEN_I64";
  case ElementType::UI8:
    return "SHARDGEN_UI8";
  case ElementType::UI32:
    return "SHARDGEN_UI32";
  case ElementType::I16:
    return "SHARDGEN_I16";
  case ElementType::UI16:
    return "SHARDGEN_UI16";
  case ElementType::UI64:
    return "SHARDGEN_UI64";
  case ElementType::C64:
    return "SHARDGEN_C64";
  case ElementType::C128:
    return "SHARDGEN_C128";
  case ElementType::I2:
    return "SHARDGEN_I2";
  case ElementType::I4:
    return "SHARDGEN_I4";
  case ElementType::UI2:
    return "SHARDGEN_UI2";
  case ElementType::UI4:
    return "SHARDGEN_UI4";
  case ElementType::Token: // a token's buffer holds no element
    return "SHARDGEN_UI8";
#define SHARDGEN_MINI_FLOAT_RUNTIME(Name, mlirName)                                                \
  case ElementType::Name:                                                                          \
    return "SHARDGEN_" #Name;
    SHARDGEN_FOR_EACH_MINI_FLOAT(SHARDGEN_MINI_FLOAT_RUNTIME)
#undef SHARDGEN_MINI_FLOAT_RUNTIME
  }
  return "SHARDGEN_F32";
}

/// "Add" from "add": the enumerator's spelling of a lowercase table name.
static std::string capitalized(std::string_view name) {
  std::string out(name);
  if (!out.empty() && out[0] >= 'a' && out[0] <= 'z')
    out[0] = static_cast<char>(out[0] - 'a' + 'A');
  return out;
}

std::string reducerFunctor(Reducer reducer) { return "Reduce" + capitalized(reducerName(reducer)); }

std::string runtimeReducer(Reducer reducer) {
  return "rt::Reducer::" + capitalized(reducerName(reducer));
}

std::string compareFunctor(ComparisonDirection direction) {
  return "Cmp" + std::string(comparisonDirectionName(direction));
}

std::string_view elementwiseFunctor(OpKind kind, ElementType type) {
  if (kind == OpKind::Not && type == ElementType::I1)
    return "OpLogicalNot"; // `not` of booleans is logical, of integers bitwise
  if (!isElementwise(kind))
    return "";
  // A tanh rounded to a narrower type than f32 afterwards: the cheaper
  // rational form, within the same 8 ulp of the f32 result.
  if (kind == OpKind::Tanh &&
      (type == ElementType::F16 || type == ElementType::BF16 || isMiniFloat(type)))
    return "OpNarrowTanh";
  static constexpr std::string_view kFunctors[] = {
#define SHARDGEN_OP(Kind, ...) std::string_view("Op" #Kind),
#include "compiler/ops/Ops.def"
  };
  // Complex operands: complex.h's functions (templates/kernels/elementwise.h).
  static constexpr std::string_view kComplexFunctors[] = {
#define SHARDGEN_OP(Kind, ...) std::string_view("ComplexOp" #Kind),
#include "compiler/ops/Ops.def"
  };
  if (isComplex(type))
    return kComplexFunctors[static_cast<size_t>(kind)];
  return kFunctors[static_cast<size_t>(kind)];
}

std::string cIdentifier(std::string_view name) {
  std::string out;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    out += ok ? c : '_';
  }
  if (out.empty() || (out[0] >= '0' && out[0] <= '9'))
    out = "g_" + out;
  return out;
}

namespace {

/// Words a namespace, file or symbol name may not be besides the C++
/// keywords: contextual keywords, names of the standard library and
/// shardgen's own code, and the lowercase object-like macros of the C and
/// POSIX headers generated code includes (plus GNU mode's `linux` and
/// `unix`). Uppercase macros (NULL, EOF, INT8_MAX) are caught by the
/// no-lowercase-letter rule.
constexpr std::string_view kReservedWords[] = {
    "import",   "module", "final",    "override", "main",    "std",    "posix",
    "shardgen", "rt",     "errno",    "stdin",    "stdout",  "stderr", "linux",
    "unix",     "assert", "offsetof", "alloca",   "environ",
};

/// Target names CMake reserves or builds itself (the program's name is the
/// generated CMakeLists.txt's target): `all` and the like, and, matched as
/// a prefix, the runtime's own targets and options (shardgen_runtime...).
constexpr std::string_view kCmakeTargetWords[] = {
    "all",
    "clean",
    "help",
    "install",
    "test",
    "package",
    "depend",
    "package_source",
    "edit_cache",
    "rebuild_cache",
    "list_install_components",
};

/// The C, POSIX and glibc headers a C++ translation unit may include as
/// <NAME.h>: the program's header NAME.h sits in a folder the generated
/// CMakeLists.txt puts on the include path, where it would be found first
/// (a program named stdint did not build).
constexpr std::string_view kSystemHeaderNames[] = {
    "assert",      "complex",   "ctype",   "errno",    "fenv",      "float",    "inttypes",
    "iso646",      "limits",    "locale",  "math",     "setjmp",    "signal",   "stdalign",
    "stdarg",      "stdatomic", "stdbool", "stddef",   "stdint",    "stdio",    "stdlib",
    "stdnoreturn", "string",    "tgmath",  "threads",  "time",      "uchar",    "wchar",
    "wctype",      "aio",       "cpio",    "dirent",   "dlfcn",     "fcntl",    "fmtmsg",
    "fnmatch",     "ftw",       "glob",    "grp",      "iconv",     "langinfo", "libgen",
    "monetary",    "mqueue",    "ndbm",    "netdb",    "nl_types",  "poll",     "pthread",
    "pwd",         "regex",     "sched",   "search",   "semaphore", "spawn",    "strings",
    "syslog",      "tar",       "termios", "ulimit",   "unistd",    "utime",    "utmpx",
    "wordexp",     "features",  "endian",  "malloc",   "memory",    "execinfo", "getopt",
    "error",       "link",      "elf",     "byteswap", "values",    "paths",    "sysexits",
    "err",         "shadow",    "ifaddrs", "mntent",   "pty",       "utmp",     "libintl",
    "argp",        "fts",       "gshadow", "printf",   "obstack",   "resolv",   "thread_db",
};

template <size_t N> bool listed(const std::string_view (&words)[N], std::string_view name) {
  return std::find(std::begin(words), std::end(words), name) != std::end(words);
}

bool isReserved(std::string_view name) {
  return isCppKeyword(name) || name.starts_with("shardgen_") || listed(kReservedWords, name) ||
         listed(kSystemHeaderNames, name) || listed(kCmakeTargetWords, name);
}

bool isAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/// Kept as written: an identifier of letters, digits and single inner
/// underscores, with a lowercase letter, not reserved and not "sg_..." (the
/// mangled names' prefix).
bool keepsItsName(std::string_view name) {
  if (name.empty() || !isAlnum(name[0]) || (name[0] >= '0' && name[0] <= '9') ||
      name.back() == '_' || name.find("__") != std::string_view::npos || name.starts_with("sg_") ||
      isReserved(name))
    return false;
  bool lowercase = false;
  for (char c : name) {
    if (!isAlnum(c) && c != '_')
      return false;
    lowercase = lowercase || (c >= 'a' && c <= 'z');
  }
  return lowercase;
}

constexpr size_t kMaxProgramName = 200; // + "_host.cpp" stays within NAME_MAX

} // namespace

std::string programIdentifier(std::string_view graphName) {
  if (graphName.empty())
    return "program";
  std::string out;
  if (keepsItsName(graphName)) {
    out = graphName;
  } else {
    // "sg_" + letters and digits as they are, every other byte as Z + two hex
    // digits ('Z' itself too): a prefix code, so distinct names stay distinct.
    out = "sg_";
    static constexpr char kHex[] = "0123456789abcdef";
    for (char c : graphName) {
      auto byte = static_cast<unsigned char>(c);
      if (isAlnum(c) && c != 'Z') {
        out += c;
      } else {
        out += 'Z';
        out += kHex[byte >> 4];
        out += kHex[byte & 15];
      }
    }
  }
  if (out.size() <= kMaxProgramName)
    return out;
  // Too long for a file name: a prefix and a 64-bit FNV-1a hash of the whole
  // name (one character longer than any name kept whole).
  uint64_t hash = 14695981039346656037ull;
  for (char c : graphName)
    hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  char suffix[20];
  std::snprintf(suffix, sizeof suffix, "_h%016llx", static_cast<unsigned long long>(hash));
  out.resize(kMaxProgramName + 1 - std::string_view(suffix).size());
  if (out.back() == '_')
    out.back() = 'x';
  return out + suffix;
}

std::string cppStringLiteral(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    unsigned char byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20 || byte == 0x7f) {
      out += '\\';
      out += static_cast<char>('0' + (byte >> 6));
      out += static_cast<char>('0' + ((byte >> 3) & 7));
      out += static_cast<char>('0' + (byte & 7));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string meshDescription(const Mesh &mesh) {
  std::string text = "@" + mesh.name + " [";
  for (size_t i = 0; i < mesh.axes.size(); ++i)
    text += (i ? ", " : "") + mesh.axes[i].name + "=" + std::to_string(mesh.axes[i].size);
  return text + "]";
}

std::string commentText(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n' || c == '\r')
      c = ' ';
    if (c == '*' && i + 1 < text.size() && text[i + 1] == '/')
      c = '+';
    if (c == '\\')
      c = '/'; // a trailing backslash would continue a // comment
    out += c;
  }
  return out;
}

std::string sumIdentityWord(ElementType type) {
  if (isComplex(type)) // (-0, -0): each part's sign bit
    return type == ElementType::C64 ? "static_cast<uint64_t>(0x8000000080000000ull)"
                                    : "Word128{0x8000000000000000ull, 0x8000000000000000ull}";
  if (!isFloat(type))
    return "0";
  if (isMiniFloat(type)) { // -0's code (+0 where the format has no -0: FNUZ)
    Literal zero(TensorType{type, {}});
    zero.setFloat(0, -0.0);
    return "static_cast<uint8_t>(" + std::to_string(static_cast<unsigned>(zero.data()[0])) + ")";
  }
  const size_t bits = 8 * elementByteWidth(type);
  return "static_cast<" + std::string(storageWord(type)) + ">(" +
         std::to_string(uint64_t{1} << (bits - 1)) + "ull)";
}

} // namespace shardgen::codegen
