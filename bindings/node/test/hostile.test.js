'use strict';
// Hostile input never crashes the process: deep nesting, the size cap, lone surrogates,
// values JSON.stringify refuses, wrong argument types.
const test = require('node:test');
const assert = require('node:assert/strict');
const { graphmind, graphorin } = require('..');

const head = '{"gm":1,"seq":1,"ts":1,"runId":"r","type":"future.x","payload":';

test('100k-deep nesting is accepted at the cap and refused beyond it, without a crash', () => {
  const depth = graphmind.MAX_DEPTH - 1; // the envelope object is one level
  const ok = graphmind.parseEnvelopeJson(head + '['.repeat(depth) + ']'.repeat(depth) + '}');
  assert.equal(ok.kind, 'unknown-type');
  const deeper = graphmind.parseEnvelopeJson(head + '['.repeat(depth + 1) + ']'.repeat(depth + 1) + '}');
  assert.equal(deeper.kind, 'invalid');
  assert.match(deeper.reason, /nests deeper than 100000 levels/);
  // Unbalanced and far deeper (1M).
  const huge = graphmind.parseEnvelopeJson(head + '['.repeat(1_000_000));
  assert.equal(huge.kind, 'invalid');
  const go = graphorin.parseServerMessage('{"v":"1","kind":"event","eventId":"e","subscriptionId":"s","subject":"x","type":"t","payload":' + '{"a":'.repeat(200_000));
  assert.equal(go.success, false);
  assert.equal(go.error.isJson, true);
});

test('a deep value given to parseEnvelope is invalid, not a throw', () => {
  let v = [];
  for (let i = 0; i < 200_000; i++) v = [v];
  const r = graphmind.parseEnvelope({ gm: 1, seq: 1, ts: 1, runId: 'r', type: 'x', payload: v });
  assert.equal(r.kind, 'invalid');
});

test('the 16 MiB cap: a larger frame is invalid without being read', () => {
  const cap = graphmind.MAX_FRAME_BYTES;
  assert.equal(cap, 16 * 1024 * 1024);
  const pad = (n) => head + '"' + 'a'.repeat(n - head.length - 3) + '"}';
  const at = pad(cap);
  assert.equal(Buffer.byteLength(at), cap);
  assert.equal(graphmind.parseEnvelopeJson(at).kind, 'unknown-type');
  const over = graphmind.parseEnvelopeJson(pad(cap + 1));
  assert.deepEqual(over, { kind: 'invalid', reason: `frame exceeds ${cap} bytes` });
  // Counted in UTF-8 bytes: under the cap in UTF-16 units, over it in bytes.
  const wide = head + '"' + 'é'.repeat(cap / 2) + '"}';
  assert.ok(wide.length < cap);
  assert.equal(graphmind.parseEnvelopeJson(wide).kind, 'invalid');
  assert.equal(graphmind.parseEnvelopeJson('x'.repeat(64 * 1024 * 1024)).kind, 'invalid');
});

test('lone surrogates: kept in payload strings, refused in runId, raw or escaped', () => {
  for (const lone of ['\ud800', '\\ud800', '\udfff', '\\udfff']) {
    const payload = graphmind.parseEnvelopeJson(`{"gm":1,"seq":1,"ts":1,"runId":"r","type":"node.token","payload":{"nodeId":"a${lone}","deltas":[{"t":"text","v":"${lone}"}]}}`);
    assert.equal(payload.kind, 'ok', lone);
    // The JS string holds the lone code unit, exactly as JSON.parse gives it.
    assert.equal(payload.envelope.payload.nodeId, 'a' + (lone.length === 1 ? lone : JSON.parse(`"${lone}"`)));
    const text = graphmind.serializeEnvelope(payload.envelope);
    assert.ok(/\\ud[89a-f][0-9a-f]{2}/.test(text), 'written as a lowercase escape');
    assert.deepStrictEqual(graphmind.parseEnvelopeJson(text).envelope, payload.envelope);
    const run = graphmind.parseEnvelopeJson(`{"gm":1,"seq":1,"ts":1,"runId":"r${lone}","type":"mode.set","payload":{"mode":"run"}}`);
    assert.equal(run.kind, 'invalid', lone);
    assert.equal(run.issues[0].path, 'runId');
  }
  // A lone surrogate outside a string is a syntax error either way.
  assert.equal(graphmind.parseEnvelopeJson('{"gm":1}\ud800').kind, 'invalid');
  assert.equal(graphmind.parseEnvelopeJson('\ud800').kind, 'invalid');
  assert.throws(() => graphmind.createEnvelope({ type: 'mode.set', payload: { mode: 'run' }, seq: 1, runId: 'x\udc00' }), /runId/);
});

test('frame text reaches the parser as JSON.parse reads the JS string', () => {
  const mismatch = (payload) => graphmind.parseEnvelopeJson(`{"gm":2,"seq":1,"ts":1,"runId":"r","type":"x","payload":${payload}}`);
  // A lone surrogate right after an escaping backslash is an invalid escape (a syntax error),
  // not the escaped backslash followed by text: invalid, never a version mismatch.
  for (const lone of ['\ud800', '\udfff']) {
    for (const frame of [`"\\${lone}"`, `"a\\\\\\${lone}"`]) {
      assert.throws(() => JSON.parse(frame));
      const r = mismatch(frame);
      assert.equal(r.kind, 'invalid', JSON.stringify(frame));
      assert.match(r.reason, /^frame is not valid JSON/);
      const go = graphorin.parseServerMessage(`{"v":"1","kind":"event","eventId":"e","subscriptionId":"s","subject":"x","type":"t","payload":${frame}}`);
      assert.equal(go.success, false);
      assert.equal(go.error.rpcErrorCode, graphorin.RPC_ERROR_CODES.PARSE_ERROR);
    }
    // After an escaped backslash (an even run) it is an ordinary code unit of the string.
    assert.equal(mismatch(`"\\\\${lone}"`).kind, 'version-mismatch');
    const ok = graphmind.parseEnvelopeJson(`{"gm":1,"seq":1,"ts":1,"runId":"r","type":"x","payload":"\\\\${lone}"}`);
    assert.equal(ok.envelope.payload, '\\' + lone);
  }
  // U+FFFD itself, raw or escaped, next to lone surrogates and pairs: every unit is kept.
  const text = '\ufffd\ud800\ud83d\ude00\udc00\ufffd\\ufffd';
  const r = graphmind.parseEnvelopeJson(`{"gm":1,"seq":1,"ts":1,"runId":"r\ufffd","type":"node.token","payload":{"nodeId":"${text}","deltas":[]}}`);
  assert.equal(r.kind, 'ok');
  assert.equal(r.envelope.runId, 'r\ufffd');
  assert.equal(r.envelope.payload.nodeId, '\ufffd\ud800\ud83d\ude00\udc00\ufffd\ufffd');
  // A pair split across an escape is two lone surrogates, each kept.
  assert.equal(mismatch('"\\ud83d\ude00"').kind, 'version-mismatch');
});

test('non-JSON values and wrong argument types never throw from the parsers', () => {
  const cyclic = { gm: 1 };
  cyclic.self = cyclic;
  for (const value of [undefined, null, 1n, cyclic, () => 1, Symbol('s'), NaN, [], 'text']) {
    const r = graphmind.parseEnvelope(value);
    assert.equal(r.kind, 'invalid');
    assert.equal(graphorin.parseServerMessageValue(value).success, false);
  }
  for (const text of [undefined, null, 42, {}, Symbol('s'), Buffer.from('{"v":"1","kind":"pong"}')]) {
    assert.equal(graphmind.parseEnvelopeJson(text).kind, 'invalid');
  }
  // A Buffer reads as its UTF-8 text, as JSON.parse(buffer) does.
  assert.equal(graphorin.parseServerMessage(Buffer.from('{"v":"1","kind":"pong"}')).success, true);
  assert.throws(() => graphmind.createEnvelope({ type: 'x', payload: 1n, seq: 1, runId: 'r' }), graphmind.BuildError);
  assert.throws(() => graphmind.createEnvelope(null), graphmind.BuildError);
  assert.throws(() => graphmind.matchersEqual({ kind: 'nope' }, {}), /a is not a valid BreakpointMatcher: kind: invalid option/);
});

test('__proto__ keys are own members, never a prototype change', () => {
  const r = graphmind.parseEnvelopeJson('{"gm":1,"seq":1,"ts":1,"runId":"r","type":"mode.set","payload":{"mode":"run","__proto__":{"polluted":true}},"__proto__":[1]}');
  assert.equal(r.kind, 'ok');
  assert.equal(Object.getPrototypeOf(r.envelope), Object.prototype);
  assert.equal(Object.getPrototypeOf(r.envelope.payload), Object.prototype);
  assert.ok(Object.prototype.hasOwnProperty.call(r.envelope.payload, '__proto__'));
  assert.equal({}.polluted, undefined);
  const text = graphmind.serializeEnvelope(r.envelope);
  assert.equal(text, '{"gm":1,"seq":1,"ts":1,"runId":"r","type":"mode.set","payload":{"mode":"run","__proto__":{"polluted":true}},"__proto__":[1]}');
  // Reordering keeps them too.
  const moved = graphmind.serializeEnvelope({ payload: { __proto__: null, x: 1, mode: 'run' }, type: 'mode.set', gm: 1, seq: 1, ts: 1, runId: 'r' });
  assert.equal(moved, '{"gm":1,"seq":1,"ts":1,"runId":"r","type":"mode.set","payload":{"mode":"run","x":1}}');
  // Graphorin: an unknown key like any other, so the frame is invalid.
  assert.equal(graphorin.parseServerMessage('{"v":"1","kind":"pong","__proto__":{}}').success, false);
});

test('numbers beyond 2^53 in opaque values are JS doubles, as JSON.parse gives them', () => {
  const r = graphmind.parseEnvelopeJson('{"gm":1,"seq":1,"ts":1,"runId":"r","type":"future.x","payload":{"big":9007199254740993,"inf":1e400}}');
  assert.equal(r.kind, 'unknown-type');
  assert.equal(r.envelope.payload.big, 9007199254740992);
  assert.equal(r.envelope.payload.inf, Infinity);
  assert.equal(graphmind.serializeEnvelope(r.envelope), '{"gm":1,"seq":1,"ts":1,"runId":"r","type":"future.x","payload":{"big":9007199254740992,"inf":null}}');
  // In a typed integer field the contract refuses them.
  assert.equal(graphmind.parseEnvelopeJson('{"gm":1,"seq":9007199254740992,"ts":1,"runId":"r","type":"x"}').kind, 'invalid');
});

test('createEnvelope names a BigInt counter (ts, seq) with the contract rule, not the payload', () => {
  for (const member of ['ts', 'seq']) {
    const init = { type: 'mode.set', payload: { mode: 'run' }, seq: 1, ts: 1, runId: 'r', [member]: 10n };
    assert.throws(
      () => graphmind.createEnvelope(init),
      (e) => {
        assert.equal(e.name, 'BuildError');
        assert.deepEqual(e.issues.map((i) => i.path), [member]);
        assert.match(e.issues[0].message, /^expected .*integer, received bigint$/);
        assert.doesNotMatch(e.message, /payload/);
        return true;
      },
    );
  }
  // Several members at once, and a payload that does not stringify beside them: each is named,
  // and nothing escapes as a raw TypeError.
  const cyclic = { mode: 'run' };
  cyclic.self = cyclic;
  for (const [payload, paths] of [
    [{ mode: 'run' }, ['seq', 'ts']],
    [{ n: 1n }, ['seq', 'ts', 'payload']],
    [cyclic, ['seq', 'ts', 'payload']],
  ]) {
    assert.throws(
      () => graphmind.createEnvelope({ type: 'mode.set', payload, seq: 10n, ts: 11n, runId: 'r' }),
      (e) => {
        assert.equal(e.name, 'BuildError');
        assert.deepEqual(e.issues.map((i) => i.path), paths);
        assert.match(e.issues[0].message, /received bigint$/);
        return true;
      },
    );
  }
  // A BigInt inside the payload still names the payload.
  assert.throws(() => graphmind.createEnvelope({ type: 'x.y', payload: { n: 1n }, seq: 1, ts: 1, runId: 'r' }), /payload is not JSON-serializable/);
});

// Each entry taking kinds, modes, names, matchers or a hello names the argument it refuses
// (a TypeError, as createEnvelope names its members), instead of napi's conversion text, a raw
// JSON.stringify error, a stack overflow or a string silently repaired to U+FFFD.
function throwsNaming(fn, re) {
  assert.throws(fn, (e) => {
    assert.equal(e.name, 'TypeError', e.message);
    assert.match(e.message, re);
    assert.doesNotMatch(e.message, /Failed to convert|StringExpected|is not a function/);
    return true;
  });
}

test('helloAck refuses a missing or non-string viewer, naming it', () => {
  const hello = { versions: { protocol: 1, client: 'c' }, capabilities: [], app: 'a', sdk: { name: 'node', version: '1' } };
  throwsNaming(() => graphmind.helloAck(hello), /^viewer must be a string, got undefined$/);
  throwsNaming(() => graphmind.helloAck(hello, {}), /^viewer must be a string, got undefined$/);
  throwsNaming(() => graphmind.helloAck(hello, { viewer: { a: 1 } }), /^viewer must be a string, got object$/);
  throwsNaming(() => graphmind.helloAck(hello, null), /^state must be an object/);
  throwsNaming(() => graphmind.helloAck(hello, { viewer: 'v', breakpoints: 'x' }), /^breakpoints must be an array of matchers, got string$/);
  throwsNaming(() => graphmind.helloAck(hello, { viewer: 'v', mode: 1 }), /^mode must be a string, got number$/);
  throwsNaming(() => graphmind.helloAck(hello, { viewer: 'v', sessionToken: 1 }), /^sessionToken must be a string, got number$/);
  throwsNaming(() => graphmind.helloAck(hello, { viewer: 'v', hubCapabilities: [1] }), /^hubCapabilities\[0\] must be a string, got number$/);
  // eslint-disable-next-line no-sparse-arrays
  throwsNaming(() => graphmind.helloAck(hello, { viewer: 'v', breakpoints: [{ kind: 'tool' }, , { kind: 'llm' }] }), /^breakpoints\[1\] must be a breakpoint matcher object, got undefined$/);
  assert.equal(graphmind.helloAck(hello, { viewer: 'v' }).versions.viewer, 'v');
});

test('non-string kinds, modes, names and points are named, as is a lone surrogate', () => {
  const bps = [{ kind: 'tool' }];
  throwsNaming(() => graphmind.shouldPause(1, bps, 'tool', 'n', 'before'), /^mode must be a string, got number$/);
  throwsNaming(() => graphmind.shouldPause('run', bps, 1, 'n', 'before'), /^kind must be a string, got number$/);
  throwsNaming(() => graphmind.shouldPause('run', bps, 'tool', null, 'before'), /^name must be a string, got null$/);
  throwsNaming(() => graphmind.pauseReason('run', bps, 'tool', 'n', 2), /^point must be a string, got number$/);
  throwsNaming(() => graphmind.matcherMatches({ kind: 'tool' }, 'tool', 5, 'before'), /^name must be a string, got number$/);
  // napi would read '\ud800' as U+FFFD and match this matcher.
  throwsNaming(() => graphmind.shouldPause('run', [{ kind: 'tool', name: '\ufffd' }], 'tool', '\ud800', 'before'), /^name holds a lone surrogate \(at index 0\)/);
  throwsNaming(() => graphmind.shouldPause('run\udc00', bps, 'tool', 'n', 'before'), /^mode holds a lone surrogate \(at index 3\)/);
  throwsNaming(() => graphmind.matcherMatches({ kind: 'tool' }, 'to\ud800ol', 'n', 'before'), /^kind holds a lone surrogate/);
  // A well-formed pair is fine.
  assert.equal(graphmind.shouldPause('run', [{ kind: 'tool', name: '\ud83d\ude00' }], 'tool', '\ud83d\ude00', 'before'), true);
  // A sparse breakpoints array names the hole.
  // eslint-disable-next-line no-sparse-arrays
  throwsNaming(() => graphmind.pauseReason('run', [, { kind: 'tool' }], 'tool', 'n', 'before'), /^breakpoints\[0\] must be a breakpoint matcher object/);
});

test('matchers and hellos JSON.stringify refuses are named, deep ones too', () => {
  const cyc = { kind: 'tool' };
  cyc.self = cyc;
  throwsNaming(() => graphmind.shouldPause('run', [{ kind: 'tool' }, cyc], 'tool', 'n', 'before'), /^breakpoints\[1\] is not JSON-serializable: /);
  throwsNaming(() => graphmind.matchersEqual({ kind: 'tool', x: 1n }, {}), /^a is not JSON-serializable: /);
  throwsNaming(() => graphmind.matcherMatches(cyc, 'tool', 'n', 'before'), /^matcher is not JSON-serializable: /);
  let deep = {};
  for (let i = 0; i < 5000; i++) deep = { x: deep };
  let deepest = {};
  for (let i = 0; i < 200_000; i++) deepest = { x: deepest };
  for (const d of [deep, deepest]) {
    // Either JSON.stringify overflows (named) or the contract's reader refuses the depth.
    assert.throws(() => graphmind.shouldPause('run', [{ kind: 'tool', d }], 'tool', 'n', 'before'), (e) => {
      assert.ok(!(e instanceof RangeError), e.message);
      assert.match(e.message, /^breakpoints\[0\] /);
      return true;
    });
  }
  const hello = { versions: { protocol: 1, client: 'c' }, capabilities: [], app: 'a', sdk: { name: 'node', version: '1' }, n: 1n };
  throwsNaming(() => graphmind.negotiateHello(hello), /^hello is not JSON-serializable: /);
  throwsNaming(() => graphmind.helloAck(hello, { viewer: 'v' }), /^hello is not JSON-serializable: /);
  throwsNaming(() => graphmind.negotiateHello(undefined), /^hello must be a hello payload object, got undefined$/);
});

test('negotiateHello takes an array of capability strings, not a string spread into characters', () => {
  const hello = { versions: { protocol: 1, client: 'c' }, capabilities: ['pause'], app: 'a', sdk: { name: 'node', version: '1' } };
  throwsNaming(() => graphmind.negotiateHello(hello, 'pause'), /^viewerCapabilities must be an array of strings, got string$/);
  throwsNaming(() => graphmind.negotiateHello(hello, [1]), /^viewerCapabilities\[0\] must be a string, got number$/);
  assert.deepEqual(graphmind.negotiateHello(hello, ['pause']).capabilities, ['pause']);
});
