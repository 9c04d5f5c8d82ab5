// Type-checked with `tsc --strict --noEmit` (scripts/steps/50-node.sh): the generated
// declarations narrow parse results and check createEnvelope payloads against their type.
import { graphmind, graphorin, parseEnvelopeJson, createEnvelope, serializeEnvelope, ViewerSession } from '@wirecontract/node';
import type { FrameReceived, ResumeError, ViewerAction } from '@wirecontract/node';

declare const frame: string;

const result = parseEnvelopeJson(frame);
switch (result.kind) {
  case 'ok': {
    const env = result.envelope;
    if (env.type === 'node.token') {
      // Narrowed by `type`: the payload is NodeToken.
      const deltas: graphmind.TokenDelta[] = env.payload.deltas;
      const channel: graphmind.TokenChannel = deltas[0].t;
      console.log(channel, env.payload.nodeId.toUpperCase());
    } else if (env.type === 'hello.ack') {
      const mode: graphmind.RunMode = env.payload.mode;
      console.log(mode, env.payload.breakpoints.length);
    }
    break;
  }
  case 'unknown-type':
    console.log(result.envelope.type, result.envelope.payload);
    break;
  case 'version-mismatch':
    console.log(result.received satisfies number, result.supported);
    break;
  case 'invalid':
    console.log(result.reason, result.issues?.map((i) => `${i.path}: ${i.message}`));
    break;
}

// createEnvelope checks the payload against the type given.
const token = createEnvelope({ type: 'node.token', payload: { nodeId: 'n1', deltas: [{ t: 'text', v: 'Hel' }] }, seq: 1, runId: 'run_1' });
const tokenType: 'node.token' = token.type;
console.log(serializeEnvelope(token), tokenType);

// A payload over maxPayloadBytes (UTF-8 bytes of its JSON) is shrunk for its type first.
const finished = createEnvelope({
  type: 'node.finished',
  payload: { nodeId: 'n1', output: 'x'.repeat(600_000), durationMs: 12, status: 'ok' },
  seq: 2,
  runId: 'run_1',
  maxPayloadBytes: graphmind.DEFAULT_MAX_PAYLOAD_BYTES,
});
console.log(finished.payload.output);

// @ts-expect-error: 'speech' is not a TokenChannel
createEnvelope({ type: 'node.token', payload: { nodeId: 'n1', deltas: [{ t: 'speech', v: 'x' }] }, seq: 1, runId: 'r' });
// @ts-expect-error: mode.set needs `mode`
createEnvelope({ type: 'mode.set', payload: {}, seq: 1, runId: '*' });
// Unknown types carry any payload.
const future = graphmind.createEnvelope({ type: 'future.thing', payload: [1, 2, 3], seq: 2, runId: '*' });
const futureType: string = future.type;
console.log(futureType);

const paused = graphmind.shouldPause('step', [{ kind: 'tool' }], 'llm', 'x', 'before');
const types: readonly graphmind.MessageType[] = graphmind.MESSAGE_TYPES;
console.log(paused, types.length, graphmind.PROTOCOL_VERSION satisfies 1);

// Graphorin: guards narrow a validated frame.
const server = graphorin.parseServerMessage(frame);
if (server.success) {
  const m = server.data;
  if (graphorin.isEventFrame(m)) {
    console.log(m.subject, m.type, m.payload);
  } else if (graphorin.isRpcFailure(m)) {
    const code: number = m.error.code;
    console.log(code === graphorin.RPC_ERROR_CODES.RUN_NOT_FOUND);
  }
} else {
  console.log(server.error.isJson, server.error.issues.map((i) => i.path.join('.')), server.error.rpcErrorCode);
}
const client = graphorin.parseClientMessage(frame);
if (client.success && graphorin.isPingRequest(client.data)) {
  const id: graphorin.RpcId = client.data.id;
  console.log(id);
}
const close: number = graphorin.closeCodeFor('protocol.violation');
console.log(close);

// The reference's schema objects and subprotocol helpers.
const checked = graphorin.ServerMessageSchema.safeParse(JSON.parse(frame));
if (checked.success && graphorin.isPongFrame(checked.data)) console.log(checked.variant);
try {
  const request: graphorin.ClientMessage = graphorin.ClientMessageSchema.parse(JSON.parse(frame));
  const requestId: graphorin.ClientMessageId | undefined = 'id' in request ? request.id : undefined;
  console.log(requestId);
} catch (e) {
  if (e instanceof graphorin.SchemaError) console.log(e.rpcErrorCode, e.issues.length);
}
const accepted: 'graphorin.protocol.v1' | null = graphorin.negotiateSubprotocol('graphorin.protocol.v1, ticket.abc');
const ticket: string | undefined = graphorin.parseTicketSubprotocol([graphorin.formatTicketSubprotocol('abc')]);
const reason: graphorin.GraphorinCloseReason = 'auth.invalid';
console.log(accepted, ticket, reason);

// A viewer's session: typed options, results and actions (narrowed by `type`).
const viewer = new ViewerSession({ tokenPrefix: 'tok_x_', breakpoints: [{ kind: 'tool', point: 'before' }], mode: 'run' });
viewer.connectionOpened(1);
const got: FrameReceived = viewer.frameReceived(1, frame, Date.now());
if (got.kind === 'accepted' && !got.replayed) console.log('first sighting');
for (const action of viewer.pollActions()) {
  if (action.type === 'send') console.log(action.conn, action.frame.length);
  else if (action.type === 'pause-opened') viewer.resume(action.pauseId, 'continue', Date.now(), { requestId: 'r1' });
  else if (action.type === 'frame-accepted') console.log(action.envelope.type);
}
const next: ViewerAction | undefined = viewer.pollAction();
const due: number | undefined = viewer.pollTimeout();
try {
  viewer.resume('nope', 'abort', Date.now());
} catch (e) {
  if ((e as ResumeError).code === 'unknown-pause') console.log('no such pause');
}
console.log(next, due, viewer.retainedRuns, viewer.retainsRun('run_1'), viewer.openPauses.length, viewer.mode);
