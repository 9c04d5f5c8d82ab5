//! `ViewerSession` for Node.js: the contract's sans-IO viewer (graphmind-session §5) as a
//! Node-API class. Thin: de-duplication, the handshake, pause bookkeeping, resume routing and
//! fail-open are the core's; the argument and action conversions are `wirecontract-js-text`'s
//! `viewer_text`, which the WASM build uses too, so both backends' classes take and give the same texts. The
//! JavaScript layer (`viewer.js`) turns them into plain objects. Every method runs under
//! [`guard`]: a panic becomes an `Error`, never an abort of the process.

use napi_derive::napi;
use wirecontract::graphmind::session as s;
use wirecontract_js_text::viewer_text as vt;

use crate::{guard, invalid_arg, FrameText};

fn arg<T>(r: vt::Res<T>) -> napi::Result<T> {
    r.map_err(invalid_arg)
}

/// The contract's `ViewerSession` (see `docs/session.md`), wrapped by `viewer.js`.
#[napi(js_name = "ViewerSession")]
pub struct ViewerSession {
    inner: s::ViewerSession,
}

#[napi]
impl ViewerSession {
    /// A session with the core's defaults, changed by the members of `config` (JSON text;
    /// `viewer_text::config`).
    #[napi(constructor)]
    pub fn new(config: String) -> napi::Result<Self> {
        guard(|| Ok(ViewerSession { inner: s::ViewerSession::new(arg(vt::config(&config))?) }))
    }

    /// A new app connection (also implied by its first frame).
    #[napi(js_name = "connectionOpened")]
    pub fn connection_opened(&mut self, conn: f64) -> napi::Result<()> {
        guard(|| {
            self.inner.connection_opened(arg(vt::conn_arg(conn))?);
            Ok(())
        })
    }

    /// The connection closed: its open pauses are released (fail-open, §5.4).
    #[napi(js_name = "connectionClosed")]
    pub fn connection_closed(&mut self, conn: f64, now_ms: f64) -> napi::Result<()> {
        guard(|| {
            self.inner.connection_closed(arg(vt::conn_arg(conn))?, arg(vt::now_arg(now_ms))?);
            Ok(())
        })
    }

    /// One text frame from `conn` (read as `JSON.parse` reads the string, lone surrogates
    /// included): what was done with it (`viewer_text::frame_received`); the actions it
    /// queued come from [`Self::poll_action`].
    #[napi(js_name = "frameReceived")]
    pub fn frame_received(&mut self, conn: f64, text: FrameText, now_ms: f64) -> napi::Result<&'static str> {
        guard(|| {
            let conn = arg(vt::conn_arg(conn))?;
            let now = arg(vt::now_arg(now_ms))?;
            Ok(vt::frame_received(&mut self.inner, conn, &text.0, now))
        })
    }

    /// Arms a breakpoint (JSON text of a matcher) and broadcasts the set; whether it was new.
    #[napi(js_name = "setBreakpoint")]
    pub fn set_breakpoint(&mut self, matcher: String, now_ms: f64) -> napi::Result<bool> {
        guard(|| {
            let m = arg(vt::object_arg(&matcher, "matcher"))?;
            Ok(self.inner.set_breakpoint(m, arg(vt::now_arg(now_ms))?))
        })
    }

    /// Removes the breakpoints equal to `matcher` (§5.12); how many were removed.
    #[napi(js_name = "clearBreakpoint")]
    pub fn clear_breakpoint(&mut self, matcher: String, now_ms: f64) -> napi::Result<u32> {
        guard(|| {
            let m = arg(vt::object_arg(&matcher, "matcher"))?;
            let n = self.inner.clear_breakpoint(&m, arg(vt::now_arg(now_ms))?);
            Ok(u32::try_from(n).unwrap_or(u32::MAX))
        })
    }

    /// Sets the run mode and broadcasts it.
    #[napi(js_name = "setMode")]
    pub fn set_mode(&mut self, mode: String, now_ms: f64) -> napi::Result<()> {
        guard(|| {
            let mode = arg(vt::enum_arg(&mode, "mode"))?;
            self.inner.set_mode(mode, arg(vt::now_arg(now_ms))?);
            Ok(())
        })
    }

    /// Sends `exec.resume` for an open pause (§5.5; `viewer_text::resume`).
    #[napi]
    pub fn resume(&mut self, pause_id: String, action: String, now_ms: f64, output: Option<String>, request_id: Option<String>) -> napi::Result<()> {
        guard(|| arg(vt::resume(&mut self.inner, &pause_id, &action, now_ms, output, request_id)))
    }

    /// Fires resume waits and abandon graces due at `now_ms`.
    #[napi(js_name = "handleTimeout")]
    pub fn handle_timeout(&mut self, now_ms: f64) -> napi::Result<()> {
        guard(|| {
            self.inner.handle_timeout(arg(vt::now_arg(now_ms))?);
            Ok(())
        })
    }

    /// The next action as JSON text (`{"type":"send",…}`), or `null` when none is queued.
    #[napi(js_name = "pollAction")]
    pub fn poll_action(&mut self) -> napi::Result<Option<String>> {
        guard(|| Ok(self.inner.poll_action().map(vt::action_json)))
    }

    /// When [`Self::handle_timeout`] is next due (milliseconds), or `null`.
    #[napi(js_name = "pollTimeout")]
    pub fn poll_timeout(&self) -> napi::Result<Option<f64>> {
        guard(|| Ok(self.inner.poll_timeout().map(s::Millis::get)))
    }

    /// The armed breakpoints as a JSON array.
    #[napi(js_name = "breakpointsJson")]
    pub fn breakpoints_json(&self) -> napi::Result<String> {
        guard(|| Ok(vt::breakpoints_json(&self.inner)))
    }

    /// The run mode.
    #[napi]
    pub fn mode(&self) -> napi::Result<&'static str> {
        guard(|| Ok(self.inner.mode().as_str()))
    }

    /// The ids of the open pauses, as a JSON array.
    #[napi(js_name = "openPausesJson")]
    pub fn open_pauses_json(&self) -> napi::Result<String> {
        guard(|| Ok(vt::open_pauses_json(&self.inner)))
    }

    /// Whether the session still holds state for `run_id` (de-duplication keys, owner, pauses).
    #[napi(js_name = "retainsRun")]
    pub fn retains_run(&self, run_id: String) -> napi::Result<bool> {
        guard(|| Ok(self.inner.retains_run(&run_id)))
    }

    /// How many runs' state is retained.
    #[napi(js_name = "retainedRuns")]
    pub fn retained_runs(&self) -> napi::Result<f64> {
        guard(|| Ok(self.inner.retained_runs() as f64))
    }

    /// Approximate bytes of retained run state.
    #[napi(js_name = "retainedBytes")]
    pub fn retained_bytes(&self) -> napi::Result<f64> {
        guard(|| Ok(self.inner.retained_bytes() as f64))
    }
}
