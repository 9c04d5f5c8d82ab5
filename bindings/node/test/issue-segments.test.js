'use strict';
// Every issue carries `segments` (its path root first: key strings, index numbers), built by
// the native glue's one conversion, beside the reference's own `path`; `segments` is not
// enumerable, so keys, JSON text and deep equality stay the reference's.
const test = require('node:test');
const assert = require('node:assert/strict');
const { graphmind, graphorin } = require('..');

function buildError(init) {
  try {
    graphmind.createEnvelope(init);
  } catch (e) {
    assert.ok(e instanceof graphmind.BuildError);
    return e;
  }
  return assert.fail('createEnvelope did not throw');
}

test('graphmind: a parse issue has the dotted path and its segments', () => {
  const frame = JSON.stringify({ gm: 1, seq: 1, ts: 1, runId: 'r', type: 'node.token', payload: { nodeId: 'n', deltas: [{ t: 'bogus', v: 1 }] } });
  const r = graphmind.parseEnvelopeJson(frame);
  assert.equal(r.kind, 'invalid');
  const issue = r.issues.find((i) => i.path.startsWith('payload.deltas.0'));
  assert.ok(issue, JSON.stringify(r.issues));
  assert.deepStrictEqual(issue.segments.slice(0, 3), ['payload', 'deltas', 0]);
  assert.equal(issue.segments.join('.'), issue.path);
  assert.deepEqual(Object.keys(issue), ['path', 'message']);
  assert.doesNotMatch(JSON.stringify(r.issues), /segments/);
  assert.deepStrictEqual(issue, { path: issue.path, message: issue.message });
});

test('graphmind: build errors, the native ones and those the JavaScript layer makes, carry segments', () => {
  const bad = buildError({ type: 'node.token', payload: { nodeId: 'n', deltas: [{ t: 'bogus', v: 1 }] }, seq: 1, runId: 'r', ts: 1 });
  assert.ok(bad.issues.length > 0);
  for (const i of bad.issues) assert.equal(i.segments.join('.'), i.path);
  // A member JSON cannot hold (a BigInt seq): the JavaScript layer's own issue at `seq`.
  const big = buildError({ type: 'future.x', payload: {}, seq: 1n, runId: 'r', ts: 1 });
  const seq = big.issues.find((i) => i.path === 'seq');
  assert.ok(seq, JSON.stringify(big.issues));
  assert.deepStrictEqual(seq.segments, ['seq']);
  assert.deepEqual(Object.keys(seq), ['path', 'message']);
  // Not an object at all: the root, no segments.
  const root = graphmind.parseEnvelope(42);
  assert.equal(root.kind, 'invalid');
  assert.deepStrictEqual(root.issues.map((i) => [i.path, i.segments]), [['', []]]);
});

test('graphorin: issues keep the reference path array and carry the same segments', () => {
  const r = graphorin.parseClientMessage('{"v":"1","jsonrpc":"2.0","id":"abc","method":"ping","extra":1}');
  assert.equal(r.success, false);
  assert.ok(r.error.issues.length > 0);
  for (const i of r.error.issues) {
    assert.deepStrictEqual(i.segments, i.path);
    assert.deepEqual(Object.keys(i), ['path', 'code', 'message']);
  }
});
