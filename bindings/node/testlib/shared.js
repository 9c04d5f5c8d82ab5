'use strict';
// Locating and reading the shared conformance material, as contract/tests/common/mod.rs does:
// `shared/` beside the repository, or the directory named by WIRECONTRACT_SHARED.
const fs = require('node:fs');
const path = require('node:path');

const REPO = path.resolve(__dirname, '..', '..', '..');

function sharedDir() {
  return process.env.WIRECONTRACT_SHARED ? path.resolve(process.env.WIRECONTRACT_SHARED) : path.join(REPO, '..', 'shared');
}

function readJsonl(file) {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
}

/** Every GraphMind vector: shared conformance, our own extra vectors, every real-client frame.
 *  Throws when the shared material is missing: a test that finds nothing must fail. */
function graphmindVectors() {
  const out = [];
  const sources = [
    ['conformance', path.join(sharedDir(), 'vectors/graphmind/conformance.jsonl')],
    ['extra', path.join(REPO, 'vectors/graphmind/extra.jsonl')],
  ];
  for (const [label, file] of sources) {
    for (const v of readJsonl(file)) out.push({ source: label, name: v.name, frame: v.frame, expect: v.expect, type: v.type ?? null });
  }
  out.push(...realClientFrames());
  if (out.length <= 500) throw new Error(`vectors missing: found ${out.length}`);
  return out;
}

/** Every frame of the real graphmind-ai client captures (`shared/real-client/*.jsonl`). */
function realClientFrames() {
  const dir = path.join(sharedDir(), 'real-client');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort();
  if (files.length < 8) throw new Error('expected the 8 real-client captures');
  const out = [];
  for (const f of files) {
    readJsonl(path.join(dir, f)).forEach((v, i) => {
      out.push({ source: 'real-client', name: `${path.basename(f, '.jsonl')}:${i + 1}`, frame: v.frame, expect: v.expect, type: v.type ?? null });
    });
  }
  return out;
}

/** Every Graphorin vector: shared conformance and our own extra vectors. */
function graphorinVectors() {
  const out = [];
  const sources = [
    ['conformance', path.join(sharedDir(), 'vectors/graphorin/conformance.jsonl')],
    ['extra', path.join(REPO, 'vectors/graphorin/extra.jsonl')],
  ];
  for (const [label, file] of sources) {
    for (const v of readJsonl(file)) out.push({ source: label, ...v });
  }
  if (out.length < 100) throw new Error(`graphorin vectors missing: found ${out.length}`);
  return out;
}

/** The deepest nesting of arrays/objects in JSON text (strings skipped). Deep values are
 *  checked for their verdict only: node:assert and JSON.stringify recurse on the JS stack. */
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

const SHALLOW = 1000;

module.exports = { nesting, SHALLOW, REPO, sharedDir, readJsonl, graphmindVectors, graphorinVectors, realClientFrames };
