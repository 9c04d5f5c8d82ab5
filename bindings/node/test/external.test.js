'use strict';
// Long strings of large frames are V8 external strings over the addon's memory (src/external.rs):
// they must read the same as JSON.parse's before and after garbage collections (which run the
// finalizers that free their buffers), and survive the frame text that produced them.
const test = require('node:test');
const assert = require('node:assert/strict');
const v8 = require('node:v8');
const vm = require('node:vm');
const { parseEnvelopeJson } = require('..');

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

function frame(i) {
  const text = `line ${i} "quoted" \\ back\nslash 東京 🙂 `.repeat(2000 + i);
  return JSON.stringify({ gm: 1, seq: i, ts: 1, runId: 'r', type: 'node.finished', payload: { nodeId: 'n', output: { text, list: [text.slice(7)] }, durationMs: 1, status: 'ok' } });
}

test('external strings equal JSON.parse and outlive collections', () => {
  const kept = [];
  for (let i = 0; i < 60; i++) {
    const f = frame(i);
    const r = parseEnvelopeJson(f);
    assert.equal(r.kind, 'ok');
    assert.deepEqual(r.envelope, JSON.parse(f));
    if (i % 10 === 0) kept.push([r.envelope, JSON.parse(f)]);
    if (i % 7 === 0) gc();
  }
  gc();
  gc();
  for (const [got, want] of kept) {
    assert.equal(got.payload.output.text, want.payload.output.text);
    assert.equal(got.payload.output.list[0], want.payload.output.list[0]);
    assert.equal(JSON.stringify(got), JSON.stringify(want));
  }
});
