'use strict';
// createEnvelope({..., maxPayloadBytes}): an oversize payload is shrunk for its type before the
// envelope is built (graphmind-shrink §3), following every vector of shrink.jsonl.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { graphmind } = require('..');
const { sharedDir } = require('../testlib/shared');
const fs = require('node:fs');

const SUFFIX = '\u2026[graphmind: truncated]';
const VECTORS = fs
  .readFileSync(path.join(sharedDir(), 'vectors/graphmind/shrink.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l));

test('an oversize payload comes out shrunk and the frame parses ok', () => {
  assert.equal(graphmind.DEFAULT_MAX_PAYLOAD_BYTES, 524288);
  const payload = { nodeId: 'n', output: 'é'.repeat(1_000_000), durationMs: 2.5, status: 'ok' };
  const whole = graphmind.serializeEnvelope(graphmind.createEnvelope({ type: 'node.finished', payload, seq: 1, runId: 'r', ts: 0 }));
  assert.ok(Buffer.byteLength(whole) > 2_000_000);

  const env = graphmind.createEnvelope({ type: 'node.finished', payload, seq: 1, runId: 'r', ts: 0, maxPayloadBytes: graphmind.DEFAULT_MAX_PAYLOAD_BYTES });
  const frame = graphmind.serializeEnvelope(env);
  assert.ok(Buffer.byteLength(frame) < 524288, `${Buffer.byteLength(frame)}`);
  const parsed = graphmind.parseEnvelopeJson(frame);
  assert.equal(parsed.kind, 'ok');
  assert.ok(parsed.envelope.payload.output.endsWith(SUFFIX));
  assert.equal(parsed.envelope.payload.__graphmindTruncated, true);
  assert.equal(parsed.envelope.payload.fields[0], 'output');
  assert.deepEqual(parsed.envelope, env);
  assert.equal(payload.output.length, 1_000_000, 'the caller\'s payload is not modified');
});

test('within budget the payload is kept as given', () => {
  const payload = { nodeId: 'n', output: [1.5, { k: null }], durationMs: 1, status: 'ok' };
  const env = graphmind.createEnvelope({ type: 'node.finished', payload, seq: 1, runId: 'r', ts: 0, maxPayloadBytes: 100 });
  assert.equal(env.payload, payload);
  const nulled = graphmind.createEnvelope({ type: 'node.finished', payload, seq: 1, runId: 'r', ts: 0, maxPayloadBytes: null });
  assert.equal(nulled.payload, payload);
});

test('every shrink vector of a known type: tier 1 kept, tier 2/3 of an event built, tier 4 refused', () => {
  const failures = [];
  let built = 0;
  for (const v of VECTORS) {
    if (v.type === null || !graphmind.MESSAGE_TYPES.includes(v.type)) continue;
    const payload = JSON.parse(v.payload_json);
    const init = { type: v.type, payload, seq: 1, runId: 'r', ts: 0, maxPayloadBytes: v.max_bytes };
    let env;
    try {
      env = graphmind.createEnvelope(init);
    } catch (e) {
      if (v.tier === 4) {
        if (!(e instanceof graphmind.BuildError) || !/only the whole-payload marker/.test(e.reason)) failures.push(`${v.name}: ${e}`);
        else if (e.issues[0].path !== 'payload') failures.push(`${v.name}: issues ${JSON.stringify(e.issues)}`);
      } else if (v.tier !== 1 && graphmind.EVENT_TYPES.includes(v.type)) {
        failures.push(`${v.name}: tier ${v.tier} threw ${e}`);
      }
      continue;
    }
    if (v.tier === 4) failures.push(`${v.name}: tier 4 was built`);
    else if (v.tier === 1 && env.payload !== payload) failures.push(`${v.name}: tier 1 payload replaced`);
    else if (v.tier !== 1) {
      const text = JSON.stringify(env.payload);
      if (text !== v.expect_json) failures.push(`${v.name}: got ${text.slice(0, 200)}\n want ${v.expect_json.slice(0, 200)}`);
      if (Buffer.byteLength(text) > v.max_bytes) failures.push(`${v.name}: over budget`);
      if (graphmind.parseEnvelopeJson(graphmind.serializeEnvelope(env)).kind !== 'ok') failures.push(`${v.name}: not ok`);
      built++;
    }
  }
  assert.deepEqual(failures, []);
  assert.ok(built > 60, `${built}`);
});

test('an unknown type keeps even the marker (opaque payload)', () => {
  const env = graphmind.createEnvelope({ type: 'future.x', payload: ['y'.repeat(200)], seq: 1, runId: 'r', ts: 0, maxPayloadBytes: 100 });
  assert.equal(env.payload.__graphmindTruncated, true);
  assert.equal(graphmind.parseEnvelopeJson(graphmind.serializeEnvelope(env)).kind, 'unknown-type');
});

test('a bad maxPayloadBytes is a BuildError', () => {
  for (const bad of [-1, 1.5, '10', Number.NaN, 2 ** 53, {}]) {
    assert.throws(
      () => graphmind.createEnvelope({ type: 'mode.set', payload: { mode: 'run' }, seq: 1, runId: 'r', maxPayloadBytes: bad }),
      (e) => e instanceof graphmind.BuildError && /maxPayloadBytes/.test(e.message),
      String(bad),
    );
  }
  const cyclic = {};
  cyclic.self = cyclic;
  assert.throws(() => graphmind.createEnvelope({ type: 'future.x', payload: cyclic, seq: 1, runId: 'r', maxPayloadBytes: 10 }), graphmind.BuildError);
});
