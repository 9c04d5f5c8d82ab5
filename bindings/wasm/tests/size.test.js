'use strict';
// The WASM build's size budget: raw and gzip -9 bytes of the .wasm bindings/wasm/build.sh
// made (opt-level z, wasm-bindgen, wasm-opt -Oz). The first build measured 894,609 bytes raw
// and 324,626 gzipped; the budgets leave about 10% for growth. (schemars' code is in the
// module although never run: the registry's statics point at each type's schema function.)
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const WASM = path.resolve(__dirname, '../../node/wasm/wirecontract_wasm_bg.wasm');
const BUDGET_RAW = 960 * 1024;
const BUDGET_GZIP = 352 * 1024;

test('the .wasm is within its raw and gzip size budget', () => {
  const bytes = fs.readFileSync(WASM);
  const gz = zlib.gzipSync(bytes, { level: 9 }).length;
  console.log(`wirecontract_wasm_bg.wasm: ${bytes.length} bytes raw, ${gz} gzip`);
  assert.ok(bytes.length <= BUDGET_RAW, `raw ${bytes.length} > budget ${BUDGET_RAW}`);
  assert.ok(gz <= BUDGET_GZIP, `gzip ${gz} > budget ${BUDGET_GZIP}`);
});
