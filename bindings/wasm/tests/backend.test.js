'use strict';
// The WASM backend against the native addon, entry point by entry point, on inputs the
// browser suite does not reach: the schema texts, the registry and constants, argument errors.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const PKG = path.resolve(__dirname, '../../node');

function load(backend) {
  const code = `
    const api = require(${JSON.stringify(PKG)});
    const out = {
      backend: require(${JSON.stringify(path.join(PKG, 'native.js'))}).backend ?? 'native',
      id: api.CONTRACT_ID,
      gmSchema: api.graphmind.exportJsonSchemaString(),
      goSchema: api.graphorin.exportJsonSchemaString(),
      constants: [api.MESSAGE_TYPES, api.KNOWN_CAPABILITIES, api.graphorin.RPC_ERROR_CODES, api.graphorin.CLOSE_CODE_VALUES],
      errors: [],
    };
    for (const f of [() => api.shouldPause('nope', [], 'llm', 'n', 'before'), () => api.matcherMatches({ point: 'x' }, 'llm', 'n', 'before'),
                     () => api.shrinkPayloadJson('{', 10), () => api.graphorin.formatTicketSubprotocol('')]) {
      try { f(); out.errors.push('no error'); } catch (e) { out.errors.push(e.constructor.name + ': ' + e.message); }
    }
    out.pause = api.pauseReason('step', [{ point: 'after' }], 'llm', 'n', 'after');
    out.hello = api.negotiateHello({ versions: { protocol: 1, client: 'x' }, capabilities: ['pause', 'zzz'] });
    out.offer = [api.graphorin.negotiateSubprotocol(['a, graphorin.v1']), api.graphorin.parseTicketSubprotocol(['ticket.abc'])];
    process.stdout.write(JSON.stringify(out));`;
  const env = { ...process.env };
  delete env.WIRECONTRACT_BACKEND;
  if (backend === 'wasm') env.WIRECONTRACT_BACKEND = 'wasm';
  const r = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8', env, maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

test('the WASM backend answers as the native addon does', () => {
  const native = load('native');
  const wasm = load('wasm');
  assert.equal(native.backend, 'native');
  assert.equal(wasm.backend, 'wasm');
  assert.equal(wasm.id, native.id);
  // The committed schemas are exactly what the contract generates (the addon's text).
  assert.equal(wasm.gmSchema, native.gmSchema);
  assert.equal(wasm.goSchema, native.goSchema);
  assert.deepEqual(wasm.constants, native.constants);
  assert.deepEqual(wasm.errors, native.errors);
  assert.deepEqual([wasm.pause, wasm.hello, wasm.offer], [native.pause, native.hello, native.offer]);
});

test('the WASM build is refused when its contract id differs from contract-id.json', () => {
  const code = `
    const { checkContract } = require(${JSON.stringify(path.join(PKG, 'api.js'))});
    const backend = require(${JSON.stringify(path.join(PKG, 'native.js'))});
    const ok = checkContract(backend, () => require(${JSON.stringify(path.join(PKG, 'contract-id.json'))}));
    let refused = '';
    try { checkContract(backend, () => ({ contractId: '0000000000000000' })); } catch (e) { refused = e.message; }
    process.stdout.write(JSON.stringify({ ok, refused }));`;
  const r = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8', env: { ...process.env, WIRECONTRACT_BACKEND: 'wasm' } });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.match(out.ok, /^[0-9a-f]{16}$/);
  assert.match(out.refused, /built from another contract/);
});
