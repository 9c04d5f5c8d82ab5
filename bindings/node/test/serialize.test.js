'use strict';
// serializeEnvelope writes only frames the contract's parser reads back (issue 40, item 7),
// at any nesting the parser accepts (item 9), and its deep path writes JSON.stringify's text.
const test = require('node:test');
const assert = require('node:assert/strict');
const fc = require('fast-check');
const { graphmind } = require('..');
const { stringifyDeep } = require('../stringify.js');

const base = () => ({ gm: 1, seq: 1, ts: 2, runId: 'r', type: 'mode.set', payload: { mode: 'run' } });

test('envelopes no parser accepts are refused with BuildError naming the member', () => {
  const cases = [
    [{ seq: 2 ** 60 }, 'seq'],
    [{ seq: -1 }, 'seq'],
    [{ seq: 1.5 }, 'seq'],
    [{ ts: -1 }, 'ts'],
    [{ runId: 'a\u0000b' }, 'runId'],
    [{ runId: 'a\ud800' }, 'runId'],
    [{ runId: '\udc00' }, 'runId'],
    [{ payload: { mode: 'warp' } }, 'payload.mode'],
    [{ gm: 2 }, 'gm'],
    [{ seq: undefined }, 'seq'],
    [{ runId: 5 }, 'runId'],
  ];
  for (const [change, path] of cases) {
    const env = { ...base(), ...change };
    assert.throws(
      () => graphmind.serializeEnvelope(env),
      (e) => {
        assert.ok(e instanceof graphmind.BuildError, `${JSON.stringify(change)}: ${e}`);
        assert.match(e.message, /^envelope would not parse: /);
        assert.ok(e.issues.some((i) => i.path === path), `${JSON.stringify(change)}: ${JSON.stringify(e.issues)}`);
        return true;
      },
      JSON.stringify(change),
    );
  }
  assert.throws(() => graphmind.serializeEnvelope(undefined), graphmind.BuildError);
  assert.throws(() => graphmind.serializeEnvelope('{"gm":1}'), graphmind.BuildError);
  // What the parser accepts is still written: an unknown type, the largest safe counters.
  const ok = { ...base(), seq: Number.MAX_SAFE_INTEGER, ts: 0, type: 'future.x', payload: [1] };
  assert.equal(graphmind.serializeEnvelope(ok), JSON.stringify(ok));
});

test('frames over the 16 MiB receive cap are still written (the cap is the receiver\'s)', () => {
  const env = { ...base(), type: 'future.x', payload: 'x'.repeat(graphmind.MAX_FRAME_BYTES) };
  const text = graphmind.serializeEnvelope(env);
  assert.equal(text, JSON.stringify(env));
});

const head = '{"gm":1,"seq":1,"ts":1,"runId":"r","type":"future.x","payload":';

test('deep envelopes round-trip up to the depth cap, arrays and objects', () => {
  const depths = [5000, 20_000, graphmind.MAX_DEPTH - 1]; // the envelope object is one level
  for (const depth of depths) {
    for (const [open, close] of [['[', ']'], ['{"a":', '}']]) {
      const frame = head + open.repeat(depth - 1) + (open === '[' ? '[]' : '{}') + close.repeat(depth - 1) + '}';
      const r = graphmind.parseEnvelopeJson(frame);
      assert.equal(r.kind, 'unknown-type', `${depth} ${open}`);
      assert.equal(graphmind.serializeEnvelope(r.envelope), frame, `${depth} ${open}`);
    }
  }
  // A typed payload with a deep opaque value, written in spec order.
  let deep = 'leaf';
  for (let i = 0; i < 30_000; i++) deep = { v: [deep] };
  const env = { gm: 1, seq: 1, ts: 1, runId: 'r', type: 'node.finished', payload: { status: 'ok', durationMs: 1, nodeId: 'n', output: deep } };
  const text = graphmind.serializeEnvelope(env);
  const back = graphmind.parseEnvelopeJson(text);
  assert.equal(back.kind, 'ok');
  assert.equal(graphmind.serializeEnvelope(back.envelope), text);
  assert.ok(text.includes('"payload":{"nodeId":"n"'), text.slice(0, 120));
});

test('past the depth cap: BuildError from the contract, not RangeError; a deep cycle is TypeError', () => {
  let v = [];
  for (let i = 0; i < graphmind.MAX_DEPTH; i++) v = [v];
  assert.throws(
    () => graphmind.serializeEnvelope({ ...base(), type: 'future.x', payload: v }),
    (e) => e instanceof graphmind.BuildError && /nests deeper than 100000 levels/.test(e.message),
  );
  const cyc = { a: [] };
  let deep = cyc;
  for (let i = 0; i < 10_000; i++) deep = { x: deep };
  cyc.a.push(deep);
  assert.throws(() => graphmind.serializeEnvelope({ ...base(), type: 'future.x', payload: deep }), (e) => e instanceof TypeError && /circular/.test(e.message));
  let big = { n: 1n };
  for (let i = 0; i < 10_000; i++) big = [big];
  assert.throws(() => graphmind.serializeEnvelope({ ...base(), type: 'future.x', payload: big }), (e) => e instanceof TypeError && /BigInt/.test(e.message));
});

test('the deep writer writes exactly JSON.stringify\'s text', () => {
  const special = fc.constantFrom(new Date(0), new Number(-0), new String('s\ud800'), Object(true), { toJSON: (k) => `key:${k}` }, () => 1, Symbol('s'), undefined, NaN, -0, 1e400);
  fc.assert(
    fc.property(fc.anything({ withBoxedValues: true, withNullPrototype: true, withSparseArray: true, withObjectString: true, values: [fc.oneof(fc.jsonValue(), special)] }), (v) => {
      assert.equal(stringifyDeep(v), JSON.stringify(v));
      assert.equal(stringifyDeep({ k: v, a: [v] }), JSON.stringify({ k: v, a: [v] }));
    }),
    { numRuns: 500 },
  );
  // Wrappers with their own valueOf/toString: Number and String convert through them,
  // Boolean reads its internal value, as JSON.stringify does.
  const b = Object(true);
  b.valueOf = () => false;
  const n = new Number(5);
  n.valueOf = () => 7;
  const str = new String('a');
  str.toString = () => 'z';
  for (const v of [undefined, null, 'a\ud800b', { '': 1, 2: [undefined, () => 0], __proto__: null }, JSON.parse('{"__proto__":[1],"1":2,"b":3}'), [b, n, str]]) {
    assert.equal(stringifyDeep(v), JSON.stringify(v));
  }
  assert.throws(() => stringifyDeep([Object(1n)]), { name: 'TypeError', message: 'Do not know how to serialize a BigInt' });
});

test('deep values into parseEnvelope, createEnvelope and shrinkPayload: the contract\'s cap, not the stack', () => {
  let deep = [];
  for (let i = 0; i < 20_000; i++) deep = [deep];
  const r = graphmind.parseEnvelope({ ...base(), type: 'future.x', payload: deep });
  assert.equal(r.kind, 'unknown-type');
  const env = graphmind.createEnvelope({ type: 'future.x', payload: deep, seq: 1, runId: 'r', ts: 1 });
  const text = graphmind.serializeEnvelope(env);
  assert.equal(text, head + '['.repeat(20_001) + ']'.repeat(20_001) + '}');
  assert.equal(graphmind.shrinkPayload(deep, 1 << 20).tier, 1);
  let over = [];
  for (let i = 0; i < graphmind.MAX_DEPTH; i++) over = [over];
  const refused = graphmind.parseEnvelope({ ...base(), type: 'future.x', payload: over });
  assert.equal(refused.kind, 'invalid');
  assert.match(refused.reason, /nests deeper than 100000 levels/);
  assert.throws(() => graphmind.createEnvelope({ type: 'future.x', payload: over, seq: 1, runId: 'r', ts: 1 }), (e) => e instanceof graphmind.BuildError && /nests deeper/.test(e.message));
});
