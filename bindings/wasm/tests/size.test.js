'use strict';
// The WASM build's size budget (raw and gzip -9 bytes of the .wasm bindings/wasm/build.sh
// made: opt-level z, wasm-opt -Oz), and what the module must not carry: no schema generation
// (the schemas come from generated/schema as text) and no second copy of the registry.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const WASM = path.resolve(__dirname, '../../node/wasm/wirecontract_wasm_bg.wasm');
// Measured on the first build: see README.md ("Browser build") for the figures.
const BUDGET_RAW = 700 * 1024;
const BUDGET_GZIP = 260 * 1024;

test('the .wasm is within its raw and gzip size budget', () => {
  const bytes = fs.readFileSync(WASM);
  const gz = zlib.gzipSync(bytes, { level: 9 }).length;
  console.log(`wirecontract_wasm_bg.wasm: ${bytes.length} bytes raw, ${gz} gzip`);
  assert.ok(bytes.length <= BUDGET_RAW, `raw ${bytes.length} > budget ${BUDGET_RAW}`);
  assert.ok(gz <= BUDGET_GZIP, `gzip ${gz} > budget ${BUDGET_GZIP}`);
});

test('the module generates no schema at run time (schemars is not linked in)', () => {
  const text = fs.readFileSync(WASM).toString('latin1');
  // schemars' generator writes these keys; the committed schemas come as text instead.
  for (const marker of ['schemars', '"$defs"', 'https://json-schema.org/draft/2020-12/schema']) {
    assert.ok(!text.includes(marker), `the .wasm holds ${marker}`);
  }
});
