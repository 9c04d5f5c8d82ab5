// The browser benchmark's page script (bundled with zod and the zod 4 model of the reference,
// benches/node/graphmind-zod.js, by bench.mjs): one frame a call, three rows per corpus, best
// of N rounds, the rows interleaved within a round.
import * as wc from '/bindings/node/dist/browser.mjs';
import { z } from 'zod';
import { makeModel } from '../node/graphmind-zod.js';

const api = wc.default ?? wc;
const model = makeModel(z);

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
  const best = {};
  let sink = 0;
  for (let r = 0; r < rounds; r++) {
    for (const [name, f] of Object.entries(rows)) {
      const t0 = performance.now();
      for (let i = 0; i < frames.length; i++) {
        try {
          sink += f(frames[i]) ? 1 : 0;
        } catch {
          sink++;
        }
      }
      const s = (performance.now() - t0) / 1000;
      best[name] = Math.min(best[name] ?? Infinity, s);
    }
  }
  return { frames: frames.length, bytes, disagree, sink, rows: Object.fromEntries(Object.entries(best).map(([k, s]) => [k, frames.length / s])) };
};

// One WASM pass over the frames the last bench call loaded (no fetch or split in the profile).
window.profileWasm = () => {
  const frames = window.frames_;
  for (let i = 0; i < frames.length; i++) api.parseEnvelopeJson(frames[i]);
};
window.benchReady = true;
