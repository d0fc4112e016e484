/* Load test of the C API: one session run from many threads at once.
 *
 *   runtime_c_api_load ARTIFACT_DIR CALLERS RUNS_PER_CALLER MAX_RSS_GROWTH_KIB
 *
 * Runs two seeded random inputs one after another on this thread (the reference outputs),
 * then CALLERS threads each call lo_run RUNS_PER_CALLER times on the same session,
 * alternating the inputs, and compare every output bit for bit with the reference. Resident
 * memory is read after a warm-up round (every caller's arena made) and again at the end: a
 * run must not keep anything, so it may grow by MAX_RSS_GROWTH_KIB at most (allocator slack).
 * Exit status 0 when every call succeeded, every output matched and memory stayed flat. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "layoutopt/runtime/layoutopt.h"

enum { kInputs = 2, kMaxRank = 8 };

typedef struct {
  lo_session* session;
  int64_t in_shape[kMaxRank], out_shape[kMaxRank];
  size_t in_rank, out_rank, in_count, out_count;
  float* inputs[kInputs];
  float* expected[kInputs];
  atomic_long mismatched, failed;
} Load;

typedef struct {
  Load* load;
  long runs;
  int caller;
} Caller;

static size_t elements(const int64_t* shape, size_t rank) {
  size_t count = 1;
  for (size_t d = 0; d < rank; ++d) count *= (size_t)shape[d];
  return count;
}

/* Uniform in [-1, 1) from a 64-bit LCG: the same values on every machine. */
static void fill_random(float* values, size_t count, uint64_t seed) {
  for (size_t i = 0; i < count; ++i) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    values[i] = (float)((double)(seed >> 40) / (double)(1ULL << 23) - 1.0);
  }
}

static int run_once(Load* load, const float* input, float* output) {
  lo_tensor in = {(float*)input, load->in_shape, load->in_rank};
  lo_tensor out = {output, load->out_shape, load->out_rank};
  return lo_run(load->session, &in, 1, &out, 1);
}

static void* call_repeatedly(void* argument) {
  Caller* caller = argument;
  Load* load = caller->load;
  float* output = malloc(load->out_count * sizeof(float));
  for (long r = 0; r < caller->runs; ++r) {
    const int which = (int)((caller->caller + r) % kInputs);
    if (run_once(load, load->inputs[which], output) != 0) {
      fprintf(stderr, "caller %d run %ld: %s\n", caller->caller, r, lo_last_error());
      atomic_fetch_add(&load->failed, 1);
    } else if (memcmp(output, load->expected[which], load->out_count * sizeof(float)) != 0) {
      atomic_fetch_add(&load->mismatched, 1);
    }
  }
  free(output);
  return NULL;
}

/* CALLERS threads, each making `runs` calls; returns 0 when all were started and joined. */
static int run_callers(Load* load, int callers, long runs) {
  pthread_t threads[64];
  Caller args[64];
  for (int c = 0; c < callers; ++c) {
    args[c] = (Caller){load, runs, c};
    if (pthread_create(&threads[c], NULL, call_repeatedly, &args[c]) != 0) return 1;
  }
  for (int c = 0; c < callers; ++c) pthread_join(threads[c], NULL);
  return 0;
}

static long resident_kib(void) {
  long pages_total = 0, pages_resident = 0;
  FILE* statm = fopen("/proc/self/statm", "r");
  if (statm == NULL) return -1;
  const int read = fscanf(statm, "%ld %ld", &pages_total, &pages_resident);
  fclose(statm);
  return read == 2 ? pages_resident * (sysconf(_SC_PAGESIZE) / 1024) : -1;
}

int main(int argc, char** argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s ARTIFACT_DIR CALLERS RUNS_PER_CALLER MAX_RSS_GROWTH_KIB\n", argv[0]);
    return 2;
  }
  const int callers = atoi(argv[2]);
  const long runs = atol(argv[3]), max_growth = atol(argv[4]);
  if (callers < 1 || callers > 64 || runs < 1) {
    fprintf(stderr, "CALLERS must be 1 to 64 and RUNS_PER_CALLER positive\n");
    return 2;
  }
  Load load = {.session = lo_load(argv[1], NULL)};
  if (load.session == NULL) {
    fprintf(stderr, "lo_load: %s\n", lo_last_error());
    return 1;
  }
  load.in_rank = (size_t)lo_input_shape(load.session, 0, load.in_shape, kMaxRank);
  load.out_rank = (size_t)lo_output_shape(load.session, 0, load.out_shape, kMaxRank);
  load.in_count = elements(load.in_shape, load.in_rank);
  load.out_count = elements(load.out_shape, load.out_rank);
  for (int i = 0; i < kInputs; ++i) {
    load.inputs[i] = malloc(load.in_count * sizeof(float));
    load.expected[i] = malloc(load.out_count * sizeof(float));
    fill_random(load.inputs[i], load.in_count, (uint64_t)i + 1);
    if (run_once(&load, load.inputs[i], load.expected[i]) != 0) {
      fprintf(stderr, "lo_run: %s\n", lo_last_error());
      return 1;
    }
  }
  if (memcmp(load.expected[0], load.expected[1], load.out_count * sizeof(float)) == 0) {
    fprintf(stderr, "the two inputs give the same output: the test could not tell them apart\n");
    return 1;
  }
  const long warmup = runs < 20 ? runs : 20;
  if (run_callers(&load, callers, warmup) != 0) return 1;
  const long before = resident_kib();
  if (run_callers(&load, callers, runs) != 0) return 1;
  const long after = resident_kib();
  const long total = (long)callers * (warmup + runs);
  const long mismatched = atomic_load(&load.mismatched), failed = atomic_load(&load.failed);
  printf("%ld runs on %d threads at once: %ld differed from the single-threaded output, %ld failed\n", total, callers,
         mismatched, failed);
  printf("resident memory after the warm-up %ld KiB, after %ld more runs %ld KiB (at most +%ld allowed)\n", before,
         (long)callers * runs, after, max_growth);
  for (int i = 0; i < kInputs; ++i) {
    free(load.inputs[i]);
    free(load.expected[i]);
  }
  lo_free(load.session);
  const int flat = before >= 0 && after >= 0 && after - before <= max_growth;
  return mismatched == 0 && failed == 0 && flat ? 0 : 1;
}
