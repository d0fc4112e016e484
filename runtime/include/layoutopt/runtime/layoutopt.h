/* layoutopt runtime C API: load an ahead-of-time compiled network (`layoutopt compile`)
 * and run it. Plain C, no C++ types; link layoutopt_runtime (no LLVM needed).
 *
 *   lo_options options = {.threads = 2};
 *   lo_session* s = lo_load("resnet-18.aot", &options);
 *   if (!s) { fprintf(stderr, "%s\n", lo_last_error()); return 1; }
 *   lo_tensor in = {input, shape, 4}, out = {logits, out_shape, 2};
 *   if (lo_run(s, &in, 1, &out, 1) != 0) fprintf(stderr, "%s\n", lo_last_error());
 *   lo_free(s);
 *
 * Tensors are dense float32 in canonical layout (NCHW for images). Every function reports
 * failure by its return value; lo_last_error() then says why (per thread).
 *
 * Threads: lo_run may be called from many threads at once on one session; each call in
 * flight gets an activation arena of its own (the session keeps one per call that was ever
 * in flight at once, for reuse), the weights and code are shared, and every call computes
 * exactly what it would alone. Each call runs `threads` OpenMP threads of its own. lo_load,
 * lo_free and the shape queries of a session must not race with lo_free of that session. */
#ifndef LAYOUTOPT_RUNTIME_LAYOUTOPT_H
#define LAYOUTOPT_RUNTIME_LAYOUTOPT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lo_session lo_session;

typedef struct lo_options {
  /* OpenMP threads of each run; 0: the count the artifact was compiled for, else OpenMP's default. */
  int threads;
} lo_options;

typedef struct lo_tensor {
  float* data;           /* read for inputs, written for outputs */
  const int64_t* shape;  /* `rank` extents */
  size_t rank;
} lo_tensor;

/* Loads the artifact folder `directory`; options may be NULL. NULL on failure: a missing,
 * truncated or damaged file, weights that do not belong to the program, a CPU lacking an
 * instruction set the code was compiled for. */
lo_session* lo_load(const char* directory, const lo_options* options);

size_t lo_input_count(const lo_session* session);
size_t lo_output_count(const lo_session* session);

/* Writes the shape of input (or output) `index` to dims (at most `capacity` extents) and
 * returns its rank; -1 for a bad index or session. */
int lo_input_shape(const lo_session* session, size_t index, int64_t* dims, size_t capacity);
int lo_output_shape(const lo_session* session, size_t index, int64_t* dims, size_t capacity);

/* Runs the network on `inputs` and fills `outputs`, each of its tensor's exact shape.
 * 0 on success, -1 on failure (a wrong count or shape, null data). Thread-safe (see above). */
int lo_run(lo_session* session, const lo_tensor* inputs, size_t input_count, lo_tensor* outputs,
           size_t output_count);

/* Why the last failing call of this thread failed; "" if none has. */
const char* lo_last_error(void);

/* Frees a session; NULL is allowed. */
void lo_free(lo_session* session);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUTOPT_RUNTIME_LAYOUTOPT_H */
