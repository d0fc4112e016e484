/* Classifies a random image with a network compiled ahead of time, through the C API:
 *   layoutopt compile resnet-18 -o resnet-18.aot && classify resnet-18.aot
 * Prints the five highest-scoring class indices and how long the run took. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "layoutopt/runtime/layoutopt.h"

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(int argc, char** argv) {
  if (argc != 2) return fprintf(stderr, "usage: %s ARTIFACT_DIR\n", argv[0]), 2;
  lo_session* session = lo_load(argv[1], NULL);
  if (session == NULL) return fprintf(stderr, "cannot load %s: %s\n", argv[1], lo_last_error()), 1;
  int64_t in_shape[8], out_shape[8];
  const int in_rank = lo_input_shape(session, 0, in_shape, 8), out_rank = lo_output_shape(session, 0, out_shape, 8);
  if (in_rank < 0 || in_rank > 8 || out_rank < 0 || out_rank > 8) return fprintf(stderr, "unexpected shapes\n"), 1;
  size_t in_count = 1, classes = 1;
  for (int d = 0; d < in_rank; ++d) in_count *= (size_t)in_shape[d];
  for (int d = 0; d < out_rank; ++d) classes *= (size_t)out_shape[d]; /* batch 1: one row of scores */
  float* image = malloc(in_count * sizeof(float));
  float* scores = malloc(classes * sizeof(float));
  srand(1);
  for (size_t i = 0; i < in_count; ++i) image[i] = (float)rand() / (float)RAND_MAX;
  lo_tensor in = {image, in_shape, (size_t)in_rank}, out = {scores, out_shape, (size_t)out_rank};
  const double start = now_ms();
  const int status = lo_run(session, &in, 1, &out, 1);
  const double elapsed = now_ms() - start;
  if (status != 0) fprintf(stderr, "run failed: %s\n", lo_last_error());
  else {
    printf("top-5 classes:");
    for (int k = 0; k < 5 && k < (int)classes; ++k) { /* take the best score left, then strike it */
      size_t best = 0;
      for (size_t c = 1; c < classes; ++c) best = scores[c] > scores[best] ? c : best;
      printf(" %zu", best);
      scores[best] = -1e30f;
    }
    printf("\nrun: %.2f ms\n", elapsed);
  }
  free(image);
  free(scores);
  lo_free(session);
  return status == 0 ? 0 : 1;
}
