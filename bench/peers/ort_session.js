/*
 * What the ONNX Runtime peer scripts share: loading onnxruntime-node, the session settings
 * every comparison uses, and the timing protocol.
 *
 * Session: intraOpNumThreads=N, interOpNumThreads=1, sequential execution, graph
 * optimisation level 'all' (ONNX Runtime's own BN folding, fusions and layout choices).
 * Timing: W warm-up runs, then runs until at least S seconds and at least R runs have
 * passed; median and quartiles by linear interpolation between order statistics.
 *
 * onnxruntime-node is installed by `npm install --ignore-scripts` in bench/peers: the CPU
 * library ships inside the package; its install script only fetches GPU binaries.
 */
'use strict';

/** onnxruntime-node, or `fail` with how to install it. */
function loadOrt(fail) {
  try {
    return require('onnxruntime-node');
  } catch (error) {
    fail(`cannot load onnxruntime-node (${error.message.split('\n')[0]}); ` +
      `run \`npm install --ignore-scripts\` in ${__dirname} or \`bash scripts/install-deps.sh --peers\``);
  }
}

/** The session every comparison uses; `extra` adds options (ort_profile.js: profiling). */
function createSession(ort, model, threads, extra = {}) {
  return ort.InferenceSession.create(model, {
    executionProviders: ['cpu'],
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    ...extra,
  });
}

/**
 * `count` floats from the seeded generator torch_bench.py uses too (32-bit LCG
 * x' = 1664525 x + 1013904223 mod 2^32 from x = seed; value = (x' >>> 8) / 2^24 * 2 - 1,
 * uniform in [-1, 1) and exact in float32), so every peer sees the same input.
 */
function seededInput(count, seed) {
  const data = new Float32Array(count);
  let state = seed >>> 0;
  for (let i = 0; i < count; ++i) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    data[i] = (state >>> 8) / 16777216 * 2 - 1;
  }
  return data;
}

/**
 * The feeds of a model with one float32 input of fixed shape: seededInput(seed) in that
 * shape. Returns { feeds, shape }; `fail` names any other kind of input.
 */
function seededFeeds(ort, session, seed, fail) {
  if (session.inputNames.length !== 1) fail(`expected one input, the model has ${session.inputNames.length}`);
  const meta = session.inputMetadata[0];
  if (!meta.isTensor || meta.type !== 'float32') fail(`input ${meta.name} is not a float32 tensor`);
  const shape = meta.shape.map((dim) => {
    if (typeof dim !== 'number') fail(`input ${meta.name} has a symbolic dimension '${dim}'`);
    return dim;
  });
  const data = seededInput(shape.reduce((a, b) => a * b, 1), seed);
  return { feeds: { [meta.name]: new ort.Tensor('float32', data, shape) }, shape };
}

/**
 * The command line of a script over one model: a copy of `defaults` with `model` (the one
 * positional argument), each `numeric` option ('--flag': key, a non-negative number), each
 * `flags` option ('--flag': key, set true) and each `strings` option ('--flag': key, the next
 * argument); `fail` names anything else.
 */
function parseCommandLine(argv, { defaults, numeric, flags = {}, strings = {}, usage, fail }) {
  const options = { ...defaults, model: null };
  for (let i = 0; i < argv.length; ++i) {
    const arg = argv[i];
    if (arg === '-h' || arg === '--help') { console.log(usage); process.exit(0); }
    else if (arg in flags) options[flags[arg]] = true;
    else if (arg in strings) {
      if (i + 1 >= argv.length) fail(`${arg} needs a value\n${usage}`);
      options[strings[arg]] = argv[++i];
    } else if (arg in numeric) {
      const value = Number(argv[++i]);
      if (!Number.isFinite(value) || value < 0) fail(`${arg} needs a non-negative number\n${usage}`);
      options[numeric[arg]] = value;
    } else if (arg.startsWith('-')) fail(`unknown option ${arg}\n${usage}`);
    else if (options.model === null) options.model = arg;
    else fail(`more than one model given\n${usage}`);
  }
  if (options.model === null) fail(`no model given\n${usage}`);
  return options;
}

/** Sorted per-run milliseconds: `warmup` runs, then until `minRuns` and `minSeconds` have passed. */
async function timeRuns(session, feeds, { warmup, minRuns, minSeconds }) {
  for (let i = 0; i < warmup; ++i) await session.run(feeds);
  const times = [];
  const start = process.hrtime.bigint();
  for (;;) {
    const before = process.hrtime.bigint();
    await session.run(feeds);
    const after = process.hrtime.bigint();
    times.push(Number(after - before) / 1e6);
    if (times.length >= minRuns && Number(after - start) / 1e9 >= minSeconds) break;
  }
  return times.sort((a, b) => a - b);
}

function percentile(sorted, q) {
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.min(low + 1, sorted.length - 1);
  return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}

module.exports = { loadOrt, createSession, seededInput, seededFeeds, parseCommandLine, timeRuns, percentile };
