#include "compiler/jit/ObjectCache.h"
#include "compiler/jit/CppFrontend.h"
#include "compiler/jit/HostTarget.h"
#include "compiler/jit/JitCompiler.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/Support/SHA256.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace shardgen::jit {
namespace {

/// Bump when the entry layout or what goes into the key changes.
constexpr const char *kFormat = "shardgen-jit-object-v1";

std::string hex(llvm::ArrayRef<uint8_t> bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (uint8_t byte : bytes) {
    out += digits[byte >> 4];
    out += digits[byte & 15];
  }
  return out;
}

/// Feeds one field, length-prefixed, so no two field lists hash alike.
void addField(llvm::SHA256 &hash, llvm::StringRef field) {
  std::string length = std::to_string(field.size()) + ":";
  hash.update(llvm::StringRef(length));
  hash.update(field);
}

std::string sha256Hex(llvm::StringRef data) {
  return hex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(data)));
}

std::filesystem::path entryPath(const std::string &dir, const std::string &key) {
  return std::filesystem::path(dir) / (key + ".obj");
}

} // namespace

std::string cacheKey(const std::string &source, const std::string &fileName,
                     const JitOptions &options) {
  llvm::SHA256 hash;
  addField(hash, kFormat);
  addField(hash, LLVM_VERSION_STRING);
  for (const std::string &argument : driverArguments(fileName, options))
    addField(hash, argument);
  addField(hash, hostCpuName());
  for (const std::string &feature : hostCpuFeatures())
    addField(hash, feature);
  addField(hash, source);
  for (const auto &[path, contents] : options.virtualFiles) {
    addField(hash, path);
    addField(hash, contents);
  }
  // Names only: addresses differ from process to process, and the object
  // refers to host symbols by name.
  for (const auto &[name, address] : options.hostSymbols)
    addField(hash, name);
  return hex(hash.final());
}

std::optional<CachedObject> readCachedObject(const std::string &dir, const std::string &key) {
  std::ifstream in(entryPath(dir, key), std::ios::binary);
  if (!in)
    return std::nullopt;
  std::string format, storedKey, checksum;
  size_t symbolCount = 0, objectSize = 0;
  if (!std::getline(in, format) || format != kFormat || !std::getline(in, storedKey) ||
      storedKey != key || !(in >> symbolCount) || in.get() != '\n')
    return std::nullopt;
  CachedObject entry;
  for (size_t i = 0; i < symbolCount; ++i) {
    std::string symbol;
    if (!std::getline(in, symbol))
      return std::nullopt;
    entry.definedSymbols.push_back(std::move(symbol));
  }
  if (!(in >> objectSize) || in.get() != '\n' || !std::getline(in, checksum))
    return std::nullopt;
  // The size is checked against the file before anything that large is
  // allocated: a corrupt header must not ask for gigabytes.
  std::streampos start = in.tellg();
  in.seekg(0, std::ios::end);
  std::streampos end = in.tellg();
  if (start < 0 || end < start || static_cast<size_t>(end - start) != objectSize)
    return std::nullopt;
  in.seekg(start);
  entry.object.resize(objectSize);
  if (!in.read(entry.object.data(), static_cast<std::streamsize>(objectSize)) ||
      sha256Hex(entry.object) != checksum)
    return std::nullopt;
  return entry;
}

void writeCachedObject(const std::string &dir, const std::string &key, const CachedObject &entry) {
  for (const std::string &symbol : entry.definedSymbols)
    if (symbol.find('\n') != std::string::npos)
      return; // not representable in the line-based header
  std::ostringstream header;
  header << kFormat << '\n' << key << '\n' << entry.definedSymbols.size() << '\n';
  for (const std::string &symbol : entry.definedSymbols)
    header << symbol << '\n';
  header << entry.object.size() << '\n' << sha256Hex(entry.object) << '\n';

  std::error_code error;
  std::filesystem::path target = entryPath(dir, key);
  std::filesystem::path temporary = target.string() + ".tmp." +
                                    std::to_string(std::random_device{}()) + "." +
                                    std::to_string(reinterpret_cast<uintptr_t>(&entry));
  bool written = false;
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << header.str();
    out.write(entry.object.data(), static_cast<std::streamsize>(entry.object.size()));
    written = static_cast<bool>(out.flush());
  }
  if (written)
    std::filesystem::rename(temporary, target, error);
  if (!written || error)
    std::filesystem::remove(temporary, error);
}

} // namespace shardgen::jit
