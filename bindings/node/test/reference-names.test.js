'use strict';
// Coverage of the reference package's index: every runtime export (48) and exported type name
// (32) of @graphmind-ai/schema, from a committed list transcribed by hand
// (test/reference-names.json), must be exported by CommonJS and ESM alike and declared at the
// top level of index.d.ts. examples/reference.ts (type-checked by tsc in the Node step) uses
// every type name, the generic Envelope<T> included.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const PKG = path.resolve(__dirname, '..');
const LIST = JSON.parse(fs.readFileSync(path.join(__dirname, 'reference-names.json'), 'utf8'));
const DTS = fs.readFileSync(path.join(PKG, 'index.d.ts'), 'utf8');

function declaredAtTop(name) {
  return new RegExp(`^export (import ${name} =|declare (const|function|class|type|interface) ${name}\\b)`, 'm').test(DTS);
}

test('the transcribed list is whole: 48 runtime names, 32 type names, no repeats', () => {
  assert.equal(LIST.runtime.length, 48);
  assert.equal(LIST.types.length, 32);
  assert.equal(new Set(LIST.runtime).size, 48);
  assert.equal(new Set(LIST.types).size, 32);
});

test('every runtime export of the reference index is in CommonJS, ESM and index.d.ts', async () => {
  const cjs = require('..');
  const esm = await import(path.join(PKG, 'index.mjs'));
  const missing = [];
  for (const name of LIST.runtime) {
    if (!(name in cjs) || cjs[name] === undefined) missing.push(`${name}: CommonJS`);
    if (!(name in esm) || esm[name] === undefined) missing.push(`${name}: ESM`);
    if (!declaredAtTop(name)) missing.push(`${name}: index.d.ts`);
  }
  assert.deepEqual(missing, []);
});

test('every exported type name of the reference index is declared at the top level of index.d.ts', () => {
  assert.deepEqual(LIST.types.filter((n) => !declaredAtTop(n)), []);
  const example = fs.readFileSync(path.join(PKG, 'examples', 'reference.ts'), 'utf8');
  assert.deepEqual(LIST.types.filter((n) => !new RegExp(`\\b${n}\\b`).test(example)), [], 'examples/reference.ts uses every type name');
});
