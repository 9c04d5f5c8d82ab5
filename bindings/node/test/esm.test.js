'use strict';
// index.mjs re-exports every name index.js exports, and nothing else: `import { X } from
// '@wirecontract/node'` works for every X that `require('@wirecontract/node').X` does.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');

test('ESM and CommonJS export the same names and values', async () => {
  const cjs = require('..');
  const esm = await import(path.resolve(__dirname, '..', 'index.mjs'));
  const esmNames = Object.keys(esm).filter((n) => n !== 'default').sort();
  assert.deepEqual(esmNames, Object.keys(cjs).sort());
  for (const n of esmNames) assert.equal(esm[n], cjs[n], n);
  assert.equal(esm.default, cjs);
});
