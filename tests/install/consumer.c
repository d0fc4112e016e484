/* Loads the artifact folder argv[1] through the installed C API, runs it on ones and checks
 * that every output is finite. Exit status 0 and "consumer: N finite outputs" on success. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "layoutopt/runtime/layoutopt.h"

int main(int argc, char** argv) {
  if (argc != 2) return fprintf(stderr, "usage: %s ARTIFACT_DIR\n", argv[0]), 2;
  lo_session* session = lo_load(argv[1], NULL);
  if (session == NULL) return fprintf(stderr, "lo_load: %s\n", lo_last_error()), 1;
  int64_t in_shape[8], out_shape[8];
  const int in_rank = lo_input_shape(session, 0, in_shape, 8), out_rank = lo_output_shape(session, 0, out_shape, 8);
  if (in_rank < 1 || in_rank > 8 || out_rank < 1 || out_rank > 8) return fprintf(stderr, "bad ranks\n"), 1;
  size_t in_count = 1, out_count = 1;
  for (int d = 0; d < in_rank; ++d) in_count *= (size_t)in_shape[d];
  for (int d = 0; d < out_rank; ++d) out_count *= (size_t)out_shape[d];
  float* input = malloc(in_count * sizeof(float));
  float* output = malloc(out_count * sizeof(float));
  for (size_t i = 0; i < in_count; ++i) input[i] = 1.0f;
  lo_tensor in = {input, in_shape, (size_t)in_rank}, out = {output, out_shape, (size_t)out_rank};
  int status = lo_run(session, &in, 1, &out, 1);
  if (status != 0) fprintf(stderr, "lo_run: %s\n", lo_last_error());
  size_t finite = 0;
  for (size_t o = 0; status == 0 && o < out_count; ++o) finite += isfinite(output[o]) ? 1 : 0;
  if (status == 0 && finite != out_count) {
    fprintf(stderr, "%zu of %zu outputs not finite\n", out_count - finite, out_count);
    status = 1;
  }
  if (status == 0) printf("consumer: %zu finite outputs\n", finite);
  free(input);
  free(output);
  lo_free(session);
  return status == 0 ? 0 : 1;
}
