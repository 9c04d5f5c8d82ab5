//! The GraphMind v1 API for Kotlin and Swift: parse (never throws), build, serialize, schema,
//! breakpoint matchers, constants. Spec graphmind-v1 §2 and §5; parity with the Python
//! binding's `wirecontract.graphmind`.

// uniffi exports receive owned values from the host.
#![allow(clippy::needless_pass_by_value)]

use wirecontract::graphmind as gm;
use wirecontract::wire::SafeUInt;

use crate::convert::{extras_from_host, extras_to_host, Convert, HostPath, Issues};
use crate::{
    arg, guard, host_int, opt_arg, size_arg, BreakpointMatcher, ContractError, Hello, HelloAck, HostString, Issue, JsonText, JsonValue, Message, NodeKind,
    PausePoint, PauseReason, RunMode,
};

/// A GraphMind envelope `{gm, seq, ts, runId, type, payload}`. `gm` is always 1 and not
/// stored. Build one with `createEnvelope`; `copy()`/`with` changes are checked again by
/// `serializeEnvelope`.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct Envelope {
    /// Sequence number, 0 ≤ seq ≤ 2^53 − 1 (checked when sent).
    pub seq: i64,
    /// Timestamp in epoch milliseconds, 0 ≤ ts ≤ 2^53 − 1 (checked when sent).
    pub ts: i64,
    /// Run id (`"*"` for frames outside any run); must not contain U+0000 or a lone surrogate.
    pub run_id: HostString,
    /// The wire type string (`"node.started"`); always agrees with `message`.
    pub message_type: HostString,
    /// The type and its payload.
    pub message: Message,
    /// Unknown envelope-level members as a JSON object text (`{}` when none).
    #[uniffi(default = "{}")]
    pub extra_json: JsonText,
}

/// The verdict on one frame (spec §5.2). Parsing never throws: every frame gets one of these.
#[allow(clippy::large_enum_variant, reason = "uniffi lowers an enum by value: no variant can be boxed, and the sizes follow the contract's payloads")]
#[derive(Debug, Clone, PartialEq, uniffi::Enum)]
pub enum ParseResult {
    /// A known type with a valid payload.
    Ok {
        /// The envelope.
        envelope: Envelope,
    },
    /// A structurally valid `gm: 1` envelope of a type this contract does not know; the
    /// message is `Message.Unknown` with the raw payload.
    UnknownType {
        /// The envelope.
        envelope: Envelope,
    },
    /// A structurally valid envelope with `gm` other than 1 (checked before type and payload).
    VersionMismatch {
        /// The `gm` received.
        received: i64,
        /// The supported version (1).
        supported: i64,
    },
    /// Anything else. `reason` is fixed per rule; `issues` is `null`/`nil` when the frame is
    /// not JSON, too big or too deep.
    Invalid {
        /// One of the fixed reasons of spec §5.2.
        reason: String,
        /// Every issue found, or none for syntax/size/depth failures.
        issues: Option<Vec<Issue>>,
        /// Salvage: the envelope's `seq` when the frame passed the structure and version
        /// checks and only its payload failed; `null`/`nil` otherwise (as `ts`, `runId`,
        /// `messageType`).
        seq: Option<i64>,
        /// Salvage: the envelope's `ts` (epoch ms), or `null`/`nil`.
        ts: Option<i64>,
        /// Salvage: the envelope's `runId`, or `null`/`nil`.
        run_id: Option<String>,
        /// Salvage: the envelope's `type`, or `null`/`nil`.
        message_type: Option<String>,
    },
}

/// Limits applied while parsing; `null` fields take the spec defaults (16 MiB, depth 100,000).
#[derive(Debug, Clone, Default, PartialEq, Eq, uniffi::Record)]
pub struct ParseOptions {
    /// Frames longer than this many bytes are `Invalid` without being read.
    #[uniffi(default)]
    pub max_frame_bytes: Option<i64>,
    /// Nesting deeper than this is `Invalid`.
    #[uniffi(default)]
    pub max_depth: Option<i64>,
}

/// The core's options, or an `Invalid` verdict naming a negative or unsafe option (parsing
/// never throws).
fn options(o: Option<ParseOptions>) -> Result<gm::ParseOptions, Box<ParseResult>> {
    let d = gm::ParseOptions::default();
    let o = o.unwrap_or_default();
    let size = |v: Option<i64>, default: usize, name: &str| v.map_or(Ok(default), |x| size_arg(x, name));
    let opts = size(o.max_frame_bytes, d.max_frame_bytes, "options.maxFrameBytes")
        .and_then(|max_frame_bytes| Ok(gm::ParseOptions { max_frame_bytes, max_depth: size(o.max_depth, d.max_depth, "options.maxDepth")? }));
    opts.map_err(|e| {
        Box::new(match e {
            ContractError::Build { reason, issues } => invalid(reason, Some(issues)),
            other => invalid(other.to_string(), None),
        })
    })
}

pub(crate) fn envelope_to_host(e: &gm::Envelope) -> Envelope {
    Envelope {
        seq: host_int(e.seq),
        ts: host_int(e.ts),
        run_id: HostString::from(e.run_id.as_str()),
        message_type: HostString::from(e.message_type()),
        message: Convert::to_host(&e.message),
        extra_json: extras_to_host(&e.extra),
    }
}

fn outcome_to_host(o: gm::ParseOutcome) -> ParseResult {
    match o {
        gm::ParseOutcome::Ok(e) => ParseResult::Ok { envelope: envelope_to_host(&e) },
        gm::ParseOutcome::UnknownType(e) => ParseResult::UnknownType { envelope: envelope_to_host(&e) },
        gm::ParseOutcome::VersionMismatch { received, supported } => ParseResult::VersionMismatch { received, supported },
        gm::ParseOutcome::Invalid { reason, issues, seq, ts, run_id, message_type } => ParseResult::Invalid {
            reason,
            issues: issues.map(|v| v.into_iter().map(Issue::from).collect()),
            seq: seq.map(host_int),
            ts: ts.map(host_int),
            run_id,
            message_type,
        },
    }
}

/// Runs a parse; a panic (a bug) becomes an `Invalid` verdict instead of crossing FFI.
fn parse_guarded(f: impl FnOnce() -> gm::ParseOutcome) -> ParseResult {
    wirecontract_glue::catch(|| outcome_to_host(f())).unwrap_or_else(|p| invalid(p.text(), None))
}

/// Parses one text frame (spec §2 decision order). Never throws: a Kotlin string holding a
/// lone surrogate (no UTF-8 form, so no WebSocket text frame carries it) is `Invalid` naming
/// its UTF-16 index.
#[uniffi::export(default(options = None))]
pub fn parse_envelope_json(frame: HostString, options: Option<ParseOptions>) -> ParseResult {
    match self::options(options) {
        Ok(opts) => parse_host_frame(&frame, &opts),
        Err(invalid) => *invalid,
    }
}

/// A host string frame: text is parsed as text; a lone surrogate is `Invalid` (after the size
/// cap, which the core checks first on the bytes).
fn parse_host_frame(frame: &HostString, opts: &gm::ParseOptions) -> ParseResult {
    match frame.to_str() {
        Ok(text) => parse_guarded(|| gm::parse(text, opts)),
        Err(_) if frame.0.len() > opts.max_frame_bytes => parse_guarded(|| gm::parse(&frame.0, opts)),
        Err(e) => invalid(format!("frame is not valid JSON: {}", e.message()), None),
    }
}

/// Parses one frame given as UTF-8 bytes; invalid UTF-8 is `Invalid` naming the byte offset.
#[uniffi::export(default(options = None))]
pub fn parse_envelope_json_bytes(frame: Vec<u8>, options: Option<ParseOptions>) -> ParseResult {
    match self::options(options) {
        Ok(opts) => parse_guarded(|| gm::parse(&frame, &opts)),
        Err(invalid) => *invalid,
    }
}

/// Parses many text frames in one call (one FFI crossing instead of one per frame); the
/// results are in the same order. Options that are negative or above 2^53 − 1 make every
/// verdict `Invalid` naming the option, here and in every parse function.
#[uniffi::export(default(options = None))]
pub fn parse_envelopes_json(frames: Vec<HostString>, options: Option<ParseOptions>) -> Vec<ParseResult> {
    match self::options(options) {
        Ok(opts) => frames.iter().map(|f| parse_host_frame(f, &opts)).collect(),
        Err(invalid) => vec![*invalid; frames.len()],
    }
}

/// [`parse_envelopes_json`] for frames given as UTF-8 bytes.
#[uniffi::export(default(options = None))]
pub fn parse_envelopes_json_bytes(frames: Vec<Vec<u8>>, options: Option<ParseOptions>) -> Vec<ParseResult> {
    match self::options(options) {
        Ok(opts) => frames.iter().map(|f| parse_guarded(|| gm::parse(f, &opts))).collect(),
        Err(invalid) => vec![*invalid; frames.len()],
    }
}

/// Parses an already decoded frame (spec §2: the same algorithm from step 2 on). Never throws:
/// a string or member name of the tree holding a lone surrogate (a Kotlin string; no frame
/// carries it) is `Invalid` naming its path in the frame and its UTF-16 index.
#[uniffi::export]
pub fn parse_envelope(value: JsonValue) -> ParseResult {
    if let Some((path, message)) = crate::json::first_lone_surrogate(&value) {
        let issue = wirecontract::wire::Issue { path, code: None, message };
        return invalid(format!("frame is not valid JSON: {}", issue.summary()), Some(vec![Issue::from(issue)]));
    }
    match crate::json::tree_text(&value) {
        Ok(text) => parse_host_frame(&HostString::from(text), &gm::ParseOptions { max_frame_bytes: usize::MAX, ..gm::ParseOptions::default() }),
        // A number whose text is not a JSON number, named by its path (as Python's `parse_envelope`).
        Err((path, message)) => {
            let issue = wirecontract::wire::Issue { path, code: None, message };
            invalid(format!("value is not JSON-representable: {}", issue.summary()), Some(vec![Issue::from(issue)]))
        }
    }
}

/// An `Invalid` with nothing salvaged.
fn invalid(reason: String, issues: Option<Vec<Issue>>) -> ParseResult {
    ParseResult::Invalid { reason, issues, seq: None, ts: None, run_id: None, message_type: None }
}

pub(crate) fn build_error(reason: impl Into<String>, issues: Issues) -> ContractError {
    ContractError::Build { reason: reason.into(), issues: issues.into_iter().map(Issue::from).collect() }
}

pub(crate) fn from_build_error(e: gm::BuildError) -> ContractError {
    build_error(e.reason, e.issues)
}

/// Host envelope → contract envelope, checking every rule the host types cannot express.
pub(crate) fn envelope_from_host(h: &Envelope) -> Result<gm::Envelope, ContractError> {
    let mut issues = Issues::new();
    let wire_type = h.message.wire_type();
    let message_type = <String as Convert>::from_host(&h.message_type, &mut issues, &HostPath::root("type"));
    if message_type.as_ref().is_some_and(|t| t != wire_type) {
        issues.push(wirecontract::wire::Issue::at(
            "type",
            format!("messageType \"{}\" does not match the message (\"{wire_type}\")", message_type.unwrap_or_default()),
        ));
    }
    let run_id = <String as Convert>::from_host(&h.run_id, &mut issues, &HostPath::root("runId")).unwrap_or_default();
    let seq = <SafeUInt as Convert>::from_host(&h.seq, &mut issues, &HostPath::root("seq")).map(SafeUInt::get);
    let ts = <SafeUInt as Convert>::from_host(&h.ts, &mut issues, &HostPath::root("ts")).map(SafeUInt::get);
    let message = <gm::Message as Convert>::from_host(&h.message, &mut issues, &HostPath::root("payload"));
    let extra = extras_from_host(&h.extra_json, gm::ENVELOPE_KEYS, &mut issues, &HostPath::root(""));
    // Counters, runId and a Message.Unknown named like a known type: the contract's rules.
    let env = if let (Some(seq), Some(ts), Some(message), Some(extra)) = (seq, ts, message, extra) {
        let env = gm::Envelope { seq, ts, run_id: run_id.clone(), message, extra };
        if let Err(e) = gm::check_envelope(&env) {
            issues.extend(e.issues);
        }
        Some(env)
    } else {
        let unknown = gm::Message::Unknown { message_type: String::new(), payload: None };
        let counters = gm::Envelope { seq: seq.unwrap_or(0), ts: ts.unwrap_or(0), run_id, message: unknown, extra: gm::Extras::new() };
        if let Err(e) = gm::check_envelope(&counters) {
            issues.extend(e.issues);
        }
        None
    };
    match env {
        Some(env) if issues.is_empty() => Ok(env),
        _ => {
            let only_payload = issues.iter().all(|i| i.dotted_path().starts_with("payload"));
            let reason = if only_payload { format!("invalid payload for message type \"{wire_type}\"") } else { "invalid envelope fields".to_owned() };
            Err(build_error(reason, issues))
        }
    }
}

fn build_options(max_payload_bytes: Option<i64>) -> Result<gm::BuildOptions, ContractError> {
    Ok(gm::BuildOptions { max_payload_bytes: max_payload_bytes.map(|m| size_arg(m, "maxPayloadBytes")).transpose()? })
}

/// `seq` and `ts` through the contract's reader (`0 ≤ x ≤ 2^53 − 1`), every problem at once.
fn counters(seq: i64, ts: Option<i64>) -> Result<(u64, Option<u64>), ContractError> {
    let mut issues = Issues::new();
    let seq = <SafeUInt as Convert>::from_host(&seq, &mut issues, &HostPath::root("seq")).map(SafeUInt::get);
    let ts = ts.map(|t| <SafeUInt as Convert>::from_host(&t, &mut issues, &HostPath::root("ts")).map(SafeUInt::get));
    match (seq, ts) {
        (Some(seq), None) => Ok((seq, None)),
        (Some(seq), Some(Some(ts))) => Ok((seq, Some(ts))),
        _ => Err(build_error("envelope fields out of range", issues)),
    }
}

/// Builds an envelope from a typed message (spec §5.13): `gm` is 1, `ts` defaults to now
/// (epoch ms). Throws `ContractError.Build` naming path and rule when a counter exceeds
/// 2^53 − 1, a field breaks a rule the host type cannot express, or the message is a
/// `Message.Unknown` named like a known type whose payload is not valid for it. The one
/// builder: `Message.Unknown` of any other type is built with its payload opaque.
///
/// `maxPayloadBytes` (UTF-8 bytes of payload JSON; `defaultMaxPayloadBytes()` is the
/// reference's 512 KiB) shrinks a payload over it before building, as the reference's
/// `serializePayload` does (graphmind-shrink §3: field trim, then skeleton); the envelope holds
/// the shrunk payload, typed, with its `__graphmindTruncated` marker in `extraJson`. Throws
/// `ContractError.Build` when only the whole-payload marker would fit (§8; a valid event payload
/// always fits from 4096 bytes up). `null`/`nil` (the default): no budget.
#[uniffi::export(default(ts = None, max_payload_bytes = None))]
pub fn create_envelope(message: Message, seq: i64, run_id: HostString, ts: Option<i64>, max_payload_bytes: Option<i64>) -> Result<Envelope, ContractError> {
    guard(|| {
        let run_id = arg(run_id, "runId")?;
        let opts = build_options(max_payload_bytes)?;
        let mut issues = Issues::new();
        let seq = <SafeUInt as Convert>::from_host(&seq, &mut issues, &HostPath::root("seq")).map(SafeUInt::get);
        let ts = match ts {
            None => Some(None),
            Some(t) => <SafeUInt as Convert>::from_host(&t, &mut issues, &HostPath::root("ts")).map(|t| Some(t.get())),
        };
        let converted = <gm::Message as Convert>::from_host(&message, &mut issues, &HostPath::root("payload"));
        let (Some(converted), Some(seq), Some(ts), true) = (converted, seq, ts, issues.is_empty()) else {
            let only_payload = issues.iter().all(|i| i.dotted_path().starts_with("payload"));
            let reason =
                if only_payload { format!("invalid payload for message type \"{}\"", message.wire_type()) } else { "envelope fields out of range".to_owned() };
            return Err(build_error(reason, issues));
        };
        gm::create_envelope_with(converted, seq, &run_id, ts, &opts).map(|e| envelope_to_host(&e)).map_err(from_build_error)
    })
}

/// The one builder from a type string and a payload given as JSON text (spec §5.13): a known
/// type's payload is validated against it, any other type is built with the payload opaque.
/// `maxPayloadBytes` as in `createEnvelope`: a payload over it is shrunk for the type first
/// and the result is validated (graphmind-shrink §3).
#[uniffi::export(default(ts = None, max_payload_bytes = None))]
pub fn create_envelope_json(
    message_type: HostString,
    payload_json: JsonText,
    seq: i64,
    run_id: HostString,
    ts: Option<i64>,
    max_payload_bytes: Option<i64>,
) -> Result<Envelope, ContractError> {
    guard(|| {
        let (message_type, run_id) = (arg(message_type, "messageType")?, arg(run_id, "runId")?);
        let ((seq, ts), opts) = (counters(seq, ts)?, build_options(max_payload_bytes)?);
        let payload_json = crate::json_arg(&payload_json, "payloadJson")?;
        gm::create_envelope_json_with(&message_type, payload_json, seq, &run_id, ts, &opts).map(|e| envelope_to_host(&e)).map_err(from_build_error)
    })
}

/// **Deprecated** alias of the one builder (`createEnvelopeJson`, or `createEnvelope` with
/// `Message.Unknown`): any type with an opaque payload (`null`/`nil` omits the `payload`
/// key); a known type is validated and built typed, no longer refused.
#[uniffi::export(default(ts = None))]
pub fn create_unknown_envelope(
    message_type: HostString,
    payload_json: Option<JsonText>,
    seq: i64,
    run_id: HostString,
    ts: Option<i64>,
) -> Result<Envelope, ContractError> {
    guard(|| {
        let (message_type, run_id) = (arg(message_type, "messageType")?, arg(run_id, "runId")?);
        let (seq, ts) = counters(seq, ts)?;
        let mut issues = Issues::new();
        let payload = <Option<wirecontract_json::RawJson> as Convert>::from_host(&payload_json, &mut issues, &HostPath::root("payload"));
        let Some(payload) = payload else { return Err(build_error("payload is not valid JSON", issues)) };
        let message = gm::Message::Unknown { message_type, payload };
        gm::create_envelope(message, seq, &run_id, ts).map(|e| envelope_to_host(&e)).map_err(from_build_error)
    })
}

/// The frame text, as `JSON.stringify` would write it (spec §5.14): compact, spec key order,
/// unknown fields and opaque values byte for byte. Throws `ContractError.Build` only for host
/// values no frame can carry (counters above 2^53 − 1, invalid `JsonText`, a known key in
/// `extraJson`, a `messageType` that disagrees with `message`).
#[uniffi::export]
pub fn serialize_envelope(envelope: Envelope) -> Result<String, ContractError> {
    guard(|| envelope_from_host(&envelope).and_then(|e| gm::serialize_envelope(&e).map_err(from_build_error)))
}

/// The draft 2020-12 JSON Schema of the envelope, pretty-printed with a trailing newline (the
/// committed `generated/schema/graphmind.v1.schema.json`).
#[uniffi::export]
pub fn export_json_schema() -> String {
    gm::export_json_schema_string()
}

/// A host matcher for matching and equality (its `extraJson` takes no part); `ContractError.Build`
/// when its name holds a lone surrogate (`what.name`).
pub(crate) fn matcher_at(m: &BreakpointMatcher, what: &str) -> Result<gm::BreakpointMatcher, ContractError> {
    // A closed host enum converts infallibly (`From` in the generated glue).
    let (kind, point) = (m.kind.map(Into::into), m.point.map(Into::into));
    let name = opt_arg(m.name.clone(), &format!("{what}.name"))?;
    Ok(gm::BreakpointMatcher::new(kind, name, point))
}

/// [`matcher_at`] for the argument `matcher`.
pub(crate) fn matcher(m: &BreakpointMatcher) -> Result<gm::BreakpointMatcher, ContractError> {
    matcher_at(m, "matcher")
}

/// Every matcher of the argument `breakpoints`.
pub(crate) fn matchers(list: &[BreakpointMatcher]) -> Result<Vec<gm::BreakpointMatcher>, ContractError> {
    list.iter().enumerate().map(|(i, m)| matcher_at(m, &format!("breakpoints.{i}"))).collect()
}

/// Matcher equality for dedupe and `breakpoint.clear` (spec §5.12): same `kind`, `name` and
/// effective `point` (absent means `before`); `extraJson` does not take part.
#[uniffi::export]
pub fn matchers_equal(a: BreakpointMatcher, b: BreakpointMatcher) -> Result<bool, ContractError> {
    Ok(matcher_at(&a, "a")?.same_as(&matcher_at(&b, "b")?))
}

/// Whether `matcher` selects the gate `(kind, name, point)` (spec §5.12): effective point
/// equals `point`, then `kind` if present, then `name` if present.
#[uniffi::export]
pub fn matcher_matches(matcher: BreakpointMatcher, kind: NodeKind, name: HostString, point: PausePoint) -> Result<bool, ContractError> {
    let m = self::matcher(&matcher)?;
    Ok(m.matches(kind.into(), &arg(name, "name")?, point.into()))
}

/// Whether a gate pauses: step mode pauses at every `before` and `error` point; otherwise when
/// any matcher in `breakpoints` matches (spec §5.12).
#[uniffi::export]
pub fn should_pause(mode: RunMode, breakpoints: Vec<BreakpointMatcher>, kind: NodeKind, name: HostString, point: PausePoint) -> Result<bool, ContractError> {
    Ok(pause_reason(mode, breakpoints, kind, name, point)?.is_some())
}

/// Why a gate pauses (spec §5.12): `BREAKPOINT` when a matcher matches (checked first),
/// `STEP` in step mode at a `before` or `error` point, else `null`/`nil`. `shouldPause` is
/// `pauseReason(…) != null`.
#[uniffi::export]
pub fn pause_reason(
    mode: RunMode,
    breakpoints: Vec<BreakpointMatcher>,
    kind: NodeKind,
    name: HostString,
    point: PausePoint,
) -> Result<Option<PauseReason>, ContractError> {
    let mode = mode.into();
    let list = matchers(&breakpoints)?;
    let name = arg(name, "name")?;
    Ok(gm::pause_reason(mode, &list, kind.into(), &name, point.into()).map(|r| r.to_host()))
}

/// What a viewer makes of an app's `hello` (`negotiateHello`).
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum HelloNegotiation {
    /// The app speaks this viewer's protocol.
    Accepted {
        /// The protocol both speak (1).
        protocol: i64,
        /// The app's capabilities the viewer also implements, in the app's order.
        capabilities: Vec<String>,
        /// The hello's `resumeToken` when it may be reused as `sessionToken`, else `null`/`nil`.
        resume_token: Option<String>,
    },
    /// The app speaks another protocol version: close (1002) instead of answering.
    Refused {
        /// Names the protocol the app speaks.
        reason: String,
    },
}

fn hello_from_host(hello: &Hello) -> Result<gm::Hello, ContractError> {
    let mut issues = Issues::new();
    match <gm::Hello as Convert>::from_host(hello, &mut issues, &HostPath::root("payload")) {
        Some(h) if issues.is_empty() => Ok(h),
        _ => Err(build_error("invalid payload for message type \"hello\"", issues)),
    }
}

/// Negotiates an app's `hello` for a viewer (spec §1 Handshake): `Refused` unless
/// `versions.protocol` is 1, else `Accepted` with the capabilities both implement
/// (`viewerCapabilities`, e.g. `knownCapabilities()`). Throws `ContractError.Build` only for a
/// host value no frame can carry.
#[uniffi::export]
pub fn negotiate_hello(hello: Hello, viewer_capabilities: Vec<HostString>) -> Result<HelloNegotiation, ContractError> {
    guard(|| {
        let h = hello_from_host(&hello)?;
        let viewer_capabilities = host_strings(viewer_capabilities, "viewerCapabilities")?;
        Ok(match gm::negotiate_hello(&h, &viewer_capabilities) {
            gm::HelloNegotiation::Accepted(a) => {
                HelloNegotiation::Accepted { protocol: a.protocol, capabilities: a.capabilities, resume_token: a.resume_token }
            }
            gm::HelloNegotiation::Refused(reason) => HelloNegotiation::Refused { reason },
        })
    })
}

/// The `hello.ack` payload arming an app with the viewer's desired state (graphmind-session
/// §5.1): versions {protocol 1, viewer}, the app's capabilities echoed, the breakpoints (equal
/// ones kept once), the mode, the session token and the viewer's own hub capabilities. Wrap it
/// with `createEnvelope(Message.HelloAck(ack), seq, wildcardRunId())`.
#[uniffi::export(default(session_token = None, hub_capabilities = None))]
pub fn hello_ack(
    hello: Hello,
    viewer: HostString,
    breakpoints: Vec<BreakpointMatcher>,
    mode: RunMode,
    session_token: Option<HostString>,
    hub_capabilities: Option<Vec<HostString>>,
) -> Result<HelloAck, ContractError> {
    guard(|| {
        let h = hello_from_host(&hello)?;
        let viewer = arg(viewer, "viewer")?;
        let session_token = opt_arg(session_token, "sessionToken")?;
        let hub_capabilities = hub_capabilities.map(|v| host_strings(v, "hubCapabilities")).transpose()?;
        let mode = mode.into();
        let list = matchers(&breakpoints)?;
        Ok(gm::hello_ack(&h, &viewer, &list, mode, session_token.as_deref(), hub_capabilities.as_deref()).to_host())
    })
}

#[uniffi::export]
impl BreakpointMatcher {
    /// The point used for matching and equality: absent means `before` (spec §5.12).
    pub fn effective_point(&self) -> PausePoint {
        self.point.unwrap_or(PausePoint::Before)
    }

    /// Matcher equality (spec §5.12), see `matchersEqual`.
    pub fn same_as(&self, other: &BreakpointMatcher) -> Result<bool, ContractError> {
        Ok(matcher_at(self, "this")?.same_as(&matcher_at(other, "other")?))
    }

    /// Whether this matcher selects the gate (spec §5.12), see `matcherMatches`.
    pub fn matches(&self, kind: NodeKind, name: HostString, point: PausePoint) -> Result<bool, ContractError> {
        let m = matcher_at(self, "this")?;
        Ok(m.matches(kind.into(), &arg(name, "name")?, point.into()))
    }
}

/// A list argument of host strings, or `ContractError.Build` naming `name.i`.
pub(crate) fn host_strings(list: Vec<HostString>, name: &str) -> Result<Vec<String>, ContractError> {
    list.into_iter().enumerate().map(|(i, s)| arg(s, &format!("{name}.{i}"))).collect()
}

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

/// The protocol version this contract implements (`gm`): 1.
#[uniffi::export]
pub fn protocol_version() -> i64 {
    gm::PROTOCOL_VERSION
}

/// The `runId` of frames that belong to no run: `"*"`.
#[uniffi::export]
pub fn wildcard_run_id() -> String {
    gm::WILDCARD_RUN_ID.to_owned()
}

/// Default frame size cap in bytes (16 MiB).
#[uniffi::export]
pub fn default_max_frame_bytes() -> i64 {
    host_int(gm::DEFAULT_MAX_FRAME_BYTES as u64)
}

/// Default nesting cap (spec §5.8).
#[uniffi::export]
pub fn default_max_depth() -> i64 {
    host_int(gm::DEFAULT_MAX_DEPTH as u64)
}

/// The known message types, in spec order.
#[uniffi::export]
pub fn message_types() -> Vec<String> {
    strings(gm::MESSAGE_TYPES)
}

/// The 10 event types (app → viewer).
#[uniffi::export]
pub fn event_types() -> Vec<String> {
    strings(gm::EVENT_TYPES)
}

/// The 4 control types (viewer → app).
#[uniffi::export]
pub fn control_types() -> Vec<String> {
    strings(gm::CONTROL_TYPES)
}

/// The 2 handshake types.
#[uniffi::export]
pub fn handshake_types() -> Vec<String> {
    strings(gm::HANDSHAKE_TYPES)
}

/// Known capability strings (capabilities are open: unknown ones are valid).
#[uniffi::export]
pub fn known_capabilities() -> Vec<String> {
    strings(gm::KNOWN_CAPABILITIES)
}

/// The schema's `$id`.
#[uniffi::export]
pub fn schema_id() -> String {
    gm::SCHEMA_ID.to_owned()
}

/// Every contract object type name (each is a record here), payloads last.
#[uniffi::export]
pub fn object_types() -> Vec<String> {
    gm::PROTOCOL.objects().iter().map(|o| o.name.to_owned()).collect()
}

/// The payload record name of a message type (`"node.started"` → `"NodeStarted"`), `null`/`nil`
/// for an unknown type.
#[uniffi::export]
pub fn payload_type_name(message_type: HostString) -> Option<String> {
    // A type string with a lone surrogate names no known type.
    message_type.to_str().ok().and_then(gm::payload_type_name).map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames() -> Vec<(String, String)> {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        let shared = std::env::var("WIRECONTRACT_SHARED").unwrap_or_else(|_| format!("{root}/../shared"));
        let mut files = vec![format!("{shared}/vectors/graphmind/conformance.jsonl"), format!("{root}/vectors/graphmind/extra.jsonl")];
        let mut rc: Vec<String> = std::fs::read_dir(format!("{shared}/real-client"))
            .unwrap_or_else(|e| panic!("{shared}/real-client: {e} (set WIRECONTRACT_SHARED)"))
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
            .map(|p| p.display().to_string())
            .collect();
        rc.sort();
        files.extend(rc);
        let mut out = Vec::new();
        for f in files {
            for line in std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{f}: {e}")).lines().filter(|l| !l.trim().is_empty()) {
                let JsonValue::ObjectValue { members } = crate::decode_json(JsonText::from(line)).unwrap() else { panic!() };
                let get = |k: &str| members.iter().find(|m| m.name.to_str() == Ok(k)).map(|m| m.value.clone());
                let Some(JsonValue::TextValue { value: frame }) = get("frame") else { panic!() };
                let Some(JsonValue::TextValue { value: expect }) = get("expect") else { panic!() };
                out.push((frame.into_string().unwrap(), expect.into_string().unwrap()));
            }
        }
        assert!(out.len() > 500);
        out
    }

    #[test]
    fn every_vector_round_trips_through_host_types_byte_for_byte() {
        for (frame, expect) in frames() {
            let outcome = gm::parse(&frame, &gm::ParseOptions::default());
            assert_eq!(outcome.kind(), expect, "{frame:.200}");
            let Some(env) = outcome.envelope() else { continue };
            let host = envelope_to_host(env);
            let back = envelope_from_host(&host).unwrap_or_else(|e| panic!("{e:?} for {frame:.200}"));
            assert_eq!(&back, env);
            assert_eq!(serialize_envelope(host).unwrap(), gm::serialize_envelope(env).unwrap());
        }
    }

    #[test]
    fn counters_above_max_safe_integer_are_build_errors() {
        let msg = Message::ModeSet { payload: crate::ModeSet { mode: RunMode::Run, extra_json: JsonText::from("{}") } };
        let err = create_envelope(msg.clone(), 1 << 53, "r".into(), Some(0), None).unwrap_err();
        let ContractError::Build { issues, .. } = err else { panic!() };
        assert_eq!(issues[0].dotted_text(), "seq");
        let mut env = create_envelope(msg, 1, "r".into(), Some(0), None).unwrap();
        env.ts = -1;
        assert!(matches!(serialize_envelope(env), Err(ContractError::Build { .. })));
    }

    #[test]
    fn parse_envelope_of_a_tree_with_a_lone_surrogate_is_invalid_naming_the_path() {
        let JsonValue::ObjectValue { mut members } = crate::decode_json(JsonText::from(
            r#"{"gm":1,"seq":1,"ts":1,"runId":"r","type":"node.started","payload":{"nodeId":"n","kind":"tool","name":"x"}}"#,
        ))
        .unwrap() else {
            panic!()
        };
        let JsonValue::ObjectValue { members: payload } = &mut members[5].value else { panic!() };
        payload[2].value = JsonValue::TextValue { value: HostString(vec![b'a', 0xED, 0xA0, 0x80]) };
        let ParseResult::Invalid { reason, issues, .. } = parse_envelope(JsonValue::ObjectValue { members }) else { panic!() };
        assert_eq!(reason, "frame is not valid JSON: payload.name: lone surrogate at UTF-16 index 1: not representable in UTF-8");
        assert_eq!(issues.unwrap()[0].dotted_text(), "payload.name");
    }

    /// The generated `From` (host → contract) is the inverse of `to_host` and keeps the wire
    /// string, for every value of the enums the API takes as arguments.
    #[test]
    fn host_enums_convert_infallibly_to_the_same_wire_value() {
        fn check<T: Convert + Copy + PartialEq + std::fmt::Debug + std::fmt::Display>(all: &[T], wire: fn(&T::Host) -> String)
        where
            T::Host: Into<T>,
        {
            for v in all {
                let host = v.to_host();
                assert_eq!(wire(&host), v.to_string());
                assert_eq!(host.into(), *v);
            }
        }
        check(gm::NodeKind::ALL, NodeKind::wire_value);
        check(gm::PausePoint::ALL, PausePoint::wire_value);
        check(gm::RunMode::ALL, RunMode::wire_value);
        check(gm::ResumeAction::ALL, crate::ResumeAction::wire_value);
        let m =
            matcher(&BreakpointMatcher { kind: Some(NodeKind::Tool), name: None, point: Some(PausePoint::Error), extra_json: JsonText::from("{}") }).unwrap();
        assert!(m.matches(gm::NodeKind::Tool, "x", gm::PausePoint::Error));
        assert!(!m.matches(gm::NodeKind::Tool, "x", gm::PausePoint::Before));
    }
}
