// program.bin's format: what is written is read back unchanged, and bytes that are not a
// written program (cut anywhere, or altered with a fixed-up checksum) raise ArtifactError,
// never a crash.

#include <doctest/doctest.h>

#include <cstring>
#include <random>

#include "layoutopt/runtime/artifact_error.h"
#include "layoutopt/runtime/artifact_program.h"
#include "layoutopt/runtime/checksum.h"
#include "layoutopt/runtime/error.h"

namespace layoutopt::testing {

namespace {

using namespace layoutopt::runtime;

constexpr size_t kHeaderBytes = 28;  // magic, version, payload size, checksum

KernelSpec kernel(const std::string& symbol, size_t stages, std::vector<int64_t> scratch = {}, bool weight = true) {
  KernelSpec spec{symbol, {}, std::move(scratch), 0};
  for (size_t s = 0; s < stages; ++s)
    spec.stages.push_back({symbol + "_" + std::to_string(s),
                           {StageOperand::input, StageOperand::weight, StageOperand::none, StageOperand::none,
                            s + 1 == stages ? StageOperand::output : StageOperand::scratch0, StageOperand::none},
                           64, false, weight, false, false, false});
  if (stages > 1)
    for (size_t s = 1; s < stages; ++s) spec.stages[s].operands[0] = StageOperand::scratch0;
  return spec;
}

/// A small network using every step kind an artifact holds.
ArtifactProgram small_program() {
  ArtifactProgram program;
  program.target = {"x86_64-pc-linux-gnu", "znver4", {"sse2", "avx2", "fma"}};
  program.threads = 2;
  program.weights = {64, 0x1234};
  NetworkSpec& n = program.network;
  n.name = "small";
  n.slots = {{0, 128, 0}, {1, 128, 0}, {2, 128, 0}, {3, 256, 0}};
  n.storage_offsets = {0, 128, 256, 384};
  n.arena_floats = 640;
  n.constants = {{0, 32}, {32, 32}};
  n.weight_floats = 64;
  n.steps.push_back({"t", "NCHW->NCHW8c", TransformStep{{1, 8, 4, 4}, layout::Layout::nchw(), layout::Layout::nchwc(8), 0, 1}});
  n.steps.push_back({"conv", "k", KernelStep{kernel("conv", 2, {16}), Operand::slot(1), Operand::constant(0), {}, {}, {}, 2}});
  n.steps.push_back({"cat", "c x2", ConcatStep{{kernel("a", 1, {}, false), kernel("b", 1, {}, false)}, {1, 2}, 3, {0, -1}}});
  n.inputs = {{"x", {1, 8, 4, 4}, 0}};
  n.outputs = {{"y", {1, 16, 4, 4}, 3}};
  return program;
}

std::vector<std::byte> with_checksum(std::vector<std::byte> bytes) {
  const uint64_t sum = checksum(std::span(bytes).subspan(kHeaderBytes));
  std::memcpy(bytes.data() + 20, &sum, sizeof sum);
  return bytes;
}

}  // namespace

TEST_CASE("a program reads back as written") {
  const ArtifactProgram program = small_program();
  REQUIRE_NOTHROW(validate(program.network));
  CHECK(decode_program(encode_program(program)) == program);
}

TEST_CASE("a program with a reference step cannot be written, naming its operator") {
  ArtifactProgram program = small_program();
  program.network.steps.push_back({"swap", "reference transpose", ReferenceStep{"transpose", {3}, 3}});
  CHECK_THROWS_WITH_AS((void)encode_program(program), doctest::Contains("transpose"), ArtifactError);
}

TEST_CASE("every cut of a program is refused as truncated or not a program") {
  const std::vector<std::byte> bytes = encode_program(small_program());
  for (size_t size = 0; size < bytes.size(); ++size) {
    CAPTURE(size);
    CHECK_THROWS_AS((void)decode_program(std::span(bytes).first(size)), ArtifactError);
  }
}

TEST_CASE("a byte altered anywhere is refused as damaged") {
  const std::vector<std::byte> bytes = encode_program(small_program());
  for (size_t at = kHeaderBytes; at < bytes.size(); ++at) {
    std::vector<std::byte> damaged = bytes;
    damaged[at] ^= std::byte{0x40};
    CAPTURE(at);
    CHECK_THROWS_WITH_AS((void)decode_program(damaged), doctest::Contains("damaged"), ArtifactError);
  }
}

TEST_CASE("altered payloads with a valid checksum decode to a valid program or raise ArtifactError") {
  const std::vector<std::byte> bytes = encode_program(small_program());
  std::mt19937 rng(7);
  size_t refused = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::vector<std::byte> altered = bytes;
    const int changes = 1 + static_cast<int>(rng() % 3);
    for (int c = 0; c < changes; ++c) {
      const size_t at = kHeaderBytes + rng() % (bytes.size() - kHeaderBytes);
      altered[at] = static_cast<std::byte>(rng() % 4 == 0 ? 0xFF : rng() % 256);
    }
    try {
      const ArtifactProgram program = decode_program(with_checksum(altered));
      CHECK_NOTHROW(validate(program.network));
    } catch (const ArtifactError&) {
      ++refused;
    }
  }
  CHECK(refused > 1000);
}

TEST_CASE("specs whose indices leave their tables are invalid") {
  ArtifactProgram program = small_program();
  SUBCASE("a slot past the arena") { program.network.slots[3].floats = 1000; }
  SUBCASE("a constant past the weights") { program.network.constants[1].floats = 33; }
  SUBCASE("a step reading a slot that does not exist") {
    std::get<KernelStep>(program.network.steps[1].action).input = Operand::slot(9);
  }
  SUBCASE("a kernel missing a pointer it needs") {
    std::get<KernelStep>(program.network.steps[1].action).weight = Operand::none();
  }
  SUBCASE("a stage reading scratch its kernel lacks") {
    std::get<KernelStep>(program.network.steps[1].action).kernel.scratch_floats.clear();
  }
  SUBCASE("a transform whose layout does not fit its shape") {
    std::get<TransformStep>(program.network.steps[0].action).to = layout::Layout::nchwc(16);
  }
  SUBCASE("an output whose slot is not its size") { program.network.outputs[0].shape = {1, 8, 4, 4}; }
  CHECK_THROWS_AS(validate(program.network), KernelError);
  CHECK_THROWS_WITH_AS((void)decode_program(encode_program(program)), doctest::Contains("inconsistent"), ArtifactError);
}

}  // namespace layoutopt::testing
