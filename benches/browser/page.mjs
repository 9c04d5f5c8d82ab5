// The browser benchmark's page script (bundled with zod and the zod 4 model of the reference,
// benches/node/graphmind-zod.js, by bench.mjs): one frame a call, three rows per corpus, best
// of N rounds, the rows interleaved within a round, each sample at least MIN_SAMPLE_MS.
import * as wc from '/bindings/node/dist/browser.mjs';
import { z } from 'zod';
import { makeModel } from '../node/graphmind-zod.js';

const api = wc.default ?? wc;
const model = makeModel(z);

/** Shortest timed sample, in ms: small corpora are passed over several times per sample. */
const MIN_SAMPLE_MS = 100;

window.bench = async (corpusUrl, rounds) => {
  const text = await (await fetch(corpusUrl)).text();
  const frames = text.split('\n').filter((l) => l !== '');
  window.frames_ = frames;
  let bytes = 0;
  const enc = new TextEncoder();
  for (const f of frames) bytes += enc.encode(f).length;
  // Both validating paths must decide alike before they are timed.
  let disagree = 0;
  for (const f of frames) if (api.parseEnvelopeJson(f).kind !== model.parseEnvelopeJson(f).kind) disagree++;
  const rows = {
    'wasm parseEnvelopeJson': (f) => api.parseEnvelopeJson(f),
    'zod 4 model (JSON.parse + safeParse)': (f) => model.parseEnvelopeJson(f),
    'JSON.parse (parse only)': (f) => JSON.parse(f),
  };
  let sink = 0;
  const pass = (f) => {
    for (let i = 0; i < frames.length; i++) {
      try {
        sink += f(frames[i]) ? 1 : 0;
      } catch {
        sink++;
      }
    }
  };
  // Passes per timed sample: enough for MIN_SAMPLE_MS with the slowest row (measured on one
  // untimed pass each). A 200-frame corpus passes in ~20 ms, where the page's coarse clock
  // and one collection move a single-pass ratio by 10-30% from run to run.
  let slowest = 0;
  for (const f of Object.values(rows)) {
    const t0 = performance.now();
    pass(f);
    slowest = Math.max(slowest, performance.now() - t0);
  }
  const passes = Math.max(1, Math.ceil(MIN_SAMPLE_MS / Math.max(slowest, 0.1)));
  const best = {};
  for (let r = 0; r < rounds; r++) {
    for (const [name, f] of Object.entries(rows)) {
      const t0 = performance.now();
      for (let p = 0; p < passes; p++) pass(f);
      const s = (performance.now() - t0) / 1000 / passes;
      best[name] = Math.min(best[name] ?? Infinity, s);
    }
  }
  return { frames: frames.length, bytes, disagree, sink, passes, rows: Object.fromEntries(Object.entries(best).map(([k, s]) => [k, frames.length / s])) };
};

// One WASM pass over the frames the last bench call loaded (no fetch or split in the profile).
window.profileWasm = () => {
  const frames = window.frames_;
  for (let i = 0; i < frames.length; i++) api.parseEnvelopeJson(frames[i]);
};
window.benchReady = true;
