'use strict';
// Any registered protocol by name (protocols(), parseFrame): every protocol the registry lists
// parses its generated examples (generated/examples/<name>.jsonl, one accepted frame of every
// message type) with no code naming it, so a protocol added to the contract is covered here
// by its declaration alone. Run over the addon (step 50) and over the WASM build
// (`WIRECONTRACT_BACKEND=wasm`, step 52).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { isDeepStrictEqual } = require('node:util');
const api = require('..');

const REPO = path.resolve(__dirname, '../../..');

test('every registered protocol parses its generated examples by name', () => {
  const names = api.protocols();
  assert.ok(names.includes('graphmind') && names.includes('graphorin'), String(names));
  assert.equal(new Set(names).size, names.length);
  for (const name of names) {
    const file = path.join(REPO, 'generated/examples', `${name}.jsonl`);
    const examples = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
    assert.ok(examples.length > 0, file);
    for (const ex of examples) {
      const v = api.parseFrame(name, ex.frame);
      assert.equal(v.kind, 'ok', `${name} ${ex.name}: ${JSON.stringify(v)}`);
      assert.equal(v.message, ex.type, `${name} ${ex.name}`);
      // The object is the frame, or (a protocol with envelopes) its payload: the value
      // JSON.parse gives, whatever order the contract writes the members in.
      const frame = JSON.parse(ex.frame);
      assert.ok(isDeepStrictEqual(v.object, frame) || isDeepStrictEqual(v.object, frame.payload), `${name} ${ex.name}: ${JSON.stringify(v.object)}`);
    }
  }
});

test('bad frames are verdicts naming path and rule; an unknown protocol throws naming the registered ones', () => {
  for (const name of api.protocols()) {
    const v = api.parseFrame(name, '{');
    assert.equal(v.kind, 'invalid', name);
    assert.equal(typeof v.reason, 'string');
    assert.equal(api.parseFrame(name, 42).kind, 'invalid', name);
  }
  // A lone surrogate is read as JSON.parse reads the string: kept in the object.
  const lone = api.parseFrame('graphorin', '{"v":"1","jsonrpc":"2.0","id":"\uD800","method":"ping"}');
  assert.deepEqual([lone.kind, lone.object.id], ['ok', '\uD800']);
  const token = api.parseFrame('graphmind', '{"gm":1,"seq":1,"ts":2,"runId":"r","type":"node.token","payload":{"nodeId":"n\uD800","deltas":[]}}');
  assert.deepEqual(token.object, { nodeId: 'n\uD800', deltas: [] });
  // Issues carry the code the contract recorded (Graphorin records zod's).
  const noResult = api.parseFrame('graphorin', '{"v":"1","jsonrpc":"2.0","id":1}');
  assert.equal(noResult.kind, 'invalid');
  assert.ok(noResult.issues.every((i) => typeof i.path === 'string' && typeof i.code === 'string'), JSON.stringify(noResult.issues));
  const bad = api.parseFrame('graphmind', '{"gm":1,"seq":-1,"ts":2,"runId":"r","type":"run.finished","payload":{}}');
  assert.equal(bad.kind, 'invalid');
  assert.equal(bad.issues[0].path, 'seq');
  assert.deepEqual(bad.issues[0].segments, ['seq']);
  assert.deepEqual(Object.keys(bad.issues[0]).sort(), ['message', 'path']);
  assert.equal(api.parseFrame('graphmind', '{"gm":2,"seq":1,"ts":2,"runId":"r","type":"x","payload":{}}').kind, 'version-mismatch');
  const unknown = api.parseFrame('graphmind', '{"gm":1,"seq":1,"ts":2,"runId":"r","type":"future.x","payload":[1]}');
  assert.deepEqual([unknown.kind, unknown.message, unknown.object], ['unknown-type', 'future.x', undefined]);
  const ping = api.parseFrame('graphorin', '{"v":"1","jsonrpc":"2.0","id":1,"method":"ping"}');
  assert.deepEqual([ping.kind, ping.message], ['ok', 'ping']);
  assert.throws(() => api.parseFrame('no-such-protocol', '{}'), (e) => e.message.includes('"no-such-protocol"') && api.protocols().every((n) => e.message.includes(n)));
  assert.throws(() => api.parseFrame(undefined, '{}'), TypeError);
});
