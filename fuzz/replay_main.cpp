// A main for the fuzz targets in the ordinary (GCC) build: runs LLVMFuzzerTestOneInput once
// on every file named on the command line, or in a folder named there, so the committed
// regressions and seeds run in ctest without clang. A failing input aborts (or throws) just
// as it does under libFuzzer; the file is printed first so the log names it.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

void replay(const std::filesystem::path& file) {
  std::cout << "replay " << file.string() << std::endl;
  std::ifstream in(file, std::ios::binary);
  const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  (void)LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

}  // namespace

int main(int argc, char** argv) {
  int replayed = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path path = argv[i];
    if (std::filesystem::is_directory(path)) {
      for (const auto& entry : std::filesystem::directory_iterator(path))
        if (entry.is_regular_file()) replay(entry.path()), ++replayed;
    } else if (std::filesystem::is_regular_file(path)) {
      replay(path), ++replayed;
    } else {
      std::cerr << "no such file or folder: " << path.string() << "\n";
      return 2;
    }
  }
  std::cout << replayed << " inputs replayed\n";
  return replayed > 0 ? 0 : 1;
}
