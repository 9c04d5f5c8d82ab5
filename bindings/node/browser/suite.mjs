// The browser suite: one set of checks run against any build of the package, in headless
// Chromium (the WASM build, browser/page.html) and in Node (the WASM build and the native
// addon, browser/node-run.mjs). `api` is the package's exports; `data` the shared material
// (browser/data.mjs reads it); `fc` fast-check. Returns `[{name, ok, detail, ms}]`.

import { example } from '../examples/browser.mjs';
import { createViewer } from '../examples/viewer.mjs';

const SHALLOW = 1000;

function nesting(text) {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) max = Math.max(max, ++depth);
    else if (c === 93 || c === 125) depth--;
  }
  return max;
}

/** Deep equality of JSON values (own keys in order; -0 equal to 0 as JSON has no -0 apart). */
function same(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i] || !same(a[ka[i]], b[kb[i]])) return false;
  return true;
}

export async function runSuite(api, data, fc, { runs = 200 } = {}) {
  const results = [];
  const check = async (name, f) => {
    const t0 = performance.now();
    try {
      const detail = await f();
      results.push({ name, ok: true, detail: detail ?? '', ms: Math.round(performance.now() - t0) });
    } catch (e) {
      results.push({ name, ok: false, detail: String(e && e.stack ? e.stack : e).slice(0, 2000), ms: Math.round(performance.now() - t0) });
    }
  };
  const fail = (list) => {
    if (list.length) throw new Error(`${list.length} failures:\n${list.slice(0, 20).join('\n')}`);
  };
  const { graphmind, graphorin } = api;

  await check('the contract id is checked and the API is complete', () => {
    if (!/^[0-9a-f]{16}$/.test(api.CONTRACT_ID)) throw new Error(`CONTRACT_ID ${api.CONTRACT_ID}`);
    for (const name of ['parseEnvelopeJson', 'parseEnvelope', 'createEnvelope', 'serializeEnvelope', 'shrinkPayload', 'shrinkPayloadJson', 'negotiateHello', 'helloAck', 'shouldPause', 'exportJsonSchema']) {
      if (typeof api[name] !== 'function') throw new Error(`missing ${name}`);
    }
    const schema = graphmind.exportJsonSchema();
    if (typeof schema !== 'object' || !schema.$schema) throw new Error('exportJsonSchema gave no schema');
    return `contract ${api.CONTRACT_ID}`;
  });

  await check(`graphmind: ${data.graphmind.length} vectors (shared, ours, real-client) give the expected verdict`, () => {
    const failures = [];
    for (const v of data.graphmind) {
      const r = graphmind.parseEnvelopeJson(v.frame);
      if (r.kind !== v.expect) failures.push(`${v.source}/${v.name}: expected ${v.expect}, got ${r.kind} ${r.reason ?? ''}`);
      else if ((r.kind === 'ok' || r.kind === 'unknown-type') && nesting(v.frame) <= SHALLOW && !same(r.envelope, JSON.parse(v.frame))) failures.push(`${v.name}: envelope differs from JSON.parse`);
      else if ((r.kind === 'ok' || r.kind === 'unknown-type') && v.type !== null && r.envelope.type !== v.type) failures.push(`${v.name}: type ${r.envelope.type}`);
    }
    fail(failures);
    return `${data.graphmind.length} frames`;
  });

  await check(`graphorin: ${data.graphorin.length} vectors give the expected verdict and variant`, () => {
    const failures = [];
    for (const v of data.graphorin) {
      const r = v.direction === 'server' ? graphorin.parseServerMessage(v.frame) : graphorin.parseClientMessage(v.frame);
      const got = r.success ? 'ok' : 'invalid';
      if (got !== v.expect) failures.push(`${v.name}: expected ${v.expect}, got ${got} ${r.success ? '' : r.error.message}`);
      else if (r.success && v.variant && r.variant !== v.variant) failures.push(`${v.name}: variant ${r.variant}`);
    }
    fail(failures);
    return `${data.graphorin.length} frames`;
  });

  await check(`shrink: ${data.shrink.length} shared shrink vectors byte for byte (text and value)`, () => {
    const failures = [];
    for (const v of data.shrink) {
      const a = graphmind.shrinkPayloadJson(v.payload_json, v.max_bytes, v.type);
      if (a.json !== v.expect_json || a.tier !== v.tier) failures.push(`${v.name} (text): tier ${a.tier}`);
      const b = graphmind.shrinkPayload(JSON.parse(v.payload_json), v.max_bytes, v.type ?? undefined);
      if (b.json !== v.expect_json || b.tier !== v.tier) failures.push(`${v.name} (value): tier ${b.tier}`);
    }
    fail(failures);
    return `${data.shrink.length} vectors`;
  });

  await check('lone surrogates are decided as JSON.parse decides them (UTF-16 path)', () => {
    const ok = '{"gm":1,"seq":0,"ts":1,"runId":"r","type":"x.custom","payload":{"s":"\ud800"}}';
    const r1 = graphmind.parseEnvelopeJson(ok);
    if (r1.kind !== 'unknown-type' || r1.envelope.payload.s !== '\ud800') throw new Error(`payload surrogate: ${r1.kind}`);
    const bad = '{"gm":1,"seq":0,"ts":1,"runId":"\ud800","type":"x.custom","payload":{}}';
    const r2 = graphmind.parseEnvelopeJson(bad);
    if (r2.kind !== 'invalid') throw new Error(`runId surrogate accepted: ${r2.kind}`);
    if (graphmind.parseEnvelopeJson('\ud800').kind !== 'invalid') throw new Error('bare surrogate');
  });

  await check('bad input never throws from the parsers', () => {
    for (const x of ['', '{', '[]', 'null', '{"gm":1}', '\u0000', 'x'.repeat(100000), '['.repeat(100000), 42, undefined, null, {}]) {
      const r = graphmind.parseEnvelopeJson(x);
      if (r.kind !== 'invalid') throw new Error(`${String(x).slice(0, 20)}: ${r.kind}`);
      const g = graphorin.parseServerMessage(x);
      if (g.success) throw new Error('graphorin accepted junk');
    }
  });

  await check(`property: generated envelopes of known types round-trip (${runs} runs)`, () => {
    const seeds = data.graphmind.filter((v) => v.expect === 'ok' && v.frame.length < 4096 && !/\d[eE]\+?\d{3}/.test(v.frame)).map((v) => JSON.parse(v.frame));
    fc.assert(
      fc.property(fc.constantFrom(...seeds), fc.nat({ max: 2 ** 53 - 1 }), fc.string(), fc.dictionary(fc.string().filter((k) => !['gm', 'seq', 'ts', 'runId', 'type', 'payload', '__proto__'].includes(k)), fc.jsonValue({ maxDepth: 3 })), (seed, seq, runId, extra) => {
        if (!runId.isWellFormed() || runId.includes('\u0000')) return;
        const env = api.createEnvelope({ type: seed.type, payload: seed.payload, seq, ts: seed.ts, runId });
        const text = api.serializeEnvelope({ ...env, ...extra });
        const r = api.parseEnvelopeJson(text);
        if (r.kind !== 'ok') throw new Error(`${seed.type}: ${r.kind} ${r.reason}`);
        if (api.serializeEnvelope(r.envelope) !== text) throw new Error('not a fixed point');
      }),
      { numRuns: runs },
    );
  });

  await check(`property: the verdict on any text agrees with JSON.parse on whether it is JSON (${runs} runs)`, () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.json(), fc.string({ unit: 'grapheme' })), (text) => {
        const r = api.parseEnvelopeJson(text);
        let json = true;
        try {
          JSON.parse(text);
        } catch {
          json = false;
        }
        if (!json && (r.kind !== 'invalid' || !r.reason.startsWith('frame is not valid JSON'))) throw new Error(`not JSON but ${r.kind}: ${r.reason}`);
        if (json && r.kind === 'invalid' && r.reason.startsWith('frame is not valid JSON')) throw new Error(`JSON but ${r.reason}`);
      }),
      { numRuns: runs },
    );
  });

  await check('ViewerSession: a real-client capture is answered, de-duplicated and its pause resumed', () => {
    const frames = data.captures['breakpoints-continue'].filter((f) => f.dir === 'app->viewer').map((f) => f.frame);
    const v = new api.ViewerSession({ tokenPrefix: 'tok_test_' });
    let now = 1;
    v.connectionOpened(1);
    const kinds = [];
    const actions = [];
    let resumed;
    for (const f of frames) {
      kinds.push(v.frameReceived(1, f, now++).kind);
      for (const a of v.pollActions()) {
        actions.push(a);
        // Answer the first pause as a viewer's user would, before the app's own answer arrives.
        if (a.type === 'pause-opened' && resumed === undefined) {
          v.resume(a.pauseId, 'continue', now++, { requestId: 'req-1' });
          const sent = v.pollActions().find((x) => x.type === 'send');
          const r = api.parseEnvelopeJson(sent.frame);
          if (r.kind !== 'ok' || r.envelope.type !== 'exec.resume' || r.envelope.payload.pauseId !== a.pauseId || r.envelope.payload.action !== 'continue') throw new Error(`resume sent ${sent.frame}`);
          if (JSON.stringify(v.openPauses) !== JSON.stringify([a.pauseId])) throw new Error(`open pauses ${JSON.stringify(v.openPauses)}`);
          resumed = a.pauseId;
        }
      }
    }
    if (kinds[0] !== 'hello') throw new Error(`first frame ${kinds[0]}`);
    const ack = actions.find((a) => a.type === 'send');
    if (!ack || api.parseEnvelopeJson(ack.frame).envelope.type !== 'hello.ack') throw new Error('no hello.ack sent');
    if (!actions.some((a) => a.type === 'frame-accepted')) throw new Error('no frame accepted');
    if (!actions.some((a) => a.type === 'pause-closed' && a.pauseId === resumed)) throw new Error('the resumed pause was not closed by the app\'s exec.resumed');
    const again = v.frameReceived(1, frames[1], now++);
    if (again.kind !== 'duplicate') throw new Error(`resent frame: ${again.kind}`);
    const opened = actions.filter((a) => a.type === 'pause-opened');
    let code;
    try {
      v.resume('no-such-pause', 'continue', now++);
    } catch (e) {
      code = e.code;
    }
    if (code !== 'unknown-pause') throw new Error(`resume of an unknown pause: ${code}`);
    let threw = false;
    try {
      v.frameReceived(1, '{}', NaN);
    } catch {
      threw = true;
    }
    if (!threw) throw new Error('a NaN clock reading was taken');
    return `${frames.length} frames, ${opened.length} pauses, ${resumed} resumed through the session`;
  });

  await check('ViewerSession limits (docs/robustness.md): frame cap, nesting, retained runs and bytes, seqs per run, tracked pauses, no app breakpoints', () => {
    const MAX = api.graphmind.MAX_FRAME_BYTES;
    if (MAX !== 16777216) throw new Error(`MAX_FRAME_BYTES ${MAX}`);
    const frame = (seq, runId, type, payload) => JSON.stringify({ gm: 1, seq, ts: 1, runId, type, payload });
    const hello = frame(0, '*', 'hello', { versions: { protocol: 1, client: 't' }, capabilities: ['pause'] });
    const hint = (seq, runId) => frame(seq, runId, 'graph.hint', { nodes: [] });
    const paused = (seq, runId, pauseId) => frame(seq, runId, 'exec.paused', { pauseId, nodeId: 'n', point: 'before' });
    const session = (options) => {
      const v = new api.ViewerSession({ tokenPrefix: 'tok_limits_', ...options });
      v.frameReceived(1, hello, 1);
      v.pollActions();
      return v;
    };
    // A frame over the cap, ASCII and not: refused from its length with one invalid-frame warning.
    const v = session({});
    for (const big of ['x'.repeat(MAX + 1), '\u00e9'.repeat(MAX)]) {
      const r = v.frameReceived(1, `{"gm":1,"seq":1,"ts":1,"runId":"${big}"`, 2);
      const warns = v.pollActions().filter((a) => a.type === 'warn');
      if (r.kind !== 'rejected' || warns.length !== 1 || warns[0].rule !== 'invalid-frame' || warns[0].text !== `frame exceeds ${MAX} bytes`) {
        throw new Error(`a frame over the cap: ${r.kind}, warnings ${JSON.stringify(warns)}`);
      }
    }
    // Nesting past the contract's depth cap: refused, no stack overflow in the module.
    const deep = v.frameReceived(1, `{"gm":1,"payload":${'['.repeat(200000)}`, 2);
    const deepWarn = v.pollActions().filter((a) => a.type === 'warn');
    if (deep.kind !== 'rejected' || deepWarn.length !== 1 || deepWarn[0].rule !== 'invalid-frame') throw new Error(`200,000 levels: ${deep.kind}, ${JSON.stringify(deepWarn)}`);
    // An app cannot arm the viewer's breakpoints.
    const before = JSON.stringify(v.breakpoints);
    const set = v.frameReceived(1, frame(1, '*', 'breakpoint.set', { matcher: { kind: 'tool', name: 'x' } }), 3);
    if (set.kind !== 'rejected' || JSON.stringify(v.breakpoints) !== before) throw new Error(`an app's breakpoint.set: ${set.kind}, ${JSON.stringify(v.breakpoints)}`);
    // 2,000 runs kept to maxRetainedRuns, least recently active forgotten first.
    const runs = session({ maxRetainedRuns: 200 });
    for (let i = 0; i < 2000; i++) runs.frameReceived(1, hint(i + 1, `run-${i}`), 2);
    runs.pollActions();
    if (runs.retainedRuns !== 200 || !runs.retainsRun('run-1999') || runs.retainsRun('run-1799')) throw new Error(`retained runs ${runs.retainedRuns}`);
    // 40 runIds of 256 KiB kept to about maxRetainedBytes.
    const bytes = session({ maxRetainedBytes: 2 << 20 });
    const big = 'r'.repeat(256 << 10);
    for (let i = 0; i < 40; i++) {
      bytes.frameReceived(1, hint(i + 1, `${i}${big}`), 2);
      if (bytes.retainedBytes > (3 << 20)) throw new Error(`${bytes.retainedBytes} bytes retained after ${i + 1} runs of 256 KiB`);
    }
    bytes.pollActions();
    if (bytes.retainedRuns > 8) throw new Error(`${bytes.retainedRuns} runs of 256 KiB retained under 2 MiB`);
    // One run of 2,000 frames keeps its newest maxSeqsPerRun seqs; older ones count as seen.
    const seqs = session({ maxSeqsPerRun: 100 });
    for (let seq = 1; seq <= 100; seq++) seqs.frameReceived(1, hint(seq, 'r'), 2);
    const atBound = seqs.retainedBytes;
    for (let seq = 101; seq <= 2000; seq++) seqs.frameReceived(1, hint(seq, 'r'), 2);
    seqs.pollActions();
    const old = seqs.frameReceived(1, hint(5, 'r'), 3).kind;
    if (seqs.retainedBytes !== atBound || old !== 'duplicate') throw new Error(`one run of 2,000 frames: ${seqs.retainedBytes} bytes (${atBound} at 100 seqs), an old seq ${old}`);
    // 3,000 pauses never answered: the newest maxTrackedPauses are tracked.
    const pauses = session({ maxTrackedPauses: 1000 });
    for (let seq = 1; seq <= 3000; seq++) pauses.frameReceived(1, paused(seq, 'r', `p${seq}`), 2);
    pauses.pollActions();
    const open = pauses.openPauses;
    if (open.length !== 1000 || open[0] !== 'p2001') throw new Error(`${open.length} pauses tracked, oldest ${open[0]}`);
    return `200 of 2,000 runs, ${bytes.retainedRuns} runs of 256 KiB (${(bytes.retainedBytes / 1048576).toFixed(1)} MiB), ${atBound} bytes for 2,000 seqs, ${open.length} of 3,000 pauses`;
  });

  await check("the README's viewer example: a real-client capture through createViewer, its pause answered", () => {
    const frames = data.captures['breakpoints-continue'].filter((f) => f.dir === 'app->viewer').map((f) => f.frame);
    const out = [];
    const seen = [];
    let clock = 1000;
    const viewer = createViewer(api, {
      now: () => clock++,
      onFrame: (env) => seen.push(`${env.runId}/${env.seq}`),
      onPause: (p) => viewer.resume(p.pauseId, 'continue'),
    });
    try {
      const conn = viewer.connect({ send: (t) => out.push(t), close: (code) => out.push(`close ${code}`) });
      for (const f of frames) conn.message(f);
      conn.message(frames[2]); // a resent frame: dropped by de-duplication
      const sent = out.map((t) => api.parseEnvelopeJson(t));
      if (sent[0]?.envelope?.type !== 'hello.ack') throw new Error(`first frame sent: ${out[0]}`);
      const resumes = sent.filter((r) => r.kind === 'ok' && r.envelope.type === 'exec.resume');
      const pauses = frames.map((f) => api.parseEnvelopeJson(f)).filter((r) => r.kind === 'ok' && r.envelope.type === 'exec.paused');
      if (pauses.length === 0 || resumes.length !== pauses.length) throw new Error(`${pauses.length} pauses, ${resumes.length} resumes sent`);
      if (resumes.some((r, i) => r.envelope.payload.pauseId !== pauses[i].envelope.payload.pauseId)) throw new Error('a resume answers another pause');
      if (new Set(seen).size !== seen.length) throw new Error('a frame was accepted twice');
      if (viewer.session.retainedRuns !== 1) throw new Error(`retained runs ${viewer.session.retainedRuns}`);
      conn.closed();
      return `${seen.length} frames accepted, ${resumes.length} pauses answered`;
    } finally {
      viewer.stop();
    }
  });

  await check("the README's browser example", async () => {
    const out = await example(api);
    if (!out || out.kind !== 'ok') throw new Error(`example gave ${JSON.stringify(out)}`);
    return 'ran';
  });

  return results;
}
