//! The JSON texts both JavaScript backends hand to the package's JavaScript layer: verdicts,
//! Graphorin parse errors, the registry and constants, the handshake answer; and the
//! conversion of a JavaScript string's UTF-16 code units to the UTF-8 text `JSON.parse` would
//! see. Both backends (the Node-API addon and the WASM build) use this module, so both give the
//! JavaScript layer the same bytes.

use std::fmt::Write as _;

use serde_json::{json, Value};
use wirecontract::registry::{self, Direction, MessageGroup, ObjectDesc, Ty};
use wirecontract::wire::{Issue, PathSegment};
use wirecontract::{graphmind as gm, graphorin};
use wirecontract_glue::{Codes, HostIssue};
use wirecontract_json::{write_f64, write_int, write_string};

/// Appends `s` as a JSON string (`JSON.stringify` spelling).
pub fn push_str(out: &mut Vec<u8>, s: &str) {
    write_string(out, s);
}

/// Bytes this module wrote (always UTF-8) as a `String`.
pub fn into_string(out: Vec<u8>) -> String {
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// UTF-16 code units as UTF-8 text the JSON reader decides exactly as `JSON.parse` decides
/// the JavaScript string. Paired surrogates become the 4-byte sequence of their code point.
/// A lone surrogate has no UTF-8 form: it becomes the escape `\udxxx` (the same code unit to
/// `JSON.parse` inside a string, and a syntax error outside one, as the raw unit is) unless it
/// follows an escaping backslash, where the raw unit makes an invalid escape: there it becomes
/// U+FFFD, which keeps the escape invalid.
pub fn transcode(units: &[u16]) -> String {
    let n = units.len();
    let mut out: Vec<u8> = Vec::with_capacity(n + n / 2 + 8);
    let mut i = 0;
    while i < n {
        // A run of ASCII, narrowed in one exact-size `extend` (vectorized).
        let start = i;
        while let Some(chunk) = units.get(i..i + 16) {
            if chunk.iter().fold(0u16, |a, &c| a | c) >= 0x80 {
                break;
            }
            i += 16;
        }
        while i < n && units[i] < 0x80 {
            i += 1;
        }
        out.extend(units[start..i].iter().map(|&c| c as u8));
        // Then everything up to the next ASCII unit.
        while let Some(&c) = units.get(i) {
            i += 1;
            match c {
                0..=0x7F => {
                    i -= 1;
                    break;
                }
                0x80..=0x7FF => out.extend_from_slice(&[0xC0 | (c >> 6) as u8, 0x80 | (c & 0x3F) as u8]),
                0xD800..=0xDBFF if units.get(i).is_some_and(|&d| (0xDC00..=0xDFFF).contains(&d)) => {
                    let cp = 0x10000 + ((u32::from(c) - 0xD800) << 10) + (u32::from(units[i]) - 0xDC00);
                    i += 1;
                    out.extend_from_slice(&[
                        0xF0 | (cp >> 18) as u8,
                        0x80 | ((cp >> 12) & 0x3F) as u8,
                        0x80 | ((cp >> 6) & 0x3F) as u8,
                        0x80 | (cp & 0x3F) as u8,
                    ]);
                }
                0xD800..=0xDFFF => {
                    // Backslashes right before this unit: an odd run makes it an escape's letter.
                    let run = units[..i - 1].iter().rev().take_while(|&&u| u == u16::from(b'\\')).count();
                    if run % 2 == 1 {
                        out.extend_from_slice("\u{FFFD}".as_bytes());
                    } else {
                        let _ = write!(ByteSink(&mut out), "\\u{c:04x}");
                    }
                }
                _ => out.extend_from_slice(&[0xE0 | (c >> 12) as u8, 0x80 | ((c >> 6) & 0x3F) as u8, 0x80 | (c & 0x3F) as u8]),
            }
        }
    }
    // Every branch above writes whole UTF-8 sequences; the check only guards that claim.
    into_string(out)
}

/// The result object of a verdict other than `ok`/`unknown-type` as JSON text (`ok` and
/// `unknown-type` give their kind).
pub fn verdict_json(outcome: gm::ParseOutcome) -> String {
    match outcome {
        gm::ParseOutcome::Ok(_) => "ok".to_owned(),
        gm::ParseOutcome::UnknownType(_) => "unknown-type".to_owned(),
        gm::ParseOutcome::VersionMismatch { received, supported } => {
            format!("{{\"kind\":\"version-mismatch\",\"received\":{received},\"supported\":{supported}}}")
        }
        gm::ParseOutcome::Invalid { reason, issues, seq, ts, run_id, message_type } => {
            let mut out = Vec::with_capacity(128);
            out.extend_from_slice(b"{\"kind\":\"invalid\",\"reason\":");
            push_str(&mut out, &reason);
            if let Some(issues) = issues {
                out.extend_from_slice(b",\"issues\":[");
                push_issues(&mut out, &issues, IssueShape::GraphMind);
                out.push(b']');
            }
            // Salvage (§2 step 5): the envelope passed, only the payload failed.
            if let (Some(seq), Some(ts), Some(run_id), Some(ty)) = (seq, ts, run_id, message_type) {
                out.extend_from_slice(format!(",\"seq\":{seq},\"ts\":{ts},\"runId\":").as_bytes());
                push_str(&mut out, &run_id);
                out.extend_from_slice(b",\"type\":");
                push_str(&mut out, &ty);
            }
            out.push(b'}');
            into_string(out)
        }
    }
}

/// A refused build (`createEnvelope` with `maxPayloadBytes`) as JSON text
/// `{"reason":…,"issues":[{"path","message"}]}`.
pub fn build_error_json(e: &gm::BuildError) -> String {
    let mut out = Vec::with_capacity(128);
    out.extend_from_slice(b"{\"reason\":");
    push_str(&mut out, &e.reason);
    out.extend_from_slice(b",\"issues\":[");
    push_issues(&mut out, &e.issues, IssueShape::GraphMind);
    out.extend_from_slice(b"]}");
    into_string(out)
}
/// How [`push_issues`] writes an issue. `segments` (the path, root first) is in every shape;
/// the JavaScript layer makes it non-enumerable (`api.js`), so the objects keep the keys below.
#[derive(Clone, Copy, PartialEq, Eq)]
enum IssueShape {
    /// GraphMind's reference shape `{"path":"dotted","message"}`: no code, even where the
    /// contract recorded one.
    GraphMind,
    /// Graphorin's, zod's as the reference has it: `{"path":[segments],"code","message"}`,
    /// a code in every issue ([`Codes::Promised`]).
    Graphorin,
    /// Any protocol through the registry (`parseFrame`): `{"path":"dotted","code"?,"message"}`,
    /// the code the contract recorded, if any.
    Registry,
}

/// Issues as the objects of a JSON array (the brackets are the caller's), each built by the
/// glue's one conversion ([`HostIssue`]), in `shape`.
fn push_issues(out: &mut Vec<u8>, issues: &[Issue], shape: IssueShape) {
    let codes = if shape == IssueShape::Graphorin { Codes::Promised } else { Codes::AsRecorded };
    for (i, issue) in issues.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        let h = HostIssue::new(issue, codes);
        out.extend_from_slice(b"{\"path\":");
        if shape == IssueShape::Graphorin {
            push_segments(out, &h.segments);
        } else {
            push_str(out, &h.path);
        }
        if let (IssueShape::Graphorin | IssueShape::Registry, Some(code)) = (shape, h.code) {
            out.extend_from_slice(b",\"code\":");
            push_str(out, code.as_str());
        }
        out.extend_from_slice(b",\"message\":");
        push_str(out, &h.message);
        out.extend_from_slice(b",\"segments\":");
        push_segments(out, &h.segments);
        out.push(b'}');
    }
}

/// A path's segments as a JSON array of key strings and index numbers.
fn push_segments(out: &mut Vec<u8>, segments: &[PathSegment]) {
    out.push(b'[');
    for (j, seg) in segments.iter().enumerate() {
        if j > 0 {
            out.push(b',');
        }
        match seg {
            PathSegment::Key(k) => push_str(out, k),
            PathSegment::Index(n) => write_int(out, *n),
        }
    }
    out.push(b']');
}

/// A Graphorin parse error as the JSON text `index.js` reads (see `goParse`).
pub fn parse_error_json(e: &graphorin::ParseError) -> String {
    let mut out = Vec::with_capacity(160);
    // isJson is the deprecated old name of isSyntaxError (true for a syntax failure).
    let syntax: &[u8] = if e.is_syntax_error() { b"true" } else { b"false" };
    out.extend_from_slice(b"{\"isSyntaxError\":");
    out.extend_from_slice(syntax);
    out.extend_from_slice(b",\"isJson\":");
    out.extend_from_slice(syntax);
    out.extend_from_slice(b",\"message\":");
    push_str(&mut out, &e.to_string());
    out.extend_from_slice(b",\"issues\":[");
    push_issues(&mut out, e.issues(), IssueShape::Graphorin);
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
pub struct ByteSink<'a>(pub &'a mut Vec<u8>);

impl std::fmt::Write for ByteSink<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// A handshake negotiation as JSON text: `{"kind":"accepted","protocol","capabilities","resumeToken"?}`
/// or `{"kind":"refused","reason"}`.
pub fn negotiation_json(n: gm::HelloNegotiation) -> String {
    match n {
        gm::HelloNegotiation::Accepted(a) => {
            let mut v = serde_json::json!({"kind": "accepted", "protocol": a.protocol, "capabilities": a.capabilities});
            if let Some(t) = a.resume_token {
                v["resumeToken"] = serde_json::Value::String(t);
            }
            v.to_string()
        }
        gm::HelloNegotiation::Refused(reason) => serde_json::json!({"kind": "refused", "reason": reason}).to_string(),
    }
}

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

/// The package's `parseFrame(protocolName, text)`: the verdict of any registered protocol's
/// parser ([`registry::Protocol::parse_any`]) as JSON text `{"kind", "message"?, "objectAt"?,
/// "reason"?, "issues"?}`. `objectAt` says where the accepted object is in the frame text,
/// `"payload"` or `"frame"`, for the JavaScript layer to read it there with `JSON.parse` (as
/// the GraphMind namespace reads an envelope) into the result's `object`; it is absent for a
/// payload the protocol keeps opaque (an unknown type). Each issue is `{path, code?, message, segments}`: the dotted path, the code
/// the contract recorded, if any. `Err` names the registered protocols when `protocol` is not
/// one of them.
pub fn frame_verdict_json(protocol: &str, frame: &str) -> Result<String, String> {
    let Some(p) = registry::protocol(protocol) else {
        return Err(registry::unknown_protocol(protocol));
    };
    let mut out = Vec::with_capacity(128);
    match (p.parse_any)(frame) {
        registry::AnyOutcome::Ok { message, object } => {
            out.extend_from_slice(b"{\"kind\":\"ok\",\"message\":");
            push_str(&mut out, &message);
            if object.is_some() {
                let at: &[u8] = if p.object_is_payload() { b",\"objectAt\":\"payload\"" } else { b",\"objectAt\":\"frame\"" };
                out.extend_from_slice(at);
            }
        }
        registry::AnyOutcome::Invalid { reason, issues } => {
            out.extend_from_slice(b"{\"kind\":\"invalid\",\"reason\":");
            push_str(&mut out, &reason);
            out.extend_from_slice(b",\"issues\":[");
            push_issues(&mut out, &issues, IssueShape::Registry);
            out.push(b']');
        }
        registry::AnyOutcome::Other { kind, message } => {
            out.extend_from_slice(b"{\"kind\":");
            push_str(&mut out, kind);
            if let Some(message) = message {
                out.extend_from_slice(b",\"message\":");
                push_str(&mut out, &message);
            }
        }
    }
    out.push(b'}');
    Ok(into_string(out))
}

/// The typed registry of every protocol as JSON text: messages, unions with their variants and
/// guard names, objects with their fields in spec order, enums with their values.
pub fn registry_json() -> String {
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
                "enums": p.enums().into_iter().map(|e| json!({ "name": e.name, "values": e.wire_values().collect::<Vec<_>>(), "constant": e.constant })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({ "protocols": protocols }).to_string()
}

/// The public constants of both protocols as JSON text.
pub fn constants_json() -> String {
    // Catalogues as `[name, value]` pairs so their order survives (JSON objects here are
    // sorted maps); the JavaScript side turns them into frozen objects.
    let codes: Vec<Value> = graphorin::RPC_ERROR_CODES.iter().map(|c| json!([c.name, c.value])).collect();
    let close: Vec<Value> = graphorin::CLOSE_CODE_VALUES.iter().map(|(r, c)| json!([r.as_str(), c])).collect();
    json!({
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
            "MAX_SHRINK_KEYS": gm::shrink::MAX_SHRINK_KEYS,
            "MAX_TRIM_FIELDS": gm::shrink::MAX_TRIM_FIELDS,
            "TRUNCATION_SUFFIX": gm::shrink::TRUNCATION_SUFFIX,
            "TRUNCATION_MARKER_KEY": gm::shrink::MARKER_KEY,
            "FINISH_REASONS": gm::FinishReason::VALUES,
        },
        "graphorin": {
            "PROTOCOL_VERSION": graphorin::PROTOCOL_VERSION,
            "JSONRPC_VERSION": graphorin::JSONRPC_VERSION,
            "SUBPROTOCOL_NAME": graphorin::SUBPROTOCOL_NAME,
            "TICKET_SUBPROTOCOL_PREFIX": graphorin::TICKET_SUBPROTOCOL_PREFIX,
            "RPC_ERROR_CODES": codes,
            "CLOSE_CODE_VALUES": close,
            "KINDS": graphorin::KINDS,
            "METHODS": graphorin::METHODS,
            "LIFECYCLE_STATUSES": graphorin::LIFECYCLE_STATUSES,
        },
    })
    .to_string()
}

/// A usage view (`readUsage`) as JSON text in the reference's key order (`inputTokens,
/// outputTokens, basis`, then the present extras).
pub fn usage_json(v: &gm::UsageView) -> String {
    let mut out = Vec::with_capacity(128);
    let members = [
        ("inputTokens", Some(v.input_tokens)),
        ("outputTokens", Some(v.output_tokens)),
        ("basis", None),
        ("cacheReadTokens", v.cache_read_tokens),
        ("cacheWriteTokens", v.cache_write_tokens),
        ("reasoningTokens", v.reasoning_tokens),
    ];
    out.push(b'{');
    for (key, x) in members {
        if key != "basis" && x.is_none() {
            continue;
        }
        if out.len() > 1 {
            out.push(b',');
        }
        write_string(&mut out, key);
        out.push(b':');
        match x {
            Some(x) => write_f64(&mut out, x),
            None => write_string(&mut out, v.basis.as_str()),
        }
    }
    out.push(b'}');
    into_string(out)
}
