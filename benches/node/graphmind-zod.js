'use strict';
// GraphMind v1 validated as the reference implementation (@graphmind-ai/schema) validates it,
// with zod 4: the schema objects are the ones scripts/gen writes from the contract's registry
// (generated/typescript/zod-schemas.js, the same file @wirecontract/node ships), composed in
// the reference's decision order (its parse.ts: a structural first step, then `gm`, then the
// type, then the type's envelope schema). They replaced a hand-written zod model after both
// gave the same verdict on every frame of a 20,000-frame default corpus and the 200-frame large
// corpus, at the same speed (best of 5: 1,155 ms generated vs 1,227 ms hand-written on 20,000
// frames; 110 vs 113 ms on the large corpus). Takes `z` from the caller, so the benchmark
// decides where zod is installed (target/bench-node).

const path = require('node:path');
const { makeSchemas } = require(path.join(__dirname, '..', '..', 'generated', 'typescript', 'zod-schemas.js'));

const REASON_JSON = 'frame is not valid JSON: ';
const REASON_STRUCTURE = 'not a structurally valid GraphMind envelope';

function makeModel(z) {
  const s = makeSchemas(z);
  const MESSAGE_TYPES = Object.keys(s.MessagePayloadSchemas);
  const issuesOf = (error) => error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));

  /** §2 steps 2–6 on an already decoded value. */
  function parseEnvelope(value) {
    const raw = s.RawEnvelopeSchema.safeParse(value);
    if (!raw.success) return { kind: 'invalid', reason: REASON_STRUCTURE, issues: issuesOf(raw.error) };
    const env = raw.data;
    if (env.gm !== 1) return { kind: 'version-mismatch', received: env.gm, supported: 1 };
    if (!Object.prototype.hasOwnProperty.call(s.EnvelopeSchemas, env.type)) return { kind: 'unknown-type', envelope: env };
    const known = s.EnvelopeSchemas[env.type].safeParse(value);
    if (!known.success) return { kind: 'invalid', reason: `invalid payload for message type "${env.type}"`, issues: issuesOf(known.error) };
    return { kind: 'ok', envelope: known.data };
  }

  /** §2 from step 1. Never throws. */
  function parseEnvelopeJson(text) {
    let value;
    try {
      value = JSON.parse(text);
    } catch (e) {
      return { kind: 'invalid', reason: REASON_JSON + e.message };
    }
    return parseEnvelope(value);
  }

  return { MESSAGE_TYPES, parseEnvelope, parseEnvelopeJson };
}

module.exports = { makeModel };
