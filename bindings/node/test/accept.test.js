'use strict';
// accept.js, generated from the registry (scripts/gen src/accept.rs): told from a frame's
// JSON.parse value, it says `ok`/`unknown-type` only where the contract's parser says so
// (soundness: the WASM backend returns its answer without asking the parser), and it says so
// for every frame the parser accepts among the shared vectors, ours and the real-client
// captures (so the WASM backend's one-parse path is the common one). The parser here is the
// native addon's verdict; the precondition api.js checks on the text (size, nesting) is
// applied as api.js applies it.
const test = require('node:test');
const assert = require('node:assert/strict');
const fc = require('fast-check');

const { acceptEnvelope } = require('../accept.js');
const api = require('..');
const native = require('../native.js');
const { graphmindVectors } = require('../testlib/shared');

const KIND = ['ok', 'unknown-type'];
const ACCEPTED = new Set(KIND);

/** The contract's verdict kind. */
function contract(text) {
  const v = native.gmVerdict(text);
  return typeof v === 'number' ? KIND[v] : JSON.parse(v).kind;
}

/** What api.js asks accept.js about, and only then: a JSON text within the caps. */
function precondition(text) {
  if (text.length * 6 > api.MAX_FRAME_BYTES) return false;
  let n = 0;
  for (const c of text) if (c === '[' || c === '{') n++;
  return n <= api.MAX_DEPTH;
}

/** accept.js's answer: 'ok', 'unknown-type', or 'ask'. */
function accepted(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return 'ask';
  }
  const k = acceptEnvelope(value);
  return k < 0 ? 'ask' : KIND[k];
}

test('every vector and real-client frame: accept.js agrees with the parser, and accepts what it accepts', () => {
  const vectors = graphmindVectors();
  const wrong = [];
  const missed = [];
  let fast = 0;
  for (const v of vectors) {
    if (!precondition(v.frame)) continue;
    const want = contract(v.frame);
    const got = accepted(v.frame);
    if (got !== 'ask' && got !== want) wrong.push(`${v.source}/${v.name}: accept.js ${got}, parser ${want}`);
    else if (got === 'ask' && ACCEPTED.has(want)) missed.push(`${v.source}/${v.name}: parser ${want}, accept.js asks`);
    else if (got !== 'ask') fast++;
  }
  assert.deepEqual(wrong, []);
  assert.deepEqual(missed, []);
  assert.ok(fast > 300, `only ${fast} frames accepted in JavaScript`);
});

/** Every path to a value inside `v` (objects and arrays), the root excluded. */
function paths(v, at = [], out = []) {
  if (v !== null && typeof v === 'object') {
    for (const k of Object.keys(v)) {
      const p = [...at, Array.isArray(v) ? Number(k) : k];
      out.push(p);
      if (out.length < 400) paths(v[k], p, out);
    }
  }
  return out;
}

const EDGE = [null, true, 0, -0, -1, 1.5, 2 ** 53, 2 ** 53 - 1, 1e300, '', 'x', '\ud800', 'a\u0000b', [], {}, [1], { a: 1 }, 'agent', 'before', 'text', 'continue'];

test('property: mutated frames (values swapped for edge cases, members dropped or added, duplicate keys): never accepted against the parser', () => {
  const seeds = graphmindVectors()
    .filter((v) => v.frame.length < 20000 && precondition(v.frame) && ACCEPTED.has(contract(v.frame)))
    .map((v) => JSON.parse(v.frame));
  const mutation = fc.record({
    op: fc.constantFrom('set', 'delete', 'add', 'duplicate'),
    at: fc.nat(),
    value: fc.oneof(fc.constantFrom(...EDGE), fc.jsonValue({ maxDepth: 2 })),
    key: fc.oneof(fc.constantFrom('gm', 'seq', 'ts', 'runId', 'type', 'payload', 'nodeId', 'kind', 'name', 'point', '__proto__', 'constructor'), fc.string({ maxLength: 4 })),
  });
  fc.assert(
    fc.property(fc.constantFrom(...seeds), fc.array(mutation, { minLength: 1, maxLength: 4 }), (seed, ops) => {
      const v = structuredClone(seed);
      let text;
      for (const m of ops) {
        const all = paths(v);
        const p = all.length ? all[m.at % all.length] : [];
        let holder = v;
        for (const k of p.slice(0, -1)) holder = holder[k];
        const last = p[p.length - 1];
        // A copy: the EDGE constants are shared by every run, and a value inserted twice
        // and then added to would make the frame cyclic.
        const value = structuredClone(m.value);
        if (m.op === 'set' && p.length) Object.defineProperty(holder, last, { value, writable: true, enumerable: true, configurable: true });
        else if (m.op === 'delete' && p.length) delete holder[last];
        else if (m.op === 'add' && holder !== null && typeof holder === 'object' && !Array.isArray(holder)) Object.defineProperty(holder, m.key, { value, writable: true, enumerable: true, configurable: true });
      }
      text = JSON.stringify(v);
      const dup = ops.find((m) => m.op === 'duplicate');
      if (dup) {
        // An earlier member of the same name, whose value JSON.parse and the parser discard.
        const at = text.indexOf(`"${dup.key}":`);
        if (at > 0) text = `${text.slice(0, at)}${JSON.stringify(dup.key)}:${JSON.stringify(dup.value)},${text.slice(at)}`;
      }
      if (!precondition(text)) return;
      const got = accepted(text);
      if (got !== 'ask') assert.equal(got, contract(text), text.slice(0, 300));
    }),
    { numRuns: Number(process.env.WIRECONTRACT_PROPTEST_RUNS || 2000) },
  );
});

test('the WASM backend asks for the JavaScript first step; the addon does not', () => {
  assert.equal(require('../wasm-backend.js').acceptsFirst, true);
  assert.equal(native.acceptsFirst === true, native.backend === 'wasm');
});
