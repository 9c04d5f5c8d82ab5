// The browser suite in Node: `node browser/node-run.mjs native|wasm` runs suite.mjs against
// the package over the native addon or over the WASM build (WIRECONTRACT_BACKEND=wasm is set
// by the caller for `wasm`; the backend in use is checked). Exits 1 on any failure.
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { runSuite } from './suite.mjs';
import { suiteData } from './data.mjs';

const want = process.argv[2];
const require = createRequire(import.meta.url);
const api = require('../index.js');
const backend = require('../native.js').backend === 'wasm' ? 'wasm' : 'native';
if (backend !== want) throw new Error(`asked for the ${want} backend, loaded ${backend}`);
const results = await runSuite(api, suiteData(), fc, { runs: Number(process.env.WIRECONTRACT_PROPTEST_RUNS || 200) });
let failed = 0;
for (const r of results) {
  console.log(`${r.ok ? 'ok    ' : 'FAILED'} [node ${backend}] ${r.name} (${r.ms} ms) ${r.ok ? r.detail : `\n${r.detail}`}`);
  if (!r.ok) failed++;
}
console.log(`node ${backend}: ${results.length - failed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
