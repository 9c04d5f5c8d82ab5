//! `ViewerSession` for the browser: the contract's sans-IO viewer (graphmind-session §5) as a
//! wasm-bindgen class. Thin: de-duplication, the handshake, pause bookkeeping, resume routing
//! and fail-open are the core's; this converts arguments and hands each action over as JSON
//! text, which the JavaScript layer (`viewer.js`) turns into plain objects.

use wasm_bindgen::prelude::wasm_bindgen;
use wirecontract::core::{self as core, RawJson};
use wirecontract::graphmind::session as s;

use crate::{enum_arg, invalid_arg, js_text::push_str, objects_arg, strings_arg, with_frame, Res};

fn now_ms_checked_inner(ms: f64) -> Res<s::Millis> {
    s::Millis::new(ms).map_err(|e| invalid_arg(format!("nowMs: {e}")))
}

fn conn_arg(conn: f64) -> Res<s::ConnectionId> {
    if conn.fract() == 0.0 && (0.0..=9_007_199_254_740_991.0).contains(&conn) {
        Ok(s::ConnectionId(conn as u64))
    } else {
        Err(invalid_arg(format!("conn must be a safe integer >= 0, got {conn}")))
    }
}

fn size_arg(v: f64, what: &str) -> Res<usize> {
    if v.fract() == 0.0 && (1.0..=9_007_199_254_740_991.0).contains(&v) {
        Ok(v as usize)
    } else {
        Err(invalid_arg(format!("{what} must be a positive safe integer, got {v}")))
    }
}

fn ms_arg(v: f64, what: &str) -> Res<u64> {
    if v.fract() == 0.0 && (0.0..=9_007_199_254_740_991.0).contains(&v) {
        Ok(v as u64)
    } else {
        Err(invalid_arg(format!("{what} must be a safe integer >= 0, got {v}")))
    }
}

/// The contract's `ViewerSession` (see `docs/session.md`).
#[wasm_bindgen]
pub struct ViewerSession {
    inner: s::ViewerSession,
}

#[wasm_bindgen]
impl ViewerSession {
    /// A session with the core's defaults, changed by the members of `config` (JSON text of
    /// `{breakpoints?, mode?, viewerVersion?, hubCapabilities?, tokenPrefix?,
    /// maxResumeTokenLen?, resumeWaitMs?, abandonGraceMs?, maxRetainedRuns?,
    /// maxRetainedBytes?, maxSeqsPerRun?, maxTrackedPauses?}`; `breakpoints` and
    /// `hubCapabilities` as JSON arrays of texts, as elsewhere).
    #[wasm_bindgen(constructor)]
    pub fn new(config: &str) -> Res<ViewerSession> {
        let v: serde_json::Map<String, serde_json::Value> = serde_json::from_str(config).map_err(|e| invalid_arg(format!("config: {e}")))?;
        let mut c = s::ViewerConfig::default();
        for (k, val) in &v {
            let text = || val.as_str().ok_or_else(|| invalid_arg(format!("{k} must be a string")));
            let num = || val.as_f64().ok_or_else(|| invalid_arg(format!("{k} must be a number")));
            match k.as_str() {
                "breakpoints" => c.breakpoints = objects_arg(text()?, "breakpoints")?,
                "mode" => c.mode = enum_arg(text()?, "mode")?,
                "viewerVersion" => text()?.clone_into(&mut c.viewer_version),
                "hubCapabilities" => c.hub_capabilities = Some(strings_arg(text()?, "hubCapabilities")?),
                "tokenPrefix" => text()?.clone_into(&mut c.token_prefix),
                "maxResumeTokenLen" => c.max_resume_token_len = ms_arg(num()?, k)? as usize,
                "resumeWaitMs" => c.resume_wait_ms = ms_arg(num()?, k)?,
                "abandonGraceMs" => c.abandon_grace_ms = ms_arg(num()?, k)?,
                "maxRetainedRuns" => c.max_retained_runs = size_arg(num()?, k)?,
                "maxRetainedBytes" => c.max_retained_bytes = size_arg(num()?, k)?,
                "maxSeqsPerRun" => c.max_seqs_per_run = size_arg(num()?, k)?,
                "maxTrackedPauses" => c.max_tracked_pauses = size_arg(num()?, k)?,
                other => return Err(invalid_arg(format!("unknown ViewerSession option {other:?}"))),
            }
        }
        Ok(ViewerSession { inner: s::ViewerSession::new(c) })
    }

    /// A new app connection (also implied by its first frame).
    #[wasm_bindgen(js_name = "connectionOpened")]
    pub fn connection_opened(&mut self, conn: f64) -> Res<()> {
        self.inner.connection_opened(conn_arg(conn)?);
        Ok(())
    }

    /// The connection closed: its open pauses are released (fail-open, §5.4).
    #[wasm_bindgen(js_name = "connectionClosed")]
    pub fn connection_closed(&mut self, conn: f64, now_ms: f64) -> Res<()> {
        self.inner.connection_closed(conn_arg(conn)?, now_ms_checked(now_ms)?);
        Ok(())
    }

    /// One text frame of `len` bytes from the frame buffer, from `conn`: what was done with it
    /// (`hello`, `accepted`, `accepted-replayed`, `duplicate`, `duplicate-replayed`,
    /// `wildcard`, `rejected`); the actions it queued come from [`Self::poll_action`].
    #[wasm_bindgen(js_name = "frameReceived")]
    pub fn frame_received(&mut self, conn: f64, len: usize, now_ms: f64) -> Res<String> {
        let conn = conn_arg(conn)?;
        let now = now_ms_checked(now_ms)?;
        let received = with_frame(len, |text| {
            let outcome = wirecontract::graphmind::parse(text, &wirecontract::graphmind::ParseOptions::default());
            self.inner.outcome_received(conn, text.as_bytes(), outcome, now)
        });
        Ok(match received {
            s::Received::Hello => "hello",
            s::Received::Accepted { replayed: false } => "accepted",
            s::Received::Accepted { replayed: true } => "accepted-replayed",
            s::Received::Duplicate { replayed: false } => "duplicate",
            s::Received::Duplicate { replayed: true } => "duplicate-replayed",
            s::Received::Wildcard => "wildcard",
            s::Received::Rejected => "rejected",
        }
        .to_owned())
    }

    /// Arms a breakpoint (JSON text of a matcher) and broadcasts the set; whether it was new.
    #[wasm_bindgen(js_name = "setBreakpoint")]
    pub fn set_breakpoint(&mut self, matcher: &str, now_ms: f64) -> Res<bool> {
        let m = crate::object_arg(matcher, "matcher")?;
        Ok(self.inner.set_breakpoint(m, now_ms_checked(now_ms)?))
    }

    /// Removes the breakpoints equal to `matcher` (§5.12); how many were removed.
    #[wasm_bindgen(js_name = "clearBreakpoint")]
    pub fn clear_breakpoint(&mut self, matcher: &str, now_ms: f64) -> Res<usize> {
        let m = crate::object_arg(matcher, "matcher")?;
        Ok(self.inner.clear_breakpoint(&m, now_ms_checked(now_ms)?))
    }

    /// Sets the run mode and broadcasts it.
    #[wasm_bindgen(js_name = "setMode")]
    pub fn set_mode(&mut self, mode: &str, now_ms: f64) -> Res<()> {
        let mode = enum_arg(mode, "mode")?;
        self.inner.set_mode(mode, now_ms_checked(now_ms)?);
        Ok(())
    }

    /// Sends `exec.resume` for an open pause (§5.5). `output` is JSON text or undefined.
    /// Refused with an error whose message starts with the code (`unknown-pause: …`,
    /// `released-by-disconnect: …`, `owner-gone: …`).
    pub fn resume(&mut self, pause_id: &str, action: &str, now_ms: f64, output: Option<String>, request_id: Option<String>) -> Res<()> {
        let action = enum_arg(action, "action")?;
        let now = now_ms_checked(now_ms)?;
        let output = output.map(|t| RawJson::from_json(&t).map_err(|e| invalid_arg(format!("output: {e}")))).transpose()?;
        self.inner.resume(pause_id, action, output, request_id, now).map_err(|e| {
            let code = match e {
                s::ResumeError::UnknownPause => "unknown-pause",
                s::ResumeError::ReleasedByDisconnect => "released-by-disconnect",
                s::ResumeError::OwnerGone => "owner-gone",
            };
            invalid_arg(format!("{code}: {e}"))
        })
    }

    /// Fires resume waits and abandon graces due at `now_ms`.
    #[wasm_bindgen(js_name = "handleTimeout")]
    pub fn handle_timeout(&mut self, now_ms: f64) -> Res<()> {
        self.inner.handle_timeout(now_ms_checked(now_ms)?);
        Ok(())
    }

    /// The next action as JSON text (`{"type":"send",…}`), or undefined when none is queued.
    #[wasm_bindgen(js_name = "pollAction")]
    pub fn poll_action(&mut self) -> Option<String> {
        self.inner.poll_action().map(action_json)
    }

    /// When [`Self::handle_timeout`] is next due (milliseconds), or undefined.
    #[wasm_bindgen(js_name = "pollTimeout")]
    pub fn poll_timeout(&self) -> Option<f64> {
        self.inner.poll_timeout().map(s::Millis::get)
    }

    /// The armed breakpoints as a JSON array.
    #[wasm_bindgen(js_name = "breakpointsJson")]
    pub fn breakpoints_json(&self) -> String {
        let items: Vec<String> = self.inner.breakpoints().iter().map(core::to_json).collect();
        format!("[{}]", items.join(","))
    }

    /// The run mode.
    pub fn mode(&self) -> String {
        self.inner.mode().as_str().to_owned()
    }

    /// The ids of the open pauses, as a JSON array.
    #[wasm_bindgen(js_name = "openPausesJson")]
    pub fn open_pauses_json(&self) -> String {
        serde_json::to_string(&self.inner.open_pauses()).unwrap_or_else(|_| "[]".to_owned())
    }

    /// How many runs' state is retained.
    #[wasm_bindgen(js_name = "retainedRuns")]
    pub fn retained_runs(&self) -> usize {
        self.inner.retained_runs()
    }

    /// Approximate bytes of retained run state.
    #[wasm_bindgen(js_name = "retainedBytes")]
    pub fn retained_bytes(&self) -> usize {
        self.inner.retained_bytes()
    }
}

fn now_ms_checked(ms: f64) -> Res<s::Millis> {
    now_ms_checked_inner(ms)
}

/// One action as JSON text: `{"type": <kebab-case name>, …its fields in camelCase}`; an
/// envelope or hello as its JSON object (the contract's writer).
fn action_json(a: s::ViewerAction) -> String {
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
            raw(&mut out, "hello", &core::to_json(&*hello));
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
    crate::js_text::into_string(out)
}
