//! The native core of `@wirecontract/node`: the contract's parsers behind Node-API.
//!
//! The addon validates; V8 builds the objects. Every entry point takes the frame text and
//! returns a short verdict string, and the JavaScript side (`index.js`) materializes an
//! accepted frame with `JSON.parse(text)`, which is exactly the value the reference API
//! returns (last duplicate wins, `__proto__` an own key, numbers as JS doubles). Crossing
//! the boundary with one string each way is measurably faster than building JS objects from
//! Rust member by member.
//!
//! Host safety: every entry point runs under [`guard`], so a panic in contract code becomes a
//! JavaScript `Error`, never an abort of the Node process.
// `#[napi]` expands to `extern "C"` registration functions and raw `napi_*` calls: the
// generated glue is unsafe by nature (the contract crate itself stays `unsafe`-free).
#![allow(unsafe_code)]
// Node-API hands arguments over as owned values (`String`, `Vec<String>`): taking them by
// value is the binding's calling convention, not a choice.
#![allow(clippy::needless_pass_by_value)]

use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};

use napi_derive::napi;
use serde_json::{json, Value};
use wirecontract::core::json::write_string;
use wirecontract::core::{from_json, PathSegment};
use wirecontract::registry::{self, Direction, MessageGroup, ObjectDesc, Ty};
use wirecontract::{graphmind as gm, graphorin as go};

/// Runs contract code, turning a panic into a JavaScript `Error`.
fn guard<T>(f: impl FnOnce() -> napi::Result<T>) -> napi::Result<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|p| {
        let msg = p.downcast_ref::<&str>().map(|s| (*s).to_owned()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_else(|| "unknown panic".into());
        Err(napi::Error::from_reason(format!("internal error in wirecontract (please report): {msg}")))
    })
}

fn invalid_arg(msg: impl Into<String>) -> napi::Error {
    napi::Error::new(napi::Status::InvalidArg, msg.into())
}

/// Appends `s` as a JSON string (`JSON.stringify` spelling).
fn push_str(out: &mut Vec<u8>, s: &str) {
    write_string(out, s);
}

fn into_string(out: Vec<u8>) -> String {
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

// ---------------------------------------------------------------------------------------------
// GraphMind
// ---------------------------------------------------------------------------------------------

/// The verdict of `parseEnvelopeJson` on one frame: `"ok"` or `"unknown-type"` (the caller
/// then builds the envelope with `JSON.parse` on the same text), otherwise the whole result
/// object as JSON text (`{"kind":"invalid","reason":…,"issues":[…]}` or
/// `{"kind":"version-mismatch","received":…,"supported":1}`).
#[napi(js_name = "gmVerdict")]
pub fn gm_verdict(text: String) -> napi::Result<String> {
    guard(|| Ok(verdict(&text)))
}

fn verdict(text: &str) -> String {
    match gm::parse_envelope_json(text) {
        gm::ParseOutcome::Ok(_) => "ok".to_owned(),
        gm::ParseOutcome::UnknownType(_) => "unknown-type".to_owned(),
        gm::ParseOutcome::VersionMismatch { received, supported } => {
            format!("{{\"kind\":\"version-mismatch\",\"received\":{received},\"supported\":{supported}}}")
        }
        gm::ParseOutcome::Invalid { reason, issues } => {
            let mut out = Vec::with_capacity(128);
            out.extend_from_slice(b"{\"kind\":\"invalid\",\"reason\":");
            push_str(&mut out, &reason);
            if let Some(issues) = issues {
                out.extend_from_slice(b",\"issues\":[");
                for (i, issue) in issues.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    out.extend_from_slice(b"{\"path\":");
                    push_str(&mut out, &issue.path);
                    out.extend_from_slice(b",\"message\":");
                    push_str(&mut out, &issue.message);
                    out.push(b'}');
                }
                out.push(b']');
            }
            out.push(b'}');
            into_string(out)
        }
    }
}

/// What `createEnvelope({…, maxPayloadBytes})` does with a payload: the contract's
/// [`gm::budget_payload_json`] (graphmind-shrink §3).
#[napi(object)]
pub struct GmBudget {
    /// 1: the payload fits, keep it; 2–4: build from `json` instead; 0: refused, see `error`.
    pub tier: u32,
    /// The shrunk payload text (tiers 2–4), `JSON.stringify`-exact.
    pub json: Option<String>,
    /// For tier 0: `{"reason":…,"issues":[{"path","message"}]}` as JSON text.
    pub error: Option<String>,
}

/// Shrinks the payload text of a frame of `message_type` to `max_payload_bytes` UTF-8 bytes
/// of payload JSON (graphmind-shrink §3), refusing a known type's payload that only the
/// tier-4 marker would fit. `max_payload_bytes` is checked by the caller (a safe integer ≥ 0).
#[napi(js_name = "gmBudgetPayload")]
pub fn gm_budget_payload(message_type: String, payload_json: String, max_payload_bytes: f64) -> napi::Result<GmBudget> {
    guard(|| {
        let max = if max_payload_bytes >= 0.0 { max_payload_bytes as usize } else { return Err(invalid_arg("maxPayloadBytes must be >= 0")) };
        Ok(match gm::budget_payload_json(&message_type, &payload_json, max) {
            Ok(None) => GmBudget { tier: 1, json: None, error: None },
            Ok(Some(s)) => GmBudget { tier: u32::from(s.tier), json: Some(s.json), error: None },
            Err(e) => {
                let mut out = Vec::with_capacity(128);
                out.extend_from_slice(b"{\"reason\":");
                push_str(&mut out, &e.reason);
                out.extend_from_slice(b",\"issues\":[");
                for (i, issue) in e.issues.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    out.extend_from_slice(b"{\"path\":");
                    push_str(&mut out, &issue.path);
                    out.extend_from_slice(b",\"message\":");
                    push_str(&mut out, &issue.message);
                    out.push(b'}');
                }
                out.extend_from_slice(b"]}");
                GmBudget { tier: 0, json: None, error: Some(into_string(out)) }
            }
        })
    })
}

/// The GraphMind JSON Schema (draft 2020-12), pretty-printed with a trailing newline.
#[napi(js_name = "gmSchemaString")]
pub fn gm_schema_string() -> napi::Result<String> {
    guard(|| Ok(gm::export_json_schema_string()))
}

fn matcher(text: &str, what: &str) -> napi::Result<gm::BreakpointMatcher> {
    from_json::<gm::BreakpointMatcher>(text).map_err(|issues| {
        let list: Vec<String> = issues.iter().map(|i| if i.path.is_empty() { i.message.clone() } else { format!("{}: {}", i.path, i.message) }).collect();
        invalid_arg(format!("{what} is not a BreakpointMatcher: {}", list.join("; ")))
    })
}

fn enum_arg<T>(v: &str, parse: fn(&str) -> Option<T>, values: &[&str], what: &str) -> napi::Result<T> {
    parse(v).ok_or_else(|| invalid_arg(format!("{what} must be one of {values:?}, not {v:?}")))
}

/// Matcher equality (§5.12) of two matchers given as JSON text.
#[napi(js_name = "gmMatchersEqual")]
pub fn gm_matchers_equal(a: String, b: String) -> napi::Result<bool> {
    guard(|| Ok(matcher(&a, "a")?.same_as(&matcher(&b, "b")?)))
}

/// Whether a matcher (JSON text) selects the gate `(kind, name, point)` (§5.12).
#[napi(js_name = "gmMatcherMatches")]
pub fn gm_matcher_matches(m: String, kind: String, name: String, point: String) -> napi::Result<bool> {
    guard(|| {
        let m = matcher(&m, "matcher")?;
        let kind = enum_arg(&kind, gm::NodeKind::from_wire, gm::NodeKind::VALUES, "kind")?;
        let point = enum_arg(&point, gm::PausePoint::from_wire, gm::PausePoint::VALUES, "point")?;
        Ok(m.matches(kind, &name, point))
    })
}

/// Whether a gate pauses in `mode` with `breakpoints` (each matcher as JSON text) (§5.12).
#[napi(js_name = "gmShouldPause")]
pub fn gm_should_pause(mode: String, breakpoints: Vec<String>, kind: String, name: String, point: String) -> napi::Result<bool> {
    guard(|| {
        let mode = enum_arg(&mode, gm::RunMode::from_wire, gm::RunMode::VALUES, "mode")?;
        let kind = enum_arg(&kind, gm::NodeKind::from_wire, gm::NodeKind::VALUES, "kind")?;
        let point = enum_arg(&point, gm::PausePoint::from_wire, gm::PausePoint::VALUES, "point")?;
        let list = breakpoints.iter().enumerate().map(|(i, b)| matcher(b, &format!("breakpoints[{i}]"))).collect::<napi::Result<Vec<_>>>()?;
        Ok(gm::should_pause(mode, &list, kind, &name, point))
    })
}

// ---------------------------------------------------------------------------------------------
// Graphorin
// ---------------------------------------------------------------------------------------------

/// Parses a Graphorin frame: `direction` 0 for a server message, 1 for a client message.
/// Returns the variant's wire name (`rpc-success`, `event`, `ping`, …) when the frame is
/// legal, else the error as JSON text starting with `{`:
/// `{"isJson":…,"message":…,"issues":[{"path":[…],"code":…,"message":…}],"id":…,"rpcErrorCode":…}`.
#[napi(js_name = "goParse")]
pub fn go_parse(direction: u32, text: String) -> napi::Result<String> {
    guard(|| {
        let res = if direction == 0 {
            go::parse_server_message(&text).map(|m| m.variant().as_str())
        } else {
            go::parse_client_message(&text).map(|m| m.variant().as_str())
        };
        Ok(match res {
            Ok(wire) => wire.to_owned(),
            Err(e) => parse_error_json(&e),
        })
    })
}

fn parse_error_json(e: &go::ParseError) -> String {
    let mut out = Vec::with_capacity(160);
    out.extend_from_slice(b"{\"isJson\":");
    out.extend_from_slice(if e.is_json() { b"true" } else { b"false" });
    out.extend_from_slice(b",\"message\":");
    push_str(&mut out, &e.to_string());
    out.extend_from_slice(b",\"issues\":[");
    for (i, issue) in e.issues().iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"path\":[");
        for (j, seg) in issue.path.iter().enumerate() {
            if j > 0 {
                out.push(b',');
            }
            match seg {
                PathSegment::Key(k) => push_str(&mut out, k),
                PathSegment::Index(n) => out.extend_from_slice(n.to_string().as_bytes()),
            }
        }
        out.extend_from_slice(b"],\"code\":");
        push_str(&mut out, issue.code.as_str());
        out.extend_from_slice(b",\"message\":");
        push_str(&mut out, &issue.message);
        out.push(b'}');
    }
    out.extend_from_slice(b"],\"id\":");
    // The raw id is validated JSON text; `null` stands for "no id member".
    out.extend_from_slice(e.raw_id().map_or("null", |r| r.as_str()).as_bytes());
    out.extend_from_slice(b",\"hasId\":");
    out.extend_from_slice(if e.raw_id().is_some() { b"true" } else { b"false" });
    let _ = write!(ByteSink(&mut out), ",\"rpcErrorCode\":{}", e.rpc_error_code().code());
    out.extend_from_slice(b",\"replyId\":");
    out.extend_from_slice(e.reply_id().to_json().as_bytes());
    out.push(b'}');
    into_string(out)
}

/// `fmt::Write` into a byte buffer.
struct ByteSink<'a>(&'a mut Vec<u8>);

impl std::fmt::Write for ByteSink<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// The Graphorin JSON Schema (draft 2020-12), pretty-printed with a trailing newline.
#[napi(js_name = "goSchemaString")]
pub fn go_schema_string() -> napi::Result<String> {
    guard(|| Ok(go::export_json_schema_string()))
}

// ---------------------------------------------------------------------------------------------
// Registry and constants
// ---------------------------------------------------------------------------------------------

fn ty_json(ty: &Ty) -> Value {
    match ty {
        Ty::Scalar(s) => json!({ "scalar": format!("{s:?}") }),
        Ty::Enum(e) => json!({ "enum": e.name }),
        Ty::Object(o) => json!({ "object": o.name }),
        Ty::List(t) => json!({ "list": ty_json(t) }),
    }
}

fn object_json(o: &ObjectDesc) -> Value {
    json!({
        "name": o.name,
        "strict": o.strict,
        "literals": o.literals.iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>(),
        "fields": o.fields.iter().map(|f| json!({ "wire": f.wire, "required": f.required, "ty": ty_json(&f.ty) })).collect::<Vec<_>>(),
    })
}

fn direction_name(d: Direction) -> &'static str {
    match d {
        Direction::ClientToServer => "client-to-server",
        Direction::ServerToClient => "server-to-client",
    }
}

fn group_name(g: MessageGroup) -> &'static str {
    match g {
        MessageGroup::Event => "event",
        MessageGroup::Control => "control",
        MessageGroup::Handshake => "handshake",
    }
}

/// The typed registry of every protocol as JSON text: messages, unions with their variants and
/// guard names, objects with their fields in spec order, enums with their values. The
/// JavaScript side reads it once at load (serialization order, guards).
#[napi(js_name = "registryJson")]
pub fn registry_json() -> napi::Result<String> {
    guard(|| {
        let protocols: Vec<Value> = registry::protocols()
            .iter()
            .map(|p| {
                json!({
                    "name": p.name,
                    "version": [p.version.0, p.version.1],
                    "strict": p.strict,
                    "messages": p.messages.iter().map(|m| json!({ "wire": m.wire, "payload": m.payload.name, "group": group_name(m.group), "direction": direction_name(m.direction) })).collect::<Vec<_>>(),
                    "unions": p.unions.iter().map(|u| json!({
                        "name": u.name,
                        "direction": direction_name(u.direction),
                        "variants": u.variants.iter().map(|v| json!({ "wire": v.wire, "name": v.name, "frame": v.frame.name, "guardJs": v.guard_js })).collect::<Vec<_>>(),
                    })).collect::<Vec<_>>(),
                    "objects": p.objects().into_iter().map(object_json).collect::<Vec<_>>(),
                    "enums": p.enums().into_iter().map(|e| json!({ "name": e.name, "values": e.wire_values().collect::<Vec<_>>() })).collect::<Vec<_>>(),
                })
            })
            .collect();
        Ok(json!({ "protocols": protocols }).to_string())
    })
}

/// The public constants of both protocols as JSON text.
#[napi(js_name = "constantsJson")]
pub fn constants_json() -> napi::Result<String> {
    guard(|| {
        // Catalogues as `[name, value]` pairs so their order survives (JSON objects here are
        // sorted maps); the JavaScript side turns them into frozen objects.
        let codes: Vec<Value> = go::RPC_ERROR_CODES.iter().map(|c| json!([c.name, c.value])).collect();
        let close: Vec<Value> = go::CLOSE_CODE_VALUES.iter().map(|(r, c)| json!([r.as_str(), c])).collect();
        Ok(json!({
            "graphmind": {
                "PROTOCOL_VERSION": gm::PROTOCOL_VERSION,
                "WILDCARD_RUN_ID": gm::WILDCARD_RUN_ID,
                "MESSAGE_TYPES": gm::MESSAGE_TYPES,
                "EVENT_TYPES": gm::EVENT_TYPES,
                "CONTROL_TYPES": gm::CONTROL_TYPES,
                "HANDSHAKE_TYPES": gm::HANDSHAKE_TYPES,
                "KNOWN_CAPABILITIES": gm::KNOWN_CAPABILITIES,
                "DEFAULT_MAX_FRAME_BYTES": gm::DEFAULT_MAX_FRAME_BYTES,
                "DEFAULT_MAX_DEPTH": gm::DEFAULT_MAX_DEPTH,
                "DEFAULT_MAX_PAYLOAD_BYTES": gm::DEFAULT_MAX_PAYLOAD_BYTES,
            },
            "graphorin": {
                "PROTOCOL_VERSION": go::PROTOCOL_VERSION,
                "JSONRPC_VERSION": go::JSONRPC_VERSION,
                "SUBPROTOCOL_NAME": go::SUBPROTOCOL_NAME,
                "TICKET_SUBPROTOCOL_PREFIX": go::TICKET_SUBPROTOCOL_PREFIX,
                "RPC_ERROR_CODES": codes,
                "CLOSE_CODE_VALUES": close,
                "KINDS": go::KINDS,
                "METHODS": go::METHODS,
                "LIFECYCLE_STATUSES": go::LIFECYCLE_STATUSES,
            },
        })
        .to_string())
    })
}

/// The crate version of the contract this addon was built from.
#[napi(js_name = "version")]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}
