// .npy files of f32 tensors for the sample applications (samples/app,
// samples/mpi_app): version 1, little-endian, C order.
#pragma once

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace sample {

/// Writes the `bytes` bytes at `data` as an f32 tensor of `shape` (`rank` dims).
inline void writeNpy(const std::string &path, const int64_t *shape, int64_t rank, const void *data,
                     size_t bytes) {
  std::string text = "(";
  for (int64_t d = 0; d < rank; ++d)
    text += std::to_string(shape[d]) + (rank == 1 || d + 1 < rank ? "," : "");
  text += ")";
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + text + ", }";
  while ((10 + header.size() + 1) % 64 != 0)
    header += ' ';
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  out.write("\x93NUMPY\x01\x00", 8);
  const unsigned short length = static_cast<unsigned short>(header.size());
  out.write(reinterpret_cast<const char *>(&length), 2);
  out << header;
  out.write(static_cast<const char *>(data), static_cast<std::streamsize>(bytes));
}

/// The first `bytes` data bytes of a version-1 .npy file (empty if unreadable).
inline std::vector<unsigned char> readNpy(const std::string &path, size_t bytes) {
  std::ifstream in(path, std::ios::binary);
  char magic[10] = {};
  in.read(magic, 10);
  unsigned short length = 0;
  std::memcpy(&length, magic + 8, 2);
  in.ignore(length);
  std::vector<unsigned char> data(bytes);
  in.read(reinterpret_cast<char *>(data.data()), static_cast<std::streamsize>(bytes));
  if (!in || std::memcmp(magic, "\x93NUMPY\x01", 7) != 0)
    data.clear();
  return data;
}

} // namespace sample
