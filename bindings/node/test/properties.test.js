'use strict';
// Property tests (fast-check): generated envelopes of every known type round-trip through
// serializeEnvelope and parseEnvelopeJson; unknown types with any JSON payload come back
// `unknown-type` with the payload deep-equal.
const test = require('node:test');
const assert = require('node:assert/strict');
const fc = require('fast-check');
const { graphmind } = require('..');
const { graphmindVectors } = require('../testlib/shared');

const RUNS = Number(process.env.WIRECONTRACT_PROPTEST_RUNS || 300);

// Known payloads: every `ok` vector and real-client frame, per type, as seeds; the properties
// then vary the envelope around them and add unknown members at every object level.
const SEEDS = new Map();
for (const v of graphmindVectors()) {
  if (v.expect !== 'ok' || v.frame.length > 4096) continue;
  const r = graphmind.parseEnvelopeJson(v.frame);
  if (r.kind !== 'ok') continue;
  if (/\d[eE]\+?\d{3}/.test(v.frame)) continue;
  const list = SEEDS.get(r.envelope.type) || [];
  list.push(r.envelope.payload);
  SEEDS.set(r.envelope.type, list);
}

// A type no vector shows yet (one a contract author just declared) gets a minimal payload made
// from the registry (required fields only, plain values), so adding a message type needs no
// edit here; every such payload must parse `ok`.
const REGISTRY = (() => {
  for (const p of ['../wirecontract.node', `../wirecontract.${process.platform}-${process.arch}.node`]) {
    try {
      return JSON.parse(require(p).registryJson());
    } catch {
      // the other name
    }
  }
  throw new Error('no native addon');
})();
const GM = REGISTRY.protocols.find((p) => p.name === 'graphmind');
const OBJECTS = new Map(GM.objects.map((o) => [o.name, o]));
const ENUMS = new Map(GM.enums.map((e) => [e.name, e.values]));

function minimalValue(wire, ty) {
  if (ty.list) return [];
  if (ty.enum) return ENUMS.get(ty.enum)[0];
  if (ty.object) return minimalObject(OBJECTS.get(ty.object));
  switch (ty.scalar) {
    case 'Bool':
      return true;
    case 'String':
    case 'NonEmptyString':
      return wire;
    case 'OpaqueRecord':
      return {};
    case 'Opaque':
      return { [wire]: 1 };
    default:
      return 1; // every integer and number rule accepts 1
  }
}

function minimalObject(o) {
  const out = Object.fromEntries(o.literals);
  for (const f of o.fields) if (f.required) out[f.wire] = minimalValue(f.wire, f.ty);
  return out;
}

const SYNTHESIZED = [];
for (const m of GM.messages) {
  if (SEEDS.has(m.wire)) continue;
  SEEDS.set(m.wire, [minimalObject(OBJECTS.get(m.payload))]);
  SYNTHESIZED.push(m.wire);
}

test('every known type has seed payloads that parse ok (vectors, else made from the registry)', () => {
  assert.deepEqual([...graphmind.MESSAGE_TYPES].filter((t) => !SEEDS.has(t)), []);
  for (const type of SYNTHESIZED) {
    const frame = JSON.stringify({ gm: 1, seq: 1, ts: 1, runId: 'r', type, payload: SEEDS.get(type)[0] });
    assert.equal(graphmind.parseEnvelopeJson(frame).kind, 'ok', frame);
  }
});

const KNOWN_ENVELOPE = new Set(['gm', 'seq', 'ts', 'runId', 'type', 'payload']);
const safeUInt = fc.oneof(fc.nat(), fc.maxSafeNat(), fc.constantFrom(0, Number.MAX_SAFE_INTEGER));
// JSON values without -0 (JSON.stringify writes it as 0, which is the documented JS loss).
const json = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)));
const extraKey = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !KNOWN_ENVELOPE.has(k) && k !== '__proto__');

/** Adds `extra` unknown members to the payload's top level (loose objects keep them). */
function withExtras(payload, extras) {
  const out = { ...payload };
  for (const [k, v] of Object.entries(extras)) if (!(k in out)) out[k] = v;
  return out;
}

const knownEnvelope = fc
  .constantFrom(...graphmind.MESSAGE_TYPES)
  .chain((type) =>
    fc.record({
      type: fc.constant(type),
      payload: fc.tuple(fc.constantFrom(...SEEDS.get(type)), fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }).map((k) => `x_${k}`), json, { maxKeys: 3 })).map(([p, extras]) => withExtras(p, extras)),
      seq: safeUInt,
      ts: safeUInt,
      runId: fc.oneof(fc.string(), fc.constant('*')).filter((s) => !s.includes('\0') && s.isWellFormed()),
      extra: fc.dictionary(extraKey, json, { maxKeys: 3 }),
    }),
  );

test('generated envelopes of every known type round-trip', () => {
  const seen = new Set();
  fc.assert(
    fc.property(knownEnvelope, ({ type, payload, seq, ts, runId, extra }) => {
      const env = graphmind.createEnvelope({ type, payload, seq, runId, ts });
      Object.assign(env, extra);
      const text = graphmind.serializeEnvelope(env);
      const r = graphmind.parseEnvelopeJson(text);
      assert.equal(r.kind, 'ok', `${text}: ${r.reason} ${JSON.stringify(r.issues)}`);
      assert.deepStrictEqual(r.envelope, JSON.parse(JSON.stringify(env)));
      // Serializing the parsed envelope is a fixed point.
      assert.equal(graphmind.serializeEnvelope(r.envelope), text);
      seen.add(type);
    }),
    { numRuns: RUNS, seed: 16 },
  );
  assert.equal(seen.size, graphmind.MESSAGE_TYPES.length, `types covered: ${[...seen]}`);
});

const unknownType = fc.string().filter((t) => !graphmind.MESSAGE_TYPES.includes(t) && t.isWellFormed());

test('unknown types with any JSON payload come back unknown-type, payload deep-equal', () => {
  fc.assert(
    fc.property(unknownType, fc.option(json, { nil: undefined }), safeUInt, (type, payload, seq) => {
      const env = graphmind.createEnvelope({ type, payload, seq, runId: '*', ts: 1 });
      const r = graphmind.parseEnvelopeJson(graphmind.serializeEnvelope(env));
      assert.equal(r.kind, 'unknown-type');
      assert.equal(r.envelope.type, type);
      if (payload === undefined) assert.ok(!('payload' in r.envelope));
      else assert.deepStrictEqual(r.envelope.payload, payload);
      // The value path agrees.
      assert.deepStrictEqual(graphmind.parseEnvelope(env), r);
    }),
    { numRuns: RUNS, seed: 17 },
  );
});

test('parseEnvelopeJson never throws on arbitrary strings and mutated frames', () => {
  const frames = [...SEEDS.entries()].map(([type, ps]) => JSON.stringify({ gm: 1, seq: 1, ts: 1, runId: 'r', type, payload: ps[0] }));
  const mutated = fc.tuple(fc.constantFrom(...frames), fc.nat(), fc.nat({ max: 8 }), fc.string({ maxLength: 4 })).map(([f, at, del, ins]) => {
    const i = at % (f.length + 1);
    return f.slice(0, i) + ins + f.slice(i + del);
  });
  fc.assert(
    fc.property(fc.oneof(fc.string({ unit: 'binary' }), mutated), (text) => {
      const r = graphmind.parseEnvelopeJson(text);
      assert.ok(['ok', 'unknown-type', 'version-mismatch', 'invalid'].includes(r.kind));
      // An accepted frame is exactly JSON.parse's value.
      if (r.kind === 'ok' || r.kind === 'unknown-type') assert.deepStrictEqual(r.envelope, JSON.parse(text));
    }),
    { numRuns: RUNS * 3, seed: 18 },
  );
});

// Any UTF-16 text (lone surrogates, backslashes and quotes favoured) inside a string of a
// frame: the addon's verdict is decided on the text JSON.parse sees. With `gm: 2` the verdict
// is the parser's alone (no materialization to fall back on): a mismatch exactly when
// JSON.parse accepts the frame.
test('property: the verdict on any UTF-16 text agrees with JSON.parse on that text', () => {
  const unit = fc.oneof(
    fc.constantFrom('\\', '"', 'u', 'd', '8', '0', 'a', '\ud800', '\udbff', '\udc00', '\udfff', '\ud83d', '\ude00', '\ufffd', 'é', '東'),
    fc.string({ unit: 'binary', maxLength: 1 }),
  );
  fc.assert(
    fc.property(fc.array(unit, { maxLength: 24 }), (parts) => {
      const s = parts.join('');
      const frame = `{"gm":2,"seq":1,"ts":1,"runId":"r","type":"x","payload":"${s}"}`;
      let parsed = true;
      try {
        JSON.parse(frame);
      } catch {
        parsed = false;
      }
      assert.equal(graphmind.parseEnvelopeJson(frame).kind, parsed ? 'version-mismatch' : 'invalid', JSON.stringify(frame));
      const known = frame.replace('"gm":2', '"gm":1');
      const r = graphmind.parseEnvelopeJson(known);
      if (parsed) assert.deepStrictEqual(r, { kind: 'unknown-type', envelope: JSON.parse(known) });
      else assert.equal(r.kind, 'invalid');
    }),
    { numRuns: RUNS * 10 },
  );
});

