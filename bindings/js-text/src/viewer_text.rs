//! `ViewerSession`'s conversions shared by both JavaScript backends: the options object (JSON
//! text) to a [`ViewerConfig`](wirecontract::graphmind::session::ViewerConfig), clock readings and connection ids from JavaScript numbers, what
//! a frame did as a word, and each [`ViewerAction`](wirecontract::graphmind::session::ViewerAction) as the JSON text the JavaScript layer
//! (`viewer.js`) parses into a plain object. Both backends' `ViewerSession` classes
//! (`bindings/node/src/viewer.rs`, `bindings/wasm/src/viewer.rs`) use this module, so both take
//! the same arguments and hand over the same bytes. Errors are message texts; each backend wraps them in its own error type.

use wirecontract::graphmind::session as s;
use wirecontract::wire;
use wirecontract_json::RawJson;

use crate::js_text::{into_string, push_str};

/// An argument error's message.
pub type Res<T> = Result<T, String>;

/// A clock reading in milliseconds (finite, 0 ≤ x ≤ 2^53 − 1).
pub fn now_arg(ms: f64) -> Res<s::Millis> {
    s::Millis::new(ms).map_err(|e| format!("nowMs: {e}"))
}

/// A connection id: a safe integer ≥ 0.
pub fn conn_arg(conn: f64) -> Res<s::ConnectionId> {
    if conn.fract() == 0.0 && (0.0..=s::Millis::MAX).contains(&conn) {
        Ok(s::ConnectionId(conn as u64))
    } else {
        Err(format!("conn must be a safe integer >= 0, got {conn}"))
    }
}

fn size_arg(v: f64, what: &str) -> Res<usize> {
    if v.fract() == 0.0 && (1.0..=s::Millis::MAX).contains(&v) {
        Ok(v as usize)
    } else {
        Err(format!("{what} must be a positive safe integer, got {v}"))
    }
}

fn ms_arg(v: f64, what: &str) -> Res<u64> {
    if v.fract() == 0.0 && (0.0..=s::Millis::MAX).contains(&v) {
        Ok(v as u64)
    } else {
        Err(format!("{what} must be a safe integer >= 0, got {v}"))
    }
}

/// A list of declared objects given as a JSON array of their JSON texts.
fn objects_arg<T: wire::WireValue + wire::Described>(list: &str, what: &str) -> Res<Vec<T>> {
    strings_arg(list, what)?.iter().enumerate().map(|(i, t)| object_arg(t, &format!("{what}[{i}]"))).collect()
}

/// A JSON array of strings.
fn strings_arg(list: &str, what: &str) -> Res<Vec<String>> {
    serde_json::from_str(list).map_err(|e| format!("{what}: {e}"))
}

/// The declared object `T` from JSON text, with the contract's error text.
pub fn object_arg<T: wire::WireValue + wire::Described>(text: &str, what: &str) -> Res<T> {
    wire::object_arg(text, what).map_err(|e| e.to_string())
}

/// The closed enum `T` from a string, with the contract's error text.
pub fn enum_arg<T: wire::WireEnum>(v: &str, what: &str) -> Res<T> {
    wire::enum_arg(v, what).map_err(|e| e.to_string())
}

/// The core's defaults changed by the members of `config` (JSON text of `{breakpoints?,
/// mode?, viewerVersion?, hubCapabilities?, tokenPrefix?, maxResumeTokenLen?, resumeWaitMs?,
/// abandonGraceMs?, maxRetainedRuns?, maxRetainedBytes?, maxSeqsPerRun?,
/// maxTrackedPauses?}`; `breakpoints` and `hubCapabilities` as JSON arrays of texts).
pub fn config(config: &str) -> Res<s::ViewerConfig> {
    let v: serde_json::Map<String, serde_json::Value> = serde_json::from_str(config).map_err(|e| format!("config: {e}"))?;
    let mut c = s::ViewerConfig::default();
    for (k, val) in &v {
        let text = || val.as_str().ok_or_else(|| format!("{k} must be a string"));
        let num = || val.as_f64().ok_or_else(|| format!("{k} must be a number"));
        match k.as_str() {
            "breakpoints" => c.breakpoints = objects_arg(text()?, "breakpoints")?,
            "mode" => c.mode = enum_arg(text()?, "mode")?,
            "viewerVersion" => text()?.clone_into(&mut c.viewer_version),
            "hubCapabilities" => c.hub_capabilities = Some(strings_arg(text()?, "hubCapabilities")?),
            "tokenPrefix" => text()?.clone_into(&mut c.token_prefix),
            "maxResumeTokenLen" => c.max_resume_token_len = usize::try_from(ms_arg(num()?, k)?).map_err(|e| format!("{k}: {e}"))?,
            "resumeWaitMs" => c.resume_wait_ms = ms_arg(num()?, k)?,
            "abandonGraceMs" => c.abandon_grace_ms = ms_arg(num()?, k)?,
            "maxRetainedRuns" => c.max_retained_runs = size_arg(num()?, k)?,
            "maxRetainedBytes" => c.max_retained_bytes = size_arg(num()?, k)?,
            "maxSeqsPerRun" => c.max_seqs_per_run = size_arg(num()?, k)?,
            "maxTrackedPauses" => c.max_tracked_pauses = size_arg(num()?, k)?,
            other => return Err(format!("unknown ViewerSession option {other:?}")),
        }
    }
    Ok(c)
}

/// One text frame (UTF-8 `text`) from `conn` at `now` into the session: what was done with it
/// (`hello`, `accepted`, `accepted-replayed`, `duplicate`, `duplicate-replayed`, `wildcard`,
/// `rejected`).
pub fn frame_received(session: &mut s::ViewerSession, conn: s::ConnectionId, text: &str, now: s::Millis) -> &'static str {
    let outcome = wirecontract::graphmind::parse(text, &wirecontract::graphmind::ParseOptions::default());
    match session.outcome_received(conn, text.as_bytes(), outcome, now) {
        s::Received::Hello => "hello",
        s::Received::Accepted { replayed: false } => "accepted",
        s::Received::Accepted { replayed: true } => "accepted-replayed",
        s::Received::Duplicate { replayed: false } => "duplicate",
        s::Received::Duplicate { replayed: true } => "duplicate-replayed",
        s::Received::Wildcard => "wildcard",
        s::Received::Rejected => "rejected",
    }
}

/// Sends `exec.resume` for an open pause (§5.5); `output` is JSON text. Refused with a message
/// that starts with the code (`unknown-pause: …`, `released-by-disconnect: …`, `owner-gone: …`).
pub fn resume(session: &mut s::ViewerSession, pause_id: &str, action: &str, now_ms: f64, output: Option<String>, request_id: Option<String>) -> Res<()> {
    let action = enum_arg(action, "action")?;
    let now = now_arg(now_ms)?;
    let output = output.map(|t| RawJson::from_json(&t).map_err(|e| format!("output: {e}"))).transpose()?;
    session.resume(pause_id, action, output, request_id, now).map_err(|e| {
        let code = match e {
            s::ResumeError::UnknownPause => "unknown-pause",
            s::ResumeError::ReleasedByDisconnect => "released-by-disconnect",
            s::ResumeError::OwnerGone => "owner-gone",
        };
        format!("{code}: {e}")
    })
}

/// The armed breakpoints as a JSON array.
pub fn breakpoints_json(session: &s::ViewerSession) -> String {
    let items: Vec<String> = session.breakpoints().iter().map(wire::to_json).collect();
    format!("[{}]", items.join(","))
}

/// The ids of the open pauses, as a JSON array.
pub fn open_pauses_json(session: &s::ViewerSession) -> String {
    let mut out = vec![b'['];
    for (i, id) in session.open_pauses().iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        push_str(&mut out, id);
    }
    out.push(b']');
    into_string(out)
}

/// One action as JSON text: `{"type": <kebab-case name>, …its fields in camelCase}`; an
/// envelope or hello as its JSON object (the contract's writer).
pub fn action_json(a: s::ViewerAction) -> String {
    use s::ViewerAction as A;
    let mut out = Vec::with_capacity(128);
    let field = |out: &mut Vec<u8>, k: &str, v: &str| {
        out.push(b',');
        push_str(out, k);
        out.push(b':');
        push_str(out, v);
    };
    let raw = |out: &mut Vec<u8>, k: &str, v: &str| {
        out.push(b',');
        push_str(out, k);
        out.push(b':');
        out.extend_from_slice(v.as_bytes());
    };
    let head = |out: &mut Vec<u8>, ty: &str| {
        out.extend_from_slice(b"{\"type\":");
        push_str(out, ty);
    };
    match a {
        A::Send { conn, frame } => {
            head(&mut out, "send");
            raw(&mut out, "conn", &conn.0.to_string());
            field(&mut out, "frame", &frame);
        }
        A::Close { conn, code, reason } => {
            head(&mut out, "close");
            raw(&mut out, "conn", &conn.0.to_string());
            raw(&mut out, "code", &code.to_string());
            field(&mut out, "reason", &reason);
        }
        A::AppAttached { conn, session_token, hello } => {
            head(&mut out, "app-attached");
            raw(&mut out, "conn", &conn.0.to_string());
            field(&mut out, "sessionToken", &session_token);
            raw(&mut out, "hello", &wire::to_json(&*hello));
        }
        A::FrameAccepted { conn, envelope, replayed } => {
            head(&mut out, "frame-accepted");
            raw(&mut out, "conn", &conn.0.to_string());
            raw(&mut out, "envelope", &wirecontract::graphmind::serialize_envelope(&envelope).unwrap_or_else(|_| "null".to_owned()));
            raw(&mut out, "replayed", if replayed { "true" } else { "false" });
        }
        A::PauseOpened { conn, run_id, pause_id, node_id, point } => {
            head(&mut out, "pause-opened");
            raw(&mut out, "conn", &conn.0.to_string());
            field(&mut out, "runId", &run_id);
            field(&mut out, "pauseId", &pause_id);
            field(&mut out, "nodeId", &node_id);
            field(&mut out, "point", point.as_str());
        }
        A::PauseClosed { pause_id, action } => {
            head(&mut out, "pause-closed");
            field(&mut out, "pauseId", &pause_id);
            field(&mut out, "action", action.as_str());
        }
        A::PauseReleased { conn, pause_id } => {
            head(&mut out, "pause-released");
            raw(&mut out, "conn", &conn.0.to_string());
            field(&mut out, "pauseId", &pause_id);
        }
        A::ResumeRefused { pause_id, code, request_id } => {
            head(&mut out, "resume-refused");
            field(&mut out, "pauseId", &pause_id);
            field(&mut out, "code", code.as_str());
            if let Some(r) = request_id {
                field(&mut out, "requestId", &r);
            }
        }
        A::ResumeTimedOut { pause_id } => {
            head(&mut out, "resume-timed-out");
            field(&mut out, "pauseId", &pause_id);
        }
        A::RunAbandoned { run_id } => {
            head(&mut out, "run-abandoned");
            field(&mut out, "runId", &run_id);
        }
        A::Warn { conn, rule, text } => {
            head(&mut out, "warn");
            raw(&mut out, "conn", &conn.0.to_string());
            field(&mut out, "rule", rule);
            field(&mut out, "text", &text);
        }
    }
    out.push(b'}');
    into_string(out)
}
