#!/usr/bin/env node
/*
 * Times one ONNX model with ONNX Runtime's CPU execution provider, the ONNX Runtime peer of
 * bench/compare_peers.py.
 *
 *   node bench/peers/ort_bench.js MODEL.onnx [--threads N] [--warmup W] [--min-seconds S]
 *                                 [--min-runs R] [--seed K] [--json]
 *
 * Session and timing as in ort_session.js.
 * Input: a float32 tensor of the model's input shape filled from the seeded generator that
 * torch_bench.py uses too (ort_session.js's seededInput), so both peers see the same input
 * and their outputs can be compared.
 * Prints median and quartiles, and the time InferenceSession.create took (load, graph
 * optimisation, kernel set-up: ONNX Runtime's start-up, without Node's own).
 */
'use strict';

const fs = require('fs');
const path = require('path');
const { loadOrt, createSession, seededFeeds, parseCommandLine, timeRuns, percentile } = require('./ort_session');

const USAGE = 'usage: node ort_bench.js MODEL.onnx [--threads N] [--warmup W] [--min-seconds S] ' +
  '[--min-runs R] [--seed K] [--json]';

function fail(message) {
  process.stderr.write(`ort_bench: ${message}\n`);
  process.exit(1);
}

function parseArgs(argv) {
  const options = parseCommandLine(argv, {
    defaults: { threads: 2, warmup: 5, minSeconds: 5, minRuns: 10, seed: 0, json: false },
    numeric: { '--threads': 'threads', '--warmup': 'warmup', '--min-seconds': 'minSeconds', '--min-runs': 'minRuns',
      '--seed': 'seed' },
    flags: { '--json': 'json' },
    usage: USAGE,
    fail,
  });
  if (!Number.isInteger(options.threads) || options.threads < 1) fail('--threads needs a positive integer');
  if (!Number.isInteger(options.minRuns) || options.minRuns < 1) fail('--min-runs needs a positive integer');
  return options;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(options.model)) fail(`model file ${options.model} not found`);
  const ort = loadOrt(fail);
  const version = require('onnxruntime-node/package.json').version;

  const createStart = process.hrtime.bigint();
  const session = await createSession(ort, options.model, options.threads);
  const createMs = Number(process.hrtime.bigint() - createStart) / 1e6;
  const { feeds, shape } = seededFeeds(ort, session, options.seed, fail);

  const times = await timeRuns(session, feeds, options);
  const output = (await session.run(feeds))[session.outputNames[0]].data;
  await session.release();

  const result = {
    peer: 'onnxruntime',
    version,
    model: path.basename(options.model, '.onnx'),
    input_shape: shape,
    create_ms: createMs,
    median_ms: percentile(times, 0.5),
    q1_ms: percentile(times, 0.25),
    q3_ms: percentile(times, 0.75),
    runs: times.length,
    warmup: options.warmup,
    threads: options.threads,
    seed: options.seed,
    output_head: Array.from(output.slice(0, 8)),
    output_abs_sum: output.reduce((sum, value) => sum + Math.abs(value), 0),
  };
  if (options.json) console.log(JSON.stringify(result));
  else {
    console.log(`onnxruntime ${version} ${result.model}: median ${result.median_ms.toFixed(3)} ms ` +
      `(quartiles ${result.q1_ms.toFixed(3)} - ${result.q3_ms.toFixed(3)}, ${result.runs} runs, ${options.threads} threads)`);
  }
}

main().catch((error) => fail(error.stack || String(error)));
