#pragma once
// numpy .npy files <-> Literal: tensors for `eval`/`run` inputs and outputs.
//
// Reading accepts format versions 1.0, 2.0 and 3.0, either byte order and
// fortran_order (transposed to row-major). Writing produces exactly what
// np.save writes (version 1.0; 2.0 when the header needs it).
//
// bf16: numpy has no bfloat16. np.save of an ml_dtypes.bfloat16 array writes
// descr '<V2' (ml_dtypes registers bfloat16 with the void type code, see
// jax-ml/ml_dtypes#41), so that is what shardgen writes and reads;
// np.load(...).view(ml_dtypes.bfloat16) recovers the array. Reading also
// accepts 'bfloat16' (headers written by hand with str(dtype)). '<u2' is
// ui16; a bf16 input given as its bit patterns saved as uint16 is taken as
// bf16 by the caller, which knows the graph's type (bf16InputFromBits).

#include <functional>
#include <stdexcept>
#include <string>

#include "compiler/ir/Literal.h"

namespace shardgen {

/// A .npy file that cannot be read or written; the message starts with the path.
class NpyError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Headers longer than this are refused (numpy's own limit is 10000 bytes).
inline constexpr size_t kMaxHeaderBytes = size_t(1) << 20;

/// Reads `path` (a file, pipe or device), refusing one whose size differs
/// from what its header promises before reading the data. `checkType`, if
/// given, sees the header's type first (and may throw).
Literal readNpy(const std::string &path,
                const std::function<void(const TensorType &)> &checkType = {});
/// Writes through a temporary file renamed into place: no partial output.
void writeNpy(const std::string &path, const Literal &literal);

/// Whether a file of type `file` is a `wanted` bf16 tensor saved as its
/// uint16 bit patterns (numpy without ml_dtypes saves bf16 so).
bool isBf16Bits(const TensorType &file, const TensorType &wanted);
/// The file's literal as the bf16 tensor it holds (isBf16Bits).
Literal bf16FromBits(const Literal &bits);

/// Whether a file of type `file` holds a `wanted` sub-byte integer tensor
/// (i2/i4 as int8, ui2/ui4 as uint8: what shardgen writes for them) or a
/// mini float one (f8E4M3FN, ..., f4E2M1FN as uint8 codes).
bool isSubByteBytes(const TensorType &file, const TensorType &wanted);
/// The file's bytes as `type` (isSubByteBytes); an NpyError names the first
/// value out of the type's range (an f6/f4 code is below 2^6 / 2^4).
Literal subByteFromBytes(const Literal &bytes, ElementType type, const std::string &name);

/// The in-memory forms behind readNpy/writeNpy; `name` prefixes messages.
Literal parseNpy(std::string_view bytes, const std::string &name);
std::string serializeNpy(const Literal &literal);

} // namespace shardgen
