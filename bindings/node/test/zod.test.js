'use strict';
// The generated zod 4 schemas (zod-schemas.js, scripts/gen src/zod.rs) against the contract's
// parser: on every shared GraphMind vector, our own extra vectors and every real-client frame,
// the reference's decision order composed from the schemas (RawEnvelopeSchema, then `gm`, then
// the type, then EnvelopeSchemas[type]) gives the parser's verdict, and KnownEnvelopeSchema
// accepts exactly the frames the parser calls `ok`. The only frames allowed to differ are the
// rules zod cannot state (the nesting cap), listed by name with the reason.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const wc = require('..');
const { graphmindVectors, nesting } = require('../testlib/shared.js');

// Frames nested deeper than the parser's cap (100 000 levels): zod reads only what the
// schema names, and an opaque value is not walked, so it cannot refuse them.
const ZOD_CANNOT_STATE = new Map([
  ['own.depth.over_cap', 'nesting past 100 000 levels inside an unknown type\'s opaque payload: invalid for the parser, unknown-type for zod'],
]);

function zodVerdict(frame) {
  const { RawEnvelopeSchema, EnvelopeSchemas } = wc;
  let value;
  try {
    value = JSON.parse(frame);
  } catch {
    return 'invalid';
  }
  const raw = RawEnvelopeSchema.safeParse(value);
  if (!raw.success) return 'invalid';
  if (raw.data.gm !== wc.PROTOCOL_VERSION) return 'version-mismatch';
  if (!wc.isMessageType(raw.data.type)) return 'unknown-type';
  return EnvelopeSchemas[raw.data.type].safeParse(value).success ? 'ok' : 'invalid';
}

test('zod safeParse agrees with the parser on every vector and real-client frame', () => {
  const vectors = graphmindVectors();
  const disagree = [];
  let compared = 0;
  for (const v of vectors) {
    const ours = wc.parseEnvelopeJson(v.frame).kind;
    assert.equal(ours, v.expect, `${v.source}/${v.name}: the parser itself`);
    if (ZOD_CANNOT_STATE.has(v.name)) continue;
    compared++;
    const z = zodVerdict(v.frame);
    let known;
    try {
      known = wc.KnownEnvelopeSchema.safeParse(JSON.parse(v.frame)).success;
    } catch {
      known = false;
    }
    if (z !== ours) disagree.push(`${v.source}/${v.name}: parser ${ours}, zod ${z}`);
    else if (known !== (ours === 'ok')) disagree.push(`${v.source}/${v.name}: parser ${ours}, KnownEnvelopeSchema ${known}`);
  }
  assert.deepEqual(disagree, []);
  assert.ok(compared > 500, `compared ${compared}`);
});

test('each schema object parses what the parser accepts at its position', () => {
  const ok = vectorsOk();
  let checked = 0;
  for (const env of ok) {
    const payloadSchema = wc.MessagePayloadSchemas[env.type];
    assert.ok(payloadSchema.safeParse(env.payload).success, env.type);
    const group = wc.isEventType(env.type) ? wc.EventPayloadSchemas : wc.isControlType(env.type) ? wc.ControlPayloadSchemas : wc.HandshakePayloadSchemas;
    assert.equal(group[env.type], payloadSchema);
    checked++;
  }
  assert.ok(checked > 300);
  assert.equal(wc.NodeKindSchema.safeParse('llm').success, true);
  assert.equal(wc.NodeKindSchema.safeParse('robot').success, false);
  assert.equal(wc.TokenUsageSchema.safeParse({ inputTokens: 1, outputTokens: 2 ** 53 }).success, false);
  assert.equal(wc.ErrorInfoSchema.safeParse({ name: 'E', message: 'm', extra: 1 }).success, true);
  assert.equal(wc.BreakpointMatcherSchema.safeParse({ kind: 'tool', point: 'later' }).success, false);
});

function vectorsOk() {
  return graphmindVectors()
    .filter((v) => v.expect === 'ok' && nesting(v.frame) < 1000)
    .map((v) => JSON.parse(v.frame));
}

test('the package loads without zod; a schema used without it names the fix', () => {
  const pkg = path.resolve(__dirname, '..');
  const hide = path.join(__dirname, 'fixtures', 'no-zod.js');
  const script = `
    const wc = require(${JSON.stringify(pkg)});
    const ok = wc.parseEnvelopeJson('{"gm":1,"seq":1,"ts":1,"runId":"r","type":"mode.set","payload":{"mode":"step"}}').kind;
    let message = 'no error';
    try { wc.NodeKindSchema.safeParse('llm'); } catch (e) { message = e.message; }
    let sub = 'loaded';
    try { require(${JSON.stringify(path.join(pkg, 'zod.js'))}); } catch (e) { sub = e.code; }
    import(${JSON.stringify(path.join(pkg, 'index.mjs'))}).then((esm) => console.log(JSON.stringify({ ok, message, sub, esm: esm.serializePayload({a: 1}).json })));
  `;
  const r = spawnSync(process.execPath, ['-r', hide, '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.ok, 'ok');
  assert.match(out.message, /NodeKindSchema needs zod 4, an optional peer dependency/);
  assert.equal(out.sub, 'MODULE_NOT_FOUND');
  assert.equal(out.esm, '{"a":1}');
});
