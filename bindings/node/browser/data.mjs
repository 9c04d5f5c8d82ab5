// The shared material the browser suite runs on, read in Node: every GraphMind vector (shared
// conformance, ours, real-client frames), every Graphorin vector, the shrink vectors and the
// real-client captures by name. testlib/shared.js locates it (WIRECONTRACT_SHARED).
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const shared = require('../testlib/shared.js');

export function suiteData() {
  const dir = path.join(shared.sharedDir(), 'real-client');
  const captures = {};
  for (const f of require('node:fs').readdirSync(dir).filter((n) => n.endsWith('.jsonl'))) captures[path.basename(f, '.jsonl')] = shared.readJsonl(path.join(dir, f));
  const shrink = shared.readJsonl(path.join(shared.sharedDir(), 'vectors/graphmind/shrink.jsonl'));
  if (shrink.length < 200) throw new Error(`shrink vectors missing: ${shrink.length}`);
  return { graphmind: shared.graphmindVectors(), graphorin: shared.graphorinVectors(), shrink, captures };
}
