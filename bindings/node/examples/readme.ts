import { graphmind, parseEnvelopeJson, createEnvelope, serializeEnvelope, shrinkPayload } from '@wirecontract/node';

declare const frame: string;
const r = parseEnvelopeJson(frame);
if (r.kind === 'ok' && r.envelope.type === 'node.started') {
  const kind: graphmind.NodeKind = r.envelope.payload.kind; // narrowed by `type`
  console.log(kind, r.envelope.payload.nodeId);
}
// The payload is checked against the type: { mode: 'warp' } would not compile.
const env = createEnvelope({ type: 'mode.set', payload: { mode: 'step' }, seq: 1, runId: '*' });
console.log(serializeEnvelope(env));
const s: graphmind.Shrunk = shrinkPayload({ output: 'x'.repeat(1_000_000) }, 524_288, 'node.finished');
console.log(s.tier, s.json.length);
