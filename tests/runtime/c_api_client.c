/* A C client of the runtime: loads the artifact folder argv[1] and runs it once on zeros.
 * Exit status 0 on success; 1 with lo_last_error() on stderr otherwise. */
#include <stdio.h>
#include <stdlib.h>

#include "layoutopt/runtime/layoutopt.h"

static size_t elements(const int64_t* shape, int rank) {
  size_t count = 1;
  for (int d = 0; d < rank; ++d) count *= (size_t)shape[d];
  return count;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s ARTIFACT_DIR\n", argv[0]);
    return 1;
  }
  lo_session* session = lo_load(argv[1], NULL);
  if (session == NULL) {
    fprintf(stderr, "lo_load: %s\n", lo_last_error());
    return 1;
  }
  int64_t in_shape[8], out_shape[8];
  const int in_rank = lo_input_shape(session, 0, in_shape, 8);
  const int out_rank = lo_output_shape(session, 0, out_shape, 8);
  float* input = calloc(elements(in_shape, in_rank), sizeof(float));
  float* output = calloc(elements(out_shape, out_rank), sizeof(float));
  lo_tensor in = {input, in_shape, (size_t)in_rank};
  lo_tensor out = {output, out_shape, (size_t)out_rank};
  const int status = lo_run(session, &in, 1, &out, 1);
  if (status != 0) fprintf(stderr, "lo_run: %s\n", lo_last_error());
  else printf("output 0: %zu values, first %g\n", elements(out_shape, out_rank), (double)output[0]);
  free(input);
  free(output);
  lo_free(session);
  return status == 0 ? 0 : 1;
}
