'use strict';
// Conformance with the reference package @graphmind-ai/schema as its users call it: the names,
// result shapes and behaviours its own test suite exercises, written from reading its API and
// tests (none of its code or tests is copied; they cannot be fetched at test time here). Every
// import below is the package's top level, as `import {...} from '@graphmind-ai/schema'` with
// only the module name changed. What is checked is listed in README.md ("Drop-in for
// @graphmind-ai/schema"). Envelope parsing, building and serializing are covered by
// vectors.test.js, properties.test.js and serialize.test.js.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const fc = require('fast-check');
const {
  MAX_PAYLOAD_BYTES,
  MAX_SHRINK_KEYS,
  MAX_TRIM_FIELDS,
  TRUNCATION_SUFFIX,
  FINISH_REASONS,
  MESSAGE_TYPES,
  EVENT_TYPES,
  CONTROL_TYPES,
  HANDSHAKE_TYPES,
  serializePayload,
  isTruncatedPayload,
  isMessageType,
  isEventType,
  isControlType,
  isHandshakeType,
  normalizeFinishReason,
  readUsage,
  TokenUsageSchema,
  EventPayloadSchemas,
  ControlPayloadSchemas,
  HandshakePayloadSchemas,
  MessagePayloadSchemas,
  EnvelopeSchemas,
  KnownEnvelopeSchema,
  createEnvelope,
  serializeEnvelope,
  parseEnvelope,
} = require('..');
const { readJsonl, sharedDir, REPO } = require('../testlib/shared.js');

const utf8 = (s) => Buffer.byteLength(s);

test('payload budget constants', () => {
  assert.equal(MAX_PAYLOAD_BYTES, 512 * 1024);
  assert.equal(MAX_SHRINK_KEYS, 256);
  assert.equal(MAX_TRIM_FIELDS, 4096);
  assert.equal(TRUNCATION_SUFFIX, '\u2026[graphmind: truncated]');
});

test('serializePayload: every shared shrink vector byte for byte, {json, payload, truncated}, identity when untouched', () => {
  const vectors = readJsonl(path.join(sharedDir(), 'vectors/graphmind/shrink.jsonl'));
  assert.equal(vectors.length, 233);
  const failed = [];
  for (const v of vectors) {
    const input = JSON.parse(v.payload_json);
    const r = serializePayload(input, v.max_bytes, v.type ?? undefined);
    assert.deepEqual(Object.keys(r), ['json', 'payload', 'truncated'], v.name);
    if (r.json !== v.expect_json) failed.push(`${v.name}: json`);
    if (r.truncated !== v.tier > 1) failed.push(`${v.name}: truncated`);
    if (JSON.stringify(r.payload) !== r.json) failed.push(`${v.name}: payload and json differ`);
    if (r.truncated ? !isTruncatedPayload(r.payload) : r.payload !== input) failed.push(`${v.name}: payload`);
  }
  assert.deepEqual(failed, []);
});

test('serializePayload: defaults and top-level oddities', () => {
  const small = { nodeId: 'n' };
  assert.equal(serializePayload(small).payload, small);
  assert.deepEqual(serializePayload(undefined), { json: 'null', payload: undefined, truncated: false });
  const big = { nodeId: 'n', durationMs: 1, status: 'ok', output: 'x'.repeat(600 * 1024) };
  const r = serializePayload(big);
  assert.equal(r.truncated, true);
  assert.ok(utf8(r.json) <= MAX_PAYLOAD_BYTES);
  assert.equal(r.payload.nodeId, 'n');
  assert.ok(r.payload.output.endsWith(TRUNCATION_SUFFIX));
  // An own toJSON is what JSON.stringify measures.
  const viaToJSON = serializePayload({ nodeId: 'n', output: { toJSON: () => 'y'.repeat(600 * 1024) } });
  assert.equal(viaToJSON.truncated, true);
  assert.ok(utf8(viaToJSON.json) <= MAX_PAYLOAD_BYTES);
  assert.equal(isTruncatedPayload(viaToJSON.payload), true);
  // Infinity fits everything; a negative or NaN budget fits nothing.
  assert.equal(serializePayload(big, Infinity).payload, big);
  assert.equal(serializePayload({ a: 1 }, -1).truncated, true);
  assert.equal(serializePayload({ a: 1 }, NaN).truncated, true);
});

test('serializePayload: unserializable values get the marker results, never a TypeError', () => {
  const cyclic = { a: 1 };
  cyclic.self = cyclic;
  const r = serializePayload({ nodeId: 'tool:y', durationMs: 1, status: 'ok', output: cyclic });
  assert.equal(r.truncated, true);
  assert.deepEqual(JSON.parse(r.json), {
    nodeId: 'tool:y',
    durationMs: 1,
    status: 'ok',
    output: { __graphmindTruncated: true, bytes: 0, preview: '[unserializable value]' },
    __graphmindTruncated: true,
    fields: ['output'],
  });
  assert.equal(JSON.stringify(r.payload), r.json);
  const list = [1];
  list.push(list);
  assert.deepEqual(JSON.parse(serializePayload({ nodeId: 'n', rows: list }).json), { nodeId: 'n', rows: [], __graphmindTruncated: true, fields: ['rows'] });
  const big = serializePayload({ nodeId: 'n', big: 10n });
  assert.equal(big.truncated, true);
  assert.deepEqual(big.payload.fields, ['big']);
  const marker = { __graphmindTruncated: true, bytes: 0, preview: '[unserializable payload]' };
  const selfList = [];
  selfList.push(selfList);
  assert.deepEqual(serializePayload(selfList).payload, marker);
  assert.deepEqual(serializePayload(5n).payload, marker);
  // A known event type: the result is still a valid event when it can be (the skeleton keeps
  // the required error fields of a cyclic error object).
  const error = { name: 'E', message: 'boom' };
  error.cause = error;
  const e = serializePayload({ nodeId: 'n', error }, MAX_PAYLOAD_BYTES, 'node.error');
  assert.equal(EventPayloadSchemas['node.error'].safeParse(e.payload).success, true, e.json);
  assert.deepEqual(e.payload.error, { name: 'E', message: 'boom' });
  assert.equal(e.payload.preview, '[unserializable payload]');
});

test('serializePayload: idempotent, and within the default budget', () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 4 }), fc.integer({ min: 0, max: 700 * 1024 }), (value, pad) => {
      const once = serializePayload({ nodeId: 'n', status: 'ok', durationMs: 1, output: value, pad: 'p'.repeat(pad) });
      const twice = serializePayload(once.payload);
      return twice.truncated === false && twice.json === once.json && twice.payload === once.payload && utf8(once.json) <= MAX_PAYLOAD_BYTES;
    }),
    { numRuns: 40 },
  );
});

test('type guards: own type names only', () => {
  for (const t of MESSAGE_TYPES) assert.equal(isMessageType(t), true, t);
  for (const t of EVENT_TYPES) assert.ok(isEventType(t) && !isControlType(t) && !isHandshakeType(t), t);
  for (const t of CONTROL_TYPES) assert.ok(isControlType(t) && !isEventType(t), t);
  for (const t of HANDSHAKE_TYPES) assert.ok(isHandshakeType(t) && !isEventType(t), t);
  for (const t of ['constructor', '__proto__', 'toString', 'hasOwnProperty', '', 'Node.Finished', 'future.x']) {
    assert.ok(!isMessageType(t) && !isEventType(t) && !isControlType(t) && !isHandshakeType(t), t);
  }
});

test('LLM conventions: every case of vectors/graphmind/llm.jsonl, and never a throw', () => {
  const cases = readJsonl(path.join(REPO, 'vectors/graphmind/llm.jsonl'));
  assert.ok(cases.length >= 90);
  assert.deepEqual([...FINISH_REASONS], ['stop', 'length', 'tool-calls', 'content-filter', 'error', 'other']);
  for (const c of cases) {
    if (c.fn === 'normalizeFinishReason') {
      assert.equal(normalizeFinishReason(c.raw, c.hasToolCalls) ?? null, c.expect, c.name);
    } else {
      const usage = c.usageJson !== undefined ? JSON.parse(c.usageJson) : c.usage;
      assert.deepEqual(readUsage(usage) ?? null, c.expect, c.name);
    }
  }
  assert.equal(normalizeFinishReason(undefined), undefined);
  assert.equal(normalizeFinishReason({ unified: 'stop' }), undefined);
  assert.equal(normalizeFinishReason('end_turn'), 'stop');
  const hostile = Object.defineProperty({}, 'inputTokens', {
    enumerable: true,
    get() {
      throw new Error('nope');
    },
  });
  assert.equal(readUsage(hostile), undefined);
  const withCycle = { inputTokens: 1, outputTokens: 2, inclusive: true, big: 1n };
  withCycle.self = withCycle;
  assert.deepEqual(readUsage(withCycle), { inputTokens: 1, outputTokens: 2, basis: 'inclusive' });
  assert.equal(readUsage(undefined), undefined);
  assert.equal(TokenUsageSchema.safeParse({ inputTokens: 1, outputTokens: 1, inclusive: true, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }).success, true);
  assert.equal(TokenUsageSchema.safeParse({ inputTokens: 1, outputTokens: 1, cacheReadTokens: -1 }).success, false);
});

test('schema maps: keyed by the type lists, the envelope schemas over them', () => {
  assert.deepEqual(Object.keys(EventPayloadSchemas), [...EVENT_TYPES]);
  assert.deepEqual(Object.keys(ControlPayloadSchemas), [...CONTROL_TYPES]);
  assert.deepEqual(Object.keys(HandshakePayloadSchemas), [...HANDSHAKE_TYPES]);
  assert.deepEqual(Object.keys(MessagePayloadSchemas), [...MESSAGE_TYPES]);
  assert.deepEqual(Object.keys(EnvelopeSchemas), [...MESSAGE_TYPES]);
  const env = createEnvelope({ type: 'node.finished', payload: { nodeId: 'n', durationMs: 3, status: 'ok' }, seq: 4, runId: 'run-1', ts: 5 });
  const wire = JSON.parse(serializeEnvelope(env));
  assert.equal(EnvelopeSchemas['node.finished'].safeParse(wire).success, true);
  assert.equal(EnvelopeSchemas['node.error'].safeParse(wire).success, false);
  assert.equal(KnownEnvelopeSchema.safeParse(wire).success, true);
  assert.equal(KnownEnvelopeSchema.safeParse({ ...wire, type: 'future.x' }).success, false);
  assert.equal(KnownEnvelopeSchema.safeParse({ ...wire, payload: { ...wire.payload, extra: [1] } }).success, true);
});

test("parseEnvelope keeps the caller's -0, as the reference does (JSON itself has none)", () => {
  const payload = { a: -0, list: [0, -0, { z: -0 }], nested: { deep: [[-0]] }, zero: 0 };
  const r = parseEnvelope({ gm: 1, seq: 1, ts: -0, runId: 'r', type: 'future.thing', payload });
  assert.equal(r.kind, 'unknown-type');
  assert.ok(Object.is(r.envelope.ts, -0));
  assert.deepStrictEqual(r.envelope.payload, payload); // Object.is on every number
  assert.ok(Object.is(r.envelope.payload.zero, 0));
  // A known type: the same.
  const ok = parseEnvelope({ gm: 1, seq: 1, ts: 1, runId: 'r', type: 'node.finished', payload: { nodeId: 'n', durationMs: -0, status: 'ok' } });
  assert.equal(ok.kind, 'ok');
  assert.ok(Object.is(ok.envelope.payload.durationMs, -0));
  // A getter is not read a second time, and a toJSON's own value is what was parsed.
  let reads = 0;
  const withGetter = { gm: 1, seq: 1, ts: 1, runId: 'r', type: 'x', payload: {} };
  Object.defineProperty(withGetter.payload, 'g', { enumerable: true, get: () => (reads++, -0) });
  const g = parseEnvelope(withGetter);
  assert.equal(reads, 1);
  assert.ok(Object.is(g.envelope.payload.g, 0));
  const viaToJSON = parseEnvelope({ gm: 1, seq: 1, ts: 1, runId: 'r', type: 'x', payload: { toJSON: () => ({ v: 0 }), v: -0 } });
  assert.ok(Object.is(viaToJSON.envelope.payload.v, 0));
});

test("parseEnvelope: the reference's forward-compatibility property (unknown type, any JSON payload) holds with -0", () => {
  // fc.jsonValue draws -0; the reference's property compares the payload it gets back with
  // the one it passed (Object.is on numbers).
  fc.assert(
    fc.property(
      fc.string({ minLength: 1 }).filter((t) => !MESSAGE_TYPES.includes(t)),
      fc.jsonValue(),
      (type, payload) => {
        const r = parseEnvelope({ gm: 1, seq: 7, ts: 1_756_000_000_000, runId: 'run_abc', type, payload });
        assert.equal(r.kind, 'unknown-type');
        assert.equal(r.envelope.type, type);
        assert.deepStrictEqual(r.envelope.payload, payload);
      },
    ),
    { numRuns: 300, examples: [['x', -0], ['x', { a: [-0] }]] },
  );
});

test('serializePayload: a toJSON that throws only for its member name drops that field and lists it', () => {
  // Stands in for a payload longer than the engine's longest string: the whole JSON.stringify
  // throws, each field on its own (toJSON("")) does not.
  const output = {
    toJSON(key) {
      if (key === 'output') throw new RangeError('Invalid string length');
      return 'fine alone';
    },
  };
  const payload = { nodeId: 'n', durationMs: 1, status: 'ok', output };
  assert.deepEqual(serializePayload(payload).payload, { __graphmindTruncated: true, bytes: 0, preview: '[unserializable payload]' });
  const typed = serializePayload(payload, MAX_PAYLOAD_BYTES, 'node.finished');
  assert.deepEqual(typed.payload, {
    nodeId: 'n',
    durationMs: 1,
    status: 'ok',
    __graphmindTruncated: true,
    bytes: 0,
    preview: '[unserializable payload]',
    fields: ['output'],
  });
  assert.equal(typed.truncated, true);
  assert.equal(typed.json, JSON.stringify(typed.payload));
  assert.equal(EventPayloadSchemas['node.finished'].safeParse(typed.payload).success, true);
});
