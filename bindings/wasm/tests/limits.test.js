'use strict';
// The browser viewer's frame cap against the WASM build's memory, which grows and never
// shrinks: a frame of any size sent to ViewerSession.frameReceived costs the module no more
// memory than a frame at the cap (docs/robustness.md, "Resource limits"). The browser suite
// (browser/suite.mjs) checks the same session's bounds in Chromium; only here, in Node, can a
// test read the module's memory.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const PKG = path.resolve(__dirname, '../../node');
const MiB = 1 << 20;

/** ViewerSession over a fresh instance of the WASM build (wasm-backend.js, viewer.js), and
 *  that instance's memory. */
function wasmViewer() {
  const glue = require(path.join(PKG, 'wasm', 'wirecontract_wasm.js'));
  const module = new WebAssembly.Module(fs.readFileSync(path.join(PKG, 'wasm', 'wirecontract_wasm_bg.wasm')));
  const exports = glue.initSync({ module });
  const backend = require(path.join(PKG, 'wasm-backend.js'));
  backend.bind(glue, module, exports);
  const ViewerSession = require(path.join(PKG, 'viewer.js')).makeViewerSession(backend);
  return { ViewerSession, memory: () => exports.memory.buffer.byteLength, max: JSON.parse(backend.constantsJson()).graphmind.DEFAULT_MAX_FRAME_BYTES };
}

test('a frame far over the cap grows the WASM memory no further than frames at the cap do (within two caps of slack)', () => {
  const { ViewerSession, memory, max } = wasmViewer();
  const v = new ViewerSession({ tokenPrefix: 'tok_limits_' });
  const hello = JSON.stringify({ gm: 1, seq: 0, ts: 1, runId: '*', type: 'hello', payload: { versions: { protocol: 1, client: 't' }, capabilities: ['pause'] } });
  assert.equal(v.frameReceived(1, hello, 1).kind, 'hello');
  // Frames of the cap's length in UTF-16 units, of each kind that crosses differently (UTF-8
  // of one and three bytes a unit, UTF-16 units for a lone surrogate): what frames the cap
  // lets through can take in the module.
  const kinds = [['ASCII', (n) => 'x'.repeat(n)], ['three-byte', (n) => '\u20ac'.repeat(n)], ['lone surrogate', (n) => `\ud800${'y'.repeat(n - 1)}`]];
  for (const [, make] of kinds) v.frameReceived(1, make(max), 2);
  v.pollActions();
  const atCap = memory();
  for (const [what, text] of kinds.map(([what, make]) => [what, make(80 * MiB)])) {
    const r = v.frameReceived(1, text, 3);
    const warns = v.pollActions().filter((a) => a.type === 'warn');
    assert.equal(r.kind, 'rejected', what);
    assert.deepEqual(warns.map((w) => [w.rule, w.text]), [['invalid-frame', `frame exceeds ${max} bytes`]], what);
    // Slack of two caps for where the allocator places the buffers; without the cap's
    // check, the 80 Mi-unit frames alone take 80 to 240 MiB.
    assert.ok(memory() <= atCap + 2 * max, `${what}: the module's memory grew from ${atCap / MiB} to ${memory() / MiB} MiB for a frame of ${text.length} units`);
  }
});
