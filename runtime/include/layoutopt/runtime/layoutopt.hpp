#pragma once
// C++ wrapper of the runtime's C API (layoutopt.h): a session that frees itself, errors as
// exceptions, shapes and tensors as vectors.
//
//   layoutopt::Session session("resnet-18.aot", {.threads = 2});
//   std::vector<float> logits = session.run({image}).front();

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "layoutopt/runtime/layoutopt.h"

namespace layoutopt {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Session {
 public:
  explicit Session(const std::string& directory, lo_options options = {}) : session_(lo_load(directory.c_str(), &options)) {
    if (session_ == nullptr) throw Error(lo_last_error());
  }
  Session(Session&& other) noexcept : session_(std::exchange(other.session_, nullptr)) {}
  Session& operator=(Session&& other) noexcept {
    std::swap(session_, other.session_);
    return *this;
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session() { lo_free(session_); }

  [[nodiscard]] size_t input_count() const { return lo_input_count(session_); }
  [[nodiscard]] size_t output_count() const { return lo_output_count(session_); }
  [[nodiscard]] std::vector<int64_t> input_shape(size_t index) const { return shape(lo_input_shape, index); }
  [[nodiscard]] std::vector<int64_t> output_shape(size_t index) const { return shape(lo_output_shape, index); }

  /// One dense float tensor per input, in each input's shape; returns the outputs. May be
  /// called from many threads at once, as lo_run may.
  [[nodiscard]] std::vector<std::vector<float>> run(const std::vector<std::vector<float>>& inputs) const {
    std::vector<std::vector<int64_t>> in_shapes, out_shapes;
    std::vector<lo_tensor> in, out;
    for (size_t i = 0; i < inputs.size(); ++i) {
      in_shapes.push_back(i < input_count() ? input_shape(i) : std::vector<int64_t>{});
      if (elements(in_shapes.back()) != static_cast<int64_t>(inputs[i].size()))
        throw Error("input " + std::to_string(i) + " has " + std::to_string(inputs[i].size()) +
                    " elements, not its shape's " + std::to_string(elements(in_shapes.back())));
    }
    for (size_t i = 0; i < inputs.size(); ++i)
      in.push_back({const_cast<float*>(inputs[i].data()), in_shapes[i].data(), in_shapes[i].size()});
    std::vector<std::vector<float>> outputs(output_count());
    for (size_t o = 0; o < outputs.size(); ++o) out_shapes.push_back(output_shape(o));
    for (size_t o = 0; o < outputs.size(); ++o) {
      outputs[o].resize(static_cast<size_t>(elements(out_shapes[o])));
      out.push_back({outputs[o].data(), out_shapes[o].data(), out_shapes[o].size()});
    }
    if (lo_run(session_, in.data(), in.size(), out.data(), out.size()) != 0) throw Error(lo_last_error());
    return outputs;
  }

 private:
  using ShapeQuery = int (*)(const lo_session*, size_t, int64_t*, size_t);

  [[nodiscard]] std::vector<int64_t> shape(ShapeQuery query, size_t index) const {
    const int rank = query(session_, index, nullptr, 0);
    if (rank < 0) throw Error(lo_last_error());
    std::vector<int64_t> dims(static_cast<size_t>(rank));
    (void)query(session_, index, dims.data(), dims.size());
    return dims;
  }

  static int64_t elements(const std::vector<int64_t>& shape) {
    int64_t count = 1;
    for (int64_t extent : shape) count *= extent;
    return count;
  }

  lo_session* session_ = nullptr;
};

}  // namespace layoutopt
