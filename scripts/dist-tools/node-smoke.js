'use strict';
// The smoke suite of the installed Node packages (@wirecontract/node and the platform package
// npm would pick), run natively or under qemu, with no dependency beyond Node:
//
//   WIRECONTRACT_SHARED=<shared> node node-smoke.js DIR            (DIR/node_modules holds them)
//   node node-smoke.js DIR --expect-missing PACKAGE                 (no platform package installed)
//
// 1. Every shared GraphMind vector's verdict and type; 2. every shared Graphorin vector's verdict
// and variant; 3. one frame of each GraphMind message type (the payload of the first accepted
// vector of that type) built with createEnvelope, serialized and parsed back equal; 4. every
// shared shrink vector's text and tier. With --expect-missing: requiring the package fails naming
// PACKAGE. Prints one line per section; exits 1 at the first failure.
const fs = require('node:fs');
const path = require('node:path');
const assert = require('node:assert/strict');

const dir = path.resolve(process.argv[2]);
const entry = path.join(dir, 'node_modules/@wirecontract/node');

function fail(msg) {
  console.log(`node smoke: FAILED: ${msg}`);
  process.exit(1);
}

if (process.argv[3] === '--expect-missing') {
  try {
    require(entry);
  } catch (e) {
    if (!String(e.message).includes(process.argv[4])) fail(`the error does not name ${process.argv[4]}: ${e.message}`);
    console.log(`node smoke: without the platform package: ${e.message.split(': ').slice(0, 3).join(': ')}`);
    process.exit(0);
  }
  fail('loaded without a platform package');
}

const { graphmind, graphorin } = require(entry);
const { platformName } = require(path.join(entry, 'load-native.js'));
const shared = process.env.WIRECONTRACT_SHARED;
const jsonl = (p) => fs.readFileSync(path.join(shared, p), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
console.log(`node smoke: Node ${process.version} on ${process.arch}, addon package for ${platformName()}`);

const gm = jsonl('vectors/graphmind/conformance.jsonl');
const payloads = new Map();
for (const v of gm) {
  const r = graphmind.parseEnvelopeJson(v.frame);
  if (r.kind !== v.expect) fail(`graphmind ${v.name}: ${r.kind}, expected ${v.expect}`);
  if ((r.kind === 'ok' || r.kind === 'unknown-type') && r.envelope.type !== v.type) fail(`graphmind ${v.name}: type ${r.envelope.type}`);
  if (r.kind === 'ok' && !payloads.has(v.type)) payloads.set(v.type, r.envelope.payload);
}
console.log(`node smoke: ${gm.length} GraphMind vectors give their verdicts`);

const go = jsonl('vectors/graphorin/conformance.jsonl');
for (const v of go) {
  const r = v.direction === 'server' ? graphorin.parseServerMessage(v.frame) : graphorin.parseClientMessage(v.frame);
  if ((r.success ? 'ok' : 'invalid') !== v.expect) fail(`graphorin ${v.name}: expected ${v.expect}`);
  if (r.success && r.variant !== v.variant) fail(`graphorin ${v.name}: variant ${r.variant}`);
}
console.log(`node smoke: ${go.length} Graphorin vectors give their verdicts`);

for (const type of graphmind.MESSAGE_TYPES) {
  if (!payloads.has(type)) fail(`no accepted vector of type ${type}`);
  const env = graphmind.createEnvelope({ type, payload: payloads.get(type), seq: 7, runId: 'run_smoke', ts: 1 });
  const text = graphmind.serializeEnvelope(env);
  const back = graphmind.parseEnvelopeJson(text);
  if (back.kind !== 'ok') fail(`${type}: parsed back as ${back.kind}`);
  try {
    assert.deepStrictEqual(back.envelope, JSON.parse(text));
    assert.equal(graphmind.serializeEnvelope(back.envelope), text);
  } catch (e) {
    fail(`${type}: built, serialized and parsed back differs: ${e.message}`);
  }
}
console.log(`node smoke: ${graphmind.MESSAGE_TYPES.length} message types built, serialized and parsed back`);

const shrink = jsonl('vectors/graphmind/shrink.jsonl');
for (const v of shrink) {
  const got = graphmind.shrinkPayloadJson(v.payload_json, v.max_bytes, v.type);
  if (got.json !== v.expect_json || got.tier !== v.tier) fail(`shrink ${v.name}: tier ${got.tier}`);
}
console.log(`node smoke: ${shrink.length} shrink vectors give their text and tier`);
console.log('node smoke: all passed');
