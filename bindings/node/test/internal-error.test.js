'use strict';
// A backend failure (a Rust panic the addon's guard caught, a trapped WASM call) reaches the
// caller with the one internal-error text of every binding (wirecontract-glue's PANIC_PREFIX),
// said once: the JavaScript layer does not wrap it in a second prefix.
const test = require('node:test');
const assert = require('node:assert/strict');
const { createApi } = require('../api.js');
const native = require('../native.js');

const PREFIX = 'internal error in wirecontract (please report): ';

/** The API over the real backend, but with `name` failing as a caught panic does. */
function apiWithPanicking(...names) {
  const backend = Object.create(native);
  for (const name of names) {
    backend[name] = () => {
      throw new Error(`${PREFIX}boom in ${name}`);
    };
  }
  return createApi(backend, () => require('../contract-id.json'));
}

test('a caught panic is reported with the one prefix, once', () => {
  const { graphmind, graphorin } = apiWithPanicking('gmVerdict', 'goParse', 'gmCheckWritten');
  const r = graphmind.parseEnvelopeJson('{"gm":1}');
  assert.deepEqual(r, { kind: 'invalid', reason: `${PREFIX}boom in gmVerdict` });
  const g = graphorin.parseClientMessage('{}');
  assert.equal(g.success, false);
  assert.equal(g.error.message, `${PREFIX}boom in goParse`);
  assert.throws(
    () => graphmind.serializeEnvelope({ gm: 1, seq: 1, ts: 1, runId: 'r', type: 'future.x', payload: {} }),
    (e) => e instanceof graphmind.BuildError && e.message === `${PREFIX}boom in gmCheckWritten`,
  );
});

test('any other backend failure gets the prefix once too', () => {
  const backend = Object.create(native);
  backend.gmVerdict = () => {
    throw new TypeError('expected a string');
  };
  const { graphmind } = createApi(backend, () => require('../contract-id.json'));
  assert.equal(graphmind.parseEnvelopeJson('{"gm":1}').reason, `${PREFIX}expected a string`);
});

test('the JavaScript copies of the prefix are wirecontract-glue\'s PANIC_PREFIX', () => {
  const fs = require('node:fs');
  const path = require('node:path');
  const rust = fs.readFileSync(path.join(__dirname, '../../glue/src/panic.rs'), 'utf8');
  const m = /pub const PANIC_PREFIX: &str = "([^"\\]*)";/.exec(rust);
  assert.ok(m, 'PANIC_PREFIX is declared in bindings/glue/src/panic.rs');
  assert.equal(PREFIX, m[1]);
  for (const file of ['../api.js', '../wasm-backend.js']) {
    assert.ok(fs.readFileSync(path.join(__dirname, file), 'utf8').includes(m[1]), `${file} spells PANIC_PREFIX`);
  }
});
