'use strict';
// Large frames (2 Ki UTF-16 units and more) take the path of src/large.rs: long string values
// are taken out before parsing and put back into the envelope afterwards. Whatever the frame,
// the result must be the one the plain path gives: the envelope deep-equal to JSON.parse of
// the frame, every other verdict computed on the whole frame.
const test = require('node:test');
const assert = require('node:assert/strict');
const fc = require('fast-check');
const { graphmind } = require('..');

const RUNS = Number(process.env.WIRECONTRACT_PROPTEST_RUNS || 300);
const LONG = 'x'.repeat(300);
const PAD = 'p'.repeat(16 * 1024);
const env = (type, payload, extra = '') => `{"gm":1,"seq":1,"ts":1,"runId":"r","type":"${type}","payload":${payload}${extra}}`;

function same(frame, kind) {
  const r = graphmind.parseEnvelopeJson(frame);
  assert.equal(r.kind, kind, r.reason);
  assert.deepStrictEqual(r.envelope, JSON.parse(frame));
  return r.envelope;
}

test('long strings come back at their place: escapes, pairs, lone surrogates, any depth', () => {
  const tricky = `a\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\uD83D\\uDE00\\ud800 \udc00 🙂 東京 ${LONG}`;
  const input = `{"messages":[{"role":"user","content":"${tricky}"},"${LONG}",["${LONG}",{"deep":"${LONG}2"}]],"n":1.5e3,"t":true,"z":null}`;
  const frame = env('node.started', `{"nodeId":"n","kind":"llm","name":"x","instanceId":"i","input":${input},"pad":"${PAD}"}`, `,"extra":{"e":"${LONG}3"}`);
  const e = same(frame, 'ok');
  assert.equal(e.payload.input.messages[0].content, JSON.parse(`"${tricky}"`));
  assert.equal(e.payload.pad, PAD);
});

test('keys, top-level members, integer-like keys, __proto__ and duplicate keys', () => {
  const longKey = 'k'.repeat(400);
  const payload = `{"${longKey}":"${LONG}","__proto__":"${LONG}p","7":"${LONG}7","a":"${LONG}first","a":"second","b":"short","b":"${LONG}last","pad":"${PAD}"}`;
  const e = same(env('future.x', payload, `,"note":"${LONG}"`), 'unknown-type');
  assert.ok(Object.prototype.hasOwnProperty.call(e.payload, '__proto__'));
  assert.equal(Object.getPrototypeOf(e.payload), Object.prototype);
  assert.deepEqual(Object.keys(e.payload), ['7', longKey, '__proto__', 'a', 'b', 'pad']);
  assert.equal(e.payload.a, 'second');
  assert.equal(e.payload.b, LONG + 'last');
  // A duplicate container: the later object wins, strings of the earlier one are not used.
  same(env('future.x', `{"o":{"s":"${LONG}old"},"o":{"s":"${LONG}new","pad":"${PAD}"}}`), 'unknown-type');
  // Deeper than the path limit, and far deeper.
  same(env('future.x', '['.repeat(100) + `"${PAD}"` + ']'.repeat(100)), 'unknown-type');
});

test('frames the walk leaves alone: a \\u0001 escape, nothing long enough, long top-level strings', () => {
  same(env('future.x', `{"s":"\\u00010","pad":"${PAD}"}`), 'unknown-type');
  same(env('future.x', JSON.stringify(Array.from({ length: 4000 }, (_, i) => `v${i}`))), 'unknown-type');
  same(`{"gm":1,"seq":1,"ts":1,"runId":"${PAD}","type":"${LONG}"}`, 'unknown-type');
  const run = graphmind.parseEnvelopeJson(`{"gm":1,"seq":1,"ts":1,"runId":"${PAD}\\ud800","type":"x"}`);
  assert.equal(run.kind, 'invalid');
  assert.equal(run.issues[0].path, 'runId');
});

test('every other verdict is the whole frame\'s', () => {
  const mismatch = graphmind.parseEnvelopeJson(`{"gm":2,"seq":1,"ts":1,"runId":"r","type":"x","payload":{"s":"${PAD}"}}`);
  assert.deepEqual(mismatch, { kind: 'version-mismatch', received: 2, supported: 1 });
  // A long value in a closed set: invalid, with the value's own issue.
  const status = graphmind.parseEnvelopeJson(env('node.finished', `{"nodeId":"n","durationMs":1,"status":"${PAD}"}`));
  assert.equal(status.kind, 'invalid');
  assert.equal(status.reason, 'invalid payload for message type "node.finished"');
  assert.deepEqual(status.issues.map((i) => i.path), ['payload.status']);
  // Syntax errors inside and after long strings, with the offset in the whole frame.
  for (const bad of [`"${PAD}\\x"`, `"${PAD}" 1`, `"${PAD}\u0001"`, `["${PAD}"`]) {
    const frame = env('future.x', `{"s":${bad}}`);
    const r = graphmind.parseEnvelopeJson(frame);
    assert.equal(r.kind, 'invalid', bad.slice(-4));
    assert.match(r.reason, /^frame is not valid JSON: .* at byte \d+$/);
  }
});

// Any JSON text, duplicate keys and raw lone surrogates included, with long strings mixed in
// and padded past the threshold: the large path's envelope is JSON.parse's.
const rawString = (s) => '"' + s.replace(/[\u0000-\u001f"\\]/g, (c) => JSON.stringify(c).slice(1, -1)) + '"';
const str = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.string({ unit: 'binary', minLength: 256, maxLength: 400 }),
  fc.string({ unit: fc.constantFrom('a', '"', '\\', '\n', '\ud800', '\udc00', '\ud83d\ude00', 'é', '\u0001'), minLength: 256, maxLength: 300 }),
);
const { text: jsonText } = fc.letrec((tie) => ({
  text: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('scalar'), tie('array'), tie('object')),
  scalar: fc.oneof(
    str.chain((s) => fc.constantFrom(JSON.stringify(s), rawString(s))),
    fc.constantFrom('0', '-1.5e3', 'true', 'null', '1e400', '9007199254740993'),
  ),
  array: fc.array(tie('text'), { maxLength: 4 }).map((xs) => '[' + xs.join(',') + ']'),
  object: fc
    .array(fc.tuple(fc.oneof(str, fc.constantFrom('__proto__', '0', '12', 'a', 'a')), tie('text')), { maxLength: 4 })
    .map((es) => '{' + es.map(([k, v]) => JSON.stringify(k) + ':' + v).join(',') + '}'),
}));

test('property: large frames parse to JSON.parse of the frame', () => {
  fc.assert(
    fc.property(jsonText, fc.boolean(), (value, known) => {
      const frame = known
        ? env('node.started', `{"nodeId":"n","kind":"tool","name":"x","instanceId":"i","input":${value},"pad":"${PAD}"}`)
        : env('future.x', `{"v":${value},"pad":"${PAD}"}`);
      same(frame, known ? 'ok' : 'unknown-type');
    }),
    { numRuns: RUNS },
  );
});
