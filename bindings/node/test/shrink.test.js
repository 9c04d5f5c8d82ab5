'use strict';
// Payload shrinking (spec graphmind-shrink §3, §15): every shared shrink vector through both
// shrinkPayloadJson (the vector's text) and shrinkPayload (JSON.parse of it, the reference's
// own input), byte for byte and tier for tier; arguments and errors.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { graphmind, shrinkPayload, shrinkPayloadJson, DEFAULT_MAX_PAYLOAD_BYTES } = require('..');
const { sharedDir, readJsonl } = require('../testlib/shared');

const vectors = readJsonl(path.join(sharedDir(), 'vectors/graphmind/shrink.jsonl'));

test('the shrink vectors are all there', () => {
  assert.equal(vectors.length, 233);
});

test('shrinkPayloadJson: every shared shrink vector, byte for byte', () => {
  const failed = [];
  for (const v of vectors) {
    const got = shrinkPayloadJson(v.payload_json, v.max_bytes, v.type);
    if (got.json !== v.expect_json || got.tier !== v.tier || got.truncated !== v.tier > 1) failed.push(`${v.name}: tier ${got.tier}, ${got.json.slice(0, 120)}`);
  }
  assert.deepEqual(failed, []);
});

test('shrinkPayload: every shared shrink vector from the JSON.parse value, byte for byte', () => {
  const failed = [];
  for (const v of vectors) {
    const got = shrinkPayload(JSON.parse(v.payload_json), v.max_bytes, v.type ?? undefined);
    if (got.json !== v.expect_json || got.tier !== v.tier) failed.push(`${v.name}: tier ${got.tier}, ${got.json.slice(0, 120)}`);
  }
  assert.deepEqual(failed, []);
});

test('defaults, shapes and the graphmind module', () => {
  assert.equal(graphmind.shrinkPayload, shrinkPayload);
  assert.equal(graphmind.shrinkPayloadJson, shrinkPayloadJson);
  const small = shrinkPayload({ b: 1.0, a: -0, s: 'é' });
  assert.deepEqual(small, { json: '{"b":1,"a":0,"s":"é"}', tier: 1, truncated: false });
  assert.deepEqual(shrinkPayloadJson('{"b":1.0, "1":1e400, "a":-0}'), { json: '{"1":null,"b":1,"a":0}', tier: 1, truncated: false });
  assert.equal(shrinkPayload(undefined).json, 'null');
  const big = 'x'.repeat(DEFAULT_MAX_PAYLOAD_BYTES + 1);
  const r = shrinkPayload(big);
  assert.equal(r.tier, 4);
  assert.equal(JSON.parse(r.json).__graphmindTruncated, true);
  assert.equal(shrinkPayload({ a: 'x'.repeat(100) }, 50, null).truncated, true);
});

test('bad input throws a JavaScript error, never crashes', () => {
  assert.throws(() => shrinkPayloadJson('{'), SyntaxError);
  assert.throws(() => shrinkPayloadJson(''), SyntaxError);
  assert.throws(() => shrinkPayloadJson('[1] [2]'), SyntaxError);
  assert.throws(() => shrinkPayloadJson(42), TypeError);
  assert.throws(() => shrinkPayload({ n: 1n }), TypeError);
  const cycle = {};
  cycle.self = cycle;
  assert.throws(() => shrinkPayload(cycle), TypeError);
  for (const bad of [-1, 1.5, NaN, Infinity, '100', 2 ** 53]) assert.throws(() => shrinkPayload({}, bad), TypeError);
  assert.throws(() => shrinkPayload({}, 10, 42), TypeError);
  // Lone surrogates survive as JSON.stringify writes them.
  assert.equal(shrinkPayload({ s: '\ud800' }).json, '{"s":"\\ud800"}');
});
