#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "layoutopt/graph/zoo/zoo.h"
#include "layoutopt/kernels/default_channel_block.h"
#include "layoutopt/timing/cost_policy.h"
#include "layoutopt/costs/transform_enumeration.h"
#include "layoutopt/costs/transform_table.h"
#include "layoutopt/costs/transform_timing.h"
#include "layoutopt/tuning/tuning_task.h"
#include "tuning_fixtures.h"

using namespace layoutopt;
using namespace layoutopt::costs;
using testing::ScratchFile;

namespace {

using Shape = std::vector<int64_t>;

bool contains(const std::vector<TransformKey>& keys, const TransformKey& key) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

/// A key from its layouts' spellings, as a table file holds them.
TransformKey key(const Shape& shape, std::string_view src, std::string_view dst) {
  return {shape, layout::Layout::parse(src), layout::Layout::parse(dst)};
}

timing::TimingPolicy quick_policy() {
  timing::TimingPolicy policy = timing::cost_policy(1, 0.0);
  policy.min_repeats = 2;
  policy.warmup_runs = 1;
  return policy;
}

TransformEntry entry(const std::string& target, const TransformKey& key, double ms) {
  return {target, 1, key, ms, ms, ms, 5, 1.7e9};
}

}  // namespace

TEST_CASE("resnet-18 transform enumeration without records: every vector-friendly block pair") {
  const graph::Graph g = graph::zoo::build("resnet-18");
  const std::vector<TransformKey> keys = enumerate_transforms(g);
  std::set<Shape> shapes;
  for (const TransformKey& k : keys) shapes.insert(k.shape);
  // The image (3 channels) has no vector-friendly block: it stays NCHW, no transform.
  CHECK(shapes == std::set<Shape>{{1, 64, 112, 112}, {1, 64, 56, 56}, {1, 128, 28, 28}, {1, 256, 14, 14},
                                  {1, 512, 7, 7}, {1, 512}, {1, 1000}});
  // Six layouts (plain, 4, 8, 16, 32, 64) give 30 ordered pairs per conv tensor; the
  // classifier output (1000 channels) takes blocks 4 and 8 and the dense default's block
  // (8, or 40 where 8 lanes run at half the rate).
  const size_t classifier_layouts = 1 + std::set<int64_t>{4, 8, kernels::default_channel_block(1000)}.size();
  CHECK(keys.size() == 6 * 30 + classifier_layouts * (classifier_layouts - 1));
  CHECK(contains(keys, key({1, 64, 56, 56}, "NCHW", "NCHW16c")));
  CHECK(contains(keys, key({1, 64, 56, 56}, "NCHW16c", "NCHW")));
  CHECK(contains(keys, key({1, 512, 7, 7}, "NCHW8c", "NCHW64c")));
  CHECK(contains(keys, key({1, 512}, "NC", "NC16c")));
  CHECK(contains(keys, key({1, 1000}, "NC8c", "NC4c")));
  CHECK_FALSE(contains(keys, key({1, 1000}, "NC", "NC16c")));
  CHECK(std::is_sorted(keys.begin(), keys.end()));
}

TEST_CASE("with tuned candidates only their blocks are enumerated") {
  const graph::Graph g = graph::zoo::build("resnet-18");
  TunedBlocks tuned;
  for (const tuning::TuningTask& task : tuning::extract_tasks(g)) tuned[task.task_key()] = {{16}, {16}};
  const std::vector<TransformKey> keys = enumerate_transforms(g, tuned);
  // Per tensor shape: NCHW <-> NCHW16c only, which is also every default config's block;
  // the 1000-wide output cannot take 16, but the dense default config writes its default block.
  CHECK(contains(keys, key({1, 128, 28, 28}, "NCHW", "NCHW16c")));
  CHECK(contains(keys, key({1, 3, 224, 224}, "NCHW", "NCHW16c")) == false);
  CHECK(contains(keys, key({1, 1000}, "NC", "NC" + std::to_string(kernels::default_channel_block(1000)) + "c")));
  CHECK(keys.size() == 2 * 6 + 2);
}

TEST_CASE("candidate blocks within the slack of the best become the tensor's layouts") {
  std::vector<tuning::LayoutCandidate> candidates{{0, 1.0, {layout::Layout::nchwc(16), {}, layout::Layout::nchwc(32)}},
                                          {1, 1.5, {layout::Layout::nchwc(8), {}, layout::Layout::nchwc(8)}},
                                          {2, 9.0, {layout::Layout::nchwc(4), {}, layout::Layout::nchwc(4)}}};
  const TensorBlocks blocks = blocks_of(candidates, 2.0);
  CHECK(blocks.input == std::set<int64_t>{8, 16});
  CHECK(blocks.output == std::set<int64_t>{8, 32});
}

TEST_CASE("a side keeps the blocks of its fastest candidates, at most max_blocks of them") {
  // Near-equal candidates in many blocks (a 1x1 conv hardly minds its input block); listed
  // slowest first, so the cap must sort them.
  std::vector<tuning::LayoutCandidate> candidates;
  const std::vector<int64_t> input_blocks{2, 4, 8, 16, 32};
  for (size_t i = 0; i < input_blocks.size(); ++i)
    candidates.push_back({static_cast<int64_t>(i), 1.5 - 0.1 * static_cast<double>(i),
                          {layout::Layout::nchwc(input_blocks[i]), {}, layout::Layout::nchwc(16)}});
  const TensorBlocks blocks = blocks_of(candidates, 2.0, 3);
  CHECK(blocks.input == std::set<int64_t>{8, 16, 32});
  CHECK(blocks.output == std::set<int64_t>{16});
  CHECK(blocks_of(candidates, 2.0, 5).input.size() == 5);
}

TEST_CASE("transform table JSON round trip") {
  TransformTable table;
  table.insert(entry("llvm -mcpu=a", key({1, 64, 56, 56}, "NCHW", "NCHW16c"), 0.08));
  table.insert(entry("llvm -mcpu=b", key({1, 512}, "NC", "NC8c"), 0.001));
  const TransformTable back = TransformTable::from_json(nlohmann::json::parse(table.to_json().dump()));
  REQUIRE(back.entries().size() == 2);
  const TransformEntry* e = back.find("llvm -mcpu=a", 1, key({1, 64, 56, 56}, "NCHW", "NCHW16c"));
  REQUIRE(e != nullptr);
  CHECK(e->median_ms == doctest::Approx(0.08));
  CHECK(back.find("llvm -mcpu=a", 2, key({1, 64, 56, 56}, "NCHW", "NCHW16c")) == nullptr);
}

TEST_CASE("a table written by an earlier layoutopt loads and is written again byte for byte") {
  // Blocks of 1 spelled out (NCHW1c), 2-D and 3-D tensors, another CPU's entry and an entry
  // no version can read, which stays last.
  const std::filesystem::path earlier =
      std::filesystem::path(LAYOUTOPT_SOURCE_DIR) / "tests" / "measure" / "costs" / "data" / "transforms.v1.json";
  const auto text_of = [](const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  const TransformTable table = TransformTable::load(earlier);
  CHECK(table.entries().size() == 7);
  CHECK(table.issues().size() == 1);
  // Keys read as layouts: a block of 1 stays the layout the file spells.
  const TransformEntry* one_block = table.find("llvm -mcpu=znver5", 2, key({1, 24, 112, 112}, "NCHW1c", "NCHW8c"));
  REQUIRE(one_block != nullptr);
  CHECK(one_block->key.src == layout::Layout::nchwc(1));
  CHECK(table.find("llvm -mcpu=znver5", 2, key({1, 32, 100}, "NCW8c", "NCW")) != nullptr);
  const ScratchFile again("transforms.json");
  table.save(again.path());
  CHECK(text_of(again.path()) == text_of(earlier));
}

TEST_CASE("reusing a table measures only missing entries and loses nothing") {
  const ScratchFile file("transforms.json");
  const TransformKey mine = key({1, 8, 4, 4}, "NCHW", "NCHW4c");
  const TransformKey other = key({1, 8, 4, 4}, "NCHW4c", "NCHW");
  {
    TransformTable seed;
    seed.insert(entry("llvm -mcpu=other", mine, 0.5));
    nlohmann::json j = seed.to_json();
    j["entries"].push_back({{"target", "llvm -mcpu=x"}, {"shape", "not a shape"}});
    std::ofstream(file.path()) << j.dump();
  }
  TransformTable table = TransformTable::load(file.path());
  REQUIRE(table.issues().size() == 1);
  CHECK(table.issues()[0].entry == 1);

  LocalTransformTimer timer(quick_policy(), "llvm -mcpu=me");
  const FillResult first = fill_transform_table(table, {mine, other}, timer, "llvm -mcpu=me", 1, nullptr);
  CHECK(first.measured == 2);
  table.save(file.path());
  TransformTable again = TransformTable::load(file.path());
  const FillResult second = fill_transform_table(again, {mine, other}, timer, "llvm -mcpu=me", 1, nullptr);
  CHECK(second.measured == 0);
  CHECK(second.reused == 2);
  again.save(file.path());

  const TransformTable final_table = TransformTable::load(file.path());
  CHECK(final_table.entries().size() == 3);                 // other CPU's entry + our two
  CHECK(final_table.issues().size() == 1);                  // the unreadable entry is still there
  CHECK(final_table.find("llvm -mcpu=other", 1, mine)->median_ms == doctest::Approx(0.5));
}

TEST_CASE("a file that is not a transform table is an error naming it, and is left untouched") {
  const ScratchFile file("user.json");
  std::ofstream(file.path()) << R"({"something": "else"})";
  std::string message;
  try {
    (void)TransformTable::load(file.path());
  } catch (const std::runtime_error& e) {
    message = e.what();
  }
  CHECK(message.find(file.path().string()) != std::string::npos);
  std::ifstream in(file.path());
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text == R"({"something": "else"})");
}

TEST_CASE("offered layouts come from the enumeration, as far as the table prices every pair") {
  TransformTable table;
  const std::vector<int64_t> shape{1, 64, 8, 8};
  const auto time = [&](const std::string& a, const std::string& b) {
    table.insert({"t", 2, key(shape, a, b), 0.01, 0.01, 0.01, 5, 0});
    table.insert({"t", 2, key(shape, b, a), 0.01, 0.01, 0.01, 5, 0});
  };
  time("NCHW", "NCHW4c");  // an earlier run's layout, which this enumeration does not name
  time("NCHW", "NCHW8c");
  time("NCHW", "NCHW16c");
  time("NCHW8c", "NCHW16c");
  time("NCHW", "NCHW32c");  // 32c is timed against NCHW only, not against 8c or 16c
  table.insert({"other", 2, key(shape, "NCHW", "NCHW64c"), 0.01, 0.01, 0.01, 5, 0});  // another target
  const auto blocked = [](std::initializer_list<int64_t> blocks) {
    std::set<layout::Layout> layouts;
    for (const int64_t block : blocks) layouts.insert(layout::Layout::channel_blocked(4, block));
    return layouts;
  };
  const ShapeLayouts wanted{{shape, blocked({1, 8, 16, 32, 64})}, {{1, 16, 1, 1}, blocked({1, 16})}};
  const ShapeLayouts offered = priceable_layouts(wanted, table, "t", 2);
  // 8c and 16c join (every pair priced); 32c would need its pairs with them; 64c's only
  // entry is another target's; 4c is the table's but not the enumeration's.
  CHECK(offered.at(shape) == blocked({1, 8, 16}));
  // A 1x1 map: NCHW16c has NCHW's memory order, so it needs no entry.
  CHECK(offered.at({1, 16, 1, 1}) == blocked({1, 16}));
}

TEST_CASE("transforms are timed in passes: each entry is the median of its passes") {
  const std::vector<TransformKey> keys{key({1, 16, 6, 6}, "NCHW", "NCHW8c"), key({1, 16, 6, 6}, "NCHW8c", "NCHW16c")};
  std::map<layout::Layout, std::vector<TransformEntry>> reported;  // by destination layout
  const std::vector<TransformEntry> entries =
      time_transforms(keys, quick_policy(), "llvm -mcpu=me", nullptr,
                      [&](const TransformEntry& entry) { reported[entry.key.dst].push_back(entry); });
  REQUIRE(entries.size() == keys.size());
  for (size_t k = 0; k < keys.size(); ++k) {
    CAPTURE(k);
    CHECK(entries[k].key == keys[k]);  // in the order asked
    // One report per pass, each a running median; the last is the entry returned.
    const std::vector<TransformEntry>& passes = reported.at(keys[k].dst);
    REQUIRE(passes.size() == static_cast<size_t>(kTransformPasses));
    CHECK(passes.back().median_ms == entries[k].median_ms);
    CHECK(entries[k].repeats >= kTransformPasses * quick_policy().min_repeats);
    CHECK(entries[k].median_ms > 0);
    CHECK(entries[k].q1_ms <= entries[k].median_ms);
    CHECK(entries[k].median_ms <= entries[k].q3_ms);
  }
}

TEST_CASE("a short transform's passes together stop at the cost policy's repeat cap") {
  // A 1 us body would need 60,000 runs to reach 60 ms, each after a flush.
  const timing::TimingPolicy policy = timing::cost_policy(1, 60.0);
  const std::vector<TransformKey> keys{key({1, 16, 4, 4}, "NCHW", "NCHW8c")};
  const std::vector<TransformEntry> entries = time_transforms(keys, policy, "llvm -mcpu=me", nullptr);
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].repeats <= timing::kCostMaxRepeats);
  CHECK(entries[0].repeats >= kTransformPasses * policy.min_repeats);
}

TEST_CASE("a table with a format of another type is no table; damaged numbers make their entry unreadable") {
  // The fuzz target (fuzz/transform_table_fuzz.cpp) requires rejections to be std::runtime_error.
  CHECK_THROWS_AS((void)costs::TransformTable::from_json({{"format", 7}, {"entries", nlohmann::json::array()}}),
                  std::runtime_error);
  const nlohmann::json entry = {{"target", "llvm"}, {"threads", 1e300}, {"shape", {1, 8, 4, 4}},
                                {"src", "NCHW"},    {"dst", "NCHW8c"},  {"median_ms", 0.01}};
  const costs::TransformTable table =
      costs::TransformTable::from_json({{"format", "layoutopt-transform-table"}, {"version", 1}, {"entries", {entry}}});
  CHECK(table.entries().empty());
  REQUIRE(table.issues().size() == 1);
  CHECK(table.issues()[0].reason.find("threads") != std::string::npos);
}

TEST_CASE("an entry whose layout does not parse is unreadable, named, and written back as it was") {
  const nlohmann::json good = {{"target", "llvm"}, {"threads", 1},        {"shape", {1, 8, 4, 4}},
                               {"src", "NCHW"},    {"dst", "NCHW8c"},     {"median_ms", 0.01}};
  nlohmann::json damaged = good;
  damaged["dst"] = "NCHW8q";
  const costs::TransformTable table = costs::TransformTable::from_json(
      {{"format", "layoutopt-transform-table"}, {"version", 1}, {"entries", {damaged, good}}});
  REQUIRE(table.entries().size() == 1);
  CHECK(table.find("llvm", 1, key({1, 8, 4, 4}, "NCHW", "NCHW8c")) != nullptr);
  REQUIRE(table.issues().size() == 1);
  CHECK(table.issues()[0].entry == 0);
  CHECK(table.issues()[0].reason.find("dst 'NCHW8q'") != std::string::npos);
  CHECK(table.to_json().at("entries").at(1) == damaged);  // kept verbatim, after the readable ones
}
