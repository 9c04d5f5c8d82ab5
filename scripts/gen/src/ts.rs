//! `typescript/index.d.ts`: the declarations of the `@wirecontract/node` package, written from
//! the contract's typed registry ([`wirecontract::registry`]): an interface per payload, frame
//! and helper object, a string-literal union per enum, the `Envelope` union keyed by `type`,
//! Graphorin's frame unions with one guard per variant, and the functions of `index.js`.

use std::fmt::Write as _;

use wirecontract::registry::{EnumDesc, FieldDesc, ObjectDesc, Protocol, Scalar, Ty};
use wirecontract::{graphmind, graphorin};

/// The TypeScript type of a registry type, as `JSON.parse` materializes it.
fn ts_ty(ty: &Ty) -> String {
    match ty {
        // Every element spelling is a single name (aliases for unions), so `X[]` is unambiguous.
        Ty::List(t) => format!("{}[]", ts_ty(t)),
        Ty::Enum(e) => e.name.to_owned(),
        Ty::Object(o) => o.name.to_owned(),
        Ty::Scalar(s) => match s {
            Scalar::String | Scalar::NonEmptyString => "string",
            Scalar::RpcId => "RpcId",
            Scalar::Bool => "boolean",
            Scalar::SafeUInt
            | Scalar::PositiveSafeUInt
            | Scalar::SafeInt
            | Scalar::ExactUInt
            | Scalar::ExactInt
            | Scalar::Finite
            | Scalar::NonNegativeFinite => "number",
            Scalar::Opaque => "unknown",
            Scalar::OpaqueObject => "Record<string, unknown>",
        }
        .to_owned(),
    }
}

fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A property name: bare when it is an identifier, quoted otherwise.
fn prop(name: &str) -> String {
    let ident = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if ident {
        name.to_owned()
    } else {
        quote(name)
    }
}

/// A JSDoc block at `indent` (nothing for an empty doc).
fn doc(out: &mut String, indent: &str, text: &str) {
    let text = text.trim();
    if text.is_empty() {
        return;
    }
    let text = text.replace("*/", "*\\/");
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    if lines.len() == 1 {
        let _ = writeln!(out, "{indent}/** {} */", lines[0].trim());
        return;
    }
    let _ = writeln!(out, "{indent}/**");
    for l in lines {
        if l.trim().is_empty() {
            let _ = writeln!(out, "{indent} *");
        } else {
            let _ = writeln!(out, "{indent} * {}", l.strip_prefix(' ').unwrap_or(l));
        }
    }
    let _ = writeln!(out, "{indent} */");
}

fn field_doc(f: &FieldDesc) -> String {
    let rule = match f.ty.element() {
        Ty::Scalar(s) => format!("({})", s.describe()),
        _ => String::new(),
    };
    match (f.doc.trim().is_empty(), rule.is_empty()) {
        (true, _) => rule,
        (false, true) => f.doc.trim().to_owned(),
        (false, false) => format!("{} {rule}", f.doc.trim()),
    }
}

fn object_interface(out: &mut String, o: &ObjectDesc) {
    doc(out, "  ", o.doc);
    let _ = writeln!(out, "  interface {} {{", o.name);
    for (k, v) in o.literals {
        let _ = writeln!(out, "    {}: {};", prop(k), quote(v));
    }
    for f in o.fields {
        doc(out, "    ", &field_doc(f));
        let _ = writeln!(out, "    {}{}: {};", prop(f.wire), if f.required { "" } else { "?" }, ts_ty(&f.ty));
    }
    if !o.strict {
        let _ = writeln!(out, "    /** Unknown members are kept (every GraphMind object is loose). */");
        let _ = writeln!(out, "    [key: string]: unknown;");
    }
    let _ = writeln!(out, "  }}");
}

fn enum_type(out: &mut String, e: &EnumDesc) {
    doc(out, "  ", e.doc);
    let values: Vec<String> = e.wire_values().map(quote).collect();
    let _ = writeln!(out, "  type {} = {};", e.name, values.join(" | "));
}

fn tuple(values: &[&str]) -> String {
    format!("readonly [{}]", values.iter().map(|v| quote(v)).collect::<Vec<_>>().join(", "))
}

fn types_of(out: &mut String, p: &Protocol) {
    for e in p.enums() {
        enum_type(out, e);
    }
    out.push('\n');
    for o in p.objects() {
        object_interface(out, o);
    }
}

/// The viewer helpers (`pauseReason`, the handshake), closing the `graphmind` namespace.
const HANDSHAKE_DECLS: &str = "  /** Why a gate pauses: \"breakpoint\" (checked first), \"step\", or null. */
  function pauseReason(mode: RunMode, breakpoints: readonly BreakpointMatcher[], kind: NodeKind, name: string, point: PausePoint): \"breakpoint\" | \"step\" | null;
  /** What negotiateHello says of an app's hello. */
  type HelloNegotiation = { kind: \"accepted\"; protocol: number; capabilities: string[]; resumeToken?: string } | { kind: \"refused\"; reason: string };
  /** The viewer's desired state for helloAck. */
  type HelloAckState = { viewer: string; breakpoints?: readonly BreakpointMatcher[]; mode?: RunMode; sessionToken?: string; hubCapabilities?: readonly string[] };
  /** Negotiates an app's hello payload for a viewer: refused unless versions.protocol is 1. */
  function negotiateHello(hello: PayloadMap[\"hello\"], viewerCapabilities?: readonly string[]): HelloNegotiation;
  /** The hello.ack payload arming an app with the viewer's state (breakpoints, mode). */
  function helloAck(hello: PayloadMap[\"hello\"], state: HelloAckState): PayloadMap[\"hello.ack\"];
  /** A shrunk payload (graphmind-shrink §3): `json` is the JSON.stringify-exact, compact text to send
   *  (JSON.parse(json) is the payload), `tier` 1 unchanged, 2 field trim, 3 skeleton, 4 whole-payload
   *  marker, `truncated` the reference's flag (tier > 1). */
  interface Shrunk {
    json: string;
    tier: 1 | 2 | 3 | 4;
    truncated: boolean;
  }
  /** The reference's serializePayload (graphmind-shrink §3): `value`'s JSON.stringify text (`undefined`
   *  is `null`) shrunk to at most `maxBytes` UTF-8 bytes (default DEFAULT_MAX_PAYLOAD_BYTES, 512 KiB);
   *  `type`, an event type, enables the skeleton tier. A tier-4 marker may exceed budgets below ~6 KB.
   *  Throws TypeError for a value JSON.stringify refuses (BigInt, a cycle) or a bad maxBytes/type. */
  function shrinkPayload(value: unknown, maxBytes?: number, type?: string | null): Shrunk;
  /** shrinkPayload over JSON text, read with JSON.parse semantics (lone surrogates kept, 1e400 is
   *  Infinity, big integers the nearest double). Throws SyntaxError when the text is not JSON. */
  function shrinkPayloadJson(text: string, maxBytes?: number, type?: string | null): Shrunk;
}
";

/// `ViewerSession` (`viewer.js` over the backend's class, the addon's or the WASM build's): the
/// contract's sans-IO viewer for a viewer author's host, at the top level.
const VIEWER_DECLS: &str = "/** What ViewerSession.frameReceived did with a frame (the actions it queued come from pollAction). */
export interface FrameReceived {
  kind: \"hello\" | \"accepted\" | \"duplicate\" | \"wildcard\" | \"rejected\";
  /** Whether its seq is below the connection's hello seq (buffered before this connection). */
  replayed: boolean;
}
/** One thing for the viewer's host to do or know, polled in order from a ViewerSession. */
export type ViewerAction =
  | { type: \"send\"; conn: number; frame: string }
  | { type: \"close\"; conn: number; code: number; reason: string }
  | { type: \"app-attached\"; conn: number; sessionToken: string; hello: graphmind.Hello }
  | { type: \"frame-accepted\"; conn: number; envelope: graphmind.Envelope | graphmind.UnknownEnvelope; replayed: boolean }
  | { type: \"pause-opened\"; conn: number; runId: string; pauseId: string; nodeId: string; point: graphmind.PausePoint }
  | { type: \"pause-closed\"; pauseId: string; action: graphmind.ResumeAction }
  | { type: \"pause-released\"; conn: number; pauseId: string }
  | { type: \"resume-refused\"; pauseId: string; code: graphmind.RefusalCode; requestId?: string }
  | { type: \"resume-timed-out\"; pauseId: string }
  | { type: \"run-abandoned\"; runId: string }
  | { type: \"warn\"; conn: number; rule: string; text: string };
/** ViewerSession's options; every one has the core's default (graphmind-session §5). */
export interface ViewerSessionOptions {
  /** Armed at start; default [{point: \"error\"}]. */
  breakpoints?: readonly graphmind.BreakpointMatcher[];
  mode?: graphmind.RunMode;
  /** hello.ack's versions.viewer. */
  viewerVersion?: string;
  hubCapabilities?: readonly string[];
  /** Minted session tokens are <prefix><n>: pass a random prefix. */
  tokenPrefix?: string;
  maxResumeTokenLen?: number;
  /** How long a sent exec.resume waits for its answer (5000). */
  resumeWaitMs?: number;
  /** How long a run whose app disconnected stays running (15000). */
  abandonGraceMs?: number;
  maxRetainedRuns?: number;
  maxRetainedBytes?: number;
  maxSeqsPerRun?: number;
  maxTrackedPauses?: number;
}
/** What ViewerSession.resume throws when it sent nothing. */
export interface ResumeError extends Error {
  name: \"ResumeError\";
  code: \"unknown-pause\" | \"released-by-disconnect\" | \"owner-gone\";
}
/**
 * The contract's viewer session (graphmind-session §5), sans-IO: de-duplication by (runId, seq),
 * the handshake, pause bookkeeping, resume routing, fail-open on disconnect, run tracking. The host
 * owns the sockets and the clock: it feeds frames and connection events in with a millisecond
 * reading, carries out every polled action, and calls handleTimeout when pollTimeout says.
 */
export declare class ViewerSession {
  constructor(options?: ViewerSessionOptions);
  /** A new app connection (an id the host picks; also implied by its first frame). */
  connectionOpened(conn: number): void;
  /** The connection closed: its open pauses are released (fail-open), its runs start the abandon grace. */
  connectionClosed(conn: number, nowMs: number): void;
  /** One text frame from `conn`. */
  frameReceived(conn: number, text: string, nowMs: number): FrameReceived;
  /** Arms a breakpoint and broadcasts the set; whether it was new. */
  setBreakpoint(matcher: graphmind.BreakpointMatcher, nowMs: number): boolean;
  /** Removes the breakpoints equal to `matcher`; how many were removed. */
  clearBreakpoint(matcher: graphmind.BreakpointMatcher, nowMs: number): number;
  /** Sets the run mode and broadcasts it. */
  setMode(mode: graphmind.RunMode, nowMs: number): void;
  /** Sends exec.resume for an open pause; throws ResumeError when nothing was sent. */
  resume(pauseId: string, action: graphmind.ResumeAction, nowMs: number, options?: { output?: unknown; requestId?: string }): void;
  /** Fires the resume waits and abandon graces due at `nowMs`. */
  handleTimeout(nowMs: number): void;
  /** The next action, or undefined. */
  pollAction(): ViewerAction | undefined;
  /** Every queued action, oldest first. */
  pollActions(): ViewerAction[];
  /** When handleTimeout is next due (ms), or undefined. */
  pollTimeout(): number | undefined;
  /** Whether the session still holds state for `runId` (de-duplication keys, owner, pauses). */
  retainsRun(runId: string): boolean;
  readonly breakpoints: graphmind.BreakpointMatcher[];
  readonly mode: graphmind.RunMode;
  /** Ids of the open pauses, sorted. */
  readonly openPauses: string[];
  /** How many runs' state is retained (at most maxRetainedRuns). */
  readonly retainedRuns: number;
  /** Approximate bytes of retained run state. */
  readonly retainedBytes: number;
}
";

/// `PayloadMap`: the payload type of every known message type, keyed by the wire `type`.
fn payload_map(out: &mut String, p: &Protocol) {
    out.push_str("  /** Payload type of every known message type, keyed by the wire `type`. */\n");
    out.push_str("  interface PayloadMap {\n");
    for m in p.messages {
        doc(out, "    ", m.doc);
        let _ = writeln!(out, "    {}: {};", quote(m.wire), m.payload.name);
    }
    out.push_str("  }\n");
}

fn graphmind_namespace(out: &mut String) {
    let p = &graphmind::PROTOCOL;
    out.push_str("/** GraphMind v1 (`gm: 1`): the live agent-debugger envelope protocol (spec graphmind-v1). */\n");
    out.push_str("export declare namespace graphmind {\n");
    types_of(out, p);
    out.push('\n');
    payload_map(out, p);
    let _ = writeln!(out, "  /** One of the {} known message types. */", p.messages.len());
    out.push_str("  type MessageType = keyof PayloadMap;\n");
    out.push_str(
        "  /** The envelope of a known type `T`: `{gm, seq, ts, runId, type, payload}` plus unknown members. */
  interface EnvelopeOf<T extends MessageType> {
    /** Protocol major version. */
    gm: 1;
    /** Per-sender sequence number (integer, 0 ≤ x ≤ 2^53 − 1). */
    seq: number;
    /** Sender wall clock, epoch ms (integer, 0 ≤ x ≤ 2^53 − 1). */
    ts: number;
    /** Owning run, or \"*\" (WILDCARD_RUN_ID) when not run-bound. */
    runId: string;
    type: T;
    payload: PayloadMap[T];
    [key: string]: unknown;
  }
",
    );
    out.push_str(
        "  /** The envelope of the known type `T` (the reference's generic `Envelope<'node.token'>`); without
   *  an argument every known envelope, discriminated by `type` (distributive over `T`). */
  type Envelope<T extends MessageType = MessageType> = T extends MessageType ? EnvelopeOf<T> : never;
",
    );
    out.push_str(
        "  /** A structurally valid envelope of a type outside MESSAGE_TYPES: the payload is opaque and may be absent. */
  interface UnknownEnvelope {
    gm: 1;
    seq: number;
    ts: number;
    runId: string;
    type: string;
    payload?: unknown;
    [key: string]: unknown;
  }
  /** One validation failure: dotted path from the frame root (`payload.deltas.0.t`, `\"\"` for the root) and the rule. */
  interface Issue {
    path: string;
    message: string;
    /** The same path as segments from the frame root (key strings, index numbers); non-enumerable, so the object's keys stay the reference's `path`, `message`. */
    readonly segments: Array<string | number>;
  }
  /** The verdict of parseEnvelopeJson / parseEnvelope (§2). */
  type ParseResult =
    | { kind: \"ok\"; envelope: Envelope }
    | { kind: \"unknown-type\"; envelope: UnknownEnvelope }
    | { kind: \"version-mismatch\"; received: number; supported: number }
    | { kind: \"invalid\"; reason: string; issues?: Issue[]; /** Salvaged when only the payload failed (as ts, runId, type). */ seq?: number; ts?: number; runId?: string; type?: string };
  /** What createEnvelope takes: the payload is checked against the `type` given (opaque for an unknown type). */
  interface CreateEnvelopeInit<T extends string> {
    type: T;
    payload: T extends MessageType ? PayloadMap[T] : unknown;
    seq: number;
    runId: string;
    /** Defaults to Date.now() when undefined or null. */
    ts?: number | null;
    /** Payload budget in UTF-8 bytes of the payload's JSON text (graphmind-shrink §3): a payload over it is
     *  shrunk for its type before building (field trim, skeleton); refused when only the whole-payload
     *  marker would fit a known type. DEFAULT_MAX_PAYLOAD_BYTES is the reference's 512 KiB. None when undefined or null. */
    maxPayloadBytes?: number | null;
  }
  /** Why createEnvelope refused to build a frame. */
  class BuildError extends Error {
    readonly reason: string;
    readonly issues: Issue[];
  }
",
    );
    let consts = [
        ("MESSAGE_TYPES", graphmind::MESSAGE_TYPES, "Every known type, in spec order."),
        ("EVENT_TYPES", graphmind::EVENT_TYPES, "App → viewer events."),
        ("CONTROL_TYPES", graphmind::CONTROL_TYPES, "Viewer → app controls."),
        ("HANDSHAKE_TYPES", graphmind::HANDSHAKE_TYPES, "`hello` and `hello.ack`."),
        ("KNOWN_CAPABILITIES", graphmind::KNOWN_CAPABILITIES, "Capability strings this version knows (others must be ignored, not rejected)."),
    ];
    for (name, values, what) in consts {
        let _ = writeln!(out, "  /** {what} */\n  const {name}: {};", tuple(values));
    }
    let _ = writeln!(out, "  /** The protocol major this package speaks. */\n  const PROTOCOL_VERSION: {};", graphmind::PROTOCOL_VERSION);
    let _ = writeln!(out, "  /** The runId of messages not bound to a run. */\n  const WILDCARD_RUN_ID: {};", quote(graphmind::WILDCARD_RUN_ID));
    let _ = writeln!(out, "  /** Frames longer than this many UTF-8 bytes are `invalid` without being read. */\n  const MAX_FRAME_BYTES: number;");
    let _ = writeln!(out, "  /** Nesting deeper than this is `invalid`. */\n  const MAX_DEPTH: number;");
    let _ = writeln!(
        out,
        "  /** The reference's payload budget, UTF-8 bytes of payload JSON (graphmind-shrink §1). */\n  const DEFAULT_MAX_PAYLOAD_BYTES: {};",
        graphmind::DEFAULT_MAX_PAYLOAD_BYTES
    );
    out.push_str(
        "  /** Parses one text frame. Never throws. */
  function parseEnvelopeJson(text: string): ParseResult;
  /** Parses an already decoded value (its JSON.stringify text). Never throws. */
  function parseEnvelope(value: unknown): ParseResult;
  /** Builds `{gm: 1, seq, ts, runId, type, payload}`, validating a known type's payload; throws BuildError. */
  function createEnvelope<T extends string>(init: CreateEnvelopeInit<T>): T extends MessageType ? EnvelopeOf<T> : UnknownEnvelope;
  /** JSON.stringify with known fields in spec order, then unknown ones (§5.14); throws BuildError for a frame the parser would refuse. */
  function serializeEnvelope(envelope: Envelope | UnknownEnvelope): string;
  /** The JSON Schema (draft 2020-12) of the contract. */
  function exportJsonSchema(): Record<string, unknown>;
  /** The JSON Schema, pretty-printed with a trailing newline. */
  function exportJsonSchemaString(): string;
  /** Matcher equality: same kind, name and effective point (absent = \"before\"). */
  function matchersEqual(a: BreakpointMatcher, b: BreakpointMatcher): boolean;
  /** Whether `matcher` selects the gate (kind, name, point). */
  function matcherMatches(matcher: BreakpointMatcher, kind: NodeKind, name: string, point: PausePoint): boolean;
  /** Whether a gate pauses: step mode at every before/error point, else when any breakpoint matches. */
  function shouldPause(mode: RunMode, breakpoints: readonly BreakpointMatcher[], kind: NodeKind, name: string, point: PausePoint): boolean;
",
    );
    reference_decls(out);
    out.push_str(HANDSHAKE_DECLS);
}

/// The reference's (`@graphmind-ai/schema`) names that are not registry types: its type
/// aliases, the payload budget, the guards, the LLM conventions and the zod schema objects
/// (typed structurally, so the declarations need no zod).
fn reference_decls(out: &mut String) {
    let p = &graphmind::PROTOCOL;
    out.push_str(
        "  /** One of the EVENT_TYPES. */
  type EventType = (typeof EVENT_TYPES)[number];
  /** One of the CONTROL_TYPES. */
  type ControlType = (typeof CONTROL_TYPES)[number];
  /** One of the HANDSHAKE_TYPES. */
  type HandshakeType = (typeof HANDSHAKE_TYPES)[number];
  /** Payload type of every event type. */
  type EventPayloadMap = { [K in EventType]: PayloadMap[K] };
  /** The reference's name of PayloadMap. */
  type MessagePayloadMap = PayloadMap;
  /** Every known envelope (the reference's name). */
  type KnownEnvelope = Envelope;
  /** Envelopes the app sends. */
  type EventEnvelope = Envelope<EventType>;
  /** Envelopes the viewer sends. */
  type ControlEnvelope = Envelope<ControlType>;
  /** Handshake envelopes (either direction). */
  type HandshakeEnvelope = Envelope<HandshakeType>;
  /** The reference's name of CreateEnvelopeInit. */
  type CreateEnvelopeInput<T extends string> = CreateEnvelopeInit<T>;
  /** The reference's name of ParseResult. */
  type EnvelopeParseResult = ParseResult;
  /** The reference's name of UnknownEnvelope: a structurally valid envelope of a type this package does not know. */
  type RawEnvelope = UnknownEnvelope;
  /** The reference's name of Issue. */
  type ParseIssue = Issue;
  /** One of KNOWN_CAPABILITIES. */
  type KnownCapability = (typeof KNOWN_CAPABILITIES)[number];
  /** A capability string: a known one, or a future one. */
  type Capability = KnownCapability | (string & {});
  /** The marker of a payload (or field) the shrink cut (graphmind-shrink §4–§9). */
  interface TruncatedPayload {
    __graphmindTruncated: true;
    bytes: number;
    preview: string;
    /** Payload fields not kept verbatim. */
    fields?: string[];
    /** How many keys a capped object lost. */
    keysDropped?: number;
  }
  /** How UsageView.inputTokens was obtained. */
  type UsageBasis = \"inclusive\" | \"recomputed\" | \"reported\";
  /** What a reader displays for one TokenUsage (readUsage). */
  interface UsageView {
    /** Prompt tokens: the total, cache included, unless `basis` is \"reported\". */
    inputTokens: number;
    outputTokens: number;
    basis: UsageBasis;
    cacheReadTokens?: number;
    cacheWriteTokens?: number;
    reasoningTokens?: number;
  }
  /** The reference's payload budget: 512 KiB of UTF-8 payload JSON. */
  const MAX_PAYLOAD_BYTES: number;
  /** Most keys the field shrink keeps of one object. */
  const MAX_SHRINK_KEYS: number;
  /** Most top-level fields a payload may have for the field trim. */
  const MAX_TRIM_FIELDS: number;
  /** Appended to a string field that had to be cut short. */
  const TRUNCATION_SUFFIX: string;
  /** The normalized finish reasons (a closed enum of the registry). */
  const FINISH_REASONS: readonly FinishReason[];
  /** The reference's serializePayload (graphmind-shrink §3): within budget `payload` is the caller's own
   *  value and `json` its JSON.stringify text; otherwise the shrunk value and its text. A value
   *  JSON.stringify refuses (a cycle, a BigInt) gets the unserializable path's marker result (§9). */
  function serializePayload(payload: unknown, maxBytes?: number, type?: string): { json: string; payload: unknown; truncated: boolean };
  /** Whether `value` carries the truncation marker. */
  function isTruncatedPayload(value: unknown): value is TruncatedPayload;
  /** Whether `type` is a known message type. */
  function isMessageType(type: string): type is MessageType;
  /** Whether `type` is an event type. */
  function isEventType(type: string): type is EventType;
  /** Whether `type` is a control type. */
  function isControlType(type: string): type is ControlType;
  /** Whether `type` is a handshake type. */
  function isHandshakeType(type: string): type is HandshakeType;
  /** The normalized finish reason of a provider's raw value, undefined when nothing usable was reported. */
  function normalizeFinishReason(raw: unknown, hasToolCalls?: boolean): FinishReason | undefined;
  /** What a reader displays for a stored usage, undefined when it is not a usage object. Never throws. */
  function readUsage(usage: unknown): UsageView | undefined;
  /** What a zod 4 schema's safeParse returns (typed here without zod, an optional peer dependency). */
  type SafeParseResult<T> = { success: true; data: T; error?: undefined } | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string; code?: string }> }; data?: undefined };
  /** A zod 4 schema object (generated from the registry; needs zod installed to be used). */
  interface ZodSchemaLike<T> {
    safeParse(value: unknown): SafeParseResult<T>;
    parse(value: unknown): T;
  }
",
    );
    for e in p.enums() {
        let _ = writeln!(out, "  const {0}Schema: ZodSchemaLike<{0}>;", e.name);
    }
    for o in p.objects() {
        let _ = writeln!(out, "  const {0}Schema: ZodSchemaLike<{0}>;", o.name);
    }
    out.push_str(
        "  const EventPayloadSchemas: { readonly [K in EventType]: ZodSchemaLike<PayloadMap[K]> };
  const ControlPayloadSchemas: { readonly [K in ControlType]: ZodSchemaLike<PayloadMap[K]> };
  const HandshakePayloadSchemas: { readonly [K in HandshakeType]: ZodSchemaLike<PayloadMap[K]> };
  const MessagePayloadSchemas: { readonly [K in MessageType]: ZodSchemaLike<PayloadMap[K]> };
  /** Every structurally valid envelope whatever its gm and type (the parser's first step). */
  const RawEnvelopeSchema: ZodSchemaLike<UnknownEnvelope>;
  const EnvelopeSchemas: { readonly [K in MessageType]: ZodSchemaLike<Envelope<K>> };
  const KnownEnvelopeSchema: ZodSchemaLike<Envelope>;
",
    );
}

fn graphorin_namespace(out: &mut String) {
    let p = &graphorin::PROTOCOL;
    out.push_str("\n/** Graphorin v1 (`v: \"1\"`): strict JSON-RPC frames (spec graphorin-v1). */\n");
    out.push_str("export declare namespace graphorin {\n");
    out.push_str("  /** A JSON-RPC id: a non-empty string or an integer, JSON type kept. */\n  type RpcId = string | number;\n");
    types_of(out, p);
    out.push('\n');
    for u in p.unions {
        doc(out, "  ", u.doc);
        let frames: Vec<&str> = u.variants.iter().map(|v| v.frame.name).collect();
        let _ = writeln!(out, "  type {} = {};", u.name, frames.join(" | "));
    }
    out.push_str(
        "  /** One validation failure: path segments from the frame root, a stable code, a message. */
  interface Issue {
    path: Array<string | number>;
    code: IssueCode;
    message: string;
    /** The path's segments again (as in every binding's issue); non-enumerable, so the object's keys stay the reference's `path`, `code`, `message`. */
    readonly segments: Array<string | number>;
  }
  /** Why a frame did not parse. */
  interface ParseError {
    /** True when the frame is not JSON at all (answer -32700); false when it is JSON but not a legal frame (-32600). */
    isSyntaxError: boolean;
    /** @deprecated The old name of `isSyntaxError` (true for a syntax failure). */
    isJson: boolean;
    message: string;
    issues: Issue[];
    /** The frame's raw `id` member (any JSON value), when the top level is an object that has one. */
    id?: unknown;
    /** The RPC error code a server answers with. */
    rpcErrorCode: number;
    /** The id a server's error reply should carry (the raw id when valid, else 0). */
    replyId: RpcId;
  }
",
    );
    for u in p.unions {
        let _ = writeln!(
            out,
            "  /** The result of parsing a {name}: `success` with the frame and its variant, or the error. */\n  type {name}Result = {{ success: true; data: {name}; variant: {venum} }} | {{ success: false; error: ParseError }};",
            name = u.name,
            venum = u.variant_enum.name
        );
    }
    for u in p.unions {
        for v in u.variants {
            doc(out, "  ", &format!("Narrows a validated {} to `{}` ({}).", u.name, v.frame.name, v.wire));
            let _ = writeln!(out, "  function {}(message: {}): message is {};", v.guard_js, u.name, v.frame.name);
        }
    }
    out.push_str("  /** Stable JSON-RPC error code catalogue (name → code). */\n  const RPC_ERROR_CODES: {\n");
    for c in graphorin::RPC_ERROR_CODES {
        let _ = writeln!(out, "    /** {} */\n    readonly {}: {};", c.meaning, c.name, c.value);
    }
    out.push_str("  };\n  /** WebSocket close code of every close reason (4001–4008). */\n  const CLOSE_CODE_VALUES: {\n");
    for (r, c) in graphorin::CLOSE_CODE_VALUES {
        let _ = writeln!(out, "    readonly {}: {c};", quote(r.as_str()));
    }
    out.push_str("  };\n");
    let _ = writeln!(out, "  const KINDS: {};", tuple(graphorin::KINDS));
    let _ = writeln!(out, "  const METHODS: {};", tuple(graphorin::METHODS));
    let _ = writeln!(out, "  const LIFECYCLE_STATUSES: {};", tuple(graphorin::LIFECYCLE_STATUSES));
    let _ = writeln!(out, "  const PROTOCOL_VERSION: {};", quote(graphorin::PROTOCOL_VERSION));
    let _ = writeln!(out, "  const JSONRPC_VERSION: {};", quote(graphorin::JSONRPC_VERSION));
    let _ = writeln!(out, "  const SUBPROTOCOL_NAME: {};", quote(graphorin::SUBPROTOCOL_NAME));
    let _ = writeln!(out, "  const TICKET_SUBPROTOCOL_PREFIX: {};", quote(graphorin::TICKET_SUBPROTOCOL_PREFIX));
    out.push_str(
        "  /** The reference's name of a close reason. */
  type GraphorinCloseReason = CloseReason;
  /** The id of a client request (a JSON-RPC id: a non-empty string or an integer). */
  type ClientMessageId = RpcId;
  /** A zod-shaped schema over an already decoded value: `safeParse` never throws; `parse` returns the frame or throws SchemaError. */
  interface MessageSchema<T, R> {
    safeParse(value: unknown): R;
    parse(value: unknown): T;
  }
  /** Every legal server → client frame, as the reference's `ServerMessageSchema.safeParse(JSON.parse(text))`. */
  const ServerMessageSchema: MessageSchema<ServerMessage, ServerMessageResult>;
  /** Every legal client → server frame, as the reference's `ClientMessageSchema.safeParse(value)`. */
  const ClientMessageSchema: MessageSchema<ClientMessage, ClientMessageResult>;
  /** What a schema's `parse` throws: an Error with the ParseError fields. */
  class SchemaError extends Error implements ParseError {
    isSyntaxError: boolean;
    isJson: boolean;
    issues: Issue[];
    id?: unknown;
    rpcErrorCode: number;
    replyId: RpcId;
  }
  /** The subprotocol to answer an offer (a header value `\"a, b\"` or a list of them) with: SUBPROTOCOL_NAME when offered, else null. */
  function negotiateSubprotocol(offer: string | readonly string[] | undefined): typeof SUBPROTOCOL_NAME | null;
  /** The ticket carried in an offer: the first non-empty `ticket.<value>`, else undefined. */
  function parseTicketSubprotocol(offer: string | readonly string[] | undefined): string | undefined;
  /** The offer entry carrying a ticket, `ticket.<ticket>`; throws TypeError for an empty ticket. */
  function formatTicketSubprotocol(ticket: string): string;
  /** Parses a server → client frame. Never throws. */
  function parseServerMessage(text: string): ServerMessageResult;
  /** Parses a client → server frame. Never throws. */
  function parseClientMessage(text: string): ClientMessageResult;
  /** parseServerMessage on an already decoded value. */
  function parseServerMessageValue(value: unknown): ServerMessageResult;
  /** parseClientMessage on an already decoded value. */
  function parseClientMessageValue(value: unknown): ClientMessageResult;
  /** The close code of a reason. */
  function closeCodeFor(reason: CloseReason): number;
  /** The reason of a close code, undefined outside 4001–4008. */
  function closeCodeReason(code: number): CloseReason | undefined;
  /** The JSON Schema (draft 2020-12) of both directions. */
  function exportJsonSchema(): Record<string, unknown>;
  /** The JSON Schema, pretty-printed with a trailing newline. */
  function exportJsonSchemaString(): string;
}
",
    );
}

/// The whole `index.d.ts`.
pub fn declarations() -> String {
    let mut out = String::from(
        "// @wirecontract/node: TypeScript declarations.
// Generated by scripts/gen (src/ts.rs) from the wirecontract registry; do not edit.
// Regenerate with scripts/regen; bindings/node/build.sh copies this file into the package.

",
    );
    graphmind_namespace(&mut out);
    graphorin_namespace(&mut out);
    out.push_str("\n/** The contract crate version the addon was built from. */\nexport declare const VERSION: string;\n");
    let _ = writeln!(
        out,
        "/** The id of the contract these declarations and the addon were built from (16 hex digits); the\n *  package refuses to load an addon built from another contract. */\nexport declare const CONTRACT_ID: {};\n",
        quote(&wirecontract::contract_id())
    );
    out.push_str(ANY_PROTOCOL_DECLS);
    out.push_str(VIEWER_DECLS);
    out.push_str("// The GraphMind reference API (@graphmind-ai/schema) at the top level too.\n");
    for n in top_level_names() {
        let _ = writeln!(out, "export import {n} = graphmind.{n};");
    }
    // Every GraphMind enum and object type, and its schema object, at the top level too.
    let p = &graphmind::PROTOCOL;
    let types: Vec<&str> = p.enums().iter().map(|e| e.name).chain(p.objects().iter().map(|o| o.name)).collect();
    for n in types {
        let _ = writeln!(out, "export import {n} = graphmind.{n};\nexport import {n}Schema = graphmind.{n}Schema;");
    }
    out
}

/// Whether a top-level name of `index.d.ts` is a value at run time or a type only.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Value,
    Type,
}

use Kind::{Type, Value};

/// The `graphmind` names re-exported at the top level (the reference's names among them), in
/// declaration order. The runtime ones are also the ESM entry's named exports ([`esm_entry`]).
const TOP_LEVEL: &[(&str, Kind)] = &[
    ("PROTOCOL_VERSION", Value),
    ("WILDCARD_RUN_ID", Value),
    ("MESSAGE_TYPES", Value),
    ("EVENT_TYPES", Value),
    ("CONTROL_TYPES", Value),
    ("HANDSHAKE_TYPES", Value),
    ("KNOWN_CAPABILITIES", Value),
    ("MAX_FRAME_BYTES", Value),
    ("MAX_DEPTH", Value),
    ("DEFAULT_MAX_PAYLOAD_BYTES", Value),
    ("parseEnvelopeJson", Value),
    ("parseEnvelope", Value),
    ("createEnvelope", Value),
    ("serializeEnvelope", Value),
    ("exportJsonSchema", Value),
    ("exportJsonSchemaString", Value),
    ("matchersEqual", Value),
    ("matcherMatches", Value),
    ("shouldPause", Value),
    ("pauseReason", Value),
    ("negotiateHello", Value),
    ("helloAck", Value),
    ("BuildError", Value),
    ("shrinkPayload", Value),
    ("shrinkPayloadJson", Value),
    ("Shrunk", Type),
    ("Envelope", Type),
    ("EnvelopeOf", Type),
    ("UnknownEnvelope", Type),
    ("ParseResult", Type),
    ("MessageType", Type),
    ("PayloadMap", Type),
    // The reference's (@graphmind-ai/schema) names that are not registry types.
    ("MAX_PAYLOAD_BYTES", Value),
    ("MAX_SHRINK_KEYS", Value),
    ("MAX_TRIM_FIELDS", Value),
    ("TRUNCATION_SUFFIX", Value),
    ("FINISH_REASONS", Value),
    ("serializePayload", Value),
    ("isTruncatedPayload", Value),
    ("isMessageType", Value),
    ("isEventType", Value),
    ("isControlType", Value),
    ("isHandshakeType", Value),
    ("normalizeFinishReason", Value),
    ("readUsage", Value),
    ("EventType", Type),
    ("ControlType", Type),
    ("HandshakeType", Type),
    ("EventPayloadMap", Type),
    ("MessagePayloadMap", Type),
    ("KnownEnvelope", Type),
    ("EventEnvelope", Type),
    ("ControlEnvelope", Type),
    ("HandshakeEnvelope", Type),
    ("CreateEnvelopeInput", Type),
    ("CreateEnvelopeInit", Type),
    ("EnvelopeParseResult", Type),
    ("RawEnvelope", Type),
    ("ParseIssue", Type),
    ("Issue", Type),
    ("KnownCapability", Type),
    ("Capability", Type),
    ("TruncatedPayload", Type),
    ("UsageBasis", Type),
    ("UsageView", Type),
    ("SafeParseResult", Type),
    ("ZodSchemaLike", Type),
    ("EventPayloadSchemas", Value),
    ("ControlPayloadSchemas", Value),
    ("HandshakePayloadSchemas", Value),
    ("MessagePayloadSchemas", Value),
    ("RawEnvelopeSchema", Value),
    ("EnvelopeSchemas", Value),
    ("KnownEnvelopeSchema", Value),
];

fn top_level_names() -> impl Iterator<Item = &'static str> {
    TOP_LEVEL.iter().map(|(n, _)| *n)
}

/// The names declared at the top level of `index.d.ts` outside the `graphmind` re-exports.
const OWN_VALUES: &[&str] = &["graphmind", "graphorin", "VERSION", "CONTRACT_ID", "protocols", "parseFrame", "ViewerSession"];

/// Any registered protocol by name (`api.js`'s `protocols` and `parseFrame`, over the registry's
/// parse): declared once for every protocol, so a protocol added to the contract needs none.
const ANY_PROTOCOL_DECLS: &str = "/** What `parseFrame` says of one frame of a registered protocol. */
export interface FrameVerdict {
  /** `ok`, `invalid`, or the protocol's own verdict. */
  kind: 'ok' | 'invalid' | 'unknown-type' | 'version-mismatch' | (string & {});
  /** The message type or union variant: when ok, and for another verdict when it knows one. */
  message?: string;
  /** The accepted object as JSON.parse reads it from the frame: the frame itself, or its
   *  envelope's payload. Set only when `kind` is `ok` and the type is known. */
  object?: unknown;
  /** Why the frame is invalid, in one line. */
  reason?: string;
  /** Every problem (dotted `path`, the contract's `code` when it records one, `message`; a
   *  non-enumerable `segments`), when invalid. */
  issues?: Array<{ path: string; code?: string; message: string }>;
}
/** The names of every registered protocol, in registry order (`graphmind`, `graphorin`, ...). */
export declare function protocols(): readonly string[];
/** Parses one frame of the registered protocol `protocolName` with its registered parser.
 *  Bad input is a verdict. Throws a TypeError for a non-string `protocolName`, and an Error
 *  naming the registered protocols for one the registry does not hold. */
export declare function parseFrame(protocolName: string, text: string): FrameVerdict;

";

/// `typescript/index.mjs`: the package's ESM entry, which re-exports the CommonJS module by
/// name: every runtime name `index.d.ts` declares at the top level, so `import { X }` works
/// for every `X` the declarations promise (`test/esm.test.js` checks the names against
/// `index.js`'s own).
pub fn esm_entry() -> String {
    let p = &graphmind::PROTOCOL;
    let mut names: Vec<String> = OWN_VALUES.iter().map(|n| (*n).to_owned()).collect();
    names.extend(TOP_LEVEL.iter().filter(|(_, k)| *k == Value).map(|(n, _)| (*n).to_owned()));
    names.extend(p.enums().iter().map(|e| format!("{}Schema", e.name)));
    names.extend(p.objects().iter().map(|o| format!("{}Schema", o.name)));
    let mut out = String::from(
        "// @wirecontract/node: the ESM entry, the CommonJS module (which loads the backend)
// re-exported by name.
// Generated by scripts/gen (src/ts.rs) from the names index.d.ts declares; do not edit.
// Regenerate with scripts/regen; bindings/node/build.sh copies this file into the package.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const cjs = require('./index.js');

export const {
",
    );
    for n in &names {
        let _ = writeln!(out, "  {n},");
    }
    out.push_str("} = cjs;\nexport default cjs;\n");
    out
}

/// `typescript/contract-id.json`: the contract id the declarations were generated from,
/// shipped beside `index.js`, which compares it with the addon's at load.
pub fn contract_id_json() -> String {
    format!("{{\"contractId\":{}}}\n", quote(&wirecontract::contract_id()))
}
