#!/usr/bin/env node
/*
 * Runs one ONNX model with ONNX Runtime's CPU execution provider on a NumPy input and writes
 * its outputs as NumPy arrays: the reference side of bench/onnx_coverage.py.
 *
 *   node bench/peers/ort_run.js MODEL.onnx --input IN.npy -o OUT.npy [--all-outputs]
 *        [--threads N] [--time-seconds S] [--min-runs R] [--warmup W] [--json]
 *
 * IN.npy: float32 or float64 (converted to float32), C order, fed to the model's only input;
 * symbolic dimensions take the array's sizes, fixed ones must match. The first output goes
 * to OUT.npy as float32; with --all-outputs the others go to OUT.1.npy, OUT.2.npy, ...
 * Session and timing as in ort_session.js (N threads, default 2). With --time-seconds S > 0
 * it then times the same input (W warm-up runs, default 3; R runs, default 5).
 * Prints a line, or with --json one object: {"outputs": [{"name", "shape"}], "median_ms",
 * "q1_ms", "q3_ms", "runs"} (times null when not timed). Errors go to stderr, exit code 1.
 */
'use strict';

const fs = require('fs');
const { loadOrt, createSession, parseCommandLine, timeRuns, percentile } = require('./ort_session');

const USAGE = 'usage: node ort_run.js MODEL.onnx --input IN.npy -o OUT.npy [--all-outputs] [--threads N] ' +
  '[--time-seconds S] [--min-runs R] [--warmup W] [--json]';

function fail(message) {
  process.stderr.write(`ort_run: ${message}\n`);
  process.exit(1);
}

function parseArgs(argv) {
  const options = parseCommandLine(argv, {
    defaults: { input: null, output: null, allOutputs: false, threads: 2, timeSeconds: 0, minRuns: 5, warmup: 3,
      json: false },
    numeric: { '--threads': 'threads', '--time-seconds': 'timeSeconds', '--min-runs': 'minRuns', '--warmup': 'warmup' },
    flags: { '--json': 'json', '--all-outputs': 'allOutputs' },
    strings: { '--input': 'input', '-o': 'output', '--output': 'output' },
    usage: USAGE,
    fail,
  });
  if (!options.input || !options.output) fail(`MODEL, --input and -o are required\n${USAGE}`);
  if (!Number.isInteger(options.threads) || options.threads < 1) fail('--threads needs a positive integer');
  return options;
}

/** The array of a version 1-3 .npy file: {shape, data (Float32Array)}. */
function readNpy(path) {
  const bytes = fs.readFileSync(path);
  if (bytes.toString('latin1', 0, 6) !== '\x93NUMPY') fail(`${path} is not a .npy file`);
  const major = bytes[6];
  const headerLength = major === 1 ? bytes.readUInt16LE(8) : bytes.readUInt32LE(8);
  const headerStart = major === 1 ? 10 : 12;
  const header = bytes.toString('latin1', headerStart, headerStart + headerLength);
  const descr = /'descr':\s*'([^']+)'/.exec(header);
  const order = /'fortran_order':\s*(True|False)/.exec(header);
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descr || !order || !shapeText) fail(`${path}: cannot parse the header ${header.trim()}`);
  if (order[1] === 'True') fail(`${path}: Fortran order is not supported`);
  const shape = shapeText[1].split(',').map((s) => s.trim()).filter((s) => s.length > 0).map(Number);
  const count = shape.reduce((a, b) => a * b, 1);
  const body = bytes.subarray(headerStart + headerLength);
  const data = new Float32Array(count);
  if (descr[1] === '<f4') for (let i = 0; i < count; ++i) data[i] = body.readFloatLE(4 * i);
  else if (descr[1] === '<f8') for (let i = 0; i < count; ++i) data[i] = body.readDoubleLE(8 * i);
  else fail(`${path}: dtype ${descr[1]} is not float32 or float64`);
  return { shape, data };
}

/** Writes a float32 .npy (version 1.0, header padded to a multiple of 64 bytes). */
function writeNpy(path, shape, data) {
  const shapeText = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': ${shapeText}, }`;
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';
  const prefix = Buffer.alloc(10);
  prefix.write('\x93NUMPY', 0, 'latin1');
  prefix[6] = 1;
  prefix[7] = 0;
  prefix.writeUInt16LE(header.length, 8);
  const body = Buffer.alloc(4 * data.length);
  for (let i = 0; i < data.length; ++i) body.writeFloatLE(data[i], 4 * i);
  fs.writeFileSync(path, Buffer.concat([prefix, Buffer.from(header, 'latin1'), body]));
}

function outputPath(base, index) {
  return index === 0 ? base : base.replace(/(\.npy)?$/, `.${index}.npy`);
}

/** The feed for the model's only input, checking fixed dimensions against the array. */
function makeFeeds(ort, session, input) {
  if (session.inputNames.length !== 1) fail(`expected one input, the model has ${session.inputNames.length}`);
  const meta = session.inputMetadata[0];
  if (meta.isTensor && meta.type !== 'float32') fail(`input ${meta.name} is ${meta.type}, not float32`);
  if (meta.shape && meta.shape.length !== input.shape.length) fail(`input ${meta.name} has rank ${meta.shape.length}, the array ${input.shape.length}`);
  (meta.shape || []).forEach((dim, axis) => {
    if (typeof dim === 'number' && dim > 0 && dim !== input.shape[axis])
      fail(`input ${meta.name} needs [${meta.shape}], the array is [${input.shape}]`);
  });
  return { [meta.name]: new ort.Tensor('float32', input.data, input.shape) };
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(options.model)) fail(`model file ${options.model} not found`);
  const input = readNpy(options.input);
  const ort = loadOrt(fail);
  const session = await createSession(ort, options.model, options.threads);
  const feeds = makeFeeds(ort, session, input);
  const results = await session.run(feeds);
  const written = options.allOutputs ? session.outputNames : session.outputNames.slice(0, 1);
  const outputs = [];
  written.forEach((name, index) => {
    const tensor = results[name];
    if (tensor.type !== 'float32') fail(`output ${name} is ${tensor.type}, not float32`);
    writeNpy(outputPath(options.output, index), tensor.dims, tensor.data);
    outputs.push({ name, shape: Array.from(tensor.dims) });
  });
  const times = options.timeSeconds > 0 ? await timeRuns(session, feeds, { ...options, minSeconds: options.timeSeconds }) : null;
  await session.release();
  const result = {
    outputs,
    median_ms: times ? percentile(times, 0.5) : null,
    q1_ms: times ? percentile(times, 0.25) : null,
    q3_ms: times ? percentile(times, 0.75) : null,
    runs: times ? times.length : 0,
    threads: options.threads,
  };
  if (options.json) console.log(JSON.stringify(result));
  else {
    const timing = times ? `; median ${result.median_ms.toFixed(3)} ms over ${times.length} runs` : '';
    console.log(`${outputs.map((o) => `${o.name} [${o.shape}]`).join(', ')} -> ${options.output}${timing}`);
  }
}

main().catch((error) => fail(error.stack || String(error)));
