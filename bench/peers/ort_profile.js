#!/usr/bin/env node
/*
 * ONNX Runtime's time per node of one model, from its own profiler: the peer side of
 * bench/compare_layers.py.
 *
 *   node bench/peers/ort_profile.js MODEL.onnx [--threads N] [--warmup W] [--runs R] [--seed K]
 *
 * Session as in ort_session.js, with profiling on; W warm-up runs (the profiler records them
 * too; they are dropped), then R runs. Prints one JSON object:
 *   {"peer": "onnxruntime", "version", "model", "threads", "runs", "run_ms": median of the
 *    R runs' model_run events, "nodes": [{"name", "op", "ms"}]}
 * with each node's median over the R runs, in execution order. ONNX Runtime names the
 * nodes its layout pass rewrote after their output tensor with a "_nchwc" suffix, and adds
 * ReorderInput / ReorderOutput nodes of its own; compare_layers.py maps them back to the
 * model's nodes. The profiler's trace file is read and removed.
 */
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { loadOrt, createSession, seededFeeds, parseCommandLine, percentile } = require('./ort_session');

const USAGE = 'usage: node ort_profile.js MODEL.onnx [--threads N] [--warmup W] [--runs R] [--seed K]';

function fail(message) {
  process.stderr.write(`ort_profile: ${message}\n`);
  process.exit(1);
}

function parseArgs(argv) {
  const options = parseCommandLine(argv, {
    defaults: { threads: 2, warmup: 10, runs: 40, seed: 0 },
    numeric: { '--threads': 'threads', '--warmup': 'warmup', '--runs': 'runs', '--seed': 'seed' },
    usage: USAGE,
    fail,
  });
  for (const key of ['threads', 'warmup', 'runs', 'seed'])
    if (!Number.isInteger(options[key])) fail(`--${key} needs an integer`);
  if (options.threads < 1 || options.runs < 1) fail('--threads and --runs need positive integers');
  return options;
}

function median(values) {
  return percentile([...values].sort((a, b) => a - b), 0.5);
}

/** Per node (in first-seen order) and per whole run, the durations of the last `runs` runs, in ms. */
function readTrace(file, runs) {
  const events = JSON.parse(fs.readFileSync(file, 'utf8'));
  const runEvents = events.filter((e) => e.cat === 'Session' && e.name === 'model_run');
  if (runEvents.length < runs) fail(`the profile holds ${runEvents.length} runs, expected at least ${runs}`);
  const kept = runEvents.slice(-runs);
  const from = kept[0].ts;
  const nodes = new Map();
  for (const e of events) {
    if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time') || e.ts < from) continue;
    const name = e.name.slice(0, -'_kernel_time'.length);
    if (!nodes.has(name)) nodes.set(name, { op: (e.args && e.args.op_name) || '', durations: [] });
    nodes.get(name).durations.push(e.dur / 1e3);
  }
  return { runMs: median(kept.map((e) => e.dur / 1e3)), nodes };
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(options.model)) fail(`model file ${options.model} not found`);
  const ort = loadOrt(fail);
  const version = require('onnxruntime-node/package.json').version;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ort_profile-'));
  try {
    const session = await createSession(ort, options.model, options.threads,
      { enableProfiling: true, profileFilePrefix: path.join(dir, 'trace') });
    const { feeds } = seededFeeds(ort, session, options.seed, fail);
    for (let i = 0; i < options.warmup + options.runs; ++i) await session.run(feeds);
    session.endProfiling();
    await session.release();
    const traces = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
    if (traces.length !== 1) fail(`expected one profiler trace in ${dir}, found ${traces.length}`);
    const { runMs, nodes } = readTrace(path.join(dir, traces[0]), options.runs);
    console.log(JSON.stringify({
      peer: 'onnxruntime',
      version,
      model: path.basename(options.model, '.onnx'),
      threads: options.threads,
      runs: options.runs,
      run_ms: runMs,
      nodes: [...nodes].map(([name, node]) => ({ name, op: node.op, ms: median(node.durations) })),
    }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => fail(error.stack || String(error)));
