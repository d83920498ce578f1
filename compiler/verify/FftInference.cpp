// fft's type rule (StableHLO's C1 to C5): 1 to 3 trailing dims of the
// transform, complex in and out for FFT and IFFT, real to complex for RFFT
// (the last dim n/2 + 1 long) and complex to real for IRFFT (n long).

#include "compiler/verify/InferenceRules.h"

namespace shardgen::verify {

namespace {

std::string joinLengths(const std::vector<int64_t> &values) { return "[" + joinInts(values) + "]"; }

/// The length of the complex side's last dim for a real side of n.
int64_t halfSpectrum(int64_t n) { return n == 0 ? 0 : n / 2 + 1; }

} // namespace

ResultTypes inferFft(const InferenceContext &context) {
  const auto &attrs = context.attrs<FftAttrs>();
  const std::optional<FftType> type = parseFftType(attrs.fftType);
  if (!type)
    context.failAttr("fft_type", "has unknown fft_type '" + attrs.fftType +
                                     "' (expected FFT, IFFT, RFFT or IRFFT)");
  const std::vector<int64_t> &lengths = attrs.fftLength;
  const auto rank = static_cast<int64_t>(lengths.size());
  if (rank < 1 || rank > 3)
    context.failAttr("fft_length",
                     "requires 1 to 3 fft_length entries, got " + std::to_string(rank));
  for (int64_t length : lengths)
    if (length < 0)
      context.failAttr("fft_length",
                       "requires non-negative fft_length entries, got " + joinLengths(lengths));
  const TensorType &operand = context.operand(0);
  if (operand.rank() < rank)
    context.failOp("requires an operand of rank at least size(fft_length) = " +
                   std::to_string(rank) + ", got " + printType(operand));
  const ElementType element = operand.elementType;
  TensorType result = operand;
  const int64_t first = operand.rank() - rank, last = operand.rank() - 1;
  // The first `count` of the trailing dims the transform runs over: the
  // lengths (all of them but IRFFT's last, which is the result's).
  const auto requireLengths = [&](int64_t count) {
    for (int64_t i = 0; i < count; ++i)
      if (operand.shape[first + i] != lengths[i])
        context.failAttr("fft_length", "with fft_type " + attrs.fftType +
                                           " requires the operand's trailing dims to be " +
                                           (count == rank ? "" : "(but the last) ") +
                                           "fft_length " + joinLengths(lengths) + ", got " +
                                           printType(operand));
  };
  switch (*type) {
  case FftType::Fft:
  case FftType::Ifft:
    if (!isComplex(element))
      context.failOp("with fft_type " + attrs.fftType + " requires a complex operand, got " +
                     printType(operand));
    requireLengths(rank);
    break;
  case FftType::Rfft:
    if (element != ElementType::F32 && element != ElementType::F64)
      context.failOp("with fft_type RFFT requires an f32 or f64 operand, got " +
                     printType(operand));
    requireLengths(rank);
    result.elementType = complexOf(element);
    result.shape[last] = halfSpectrum(lengths.back());
    break;
  case FftType::Irfft:
    if (!isComplex(element))
      context.failOp("with fft_type IRFFT requires a complex operand, got " + printType(operand));
    requireLengths(rank - 1);
    if (operand.shape[last] != halfSpectrum(lengths.back()))
      context.failAttr("fft_length", "with fft_type IRFFT requires the operand's last dim to be "
                                     "fft_length[-1] / 2 + 1 = " +
                                         std::to_string(halfSpectrum(lengths.back())) +
                                         " (0 for 0), got " + printType(operand));
    result.elementType = complexPartType(element);
    result.shape[last] = lengths.back();
    break;
  }
  return {result};
}

} // namespace shardgen::verify
