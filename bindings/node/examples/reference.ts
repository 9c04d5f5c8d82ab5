// Code written against @graphmind-ai/schema's types, with only the import line changed: tsc
// --strict checks it against the generated index.d.ts (tsconfig.json; test/reference-names.test.js
// checks that it names every exported type of the reference index).
import {
  type BreakpointMatcher,
  type Capability,
  type ControlEnvelope,
  type ControlType,
  type CreateEnvelopeInput,
  type Envelope,
  type EnvelopeParseResult,
  type ErrorInfo,
  type EventEnvelope,
  type EventPayloadMap,
  type EventType,
  type FinishReason,
  type GraphNodeHint,
  type HandshakeEnvelope,
  type HandshakeType,
  type KnownCapability,
  type KnownEnvelope,
  type MessagePayloadMap,
  type MessageType,
  type NodeKind,
  type ParseIssue,
  type PausePoint,
  type RawEnvelope,
  type ResumeAction,
  type RunMode,
  type RunStatus,
  type SdkInfo,
  type TokenDelta,
  type TokenUsage,
  type TruncatedPayload,
  type UsageBasis,
  type UsageView,
  createEnvelope,
  isEventType,
  isTruncatedPayload,
  normalizeFinishReason,
  parseEnvelopeJson,
  readUsage,
  serializePayload,
} from '@wirecontract/node';

const token: Envelope<'node.token'> = createEnvelope({ type: 'node.token', payload: { nodeId: 'n', deltas: [{ t: 'text', v: 'hi' }] }, seq: 1, runId: 'r' });
const deltas: TokenDelta[] = token.payload.deltas;
const input: CreateEnvelopeInput<'mode.set'> = { type: 'mode.set', payload: { mode: 'step' satisfies RunMode }, seq: 2, runId: '*' };
const control: ControlEnvelope = createEnvelope(input);
const kind: ControlType = control.type;
const known: KnownEnvelope = token;
const event: EventEnvelope = token;
const eventType: EventType = 'node.finished';
const finished: EventPayloadMap['node.finished'] = { nodeId: 'n', durationMs: 1, status: 'ok' satisfies RunStatus };
const hello: MessagePayloadMap['hello'] = { versions: { protocol: 1, client: 'x' }, capabilities: ['pause' satisfies KnownCapability, 'future' satisfies Capability] };
const handshakeType: HandshakeType = 'hello';
const handshake: HandshakeEnvelope | undefined = undefined;
const messageType: MessageType = 'exec.resume';
const action: ResumeAction = 'continue';
const point: PausePoint = 'before';
const nodeKind: NodeKind = 'llm';
const matcher: BreakpointMatcher = { kind: nodeKind, point };
const error: ErrorInfo = { name: 'E', message: 'm' };
const hint: GraphNodeHint = { nodeId: 'n', kind: 'tool', name: 'search' };
const sdk: SdkInfo = { name: 'x', version: '1' };
const usage: TokenUsage = { inputTokens: 1, outputTokens: 2 };

const result: EnvelopeParseResult = parseEnvelopeJson('{}');
if (result.kind === 'invalid') {
  const issues: ParseIssue[] = result.issues ?? [];
  void issues;
} else if (result.kind === 'unknown-type') {
  const raw: RawEnvelope = result.envelope;
  void raw;
}

const shrunk = serializePayload({ big: 'x'.repeat(10) }, 4096, eventType);
if (isTruncatedPayload(shrunk.payload)) {
  const marker: TruncatedPayload = shrunk.payload;
  void marker;
}
const reason: FinishReason | undefined = normalizeFinishReason('end_turn');
const view: UsageView | undefined = readUsage(usage);
const basis: UsageBasis | undefined = view?.basis;
if (isEventType(messageType)) void messageType;

void [deltas, kind, known, event, finished, hello, handshakeType, handshake, action, matcher, error, hint, sdk, reason, basis];
