// The C API over runtime::Session: exceptions become return values and lo_last_error.

#include <exception>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "layoutopt/runtime/layoutopt.h"
#include "layoutopt/runtime/session.h"

struct lo_session {
  layoutopt::runtime::Session session;
};

namespace {

thread_local std::string last_error;

/// Runs `body`, turning an exception into `failed` and its message into last_error.
template <class Body, class Result>
Result guarded(Body body, Result failed) {
  try {
    last_error.clear();
    return body();
  } catch (const std::exception& e) {
    last_error = e.what();
  } catch (...) {
    last_error = "unknown error";
  }
  return failed;
}

int write_shape(const std::vector<layoutopt::runtime::TensorSpec>& tensors, size_t index, int64_t* dims,
                size_t capacity, const char* role) {
  if (index >= tensors.size())
    throw std::out_of_range(std::string(role) + " " + std::to_string(index) + " of " + std::to_string(tensors.size()));
  const std::vector<int64_t>& shape = tensors[index].shape;
  if (dims == nullptr && capacity > 0) throw std::invalid_argument("dims is null");
  for (size_t i = 0; i < shape.size() && i < capacity; ++i) dims[i] = shape[i];
  return static_cast<int>(shape.size());
}

std::span<const int64_t> shape_of(const lo_tensor& tensor) {
  if (tensor.shape == nullptr && tensor.rank > 0) throw std::invalid_argument("a tensor's shape is null");
  return {tensor.shape, tensor.rank};
}

void require(const lo_session* session) {
  if (session == nullptr) throw std::invalid_argument("session is null");
}

}  // namespace

extern "C" {

lo_session* lo_load(const char* directory, const lo_options* options) {
  return guarded(
      [&]() -> lo_session* {
        if (directory == nullptr) throw std::invalid_argument("directory is null");
        layoutopt::runtime::SessionOptions session_options;
        if (options != nullptr) session_options.threads = options->threads;
        return new lo_session{layoutopt::runtime::Session::load(directory, session_options)};
      },
      static_cast<lo_session*>(nullptr));
}

size_t lo_input_count(const lo_session* session) { return session ? session->session.inputs().size() : 0; }
size_t lo_output_count(const lo_session* session) { return session ? session->session.outputs().size() : 0; }

int lo_input_shape(const lo_session* session, size_t index, int64_t* dims, size_t capacity) {
  return guarded([&] { require(session); return write_shape(session->session.inputs(), index, dims, capacity, "input"); }, -1);
}

int lo_output_shape(const lo_session* session, size_t index, int64_t* dims, size_t capacity) {
  return guarded([&] { require(session); return write_shape(session->session.outputs(), index, dims, capacity, "output"); },
                 -1);
}

int lo_run(lo_session* session, const lo_tensor* inputs, size_t input_count, lo_tensor* outputs, size_t output_count) {
  return guarded(
      [&] {
        require(session);
        if ((inputs == nullptr && input_count > 0) || (outputs == nullptr && output_count > 0))
          throw std::invalid_argument("inputs or outputs is null");
        std::vector<layoutopt::runtime::TensorView> in;
        for (size_t i = 0; i < input_count; ++i) in.push_back({inputs[i].data, shape_of(inputs[i])});
        std::vector<layoutopt::runtime::MutableTensorView> out;
        for (size_t o = 0; o < output_count; ++o) out.push_back({outputs[o].data, shape_of(outputs[o])});
        session->session.run(in, out);
        return 0;
      },
      -1);
}

const char* lo_last_error(void) { return last_error.c_str(); }

void lo_free(lo_session* session) { delete session; }

}  // extern "C"
