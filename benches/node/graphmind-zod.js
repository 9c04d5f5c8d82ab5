'use strict';
// GraphMind v1 as the reference implementation (@graphmind-ai/schema) writes it in zod 4,
// rebuilt from spec graphmind-v1 §1–§2 for the Node.js benchmark: every object loose
// (z.looseObject), enums closed, int = zod 4's bounded .int(), number = finite, optional
// means absent, the envelope checked twice (Stage 1 structural, Stage 2 a discriminated
// union on `type`) in the reference's decision order. Takes `z` from the caller, so the
// benchmark decides where zod is installed (target/bench-node, never a package dependency).

const REASON_JSON = 'frame is not valid JSON: ';
const REASON_STRUCTURE = 'not a structurally valid GraphMind envelope';

function makeModel(z) {
  const int = () => z.number().int();
  const nonneg = () => int().nonnegative();
  const positive = () => int().positive();

  // primitives.ts
  const NodeKind = z.enum(['agent', 'llm', 'tool', 'chain', 'retriever', 'server', 'resource', 'prompt', 'custom']);
  const RunStatus = z.enum(['ok', 'error', 'aborted']);
  const PausePoint = z.enum(['before', 'after', 'error']);
  const ResumeAction = z.enum(['continue', 'retry', 'inject', 'abort']);
  const RunMode = z.enum(['run', 'step']);
  const ErrorInfo = z.looseObject({ name: z.string(), message: z.string(), stack: z.string().optional() });
  const TokenUsage = z.looseObject({
    inputTokens: nonneg(),
    outputTokens: nonneg(),
    inclusive: z.boolean().optional(),
    cacheReadTokens: nonneg().optional(),
    cacheWriteTokens: nonneg().optional(),
    reasoningTokens: nonneg().optional(),
  });
  const TokenDelta = z.looseObject({ t: z.enum(['text', 'reasoning', 'tool-args']), v: z.string() });
  const BreakpointMatcher = z.looseObject({ kind: NodeKind.optional(), name: z.string().optional(), point: PausePoint.optional() });
  const GraphNodeHint = z.looseObject({ nodeId: z.string(), kind: NodeKind, name: z.string(), parentId: z.string().optional() });
  const SdkInfo = z.looseObject({ name: z.string(), version: z.string() });

  // events.ts helpers
  const RedactionSummary = z.looseObject({ count: nonneg(), keys: z.array(z.string()) });
  const PauseReason = z.enum(['breakpoint', 'error', 'step', 'loop']);
  const LoopInfo = z.looseObject({
    repeats: nonneg(),
    firstSeq: nonneg(),
    lastSeq: nonneg(),
    fingerprint: z.string(),
    kind: z.enum(['repeat', 'cycle', 'error-repeat']).optional(),
    period: positive().optional(),
    laps: positive().optional(),
  });
  const SmartInfo = z.looseObject({ rule: z.enum(['error-result', 'truncated-tool-call']), detail: z.string().optional() });
  const RefusalCode = z.enum(['schema', 'shape', 'placeholder', 'truncated', 'disabled', 'unsupported']);
  const nonnegNumber = () => z.number().nonnegative();

  // One payload schema per type, in MESSAGE_TYPES order.
  const PAYLOADS = {
    'run.started': z.looseObject({ app: z.string(), sdk: SdkInfo, meta: z.record(z.string(), z.unknown()).optional() }),
    'run.finished': z.looseObject({ status: RunStatus, error: ErrorInfo.optional() }),
    'graph.hint': z.looseObject({ nodes: z.array(GraphNodeHint) }),
    'node.started': z.looseObject({
      nodeId: z.string(),
      parentId: z.string().optional(),
      kind: NodeKind,
      name: z.string(),
      instanceId: z.string(),
      input: z.unknown().optional(),
      collapsed: z.boolean().optional(),
      redaction: RedactionSummary.optional(),
    }),
    'node.token': z.looseObject({ nodeId: z.string(), deltas: z.array(TokenDelta), redaction: RedactionSummary.optional() }),
    'node.finished': z.looseObject({
      nodeId: z.string(),
      instanceId: z.string().optional(),
      output: z.unknown().optional(),
      usage: TokenUsage.optional(),
      durationMs: nonnegNumber(),
      heldMs: nonnegNumber().optional(),
      status: RunStatus,
      redaction: RedactionSummary.optional(),
    }),
    'node.error': z.looseObject({ nodeId: z.string(), instanceId: z.string().optional(), error: ErrorInfo, heldMs: nonnegNumber().optional() }),
    'exec.paused': z.looseObject({
      pauseId: z.string(),
      nodeId: z.string(),
      instanceId: z.string().optional(),
      point: PausePoint,
      reason: PauseReason.optional(),
      loop: LoopInfo.optional(),
      smart: SmartInfo.optional(),
      editable: z.boolean().optional(),
    }),
    'exec.refused': z.looseObject({ pauseId: z.string(), code: RefusalCode, message: z.string().optional(), requestId: z.string().optional() }),
    'exec.resumed': z.looseObject({
      pauseId: z.string(),
      action: ResumeAction,
      // `after` is typed unknown but not .optional(): zod 4 requires the key.
      edited: z.looseObject({ after: z.unknown() }).optional(),
      requestId: z.string().optional(),
      principal: z.string().optional(),
    }),
    'exec.resume': z.looseObject({
      pauseId: z.string(),
      action: ResumeAction,
      output: z.unknown().optional(),
      input: z.unknown().optional(),
      requestId: z.string().optional(),
    }),
    'breakpoint.set': z.looseObject({ matcher: BreakpointMatcher }),
    'breakpoint.clear': z.looseObject({ matcher: BreakpointMatcher }),
    'mode.set': z.looseObject({ mode: RunMode }),
    hello: z.looseObject({
      versions: z.looseObject({ protocol: int(), client: z.string() }),
      capabilities: z.array(z.string()),
      app: z.string().optional(),
      sdk: SdkInfo.optional(),
      resumeToken: z.string().optional(),
    }),
    'hello.ack': z.looseObject({
      versions: z.looseObject({ protocol: int(), viewer: z.string() }),
      capabilities: z.array(z.string()),
      breakpoints: z.array(BreakpointMatcher),
      mode: RunMode,
      sessionToken: z.string().optional(),
      hubCapabilities: z.array(z.string()).optional(),
    }),
  };
  const MESSAGE_TYPES = Object.keys(PAYLOADS);

  // Stage 1: every structural field at once; payload optional and opaque.
  const RawEnvelope = z.looseObject({
    gm: int(),
    seq: nonneg(),
    ts: nonneg().max(Number.MAX_SAFE_INTEGER),
    runId: z.string().refine((s) => s.isWellFormed() && !s.includes('\0'), { message: 'runId must not contain lone surrogates or NUL' }),
    type: z.string(),
    payload: z.unknown().optional(),
  });

  // Stage 2: one loose envelope per type, discriminated on the `type` literal.
  const ENVELOPES = Object.fromEntries(
    MESSAGE_TYPES.map((type) => [
      type,
      z.looseObject({ gm: z.literal(1), seq: nonneg(), ts: z.number(), runId: z.string(), type: z.literal(type), payload: PAYLOADS[type] }),
    ]),
  );
  const KnownEnvelope = z.discriminatedUnion('type', MESSAGE_TYPES.map((t) => ENVELOPES[t]));

  const issuesOf = (error) => error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));

  /** §2 steps 2–6 on an already decoded value. */
  function parseEnvelope(value) {
    const raw = RawEnvelope.safeParse(value);
    if (!raw.success) return { kind: 'invalid', reason: REASON_STRUCTURE, issues: issuesOf(raw.error) };
    const env = raw.data;
    if (env.gm !== 1) return { kind: 'version-mismatch', received: env.gm, supported: 1 };
    if (!Object.prototype.hasOwnProperty.call(ENVELOPES, env.type)) return { kind: 'unknown-type', envelope: env };
    const known = KnownEnvelope.safeParse(value);
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
