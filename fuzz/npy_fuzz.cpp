// Fuzz target: a .npy file as `layoutopt run --input` reads it (load_npy), then written with
// save_npy and read again: shape and every float must survive bit for bit. Rejections are
// NpyError.
#include <cstdlib>
#include <cstring>

#include "fuzz_input.h"
#include "layoutopt/kernels/reference/npy_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace layoutopt::kernels::reference;
  const layoutopt::fuzz::MemoryFile file(data, size);
  layoutopt::fuzz::rejecting_only<NpyError>([&] {
    const HostTensor tensor = load_npy(file.path());
    const layoutopt::fuzz::MemoryFile copy(nullptr, 0);
    save_npy(tensor, copy.path());
    const HostTensor again = load_npy(copy.path());
    if (again.shape != tensor.shape || again.data.size() != tensor.data.size() ||
        std::memcmp(again.data.data(), tensor.data.data(), tensor.data.size() * sizeof(float)) != 0)
      std::abort();  // lost in the round trip
  });
  return 0;
}
