#include "dp/factor.h"

#include <algorithm>

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

// Index of a factor's entry for the choices in `assignment` with var's digit left at 0.
size_t base_index(const Factor& factor, const Assignment& assignment, int var) {
  size_t index = 0;
  for (size_t k = 0; k < factor.scope.size(); ++k) {
    index *= static_cast<size_t>(factor.dims[k]);
    if (factor.scope[k] != var) index += static_cast<size_t>(assignment[factor.scope[k]]);
  }
  return index;
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

Factor eliminate(const std::vector<const Factor*>& factors, int var, const std::vector<int>& candidates) {
  Factor result;
  result.scope = joint_scope(factors, var);
  size_t entries = 1;
  for (int v : result.scope) {
    result.dims.push_back(candidates[v]);
    entries *= static_cast<size_t>(candidates[v]);
  }
  result.table.assign(entries, kInfinity);

  const size_t count = factors.size();
  std::vector<size_t> var_stride(count);
  std::vector<std::vector<size_t>> strides(count);  // per factor: stride of each result variable
  for (size_t f = 0; f < count; ++f) {
    var_stride[f] = factors[f]->stride(var);
    for (int v : result.scope) strides[f].push_back(factors[f]->stride(v));
  }
  std::vector<size_t> base(count, 0);
  std::vector<int> digit(result.scope.size(), 0);
  const int choices = candidates[var];
  for (size_t out = 0; out < entries; ++out) {
    Cost best = kInfinity;
    for (int x = 0; x < choices; ++x) {
      Cost sum = 0;
      for (size_t f = 0; f < count; ++f) sum += factors[f]->table[base[f] + static_cast<size_t>(x) * var_stride[f]];
      best = std::min(best, sum);
    }
    result.table[out] = best;
    // Odometer step over the result scope (last variable fastest), moving every base along.
    for (size_t k = result.scope.size(); k-- > 0;) {
      if (++digit[k] < result.dims[k]) {
        for (size_t f = 0; f < count; ++f) base[f] += strides[f][k];
        break;
      }
      for (size_t f = 0; f < count; ++f) base[f] -= strides[f][k] * static_cast<size_t>(result.dims[k] - 1);
      digit[k] = 0;
    }
  }
  return result;
}

int best_choice(const std::vector<const Factor*>& factors, int var, int var_candidates, const Assignment& assignment) {
  std::vector<size_t> base;
  std::vector<size_t> step;
  for (const Factor* factor : factors) {
    base.push_back(base_index(*factor, assignment, var));
    step.push_back(factor->stride(var));
  }
  int best = 0;
  Cost best_cost = kInfinity;
  for (int x = 0; x < var_candidates; ++x) {
    Cost sum = 0;
    for (size_t f = 0; f < factors.size(); ++f) sum += factors[f]->table[base[f] + static_cast<size_t>(x) * step[f]];
    if (sum < best_cost) {
      best_cost = sum;
      best = x;
    }
  }
  return best;
}

}  // namespace layoutopt::solvers::dp
