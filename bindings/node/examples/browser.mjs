// In a page: `import * as wc from '@wirecontract/node'` (the `browser` export condition gives
// the WASM build), then `example(wc)`. README.md shows this file; the browser suite runs it.
export async function example({ parseEnvelopeJson, createEnvelope, serializeEnvelope }) {
  const frame = serializeEnvelope(
    createEnvelope({ type: 'node.token', seq: 7, runId: 'run_1', payload: { nodeId: 'llm', deltas: [{ t: 'text', v: 'Hi' }] } }),
  );
  const result = parseEnvelopeJson(frame); // what a viewer does with each WebSocket message
  if (result.kind === 'ok') console.log(result.envelope.type, result.envelope.payload);
  return result;
}
