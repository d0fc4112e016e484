#include "dp/factor.h"

#include <omp.h>

#include <algorithm>
#include <cassert>

#include "dp/run_kernels.h"

namespace layoutopt::solvers::dp {

namespace {

std::vector<int> joint_scope(const std::vector<const Factor*>& factors, int var) {
  std::vector<int> scope;
  for (const Factor* factor : factors)
    for (int v : factor->scope)
      if (v != var) scope.push_back(v);
  std::ranges::sort(scope);
  scope.erase(std::unique(scope.begin(), scope.end()), scope.end());
  return scope;
}

size_t product(const std::vector<int>& dims, size_t from) {
  size_t entries = 1;
  for (size_t k = from; k < dims.size(); ++k) entries *= static_cast<size_t>(dims[k]);
  return entries;
}

// Trailing result entries summed at once: small enough for L1 next to the slices read.
constexpr size_t kBlockEntries = 2048;

// Contiguous pieces at least this long are re-ordered with memcpy.
constexpr size_t kLongCopy = 16;

// Min-plus terms (result entries x candidates) from which an elimination is split over
// threads: below it, starting the team costs more than it saves.
constexpr double kParallelWork = 1e6;

// How many leading result dimensions to iterate over so the rest fits a block.
size_t leading_dimensions(const std::vector<int>& dims) {
  size_t lead = 0;
  while (lead < dims.size() && product(dims, lead) > kBlockEntries) ++lead;
  return lead;
}

// A factor seen from one elimination: its table re-ordered with var outermost, so fixing
// var's candidate leaves a contiguous slice over its other variables - in ascending order,
// like the result's - and adding a factor becomes adding whole runs of that slice.
class SliceView {
 public:
  SliceView(const Factor& factor, int var, const Factor& result, size_t lead) {
    reorder(factor, var);
    std::vector<size_t> strides;  // the slice's stride of each result variable (0: absent)
    for (int v : result.scope) strides.push_back(slice_stride(factor, var, v));
    lead_strides_.assign(strides.begin(), strides.begin() + static_cast<std::ptrdiff_t>(lead));
    plan_runs(result.dims, strides, lead);
  }

  /// Adds (or, first, assigns) this factor's slice for var = x to a result block whose
  /// entries start at `offset` in the slice.
  void add_to(Cost* block, int x, size_t offset, bool assign) const {
    sum_runs(block, slices_ + static_cast<size_t>(x) * slice_size_ + offset, starts_, extent_, broadcast_, assign);
  }
  /// Where result block `index` starts in the slice: its leading digits times their strides.
  [[nodiscard]] size_t block_offset(size_t index, const std::vector<int>& dims) const {
    size_t offset = 0;
    for (size_t k = lead_strides_.size(); k-- > 0;) {
      const auto extent = static_cast<size_t>(dims[k]);
      offset += index % extent * lead_strides_[k];
      index /= extent;
    }
    return offset;
  }
  [[nodiscard]] size_t slice_size() const { return slice_size_; }

 private:
  void reorder(const Factor& factor, int var) {
    const size_t position = static_cast<size_t>(std::ranges::find(factor.scope, var) - factor.scope.begin());
    const size_t choices = static_cast<size_t>(factor.dims[position]);
    const size_t inner = product(factor.dims, position + 1);
    const size_t outer = factor.table.size() / (choices * inner);
    slice_size_ = outer * inner;
    if (outer == 1) {  // var is already outermost: the table is its slices
      slices_ = factor.table.data();
      return;
    }
    table_.resize(factor.table.size());
    slices_ = table_.data();
    const Cost* from = factor.table.data();
    Cost* to = table_.data();
    if (inner >= kLongCopy) {
      for (size_t o = 0; o < outer; ++o)
        for (size_t x = 0; x < choices; ++x)
          std::copy_n(from + (o * choices + x) * inner, inner, to + x * slice_size_ + o * inner);
      return;
    }
    // Short pieces: a copy call per piece would cost more than the copying.
    for (size_t o = 0; o < outer; ++o)
      for (size_t i = 0; i < inner; ++i)
        for (size_t x = 0; x < choices; ++x) to[x * slice_size_ + o * inner + i] = from[(o * choices + x) * inner + i];
  }

  // Over the block's dimensions (from `lead` on) the innermost stretch of dimensions the
  // slice either spans throughout or lacks throughout is one run: contiguous in both tables,
  // or one slice value broadcast. The outer dimensions just enumerate where runs start.
  void plan_runs(const std::vector<int>& dims, const std::vector<size_t>& strides, size_t lead) {
    const bool spans_last = lead < dims.size() && strides.back() != 0;
    size_t inner = dims.size();
    extent_ = 1;
    while (inner > lead && (strides[inner - 1] != 0) == spans_last) extent_ *= static_cast<size_t>(dims[--inner]);
    broadcast_ = !spans_last;
    starts_.push_back({0, 0});
    size_t out_stride = extent_;
    for (size_t k = inner; k-- > lead;) {  // every outer dimension multiplies the starts
      const size_t count = starts_.size();
      for (size_t digit = 1; digit < static_cast<size_t>(dims[k]); ++digit)
        for (size_t s = 0; s < count; ++s)
          starts_.push_back({starts_[s].out + digit * out_stride, starts_[s].in + digit * strides[k]});
      out_stride *= static_cast<size_t>(dims[k]);
    }
  }

  // Stride of v in the slice (the factor without var); 0 when the factor lacks v.
  static size_t slice_stride(const Factor& factor, int var, int v) {
    size_t stride = 1;
    for (size_t k = factor.scope.size(); k-- > 0;) {
      if (factor.scope[k] == v) return stride;
      if (factor.scope[k] != var) stride *= static_cast<size_t>(factor.dims[k]);
    }
    return 0;
  }

  std::vector<Cost> table_;  // the re-ordered copy, when one is needed
  const Cost* slices_ = nullptr;
  size_t slice_size_ = 0;
  std::vector<size_t> lead_strides_;
  std::vector<RunStart> starts_;  // of the runs in one block
  size_t extent_ = 1;            // of every run
  bool broadcast_ = false;       // runs repeat one slice value
};

// A factor as eliminate() needs it: ascending scope, one dimension per variable equal to its
// candidate count, a table of their product, and `var` among its variables.
[[maybe_unused]] bool well_formed(const Factor& factor, int var, const std::vector<int>& candidates) {
  if (factor.dims.size() != factor.scope.size() || !std::ranges::is_sorted(factor.scope)) return false;
  for (size_t k = 0; k < factor.scope.size(); ++k)
    if (factor.dims[k] != candidates[factor.scope[k]]) return false;
  return factor.table.size() == product(factor.dims, 0) && std::ranges::find(factor.scope, var) != factor.scope.end();
}

}  // namespace

Factor Factor::unary(int v, const Vector& costs) {
  return {{v}, {static_cast<int>(costs.size())}, std::vector<Cost>(costs.data(), costs.data() + costs.size())};
}

Factor Factor::pairwise(const Edge& edge) {
  const Matrix& m = *edge.costs;
  const bool from_first = edge.from < edge.to;
  Factor factor;
  factor.scope = from_first ? std::vector<int>{edge.from, edge.to} : std::vector<int>{edge.to, edge.from};
  factor.dims = from_first ? std::vector<int>{static_cast<int>(m.rows()), static_cast<int>(m.cols())}
                           : std::vector<int>{static_cast<int>(m.cols()), static_cast<int>(m.rows())};
  factor.table.reserve(static_cast<size_t>(m.size()));
  for (int a = 0; a < factor.dims[0]; ++a)
    for (int b = 0; b < factor.dims[1]; ++b) factor.table.push_back(from_first ? m(a, b) : m(b, a));
  return factor;
}

size_t Factor::stride(int var) const {
  size_t stride = 1;
  for (size_t k = scope.size(); k-- > 0;) {
    if (scope[k] == var) return stride;
    stride *= static_cast<size_t>(dims[k]);
  }
  return 0;
}

Factor eliminate(const std::vector<const Factor*>& factors, int var, const std::vector<int>& candidates,
                 Choices* choices) {
  assert(!factors.empty() && "eliminate: an empty bucket");
  assert(candidates[var] <= kMaxChoiceCandidates && "eliminate: more candidates than Choices can name");
  for ([[maybe_unused]] const Factor* factor : factors)
    assert(well_formed(*factor, var, candidates) && "eliminate: a factor's scope, dimensions or table do not match");
  Factor result;
  result.scope = joint_scope(factors, var);
  for (int v : result.scope) result.dims.push_back(candidates[v]);
  const size_t entries = product(result.dims, 0);
  result.table.resize(entries);
  if (choices != nullptr) choices->assign(entries, 0);

  // The result is filled block by block (its trailing dimensions), so the sum being built
  // for one candidate of var stays in L1 while every factor adds its slice to it.
  const size_t lead = leading_dimensions(result.dims);
  const size_t block = product(result.dims, lead);
  std::vector<SliceView> views;
  views.reserve(factors.size());
  for (const Factor* factor : factors) views.emplace_back(*factor, var, result, lead);
  // The first view is assigned rather than added: the widest one, so that is one long copy.
  std::ranges::stable_sort(views, std::greater{}, &SliceView::slice_size);
  const int var_candidates = candidates[var];
  const auto blocks = static_cast<std::ptrdiff_t>(entries / block);
  auto fill_blocks = [&](std::ptrdiff_t first, std::ptrdiff_t end) {
    std::vector<Cost> sum(block);
    std::vector<size_t> offsets(views.size());
    for (std::ptrdiff_t b = first; b < end; ++b) {
      for (size_t f = 0; f < views.size(); ++f) offsets[f] = views[f].block_offset(static_cast<size_t>(b), result.dims);
      Cost* out = result.table.data() + static_cast<size_t>(b) * block;
      uint16_t* chosen = choices != nullptr ? choices->data() + static_cast<size_t>(b) * block : nullptr;
      for (int x = 0; x < var_candidates; ++x) {
        Cost* target = x == 0 ? out : sum.data();  // the first candidate's sum is the running minimum
        for (size_t f = 0; f < views.size(); ++f) views[f].add_to(target, x, offsets[f], f == 0);
        if (x == 0) continue;
        if (chosen != nullptr)
          min_into(out, sum.data(), block, chosen, static_cast<uint16_t>(x));
        else
          min_into(out, sum.data(), block);
      }
    }
  };
  // Blocks are independent. Threads pay off on the big tables only, which dominate the work.
  if (static_cast<double>(entries) * var_candidates < kParallelWork || blocks < 2) {
    fill_blocks(0, blocks);
  } else {
#pragma omp parallel
    {
      const std::ptrdiff_t threads = omp_get_num_threads();
      const std::ptrdiff_t thread = omp_get_thread_num();
      fill_blocks(blocks * thread / threads, blocks * (thread + 1) / threads);
    }
  }
  return result;
}

}  // namespace layoutopt::solvers::dp
