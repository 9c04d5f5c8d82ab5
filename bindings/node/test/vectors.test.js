'use strict';
// Every shared GraphMind and Graphorin vector and every real-client frame, through the
// package's public API, plus the round trip of every accepted frame.
const test = require('node:test');
const assert = require('node:assert/strict');
const { graphmind, graphorin } = require('..');
const { graphmindVectors, graphorinVectors, nesting, SHALLOW } = require('../testlib/shared');

const GM = graphmindVectors();
const GO = graphorinVectors();

test(`graphmind: ${GM.length} vectors give the expected verdict`, () => {
  const failures = [];
  for (const v of GM) {
    const r = graphmind.parseEnvelopeJson(v.frame);
    if (r.kind !== v.expect) failures.push(`${v.source}/${v.name}: expected ${v.expect}, got ${r.kind} ${r.reason ?? ''}`);
    else if ((r.kind === 'ok' || r.kind === 'unknown-type') && v.type !== null && r.envelope.type !== v.type) failures.push(`${v.name}: type ${r.envelope.type}`);
  }
  assert.deepEqual(failures, []);
});

test('graphmind: result shapes are the reference\'s plain objects', () => {
  for (const v of GM) {
    if (nesting(v.frame) > SHALLOW) continue;
    const r = graphmind.parseEnvelopeJson(v.frame);
    assert.equal(Object.getPrototypeOf(r), Object.prototype);
    switch (r.kind) {
      case 'ok':
      case 'unknown-type':
        assert.deepEqual(Object.keys(r), ['kind', 'envelope']);
        // The envelope is exactly JSON.parse of the frame (what the reference starts from).
        assert.deepStrictEqual(r.envelope, JSON.parse(v.frame), v.name);
        break;
      case 'version-mismatch':
        assert.deepEqual(Object.keys(r), ['kind', 'received', 'supported']);
        assert.equal(r.supported, 1);
        assert.ok(Number.isSafeInteger(r.received));
        break;
      case 'invalid':
        assert.equal(typeof r.reason, 'string');
        if ('issues' in r) {
          assert.ok(Array.isArray(r.issues) && r.issues.length > 0, v.name);
          for (const i of r.issues) {
            // The reference's keys; the segments ride along non-enumerable and spell the path.
            assert.deepEqual(Object.keys(i), ['path', 'message']);
            assert.ok(Array.isArray(i.segments), v.name);
            assert.equal(i.segments.join('.'), i.path, v.name);
          }
        } else {
          assert.match(r.reason, /^(frame is not valid JSON|frame nests deeper|frame exceeds)/, v.name);
        }
        break;
      default:
        assert.fail(`unknown kind ${r.kind}`);
    }
  }
});

function hasNegativeZero(value) {
  if (Object.is(value, -0)) return true;
  return value !== null && typeof value === 'object' && Object.values(value).some(hasNegativeZero);
}

test('graphmind: parseEnvelope(value) agrees with parseEnvelopeJson on every JSON-representable vector', () => {
  let n = 0;
  for (const v of GM) {
    if (nesting(v.frame) > SHALLOW) continue;
    let value;
    try {
      value = JSON.parse(v.frame);
    } catch {
      continue;
    }
    // JSON.parse turns 1e400 into Infinity and rounds big integers: such a value is not the
    // frame any more, so only frames whose value re-serializes to an equivalent text count.
    const text = JSON.stringify(value);
    if (text.includes('null') && !v.frame.includes('null')) continue;
    const a = graphmind.parseEnvelope(value);
    // JSON.stringify writes -0 as 0, and parseEnvelope keeps the caller's -0 (as the reference
    // does): a value with a -0 is compared with the frame itself, whose JSON.parse keeps it.
    const b = graphmind.parseEnvelopeJson(hasNegativeZero(value) ? v.frame : text);
    assert.deepStrictEqual(a, b, v.name);
    n++;
  }
  assert.ok(n > 400, `only ${n} vectors compared`);
});

test('graphmind: every ok / unknown-type frame round-trips (unknown fields and opaque values kept)', () => {
  let n = 0;
  for (const v of GM) {
    if (nesting(v.frame) > SHALLOW) continue;
    const r = graphmind.parseEnvelopeJson(v.frame);
    if (r.kind !== 'ok' && r.kind !== 'unknown-type') continue;
    const text = graphmind.serializeEnvelope(r.envelope);
    const again = graphmind.parseEnvelopeJson(text);
    assert.equal(again.kind, r.kind, `${v.name}: ${again.reason ?? ''}`);
    // JS numbers, as JSON.stringify writes them: -0 comes back as 0 and a number JSON.parse
    // made ±Infinity (1e400 in an opaque value) as null; every other value deep-equal.
    assert.deepStrictEqual(again.envelope, JSON.parse(JSON.stringify(r.envelope)), v.name);
    if (!/\d[eE]\+?\d{3}/.test(v.frame)) require('node:assert').deepEqual(again.envelope, r.envelope, v.name);
    // Serialization is a fixed point after one pass.
    assert.equal(graphmind.serializeEnvelope(again.envelope), text, v.name);
    // Envelope members come first in their order.
    const keys = Object.keys(JSON.parse(text));
    const known = ['gm', 'seq', 'ts', 'runId', 'type', 'payload'].filter((k) => keys.includes(k));
    assert.deepEqual(keys.slice(0, known.length), known, v.name);
    n++;
  }
  assert.ok(n > 300, `only ${n} frames round-tripped`);
});

const SERVER_GUARDS = ['isRpcSuccess', 'isRpcFailure', 'isSubscribedFrame', 'isUnsubscribedFrame', 'isEventFrame', 'isLifecycleFrame', 'isErrorFrame', 'isPongFrame', 'isReplayMarkerFrame'];
const CLIENT_GUARDS = ['isInitializeRequest', 'isSubscribeRequest', 'isUnsubscribeRequest', 'isRunCancelRequest', 'isPingRequest', 'isCancelledNotification'];

test(`graphorin: ${GO.length} vectors give the expected verdict, variant and guard`, () => {
  const failures = [];
  for (const v of GO) {
    const server = v.direction === 'server';
    const r = server ? graphorin.parseServerMessage(v.frame) : graphorin.parseClientMessage(v.frame);
    const got = r.success ? 'ok' : 'invalid';
    if (got !== v.expect) {
      failures.push(`${v.source}/${v.name}: expected ${v.expect}, got ${got} ${r.success ? '' : r.error.message}`);
      continue;
    }
    if (r.success) {
      if (v.variant && r.variant !== v.variant) failures.push(`${v.name}: variant ${r.variant}, expected ${v.variant}`);
      if (nesting(v.frame) <= SHALLOW) assert.deepStrictEqual(r.data, JSON.parse(v.frame), v.name);
      const guards = server ? SERVER_GUARDS : CLIENT_GUARDS;
      const hits = guards.filter((g) => graphorin[g](r.data));
      if (hits.length !== 1) failures.push(`${v.name}: guards ${hits.join(',') || 'none'}`);
    } else {
      assert.equal(typeof r.error.isSyntaxError, 'boolean');
      assert.equal(r.error.isJson, r.error.isSyntaxError, 'the deprecated name agrees');
      assert.ok(r.error.isSyntaxError || r.error.issues.length > 0, v.name);
      assert.equal(r.error.rpcErrorCode, r.error.isSyntaxError ? graphorin.RPC_ERROR_CODES.PARSE_ERROR : graphorin.RPC_ERROR_CODES.INVALID_REQUEST);
      for (const i of r.error.issues) {
        assert.ok(Array.isArray(i.path));
        assert.deepStrictEqual(i.segments, i.path);
        assert.deepEqual(Object.keys(i), ['path', 'code', 'message']);
        assert.equal(typeof i.code, 'string');
        assert.equal(typeof i.message, 'string');
      }
    }
  }
  assert.deepEqual(failures, []);
});

test('graphorin: value parsing agrees with text parsing', () => {
  for (const v of GO) {
    if (nesting(v.frame) > SHALLOW) continue;
    let value;
    try {
      value = JSON.parse(v.frame);
    } catch {
      continue;
    }
    const text = JSON.stringify(value);
    if (text.includes('null') && !v.frame.includes('null')) continue;
    const parse = v.direction === 'server' ? graphorin.parseServerMessageValue : graphorin.parseClientMessageValue;
    const parseText = v.direction === 'server' ? graphorin.parseServerMessage : graphorin.parseClientMessage;
    assert.equal(parse(value).success, parseText(text).success, v.name);
  }
});
