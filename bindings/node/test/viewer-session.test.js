'use strict';
// ViewerSession, the contract's viewer (graphmind-session §5) as a viewer author's host uses
// it: the handshake, de-duplication, pause answers, timers, run tracking and argument errors.
// The same file runs over both backends: `node --test test/` (step 50) over the native addon,
// and `WIRECONTRACT_BACKEND=wasm node --test test/viewer-session.test.js` (step 52) over the
// WASM build; the backend in use is checked, so neither run can pass on the other's.
const test = require('node:test');
const assert = require('node:assert/strict');

const api = require('..');
const { ViewerSession, createEnvelope, serializeEnvelope, parseEnvelopeJson } = api;

const WANT = process.env.WIRECONTRACT_BACKEND === 'wasm' ? 'wasm' : 'native';

const RUN = 'run_a';
const hello = (seq = 0) =>
  serializeEnvelope(
    createEnvelope({
      type: 'hello',
      seq,
      ts: 1,
      runId: '*',
      payload: { versions: { protocol: 1, client: 'test/1' }, capabilities: ['pause', 'step', 'inject'], app: 'app', sdk: { name: 'js', version: '1' } },
    }),
  );
const frame = (type, seq, payload, runId = RUN) => serializeEnvelope(createEnvelope({ type, seq, ts: 10 + seq, runId, payload }));
const runStarted = (seq, runId = RUN) => frame('run.started', seq, { app: 'app', sdk: { name: 'js', version: '1' } }, runId);
const paused = (seq, pauseId, runId = RUN) => frame('exec.paused', seq, { pauseId, nodeId: 'tool:x', point: 'before' }, runId);
const resumed = (seq, pauseId, action = 'continue') => frame('exec.resumed', seq, { pauseId, action });
const sent = (actions) => actions.filter((a) => a.type === 'send').map((a) => parseEnvelopeJson(a.frame));

/** A session with one app connection that has said hello (its ack polled away). */
function attached(options = {}) {
  const v = new ViewerSession({ tokenPrefix: 'tok_t_', ...options });
  v.connectionOpened(1);
  assert.deepEqual(v.frameReceived(1, hello(), 1), { kind: 'hello', replayed: false });
  v.pollActions();
  return v;
}

test(`the package runs over the ${WANT} backend and exports ViewerSession`, () => {
  assert.equal(require('../native.js').backend === 'wasm' ? 'wasm' : 'native', WANT);
  assert.equal(typeof ViewerSession, 'function');
});

test('hello: answered with a hello.ack carrying the armed state, then app-attached', () => {
  const v = new ViewerSession({ tokenPrefix: 'tok_t_', breakpoints: [{ kind: 'tool' }], mode: 'step', viewerVersion: 'v/9' });
  v.connectionOpened(7);
  assert.deepEqual(v.frameReceived(7, hello(), 5), { kind: 'hello', replayed: false });
  const actions = v.pollActions();
  assert.deepEqual(actions.map((a) => a.type), ['send', 'app-attached']);
  assert.equal(actions[0].conn, 7);
  const ack = parseEnvelopeJson(actions[0].frame);
  assert.equal(ack.kind, 'ok');
  assert.equal(ack.envelope.type, 'hello.ack');
  assert.equal(ack.envelope.runId, '*');
  assert.deepEqual(ack.envelope.payload.breakpoints, [{ kind: 'tool' }]);
  assert.equal(ack.envelope.payload.mode, 'step');
  assert.equal(ack.envelope.payload.versions.viewer, 'v/9');
  assert.match(ack.envelope.payload.sessionToken, /^tok_t_/);
  assert.equal(actions[1].sessionToken, ack.envelope.payload.sessionToken);
  assert.equal(actions[1].hello.app, 'app');
  assert.deepEqual(v.breakpoints, [{ kind: 'tool' }]);
  assert.equal(v.mode, 'step');
  assert.equal(v.pollAction(), undefined);
});

test('de-duplication by (runId, seq): first sighting accepted, a resend dropped, "*" frames pass', () => {
  const v = attached();
  const f = runStarted(1);
  assert.deepEqual(v.frameReceived(1, f, 2), { kind: 'accepted', replayed: false });
  const [accepted] = v.pollActions();
  assert.equal(accepted.type, 'frame-accepted');
  assert.deepEqual(accepted.envelope, JSON.parse(f));
  assert.equal(accepted.replayed, false);
  assert.deepEqual(v.frameReceived(1, f, 3), { kind: 'duplicate', replayed: false });
  assert.deepEqual(v.pollActions(), []);
  // The same seq on another run is another frame.
  assert.equal(v.frameReceived(1, runStarted(1, 'run_b'), 4).kind, 'accepted');
  assert.equal(v.frameReceived(1, frame('x.custom', 99, { a: 1 }, '*'), 5).kind, 'wildcard');
  // A reconnecting app replays its buffer: frames below the new hello's seq are replays, and
  // the ones already seen stay duplicates across connections.
  v.connectionClosed(1, 6);
  v.pollActions();
  v.connectionOpened(2);
  assert.equal(v.frameReceived(2, hello(5), 7).kind, 'hello');
  v.pollActions();
  assert.deepEqual(v.frameReceived(2, f, 8), { kind: 'duplicate', replayed: true });
  assert.deepEqual(v.frameReceived(2, runStarted(2), 9), { kind: 'accepted', replayed: true });
});

test('rejected frames: before hello, invalid, a viewer-side type, gm 2 closes the connection', () => {
  const v = new ViewerSession();
  assert.equal(v.frameReceived(3, runStarted(1), 1).kind, 'rejected');
  assert.deepEqual(v.pollActions().map((a) => [a.type, a.rule]), [['warn', 'before-hello']]);
  v.frameReceived(3, hello(), 2);
  v.pollActions();
  assert.equal(v.frameReceived(3, '{"gm":1', 3).kind, 'rejected');
  assert.equal(v.pollAction().rule, 'invalid-frame');
  assert.equal(v.frameReceived(3, frame('mode.set', 4, { mode: 'step' }, '*'), 4).kind, 'rejected');
  assert.equal(v.pollAction().rule, 'unexpected-type');
  assert.equal(v.frameReceived(3, '{"gm":2,"seq":5,"ts":1,"runId":"r","type":"x","payload":{}}', 5).kind, 'rejected');
  const actions = v.pollActions();
  const close = actions.find((a) => a.type === 'close');
  assert.deepEqual([close.conn, close.code], [3, 1002]);
});

test('pause answers: opened, resumed through the session, closed by the app; refusals name their code', () => {
  const v = attached({ resumeWaitMs: 1000 });
  v.frameReceived(1, runStarted(1), 2);
  v.frameReceived(1, paused(2, 'p1'), 3);
  const opened = v.pollActions().find((a) => a.type === 'pause-opened');
  assert.deepEqual(opened, { type: 'pause-opened', conn: 1, runId: RUN, pauseId: 'p1', nodeId: 'tool:x', point: 'before' });
  assert.deepEqual(v.openPauses, ['p1']);

  v.resume('p1', 'inject', 4, { output: { answer: 42 }, requestId: 'req-1' });
  const [resume] = sent(v.pollActions());
  assert.equal(resume.kind, 'ok');
  assert.equal(resume.envelope.type, 'exec.resume');
  assert.equal(resume.envelope.runId, RUN);
  assert.deepEqual(resume.envelope.payload, { pauseId: 'p1', action: 'inject', output: { answer: 42 }, requestId: 'req-1' });
  assert.equal(v.pollTimeout(), 1004);

  v.frameReceived(1, resumed(3, 'p1', 'inject'), 5);
  assert.ok(v.pollActions().some((a) => a.type === 'pause-closed' && a.pauseId === 'p1' && a.action === 'inject'));
  assert.deepEqual(v.openPauses, []);

  for (const [id, code] of [['p1', 'unknown-pause'], ['nope', 'unknown-pause']]) {
    assert.throws(() => v.resume(id, 'continue', 6), (e) => e.name === 'ResumeError' && e.code === code && !e.message.startsWith(code));
  }
  assert.throws(() => v.resume('p1', 'sideways', 6), /action must be one of \["continue", "retry", "inject", "abort"\], not "sideways"/);
});

test('fail-open: a disconnect releases open pauses; an unanswered resume times out', () => {
  const v = attached({ resumeWaitMs: 500 });
  v.frameReceived(1, runStarted(1), 2);
  v.frameReceived(1, paused(2, 'p1'), 3);
  v.frameReceived(1, paused(3, 'p2'), 4);
  v.pollActions();
  v.resume('p1', 'continue', 10);
  v.pollActions();
  assert.equal(v.pollTimeout(), 510);
  v.handleTimeout(509);
  assert.deepEqual(v.pollActions(), []);
  v.handleTimeout(510);
  assert.deepEqual(v.pollActions(), [{ type: 'resume-timed-out', pauseId: 'p1' }]);

  v.connectionClosed(1, 20);
  const released = v.pollActions();
  assert.deepEqual(released.map((a) => [a.type, a.pauseId]).sort(), [['pause-released', 'p1'], ['pause-released', 'p2']]);
  assert.throws(() => v.resume('p2', 'continue', 21), (e) => e.code === 'released-by-disconnect');
});

test('run tracking: retained runs, the abandon grace after a disconnect, the retention bound', () => {
  const v = attached({ abandonGraceMs: 1000, maxRetainedRuns: 2 });
  assert.equal(v.retainedRuns, 0);
  v.frameReceived(1, runStarted(1, 'run_1'), 2);
  v.frameReceived(1, runStarted(1, 'run_2'), 3);
  assert.equal(v.retainedRuns, 2);
  assert.ok(v.retainsRun('run_1') && v.retainsRun('run_2'));
  assert.ok(v.retainedBytes > 0);
  // A third run forgets the least recently active one.
  v.frameReceived(1, runStarted(1, 'run_3'), 4);
  assert.equal(v.retainedRuns, 2);
  assert.equal(v.retainsRun('run_1'), false);
  assert.ok(v.retainsRun('run_3'));
  v.pollActions();

  v.connectionClosed(1, 100);
  assert.equal(v.pollTimeout(), 1100);
  v.handleTimeout(1099);
  assert.deepEqual(v.pollActions(), []);
  v.handleTimeout(1100);
  assert.deepEqual(v.pollActions().map((a) => [a.type, a.runId]), [['run-abandoned', 'run_2'], ['run-abandoned', 'run_3']]);
});

test('breakpoints and mode are broadcast to attached connections', () => {
  const v = attached();
  assert.equal(v.setBreakpoint({ kind: 'llm', point: 'after' }, 2), true);
  assert.equal(v.setBreakpoint({ kind: 'llm', point: 'after' }, 3), false);
  let frames = sent(v.pollActions());
  assert.deepEqual(frames.map((r) => [r.envelope.type, r.envelope.runId, r.envelope.payload.matcher]), [['breakpoint.set', '*', { kind: 'llm', point: 'after' }]]);
  assert.deepEqual(v.breakpoints, [{ point: 'error' }, { kind: 'llm', point: 'after' }]);
  assert.equal(v.clearBreakpoint({ kind: 'llm', point: 'after' }, 4), 1);
  assert.equal(v.clearBreakpoint({ kind: 'llm', point: 'after' }, 5), 0);
  v.setMode('step', 6);
  v.setMode('step', 7);
  frames = sent(v.pollActions());
  assert.deepEqual(frames.map((r) => r.envelope.type), ['breakpoint.clear', 'mode.set']);
  assert.equal(v.mode, 'step');
});

test('bad arguments are errors, alike on both backends; the session stays usable', () => {
  assert.throws(() => new ViewerSession(null), TypeError);
  assert.throws(() => new ViewerSession({ nope: 1 }), /unknown ViewerSession option "nope"/);
  assert.throws(() => new ViewerSession({ mode: 'fast' }), /mode must be one of \["run", "step"\], not "fast"/);
  assert.throws(() => new ViewerSession({ breakpoints: [{ kind: 'bogus' }] }), /breakpoints\[0\] is not a valid BreakpointMatcher/);
  assert.throws(() => new ViewerSession({ resumeWaitMs: -1 }), /resumeWaitMs must be a safe integer >= 0/);
  assert.throws(() => new ViewerSession({ maxRetainedRuns: 0 }), /maxRetainedRuns must be a positive safe integer/);
  assert.throws(() => new ViewerSession({ hubCapabilities: [1] }), TypeError);
  const v = attached();
  assert.throws(() => v.frameReceived('1', hello(), 1), TypeError);
  assert.throws(() => v.frameReceived(1, hello(), NaN), /nowMs/);
  assert.throws(() => v.frameReceived(1.5, hello(), 1), /conn must be a safe integer >= 0/);
  assert.throws(() => v.connectionOpened(-1), /conn must be a safe integer >= 0/);
  assert.throws(() => v.setBreakpoint({ point: 'sometimes' }, 1), /matcher is not a valid BreakpointMatcher/);
  assert.throws(() => v.setBreakpoint(1n, 1), TypeError);
  assert.throws(() => v.setMode(3, 1), TypeError);
  assert.throws(() => v.resume('p', 'continue', 1, { output: 1n }), TypeError);
  assert.throws(() => v.retainsRun(undefined), TypeError);
  // Bad frames never throw: they are rejected with a warning.
  for (const junk of ['', '\ud800', '['.repeat(200000), 'x'.repeat(1 << 16), '{"gm":1,"seq":-1}']) {
    assert.equal(v.frameReceived(1, junk, 2).kind, 'rejected');
  }
  assert.equal(v.frameReceived(1, runStarted(1), 3).kind, 'accepted');
});
