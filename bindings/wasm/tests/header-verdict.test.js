'use strict';
// The WASM backend decides a large frame that fails on its envelope members (structurally
// invalid, or another protocol version) from those members alone: the payload is not copied
// into the module. The verdict is the contract's on the whole frame.
process.env.WIRECONTRACT_BACKEND = 'wasm';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');

const PKG = path.resolve(__dirname, '../../node');
const backend = require(path.join(PKG, 'native.js'));
const { parseEnvelopeJson } = require(PKG);

const big = { results: Array.from({ length: 4000 }, (_, i) => ({ id: i, text: 'x'.repeat(60) })) };
const frame = (env) => JSON.stringify({ gm: 1, seq: 1, ts: 1, runId: 'r', type: 'node.finished', payload: { nodeId: 'n', durationMs: 1, status: 'ok', output: big }, ...env });

/** The result of parseEnvelopeJson(text) and the longest text any backend call was given. */
function spied(text) {
  const longest = [0];
  const saved = {};
  for (const name of Object.keys(backend)) {
    if (typeof backend[name] !== 'function' || !name.startsWith('gm')) continue;
    saved[name] = backend[name];
    backend[name] = (...args) => {
      for (const a of args) if (typeof a === 'string') longest[0] = Math.max(longest[0], a.length);
      return saved[name](...args);
    };
  }
  try {
    return [parseEnvelopeJson(text), longest[0]];
  } finally {
    Object.assign(backend, saved);
  }
}

// The contract's verdict as the API shows it: each issue's `segments` non-enumerable (api.js).
const contractVerdict = (text) => {
  const v = backend.gmVerdict(text);
  if (typeof v === 'number') return v;
  const parsed = JSON.parse(v);
  for (const i of parsed.issues || []) Object.defineProperty(i, 'segments', { enumerable: false });
  return parsed;
};

/** The issues' segments of two verdicts agree (deep equality skips the non-enumerable ones). */
function sameSegments(r, expected) {
  assert.deepEqual((r.issues || []).map((i) => i.segments), (expected.issues || []).map((i) => i.segments));
}

test('a large frame refused on its envelope members: decided without its payload, as the contract decides it', () => {
  assert.equal(backend.acceptsFirst, true);
  for (const env of [{ seq: -380 }, { runId: 303813 }, { ts: 1.5, seq: 2 ** 60 }, { gm: 2 }, { gm: 2, payload: 'anything'.repeat(40_000) }, { runId: 'a\ud800' }]) {
    const text = frame(env);
    assert.ok(text.length > 200_000);
    const [r, longest] = spied(text);
    assert.deepEqual(r, contractVerdict(text), JSON.stringify(env));
    sameSegments(r, contractVerdict(text));
    assert.ok(r.kind === 'invalid' || r.kind === 'version-mismatch', r.kind);
    assert.ok(longest < 1000, `${JSON.stringify(env)}: a ${longest}-unit text crossed into the module`);
  }
});

test('a large frame whose payload decides: the whole frame goes to the contract', () => {
  // A known type's invalid payload, and a frame without a payload.
  const bad = frame({ payload: { nodeId: 5, output: big } });
  const [r, longest] = spied(bad);
  assert.deepEqual(r, contractVerdict(bad));
  sameSegments(r, contractVerdict(bad));
  assert.equal(r.kind, 'invalid');
  assert.equal(longest, bad.length);
  const noPayload = JSON.stringify({ gm: 1, seq: -1, ts: 1, runId: 'r', type: 'x', pad: 'p'.repeat(300_000) });
  const [r2] = spied(noPayload);
  assert.deepEqual(r2, contractVerdict(noPayload));
});
