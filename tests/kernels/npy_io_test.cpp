// .npy files: round trips, NumPy's own files (float32 and float64), and clear refusals.

#include "layoutopt/kernels/reference/npy_io.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

using layoutopt::kernels::reference::HostTensor;
using layoutopt::kernels::reference::load_npy;
using layoutopt::kernels::reference::NpyError;
using layoutopt::kernels::reference::save_npy;

namespace {

std::filesystem::path temp_file(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("layoutopt_npy_test_" + name);
}

/// A file made the way numpy.save writes version 1.0 (header padded to 64 bytes).
void write_numpy_style(const std::filesystem::path& path, const std::string& descr, const std::string& shape,
                       const std::string& data, bool fortran = false) {
  std::string header = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
                       ", 'shape': " + shape + ", }";
  header.append(64 - (10 + header.size() + 1) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  out << "\x93NUMPY" << char{1} << char{0} << static_cast<char>(header.size()) << char{0} << header << data;
}

}  // namespace

TEST_CASE("a tensor survives a save / load round trip") {
  HostTensor tensor({2, 3, 4});
  for (size_t i = 0; i < tensor.data.size(); ++i) tensor.data[i] = static_cast<float>(i) * 0.5f - 3.0f;
  const auto path = temp_file("roundtrip.npy");
  save_npy(tensor, path);
  const HostTensor back = load_npy(path);
  CHECK(back.shape == tensor.shape);
  CHECK(back.data == tensor.data);
  // The header is padded so the data starts at a multiple of 64 bytes, as NumPy requires.
  CHECK(std::filesystem::file_size(path) % 64 == (tensor.data.size() * 4) % 64);
  std::filesystem::remove(path);
}

TEST_CASE("a tensor of very high rank is written as version 2.0, whose header length has 4 bytes") {
  // "1, " 30,000 times: past 65,535 bytes (and past what the std::regex reader once parsed
  // without overflowing its stack).
  HostTensor tensor(std::vector<int64_t>(30000, 1));
  tensor.data = {42.0f};
  const auto path = temp_file("rank.npy");
  save_npy(tensor, path);
  std::ifstream in(path, std::ios::binary);
  char preamble[8] = {};
  in.read(preamble, 8);
  CHECK(preamble[6] == 2);
  const HostTensor back = load_npy(path);
  CHECK(back.shape == tensor.shape);
  CHECK(back.data == tensor.data);
  std::filesystem::remove(path);
}

TEST_CASE("NumPy's float64 files are read and rounded to float32") {
  const double values[3] = {1.5, -2.25, 1e-3};
  const auto path = temp_file("f8.npy");
  write_numpy_style(path, "<f8", "(3,)", std::string(reinterpret_cast<const char*>(values), sizeof(values)));
  const HostTensor tensor = load_npy(path);
  CHECK(tensor.shape == std::vector<int64_t>{3});
  CHECK(tensor.data[1] == -2.25f);
  CHECK(tensor.data[2] == static_cast<float>(1e-3));
  std::filesystem::remove(path);
}

TEST_CASE("unreadable files are refused naming the problem") {
  const auto path = temp_file("bad.npy");
  {
    std::ofstream(path) << "not numpy";
  }
  CHECK_THROWS_WITH_AS((void)load_npy(path), doctest::Contains("not a NumPy .npy file"), NpyError);
  write_numpy_style(path, "<i8", "(2,)", std::string(16, '\0'));
  CHECK_THROWS_WITH_AS((void)load_npy(path), doctest::Contains("dtype '<i8'"), NpyError);
  write_numpy_style(path, "<f4", "(2, 2)", std::string(16, '\0'), true);
  CHECK_THROWS_WITH_AS((void)load_npy(path), doctest::Contains("Fortran order"), NpyError);
  write_numpy_style(path, "<f4", "(4, 4)", std::string(12, '\0'));
  CHECK_THROWS_WITH_AS((void)load_npy(path), doctest::Contains("its shape needs 64"), NpyError);
  // Shapes found by fuzz/npy_fuzz.cpp: an extent past 64 bits threw std::out_of_range, and a
  // product past 64 bits allocated before the data size was checked.
  for (const char* shape : {"(18446744073709551616,)", "(4(1,),)", "(2, 0)", "(,)", "(-1,)"}) {
    CAPTURE(shape);
    write_numpy_style(path, "<f4", shape, std::string(16, '\0'));
    CHECK_THROWS_WITH_AS((void)load_npy(path), doctest::Contains("not a tuple of positive integers"), NpyError);
  }
  write_numpy_style(path, "<f4", "(4294967296, 4294967296, 4)", std::string(16, '\0'));
  CHECK_THROWS_WITH_AS((void)load_npy(path), doctest::Contains("too large"), NpyError);
  std::filesystem::remove(path);
  CHECK_THROWS_WITH_AS((void)load_npy(path), doctest::Contains("cannot be opened"), NpyError);
}
