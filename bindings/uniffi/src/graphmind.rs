//! The GraphMind v1 API for Kotlin and Swift: parse (never throws), build, serialize, schema,
//! breakpoint matchers, constants. Spec graphmind-v1 §2 and §5; parity with the Python
//! binding's `wirecontract.graphmind`.

// uniffi exports receive owned values from the host.
#![allow(clippy::needless_pass_by_value)]

use std::panic::{catch_unwind, AssertUnwindSafe};

use wirecontract::graphmind as gm;

use crate::convert::{extras_from_host, extras_to_host, Convert, Issues};
use crate::{guard, panic_text, BreakpointMatcher, ContractError, Issue, JsonText, JsonValue, Message, NodeKind, PausePoint, RunMode};

/// A GraphMind envelope `{gm, seq, ts, runId, type, payload}`. `gm` is always 1 and not
/// stored. Build one with `createEnvelope`; `copy()`/`with` changes are checked again by
/// `serializeEnvelope`.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct Envelope {
    /// Sequence number, 0 ≤ seq ≤ 2^53 − 1 (checked when sent).
    pub seq: u64,
    /// Timestamp in epoch milliseconds, 0 ≤ ts ≤ 2^53 − 1 (checked when sent).
    pub ts: u64,
    /// Run id (`"*"` for frames outside any run); must not contain U+0000.
    pub run_id: String,
    /// The wire type string (`"node.started"`); always agrees with `message`.
    pub message_type: String,
    /// The type and its payload.
    pub message: Message,
    /// Unknown envelope-level members as a JSON object text (`{}` when none).
    #[uniffi(default = "{}")]
    pub extra_json: JsonText,
}

/// The verdict on one frame (spec §5.2). Parsing never throws: every frame gets one of these.
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
    },
}

/// Limits applied while parsing; `null` fields take the spec defaults (16 MiB, depth 100,000).
#[derive(Debug, Clone, Default, PartialEq, Eq, uniffi::Record)]
pub struct ParseOptions {
    /// Frames longer than this many bytes are `Invalid` without being read.
    #[uniffi(default)]
    pub max_frame_bytes: Option<u64>,
    /// Nesting deeper than this is `Invalid`.
    #[uniffi(default)]
    pub max_depth: Option<u64>,
}

fn options(o: Option<ParseOptions>) -> gm::ParseOptions {
    let d = gm::ParseOptions::default();
    let o = o.unwrap_or_default();
    let size = |v: Option<u64>, default: usize| v.map_or(default, |x| usize::try_from(x).unwrap_or(usize::MAX));
    gm::ParseOptions { max_frame_bytes: size(o.max_frame_bytes, d.max_frame_bytes), max_depth: size(o.max_depth, d.max_depth) }
}

pub(crate) fn envelope_to_host(e: &gm::Envelope) -> Envelope {
    Envelope {
        seq: e.seq,
        ts: e.ts,
        run_id: e.run_id.clone(),
        message_type: e.message_type().to_owned(),
        message: Convert::to_host(&e.message),
        extra_json: extras_to_host(&e.extra),
    }
}

fn outcome_to_host(o: gm::ParseOutcome) -> ParseResult {
    match o {
        gm::ParseOutcome::Ok(e) => ParseResult::Ok { envelope: envelope_to_host(&e) },
        gm::ParseOutcome::UnknownType(e) => ParseResult::UnknownType { envelope: envelope_to_host(&e) },
        gm::ParseOutcome::VersionMismatch { received, supported } => ParseResult::VersionMismatch { received, supported },
        gm::ParseOutcome::Invalid { reason, issues } => ParseResult::Invalid { reason, issues: issues.map(|v| v.into_iter().map(Issue::from).collect()) },
    }
}

/// Runs a parse; a panic (a bug) becomes an `Invalid` verdict instead of crossing FFI.
fn parse_guarded(f: impl FnOnce() -> gm::ParseOutcome) -> ParseResult {
    catch_unwind(AssertUnwindSafe(|| outcome_to_host(f()))).unwrap_or_else(|p| ParseResult::Invalid { reason: panic_text(&*p), issues: None })
}

/// Parses one text frame (spec §2 decision order). Never throws.
#[uniffi::export(default(options = None))]
pub fn parse_envelope_json(frame: String, options: Option<ParseOptions>) -> ParseResult {
    let opts = self::options(options);
    parse_guarded(|| gm::parse_envelope_json_with(&frame, &opts))
}

/// Parses one frame given as UTF-8 bytes; invalid UTF-8 is `Invalid` naming the byte offset.
#[uniffi::export(default(options = None))]
pub fn parse_envelope_json_bytes(frame: Vec<u8>, options: Option<ParseOptions>) -> ParseResult {
    let opts = self::options(options);
    parse_guarded(|| gm::parse_envelope_json_bytes_with(&frame, &opts))
}

/// Parses many text frames in one call (one FFI crossing instead of one per frame); the
/// results are in the same order.
#[uniffi::export(default(options = None))]
pub fn parse_envelopes_json(frames: Vec<String>, options: Option<ParseOptions>) -> Vec<ParseResult> {
    let opts = self::options(options);
    frames.iter().map(|f| parse_guarded(|| gm::parse_envelope_json_with(f, &opts))).collect()
}

/// [`parse_envelopes_json`] for frames given as UTF-8 bytes.
#[uniffi::export(default(options = None))]
pub fn parse_envelopes_json_bytes(frames: Vec<Vec<u8>>, options: Option<ParseOptions>) -> Vec<ParseResult> {
    let opts = self::options(options);
    frames.iter().map(|f| parse_guarded(|| gm::parse_envelope_json_bytes_with(f, &opts))).collect()
}

/// Parses an already decoded frame (spec §2: the same algorithm from step 2 on).
#[uniffi::export]
pub fn parse_envelope(value: JsonValue) -> ParseResult {
    match crate::encode_json(value) {
        Ok(text) => parse_envelope_json(text.0, Some(ParseOptions { max_frame_bytes: Some(u64::MAX), max_depth: None })),
        Err(e) => ParseResult::Invalid { reason: format!("value is not JSON-representable: {e}"), issues: Some(Vec::new()) },
    }
}

/// Wire keys of the envelope itself (never in `extraJson`).
const ENVELOPE_KEYS: &[&str] = &["gm", "seq", "ts", "runId", "type", "payload"];

pub(crate) fn build_error(reason: impl Into<String>, issues: Issues) -> ContractError {
    ContractError::Build { reason: reason.into(), issues: issues.into_iter().map(Issue::from).collect() }
}

pub(crate) fn from_build_error(e: gm::BuildError) -> ContractError {
    build_error(e.reason, e.issues)
}

fn unknown_type_refused(message_type: &str) -> ContractError {
    build_error(
        format!("unknown message type \"{message_type}\" (use createUnknownEnvelope to send one on purpose)"),
        vec![wirecontract::core::Issue { path: "type".into(), message: format!("expected one of the {} known message types", gm::MESSAGE_TYPES.len()) }],
    )
}

/// Host envelope → contract envelope, checking every rule the host types cannot express.
pub(crate) fn envelope_from_host(h: &Envelope) -> Result<gm::Envelope, ContractError> {
    let mut issues = Issues::new();
    let seq = <u64 as Convert>::from_host(&h.seq, &mut issues, "seq");
    let ts = <u64 as Convert>::from_host(&h.ts, &mut issues, "ts");
    if h.run_id.contains('\0') {
        issues.push(wirecontract::core::Issue { path: "runId".into(), message: "runId must not contain U+0000".into() });
    }
    let wire_type = h.message.wire_type();
    if h.message_type != wire_type {
        issues.push(wirecontract::core::Issue {
            path: "type".into(),
            message: format!("messageType \"{}\" does not match the message (\"{wire_type}\")", h.message_type),
        });
    }
    if let Message::Unknown { message_type, .. } = &h.message {
        if gm::payload_type_name(message_type).is_some() {
            issues
                .push(wirecontract::core::Issue { path: "type".into(), message: format!("\"{message_type}\" is a known type: use its typed Message variant") });
        }
    }
    let message = <gm::Message as Convert>::from_host(&h.message, &mut issues, "payload");
    let extra = extras_from_host(&h.extra_json, ENVELOPE_KEYS, &mut issues, "");
    match (seq, ts, message, extra) {
        (Some(seq), Some(ts), Some(message), Some(extra)) if issues.is_empty() => Ok(gm::Envelope { seq, ts, run_id: h.run_id.clone(), message, extra }),
        _ => {
            let only_payload = issues.iter().all(|i| i.path.starts_with("payload"));
            let reason = if only_payload { format!("invalid payload for message type \"{wire_type}\"") } else { "invalid envelope fields".to_owned() };
            Err(build_error(reason, issues))
        }
    }
}

fn build_options(max_payload_bytes: Option<u64>) -> gm::BuildOptions {
    gm::BuildOptions { max_payload_bytes: max_payload_bytes.map(|m| usize::try_from(m).unwrap_or(usize::MAX)) }
}

/// Builds an envelope from a typed message (spec §5.13): `gm` is 1, `ts` defaults to now
/// (epoch ms). Throws `ContractError.Build` naming path and rule when a counter exceeds
/// 2^53 − 1, a field breaks a rule the host type cannot express, or the message is
/// `Message.Unknown` (use `createUnknownEnvelope` for that on purpose).
///
/// `maxPayloadBytes` (UTF-8 bytes of payload JSON; `defaultMaxPayloadBytes()` is the
/// reference's 512 KiB) shrinks a payload over it before building, as the reference's
/// `serializePayload` does (graphmind-shrink §3: field trim, then skeleton); the envelope holds
/// the shrunk payload, typed, with its `__graphmindTruncated` marker in `extraJson`. Throws
/// `ContractError.Build` when only the whole-payload marker would fit (§8; a valid event payload
/// always fits from 4096 bytes up). `null`/`nil` (the default): no budget.
#[uniffi::export(default(ts = None, max_payload_bytes = None))]
pub fn create_envelope(message: Message, seq: u64, run_id: String, ts: Option<u64>, max_payload_bytes: Option<u64>) -> Result<Envelope, ContractError> {
    guard(|| {
        if let Message::Unknown { message_type, .. } = &message {
            return Err(unknown_type_refused(message_type));
        }
        let mut issues = Issues::new();
        let seq_ok = <u64 as Convert>::from_host(&seq, &mut issues, "seq");
        if let Some(ts) = ts {
            <u64 as Convert>::from_host(&ts, &mut issues, "ts");
        }
        let converted = <gm::Message as Convert>::from_host(&message, &mut issues, "payload");
        let (Some(converted), Some(_), true) = (converted, seq_ok, issues.is_empty()) else {
            let only_payload = issues.iter().all(|i| i.path.starts_with("payload"));
            let reason =
                if only_payload { format!("invalid payload for message type \"{}\"", message.wire_type()) } else { "envelope fields out of range".to_owned() };
            return Err(build_error(reason, issues));
        };
        gm::create_envelope_with(converted, seq, &run_id, ts, &build_options(max_payload_bytes)).map(|e| envelope_to_host(&e)).map_err(from_build_error)
    })
}

/// Builds an envelope from a type string and a payload given as JSON text, validating the
/// payload against the type (spec §5.13); the counterpart of Python's dict form.
/// `maxPayloadBytes` as in `createEnvelope`: a payload over it is shrunk for the type first
/// and the result is validated (graphmind-shrink §3).
#[uniffi::export(default(ts = None, max_payload_bytes = None))]
pub fn create_envelope_json(
    message_type: String,
    payload_json: JsonText,
    seq: u64,
    run_id: String,
    ts: Option<u64>,
    max_payload_bytes: Option<u64>,
) -> Result<Envelope, ContractError> {
    guard(|| {
        gm::create_envelope_json_with(&message_type, payload_json.as_str(), seq, &run_id, ts, &build_options(max_payload_bytes))
            .map(|e| envelope_to_host(&e))
            .map_err(from_build_error)
    })
}

/// Builds an envelope of a type outside the known ones with an opaque payload (`null`/`nil`
/// omits the `payload` key): the explicit raw constructor of spec §5.13.
#[uniffi::export(default(ts = None))]
pub fn create_unknown_envelope(
    message_type: String,
    payload_json: Option<JsonText>,
    seq: u64,
    run_id: String,
    ts: Option<u64>,
) -> Result<Envelope, ContractError> {
    guard(|| {
        let mut issues = Issues::new();
        let payload = <Option<wirecontract::core::RawJson> as Convert>::from_host(&payload_json, &mut issues, "payload");
        let Some(payload) = payload else { return Err(build_error("payload is not valid JSON", issues)) };
        gm::create_unknown_envelope(&message_type, payload, seq, &run_id, ts).map(|e| envelope_to_host(&e)).map_err(from_build_error)
    })
}

/// The frame text, as `JSON.stringify` would write it (spec §5.14): compact, spec key order,
/// unknown fields and opaque values byte for byte. Throws `ContractError.Build` only for host
/// values no frame can carry (counters above 2^53 − 1, invalid `JsonText`, a known key in
/// `extraJson`, a `messageType` that disagrees with `message`).
#[uniffi::export]
pub fn serialize_envelope(envelope: Envelope) -> Result<String, ContractError> {
    guard(|| envelope_from_host(&envelope).map(|e| gm::serialize_envelope(&e)))
}

/// The draft 2020-12 JSON Schema of the envelope, pretty-printed with a trailing newline (the
/// committed `generated/schema/graphmind.v1.schema.json`).
#[uniffi::export]
pub fn export_json_schema() -> String {
    gm::export_json_schema_string()
}

pub(crate) fn matcher(m: &BreakpointMatcher) -> gm::BreakpointMatcher {
    let kind = m.kind.map(|k| <gm::NodeKind as Convert>::from_host(&k, &mut Issues::new(), "").unwrap_or(gm::NodeKind::Custom));
    let point = m.point.map(|p| <gm::PausePoint as Convert>::from_host(&p, &mut Issues::new(), "").unwrap_or(gm::PausePoint::Before));
    gm::BreakpointMatcher::new(kind, m.name.clone(), point)
}

pub(crate) fn node_kind(k: NodeKind) -> gm::NodeKind {
    <gm::NodeKind as Convert>::from_host(&k, &mut Issues::new(), "").unwrap_or(gm::NodeKind::Custom)
}

pub(crate) fn pause_point(p: PausePoint) -> gm::PausePoint {
    <gm::PausePoint as Convert>::from_host(&p, &mut Issues::new(), "").unwrap_or(gm::PausePoint::Before)
}

/// Matcher equality for dedupe and `breakpoint.clear` (spec §5.12): same `kind`, `name` and
/// effective `point` (absent means `before`); `extraJson` does not take part.
#[uniffi::export]
pub fn matchers_equal(a: BreakpointMatcher, b: BreakpointMatcher) -> bool {
    matcher(&a).same_as(&matcher(&b))
}

/// Whether `matcher` selects the gate `(kind, name, point)` (spec §5.12): effective point
/// equals `point`, then `kind` if present, then `name` if present.
#[uniffi::export]
pub fn matcher_matches(matcher: BreakpointMatcher, kind: NodeKind, name: String, point: PausePoint) -> bool {
    self::matcher(&matcher).matches(node_kind(kind), &name, pause_point(point))
}

/// Whether a gate pauses: step mode pauses at every `before` and `error` point; otherwise when
/// any matcher in `breakpoints` matches (spec §5.12).
#[uniffi::export]
pub fn should_pause(mode: RunMode, breakpoints: Vec<BreakpointMatcher>, kind: NodeKind, name: String, point: PausePoint) -> bool {
    let mode = <gm::RunMode as Convert>::from_host(&mode, &mut Issues::new(), "").unwrap_or(gm::RunMode::Run);
    let list: Vec<gm::BreakpointMatcher> = breakpoints.iter().map(matcher).collect();
    gm::should_pause(mode, &list, node_kind(kind), &name, pause_point(point))
}

#[uniffi::export]
impl BreakpointMatcher {
    /// The point used for matching and equality: absent means `before` (spec §5.12).
    pub fn effective_point(&self) -> PausePoint {
        self.point.unwrap_or(PausePoint::Before)
    }

    /// Matcher equality (spec §5.12), see `matchersEqual`.
    pub fn same_as(&self, other: &BreakpointMatcher) -> bool {
        matcher(self).same_as(&matcher(other))
    }

    /// Whether this matcher selects the gate (spec §5.12), see `matcherMatches`.
    pub fn matches(&self, kind: NodeKind, name: &str, point: PausePoint) -> bool {
        matcher(self).matches(node_kind(kind), name, pause_point(point))
    }
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
pub fn default_max_frame_bytes() -> u64 {
    gm::DEFAULT_MAX_FRAME_BYTES as u64
}

/// Default nesting cap (spec §5.8).
#[uniffi::export]
pub fn default_max_depth() -> u64 {
    gm::DEFAULT_MAX_DEPTH as u64
}

/// The 16 known message types, in spec order.
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
pub fn payload_type_name(message_type: String) -> Option<String> {
    gm::payload_type_name(&message_type).map(str::to_owned)
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
                let get = |k: &str| members.iter().find(|m| m.name.as_str() == k).map(|m| m.value.clone());
                let Some(JsonValue::TextValue { value: frame }) = get("frame") else { panic!() };
                let Some(JsonValue::TextValue { value: expect }) = get("expect") else { panic!() };
                out.push((frame.0, expect.0));
            }
        }
        assert!(out.len() > 500);
        out
    }

    #[test]
    fn every_vector_round_trips_through_host_types_byte_for_byte() {
        for (frame, expect) in frames() {
            let outcome = gm::parse_envelope_json(&frame);
            assert_eq!(outcome.kind(), expect, "{frame:.200}");
            let Some(env) = outcome.envelope() else { continue };
            let host = envelope_to_host(env);
            let back = envelope_from_host(&host).unwrap_or_else(|e| panic!("{e:?} for {frame:.200}"));
            assert_eq!(&back, env);
            assert_eq!(serialize_envelope(host).unwrap(), gm::serialize_envelope(env));
        }
    }

    #[test]
    fn counters_above_max_safe_integer_are_build_errors() {
        let msg = Message::ModeSet { payload: crate::ModeSet { mode: RunMode::Run, extra_json: JsonText::from("{}") } };
        let err = create_envelope(msg.clone(), 1 << 53, "r".into(), Some(0), None).unwrap_err();
        let ContractError::Build { issues, .. } = err else { panic!() };
        assert_eq!(issues[0].path, "seq");
        let mut env = create_envelope(msg, 1, "r".into(), Some(0), None).unwrap();
        env.ts = u64::MAX;
        assert!(matches!(serialize_envelope(env), Err(ContractError::Build { .. })));
    }
}
