'use strict';
// Node.js throughput of @wirecontract/node's parseEnvelopeJson against the reference
// implementation's validator (zod 4: the generated schemas composed in graphmind-zod.js) and against JSON.parse
// alone (the parse-only ceiling), in one Node process over the same corpus.
//
// Single thread, whole corpus, every frame already in memory as its own JS string (decoded
// from UTF-8 one frame at a time, as a WebSocket text message arrives); best of --rounds, the
// rows interleaved within a round. Before any timing, every verdict of both validating paths
// is checked per frame against the corpus's .labels file (the generator's documented seq:-1
// label error, recognised precisely, counted apart), and the zod model is checked against
// every shared GraphMind vector, so the comparison is between two parsers that decide alike.
//
// Usage: node --expose-gc bench.js CORPUS.jsonl --zod DIR [--rounds N] [--json OUT]
//   --zod DIR   a directory whose node_modules holds zod 4 (scripts/bench: target/bench-node)

const fs = require('node:fs');
const path = require('node:path');
const { createRequire } = require('node:module');

const REPO = path.resolve(__dirname, '..', '..');
const { parseEnvelopeJson } = require(path.join(REPO, 'bindings', 'node'));
const { graphmindVectors } = require(path.join(REPO, 'bindings', 'node', 'testlib', 'shared'));
const { makeModel } = require('./graphmind-zod');

const KIND_LABEL = { ok: 'o', 'unknown-type': 'u', 'version-mismatch': 'v', invalid: 'i' };
// Vectors where the reference and wirecontract are documented to differ (README "Decisions
// worth knowing", spec graphmind-v1 §5): the zod model follows the reference there.
const MODEL_DEVIATIONS = new Set([
  // wirecontract caps nesting at 100,000 levels (§5.8); the reference has no limit.
  'own.depth.over_cap',
]);

function args(argv) {
  const a = { rounds: 3, json: null, zod: null, corpus: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--rounds') a.rounds = Number(argv[++i]);
    else if (argv[i] === '--json') a.json = argv[++i];
    else if (argv[i] === '--zod') a.zod = argv[++i];
    else a.corpus = argv[i];
  }
  if (!a.corpus || !a.zod || !(a.rounds >= 1)) {
    console.error('usage: node --expose-gc bench.js CORPUS.jsonl --zod DIR [--rounds N] [--json OUT]');
    process.exit(2);
  }
  return a;
}

/** Frames as separate strings, their UTF-8 size, and the labels. */
function load(corpus) {
  const buf = fs.readFileSync(corpus);
  const frames = [];
  let bytes = 0;
  let start = 0;
  while (start < buf.length) {
    let end = buf.indexOf(10, start);
    if (end < 0) end = buf.length;
    frames.push(buf.toString('utf8', start, end));
    bytes += end - start;
    start = end + 1;
  }
  const labels = fs.readFileSync(corpus + '.labels', 'utf8');
  if (labels.length !== frames.length) throw new Error(`${corpus}: ${frames.length} frames but ${labels.length} labels`);
  return { frames, bytes, labels };
}

/** The generator's documented label error: with `seq` set to 0 the frame is a valid
 *  unknown-type envelope, and its `seq` is exactly -1. */
function isSeqLabelError(frame) {
  let obj;
  try {
    obj = JSON.parse(frame);
  } catch {
    return false;
  }
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj) || obj.seq !== -1) return false;
  return parseEnvelopeJson(JSON.stringify({ ...obj, seq: 0 })).kind === 'unknown-type';
}

function agreement(frames, labels, parse) {
  let agree = 0;
  let labelErrors = 0;
  const examples = [];
  for (let i = 0; i < frames.length; i++) {
    const got = KIND_LABEL[parse(frames[i]).kind];
    const want = labels[i];
    if (got === want) agree++;
    else if (want === 'u' && got === 'i' && isSeqLabelError(frames[i])) labelErrors++;
    else if (examples.length < 5) examples.push(`label ${want} got ${got}: ${frames[i].slice(0, 160)}`);
  }
  return { agree, label_errors: labelErrors, disagree: frames.length - agree - labelErrors, examples };
}

/** The zod model against every shared GraphMind vector and real-client frame. */
function modelVectors(model) {
  let agree = 0;
  const disagree = [];
  for (const v of graphmindVectors()) {
    const got = model.parseEnvelopeJson(v.frame).kind;
    if (got === v.expect || MODEL_DEVIATIONS.has(v.name)) agree++;
    else disagree.push(`${v.source}/${v.name}: expected ${v.expect}, zod model says ${got}`);
  }
  return { agree, disagree };
}

/** Best time of each run over `rounds` rounds, the runs interleaved within a round so that a
 *  burst of load on a shared machine hits every row alike, after one untimed round (the first
 *  pass of a loop measures V8 compiling it, not the parser). */
function bestOfInterleaved(rounds, runs) {
  for (const fn of Object.values(runs)) fn();
  const best = Object.fromEntries(Object.keys(runs).map((k) => [k, Infinity]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, fn] of Object.entries(runs)) {
      global.gc();
      const t = process.hrtime.bigint();
      fn();
      best[name] = Math.min(best[name], Number(process.hrtime.bigint() - t) / 1e9);
    }
  }
  return best;
}

function main() {
  const a = args(process.argv.slice(2));
  if (typeof global.gc !== 'function') throw new Error('run with node --expose-gc');
  const zodRequire = createRequire(path.join(path.resolve(a.zod), 'package.json'));
  const z = zodRequire('zod');
  const zodVersion = zodRequire('zod/package.json').version;
  if (!zodVersion.startsWith('4.')) throw new Error(`zod 4 expected, found ${zodVersion}`);
  const model = makeModel(z);

  const { frames, bytes, labels } = load(a.corpus);
  const results = {
    corpus: path.basename(a.corpus).replace(/\.jsonl$/, ''),
    frames: frames.length,
    bytes,
    node: process.version,
    zod: zodVersion,
    rows: {},
    agreement: {},
  };

  // --- verdicts first: the model on the vectors, then both paths on the corpus labels ------
  const vec = modelVectors(model);
  results.model_vectors = { agree: vec.agree, disagree: vec.disagree.length };
  results.agreement.wirecontract = agreement(frames, labels, parseEnvelopeJson);
  results.agreement.zod = agreement(frames, labels, model.parseEnvelopeJson);
  const problems = [...vec.disagree];
  for (const [who, ag] of Object.entries(results.agreement)) {
    if (ag.disagree) problems.push(`${who} disagrees with the labels on ${ag.disagree} frames: ${ag.examples.join(' | ')}`);
  }

  if (problems.length === 0) {
    // Each loop counts kinds so that no result is dead.
    let sink = 0;
    const zodParse = model.parseEnvelopeJson;
    results.rows = bestOfInterleaved(a.rounds, {
      wirecontract: () => {
        for (const f of frames) sink += parseEnvelopeJson(f).kind.length;
      },
      zod: () => {
        for (const f of frames) sink += zodParse(f).kind.length;
      },
      json_parse: () => {
        for (const f of frames) {
          try {
            sink += typeof JSON.parse(f) === 'object' ? 1 : 0;
          } catch {
            sink += 2;
          }
        }
      },
    });
    results.sink = sink;
  }

  const out = JSON.stringify(results, null, 1);
  if (a.json) {
    fs.mkdirSync(path.dirname(a.json), { recursive: true });
    fs.writeFileSync(a.json, out + '\n');
  }
  console.log(out);
  if (problems.length) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
}

main();
