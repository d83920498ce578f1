// .npy reading and writing. Expected bytes are derived by hand from the npy
// format (numpy/lib/format.py): magic, version, little-endian header length,
// the dict with numpy's 21-digit growth padding, spaces and '\n' up to a
// 64-byte boundary, then the raw data.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <unistd.h>

#include "compiler/frontend/Npy.h"
#include "compiler/ir/Float16.h"

using namespace shardgen;
namespace fs = std::filesystem;

namespace {

std::string bytesOf(std::initializer_list<int> values) {
  std::string out;
  for (int v : values)
    out += static_cast<char>(v);
  return out;
}

/// A version-1.0 file with `dict` padded to 64 bytes (as numpy would) and `data`.
std::string npyFile(const std::string &dict, const std::string &data, int major = 1) {
  size_t lengthWidth = major == 1 ? 2 : 4;
  size_t total = 8 + lengthWidth + dict.size() + 1;
  size_t padding = (64 - total % 64) % 64;
  size_t headerLength = dict.size() + padding + 1;
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  for (size_t i = 0; i < lengthWidth; ++i)
    out += static_cast<char>((headerLength >> (8 * i)) & 0xff);
  return out + dict + std::string(padding, ' ') + "\n" + data;
}

std::string npyErrorOf(const std::string &bytes) {
  try {
    parseNpy(bytes, "x.npy");
  } catch (const NpyError &error) {
    return error.what();
  }
  FAIL("expected an NpyError");
  return {};
}

fs::path scratchDir() {
  fs::path dir = fs::temp_directory_path() / ("shardgen_npy_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

} // namespace

TEST_CASE("npy: headers are byte-exact with np.save") {
  SUBCASE("2x3 float32") {
    Literal literal(TensorType{ElementType::F32, {2, 3}});
    for (int i = 0; i < 6; ++i)
      literal.setFloat(i, i);
    std::string expected = "\x93NUMPY" + bytesOf({1, 0, 118, 0}) +
                           "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }" +
                           std::string(58, ' ') + "\n";
    std::string bytes = serializeNpy(literal);
    REQUIRE(bytes.size() == 128 + 24);
    CHECK(bytes.substr(0, 128) == expected);
    float third;
    std::memcpy(&third, bytes.data() + 128 + 8, 4);
    CHECK(third == 2.0f);
  }
  SUBCASE("scalar int64: no growth padding") {
    Literal literal(TensorType{ElementType::I64, {}});
    literal.setInt(0, -2);
    std::string expected = "\x93NUMPY" + bytesOf({1, 0, 118, 0}) +
                           "{'descr': '<i8', 'fortran_order': False, 'shape': (), }" +
                           std::string(62, ' ') + "\n" +
                           bytesOf({0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff});
    CHECK(serializeNpy(literal) == expected);
  }
  SUBCASE("1-d bool: the one-element tuple keeps its comma") {
    Literal literal(TensorType{ElementType::I1, {5}});
    literal.setInt(1, 1);
    std::string expected = "\x93NUMPY" + bytesOf({1, 0, 118, 0}) +
                           "{'descr': '|b1', 'fortran_order': False, 'shape': (5,), }" +
                           std::string(60, ' ') + "\n" + bytesOf({0, 1, 0, 0, 0});
    CHECK(serializeNpy(literal) == expected);
  }
  SUBCASE("bf16 is written as ml_dtypes' np.save writes it") {
    Literal literal(TensorType{ElementType::BF16, {1}});
    literal.setFloat(0, 1.0);
    std::string bytes = serializeNpy(literal);
    CHECK(bytes.find("'descr': '<V2'") != std::string::npos);
    CHECK(bytes.substr(128) == bytesOf({0x80, 0x3f}));
  }
}

TEST_CASE("npy: every element type round-trips through a file") {
  fs::path dir = scratchDir();
  std::mt19937_64 random(7);
  for (ElementType type :
       {ElementType::F32, ElementType::F64, ElementType::F16, ElementType::BF16, ElementType::I1,
        ElementType::I8, ElementType::I32, ElementType::I64, ElementType::UI8, ElementType::UI32}) {
    INFO(elementTypeName(type));
    Literal literal(TensorType{type, {3, 1, 5}});
    for (int64_t i = 0; i < literal.numElements(); ++i) {
      uint64_t bits = random();
      std::memcpy(literal.data() + i * elementByteWidth(type), &bits, elementByteWidth(type));
      if (type == ElementType::I1)
        literal.setInt(i, bits & 1);
    }
    std::string path = (dir / (std::string(elementTypeName(type)) + ".npy")).string();
    writeNpy(path, literal);
    CHECK(readNpy(path) == literal);
  }
  // Nothing but the outputs is left behind.
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 10);
  fs::remove_all(dir);
}

TEST_CASE("npy: reading what other writers produce") {
  SUBCASE("version 2.0 and 3.0 headers") {
    for (int major : {2, 3}) {
      Literal literal =
          parseNpy(npyFile("{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }",
                           bytesOf({1, 0, 0, 0, 2, 0, 0, 0}), major),
                   "v.npy");
      CHECK(literal.type() == TensorType{ElementType::I32, {2}});
      CHECK(literal.as<int32_t>()[1] == 2);
    }
  }
  SUBCASE("big-endian data is byte-swapped") {
    Literal literal = parseNpy(npyFile("{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }",
                                       bytesOf({0, 0, 1, 2, 0xff, 0xff, 0xff, 0xfe})),
                               "b.npy");
    CHECK(literal.as<int32_t>()[0] == 0x0102);
    CHECK(literal.as<int32_t>()[1] == -2);
    Literal f = parseNpy(npyFile("{'descr': '>f8', 'fortran_order': False, 'shape': (), }",
                                 bytesOf({0x3f, 0xf8, 0, 0, 0, 0, 0, 0})),
                         "f.npy");
    CHECK(f.as<double>()[0] == 1.5);
  }
  SUBCASE("fortran order is transposed to row-major") {
    // [[0, 1, 2], [3, 4, 5]] stored column by column: 0 3 1 4 2 5.
    Literal literal = parseNpy(npyFile("{'descr': '|u1', 'fortran_order': True, 'shape': (2, 3), }",
                                       bytesOf({0, 3, 1, 4, 2, 5})),
                               "f.npy");
    for (int i = 0; i < 6; ++i)
      CHECK(literal.as<uint8_t>()[i] == i);
    // Rank 3, shape (2, 2, 2): element (i, j, k) = 4i + 2j + k, stored i fastest.
    std::string data;
    for (int k = 0; k < 2; ++k)
      for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 2; ++i)
          data += static_cast<char>(4 * i + 2 * j + k);
    Literal cube = parseNpy(
        npyFile("{'descr': '|i1', 'fortran_order': True, 'shape': (2, 2, 2), }", data), "c.npy");
    for (int i = 0; i < 8; ++i)
      CHECK(cube.as<int8_t>()[i] == i);
  }
  SUBCASE("bf16 as '<V2' and 'bfloat16'; '<u2' is ui16, taken as bf16 bits where wanted") {
    for (std::string descr : {"<V2", "|V2", "bfloat16"}) {
      Literal literal =
          parseNpy(npyFile("{'descr': '" + descr + "', 'fortran_order': False, 'shape': (1,), }",
                           bytesOf({0xc0, 0x3f})),
                   "h.npy");
      CHECK(literal.elementType() == ElementType::BF16);
      CHECK(literal.getFloat(0) == 1.5);
    }
    Literal bits = parseNpy(
        npyFile("{'descr': '<u2', 'fortran_order': False, 'shape': (1,), }", bytesOf({0xc0, 0x3f})),
        "u.npy");
    CHECK(bits.type() == TensorType{ElementType::UI16, {1}});
    CHECK(bits.getInt(0) == 0x3fc0);
    CHECK(isBf16Bits(bits.type(), TensorType{ElementType::BF16, {1}}));
    CHECK(!isBf16Bits(bits.type(), TensorType{ElementType::BF16, {2}}));
    CHECK(!isBf16Bits(bits.type(), TensorType{ElementType::F16, {1}}));
    CHECK(bf16FromBits(bits).getFloat(0) == 1.5);
  }
  SUBCASE("16- and 64-bit integers as numpy writes them") {
    Literal i16 = parseNpy(npyFile("{'descr': '<i2', 'fortran_order': False, 'shape': (2,), }",
                                   bytesOf({0xff, 0xff, 0x00, 0x80})),
                           "i.npy");
    CHECK(i16.type() == TensorType{ElementType::I16, {2}});
    CHECK(i16.getInt(0) == -1);
    CHECK(i16.getInt(1) == -32768);
    Literal u64 = parseNpy(npyFile("{'descr': '>u8', 'fortran_order': False, 'shape': (1,), }",
                                   bytesOf({0xff, 0, 0, 0, 0, 0, 0, 1})),
                           "u.npy");
    CHECK(u64.type() == TensorType{ElementType::UI64, {1}});
    CHECK(u64.integerText(0) == "18374686479671623681");
    CHECK(u64.getFloat(0) == 18374686479671623681.0);
    CHECK(serializeNpy(u64).find("'descr': '<u8'") != std::string::npos);
  }
  SUBCASE("complex64 and complex128 as (real, imaginary) pairs; big-endian parts swap alone") {
    Literal c8 = parseNpy(npyFile("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }",
                                  bytesOf({0, 0, 0xc0, 0x3f, 0, 0, 0, 0xc0})),
                          "c.npy");
    CHECK(c8.type() == TensorType{ElementType::C64, {1}});
    CHECK(c8.getFloat(0) == 1.5);
    CHECK(c8.getImag(0) == -2);
    Literal c16 =
        parseNpy(npyFile("{'descr': '>c16', 'fortran_order': False, 'shape': (1,), }",
                         bytesOf({0x3f, 0xf8, 0, 0, 0, 0, 0, 0, 0xc0, 0, 0, 0, 0, 0, 0, 0})),
                 "c.npy");
    CHECK(c16.type() == TensorType{ElementType::C128, {1}});
    CHECK(c16.getFloat(0) == 1.5);
    CHECK(c16.getImag(0) == -2);
    CHECK(serializeNpy(c16).find("'descr': '<c16'") != std::string::npos);
    CHECK(parseNpy(serializeNpy(c16), "back.npy") == c16);
  }
  SUBCASE("sub-byte integers travel as int8/uint8, range-checked where the graph wants them") {
    Literal bytes = parseNpy(npyFile("{'descr': '|i1', 'fortran_order': False, 'shape': (3,), }",
                                     bytesOf({0xf8, 0x07, 0x08})),
                             "i.npy");
    CHECK(isSubByteBytes(bytes.type(), TensorType{ElementType::I4, {3}}));
    CHECK(!isSubByteBytes(bytes.type(), TensorType{ElementType::UI4, {3}}));
    CHECK(!isSubByteBytes(bytes.type(), TensorType{ElementType::I4, {2}}));
    CHECK(!isSubByteBytes(bytes.type(), TensorType{ElementType::I8, {3}}));
    Literal i8 = parseNpy(
        npyFile("{'descr': '|i1', 'fortran_order': False, 'shape': (2,), }", bytesOf({0xf8, 0x07})),
        "i.npy");
    Literal i4 = subByteFromBytes(i8, ElementType::I4, "i.npy");
    CHECK(i4.type() == TensorType{ElementType::I4, {2}});
    CHECK(i4.getInt(0) == -8);
    CHECK(i4.getInt(1) == 7);
    CHECK(serializeNpy(i4).find("'descr': '|i1'") != std::string::npos);
    try {
      subByteFromBytes(bytes, ElementType::I4, "i.npy");
      FAIL("expected an NpyError");
    } catch (const NpyError &error) {
      CHECK(std::string(error.what()) == "i.npy: value 8 at flat index 2 is out of range for i4");
    }
  }
  SUBCASE("8-, 6- and 4-bit floats travel as uint8 codes; an f6/f4 code is range-checked") {
    Literal codes = parseNpy(npyFile("{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }",
                                     bytesOf({0x38, 0x7f, 0x0f})),
                             "f.npy");
    CHECK(isSubByteBytes(codes.type(), TensorType{ElementType::F8E4M3FN, {3}}));
    CHECK(!isSubByteBytes(codes.type(), TensorType{ElementType::F8E4M3FN, {2}}));
    Literal f8 = subByteFromBytes(codes, ElementType::F8E4M3FN, "f.npy");
    CHECK(f8.getFloat(0) == 1.0);
    CHECK(std::isnan(f8.getFloat(1)));
    CHECK(f8.getFloat(2) == 0.029296875); // 0x0f: 1.875 * 2^-6
    CHECK(serializeNpy(f8).find("'descr': '|u1'") != std::string::npos);
    try {
      subByteFromBytes(codes, ElementType::F4E2M1FN, "f.npy");
      FAIL("expected an NpyError");
    } catch (const NpyError &error) {
      CHECK(std::string(error.what()) == "f.npy: byte 56 at flat index 0 is no f4E2M1FN code");
    }
  }
  SUBCASE("header variations: double quotes, key order, no trailing comma, Python 2 longs") {
    Literal literal =
        parseNpy(npyFile(R"({"shape": (3L, 1L), "fortran_order": False, "descr": "<f2"})",
                         bytesOf({0, 0x3c, 0, 0x40, 0, 0xbc})),
                 "p.npy");
    CHECK(literal.type() == TensorType{ElementType::F16, {3, 1}});
    CHECK(literal.getFloat(2) == -1.0);
  }
  SUBCASE("nonzero bool bytes read as true") {
    Literal literal = parseNpy(
        npyFile("{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }", bytesOf({0, 7})),
        "t.npy");
    CHECK(literal.as<uint8_t>()[1] == 1);
  }
}

TEST_CASE("npy: errors name the file and the problem") {
  CHECK(npyErrorOf("GIF89a....") == "x.npy: not a .npy file (bad magic)");
  CHECK(npyErrorOf(npyFile("{'descr': '<c32', 'fortran_order': False, 'shape': (1,), }",
                           std::string(32, '\0'))) ==
        "x.npy: unsupported dtype '<c32' (supported: <f4 <f8 <f2 |b1 |i1 <i2 <i4 <i8 |u1 <u2 <u4 "
        "<u8 <c8 <c16, and <V2 for bf16)");
  CHECK(npyErrorOf(npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
                           std::string(20, '\0'))) ==
        "x.npy: truncated data: shape (2x3) of '<f4' needs 24 bytes, the file has 20");
  CHECK(npyErrorOf(npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
                           std::string(25, '\0'))) ==
        "x.npy: trailing data: shape (2x3) of '<f4' needs 24 bytes, the file has 25");
  CHECK(npyErrorOf(npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': "
                           "(4611686018427387904, 4611686018427387904, 0), }",
                           "")) ==
        "x.npy: shape (4611686018427387904x4611686018427387904x0) is too large");
  CHECK(npyErrorOf(npyFile("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }",
                           std::string(4, '\0'))) ==
        "x.npy: bad header: 'descr' is not a simple dtype string (structured dtypes are not "
        "supported)");
  CHECK(npyErrorOf(npyFile("{'descr': '<f4', 'shape': (1,), }", std::string(4, '\0'))) ==
        "x.npy: bad header: header lacks one of 'descr', 'fortran_order', 'shape'");
  // A NUL in the header is escaped (a message is a C string on its way out:
  // it ended there).
  CHECK(npyErrorOf(npyFile(std::string("{'descr': '<f4\0zz', 'fortran_order': False, "
                                       "'shape': (1,), }",
                                       60),
                           std::string(4, '\0'))) ==
        "x.npy: unsupported dtype '<f4\\x00zz' (supported: <f4 <f8 <f2 |b1 |i1 <i2 <i4 <i8 |u1 "
        "<u2 <u4 <u8 <c8 <c16, and <V2 for bf16)");
  std::string v4 = npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (), }", "abcd");
  v4[6] = 4;
  CHECK(npyErrorOf(v4) == "x.npy: unsupported .npy format version 4.0 (reads 1.0, 2.0 and 3.0)");
  std::string header = npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (), }", "");
  CHECK(npyErrorOf(header.substr(0, 40)) == "x.npy: truncated header: expected 118 bytes");

  CHECK_THROWS_WITH_AS(readNpy("/nonexistent/in.npy"),
                       "/nonexistent/in.npy: cannot open: No such file or directory", NpyError);
  CHECK_THROWS_AS(writeNpy("/nonexistent/out.npy", Literal(TensorType{ElementType::F32, {1}})),
                  NpyError);
  CHECK_FALSE(fs::exists("/nonexistent/out.npy"));
}

TEST_CASE("npy: a file whose header length is 0 or 1 is refused, not read past") {
  // The reader's first read (12 bytes) reached past such a header, and the
  // rest of the header to read wrapped around: the file's bytes were
  // written past a string's buffer (SIGSEGV; ASan: stack-buffer-overflow).
  for (char length : {'\0', '\1'}) {
    std::string path = (scratchDir() / "short_header.npy").string();
    std::ofstream(path, std::ios::binary)
        << std::string("\x93NUMPY\x01\x00", 8) << length << '\0' << std::string(5000, 'A');
    CHECK_THROWS_WITH_AS(readNpy(path),
                         (path + ": header of " + std::to_string(int(length)) +
                          " bytes is too short to hold its dictionary")
                             .c_str(),
                         NpyError);
  }
}

TEST_CASE("npy: a header too long for 16 bits is written as version 2.0") {
  // 30000 dims of size 1: the shape tuple alone takes 90000 characters.
  Literal literal(TensorType{ElementType::I8, std::vector<int64_t>(30000, 1)});
  literal.setInt(0, 42);
  std::string bytes = serializeNpy(literal);
  CHECK(bytes[6] == 2);
  CHECK(bytes[7] == 0);
  uint32_t headerLength;
  std::memcpy(&headerLength, bytes.data() + 8, 4);
  CHECK((12 + headerLength) % 64 == 0);
  CHECK(bytes.size() == 12 + headerLength + 1);
  CHECK(bytes[12 + headerLength - 1] == '\n');
  CHECK(parseNpy(bytes, "long.npy") == literal);
}

TEST_CASE("npy: empty tensors") {
  Literal empty(TensorType{ElementType::F32, {0, 3}});
  std::string bytes = serializeNpy(empty);
  CHECK(bytes.size() == 128);
  CHECK(bytes.find("'shape': (0, 3), }") != std::string::npos);
  CHECK(parseNpy(bytes, "e.npy") == empty);
}
