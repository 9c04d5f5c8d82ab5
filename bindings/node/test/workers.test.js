'use strict';
// The addon in worker threads, loaded in every order: by the main thread never, first or last;
// by workers one after another (each exiting before the next loads the addon, so Node unloads
// and loads it again) and side by side; by a worker terminated while a call runs. Each case
// runs in a child process, so a crash (the SIGSEGV of issue 40) fails its case instead of
// killing the test runner, and a hang is cut off by a timeout.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const PKG = path.resolve(__dirname, '..');

// What every loader does: small and large frames (the large ones make V8 external strings,
// whose finalizers run at collections and when the thread's heap is torn down), a round trip,
// the schema.
const WORK = `
  const { graphmind } = require(${JSON.stringify(PKG)});
  function work(n) {
    const long = 'x'.repeat(40000);
    for (let i = 0; i < n; i++) {
      const small = graphmind.parseEnvelopeJson('{"gm":1,"seq":' + i + ',"ts":1,"runId":"r","type":"mode.set","payload":{"mode":"run"}}');
      if (small.kind !== 'ok') throw new Error('small frame: ' + small.kind);
      const frame = JSON.stringify({ gm: 1, seq: i, ts: 1, runId: 'r', type: 'future.x', payload: { a: long + i, b: [long] } });
      const big = graphmind.parseEnvelopeJson(frame);
      if (big.kind !== 'unknown-type' || big.envelope.payload.a !== long + i) throw new Error('large frame: ' + big.kind);
      if (graphmind.serializeEnvelope(big.envelope) !== frame) throw new Error('round trip');
      // Alive when the thread exits: V8 disposes it (and calls the addon's finalizer) with the
      // thread's heap, after the environment has gone.
      globalThis.kept = big;
    }
    return graphmind.exportJsonSchemaString().length;
  }
`;

/** Runs `body` in a fresh node process. In scope: `worker(code)` (a Worker running WORK, then
 *  `code`), `done(w)`, `loadAndWork` (a worker's code) and `work(n)`, which loads the addon
 *  into the main thread on its first call (never before). */
function run(body, mainLoads) {
  const script = `
    'use strict';
    const { Worker } = require('node:worker_threads');
    let mainWork;
    function work(n) {
      if (mainWork === undefined) mainWork = new Function(${JSON.stringify(WORK)} + 'return work;')();
      return mainWork(n);
    }
    function worker(code, opts = {}) {
      const w = new Worker(${JSON.stringify(WORK)} + code, { eval: true, ...opts });
      return w;
    }
    function done(w) {
      return new Promise((resolve, reject) => {
        let result;
        w.on('message', (m) => { result = m; });
        w.on('error', reject);
        w.on('exit', (code) => (code === 0 ? resolve(result) : reject(new Error('worker exit ' + code))));
      });
    }
    const loadAndWork = "require('node:worker_threads').parentPort.postMessage(work(20));";
    (async () => { ${body} })().then(() => { console.log(mainWork === undefined ? 'DONE, main never loaded it' : 'DONE, main loaded it'); }, (e) => { console.error(e); process.exit(3); });
  `;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 120_000 });
  const what = `status ${r.status}, signal ${r.signal}, stderr: ${r.stderr.slice(-2000)}`;
  assert.equal(r.signal, null, what);
  assert.equal(r.status, 0, what);
  assert.match(r.stdout, mainLoads ? /DONE, main loaded it/ : /DONE, main never loaded it/, what);
}

test('main thread never loads it: two workers in sequence', () => {
  run(`
    for (let i = 0; i < 3; i++) await done(worker(loadAndWork));
  `, false);
});

test('main thread loads it first, then workers in sequence', () => {
  run(`
    work(5);
    for (let i = 0; i < 3; i++) await done(worker(loadAndWork));
    work(5);
  `, true);
});

test('main thread loads it last, after workers in sequence exited', () => {
  run(`
    for (let i = 0; i < 3; i++) await done(worker(loadAndWork));
    work(5);
  `, true);
});

test('workers in parallel, then again after all exited, main thread never', () => {
  run(`
    for (let round = 0; round < 2; round++) {
      await Promise.all([0, 1, 2, 3].map(() => done(worker(loadAndWork))));
    }
  `, false);
});

test('workers in parallel with the main thread using it', () => {
  run(`
    const all = Promise.all([0, 1, 2].map(() => done(worker(loadAndWork))));
    work(20);
    await all;
    await done(worker(loadAndWork));
  `, true);
});

test('a worker terminated in the middle of calls, then a fresh worker', () => {
  run(`
    for (let i = 0; i < 3; i++) {
      const w = worker("const { parentPort } = require('node:worker_threads'); parentPort.postMessage('ready'); for (;;) work(1);");
      await new Promise((resolve) => w.once('message', resolve));
      await new Promise((resolve) => setTimeout(resolve, 20 + 30 * i));
      await w.terminate();
    }
    await done(worker(loadAndWork));
  `, false);
});
