#include <cstring>
#include <fstream>
#include <iterator>

#include "layoutopt/runtime/artifact_error.h"
#include "layoutopt/runtime/artifact_program.h"

namespace layoutopt::runtime {

ArtifactProgram read_program_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw ArtifactError("cannot open " + path.string() + ": " + std::strerror(errno));
  const std::vector<char> text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (file.bad()) throw ArtifactError("cannot read " + path.string());
  return decode_program(std::as_bytes(std::span(text)));
}

void write_program_file(const std::filesystem::path& path, const ArtifactProgram& program) {
  const std::vector<std::byte> bytes = encode_program(program);
  std::ofstream file(path, std::ios::binary);
  file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  file.close();
  if (!file) throw ArtifactError("cannot write " + path.string());
}

}  // namespace layoutopt::runtime
