'use strict';
// Issue 12 from the Rust core: salvage on invalid, the one builder, the viewer helpers.
const test = require('node:test');
const assert = require('node:assert/strict');
const { graphmind } = require('..');

test('invalid payloads salvage seq, ts, runId and type; other invalid frames keep the reference shape', () => {
  const bad = '{"gm":1,"seq":7,"ts":9,"runId":"run_1","type":"node.token","payload":{"nodeId":"n","deltas":[{"t":"hologram","v":"x"}]}}';
  const r = graphmind.parseEnvelopeJson(bad);
  assert.equal(r.kind, 'invalid');
  assert.equal(r.reason, 'invalid payload for message type "node.token"');
  assert.deepEqual([r.seq, r.ts, r.runId, r.type], [7, 9, 'run_1', 'node.token']);
  assert.equal(r.issues[0].path, 'payload.deltas.0.t');
  const early = graphmind.parseEnvelopeJson('{"gm":1,"seq":-1,"ts":9,"runId":"r","type":"mode.set","payload":{}}');
  assert.deepEqual(Object.keys(early).sort(), ['issues', 'kind', 'reason']);
  assert.deepEqual(Object.keys(graphmind.parseEnvelopeJson('nope')).sort(), ['kind', 'reason']);
});

test('createEnvelope takes any type string', () => {
  const env = graphmind.createEnvelope({ type: 'future.x', payload: [1], seq: 1, runId: '*', ts: 2 });
  assert.equal(graphmind.serializeEnvelope(env), '{"gm":1,"seq":1,"ts":2,"runId":"*","type":"future.x","payload":[1]}');
  assert.throws(() => graphmind.createEnvelope({ type: 'mode.set', payload: { mode: 'warp' }, seq: 1, runId: '*' }), graphmind.BuildError);
});

test('pauseReason, negotiateHello and helloAck', () => {
  const bps = [{ kind: 'tool', name: 't' }];
  assert.equal(graphmind.pauseReason('run', bps, 'tool', 't', 'before'), 'breakpoint');
  assert.equal(graphmind.pauseReason('step', bps, 'llm', 'x', 'error'), 'step');
  assert.equal(graphmind.pauseReason('step', bps, 'llm', 'x', 'after'), null);
  const hello = { versions: { protocol: 1, client: 'c' }, capabilities: ['abort', 'x-new', 'pause'], resumeToken: 'tok' };
  assert.deepEqual(graphmind.negotiateHello(hello, ['pause', 'abort']), { kind: 'accepted', protocol: 1, capabilities: ['abort', 'pause'], resumeToken: 'tok' });
  assert.equal(graphmind.negotiateHello({ ...hello, versions: { protocol: 2, client: 'c' } }).kind, 'refused');
  const ack = graphmind.helloAck(hello, { viewer: 'me', breakpoints: [{ kind: 'tool' }, { kind: 'tool', point: 'before' }], mode: 'step', sessionToken: 's' });
  assert.deepEqual(ack, { versions: { protocol: 1, viewer: 'me' }, capabilities: ['abort', 'x-new', 'pause'], breakpoints: [{ kind: 'tool' }], mode: 'step', sessionToken: 's' });
  const env = graphmind.createEnvelope({ type: 'hello.ack', payload: ack, seq: 0, runId: '*' });
  assert.equal(graphmind.parseEnvelopeJson(graphmind.serializeEnvelope(env)).kind, 'ok');
});
