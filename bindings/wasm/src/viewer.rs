//! `ViewerSession` for the browser: the contract's sans-IO viewer (graphmind-session §5) as a
//! wasm-bindgen class. Thin: de-duplication, the handshake, pause bookkeeping, resume routing
//! and fail-open are the core's; the argument and action conversions are `wirecontract-js-text`'s
//! `viewer_text`, as the Node addon's, so both backends' classes take and give the same texts, which the
//! JavaScript layer (`viewer.js`) turns into plain objects.

use wasm_bindgen::prelude::wasm_bindgen;
use wirecontract::graphmind::session as s;
use wirecontract_js_text::viewer_text as vt;

use crate::{invalid_arg, with_frame, Res};

fn arg<T>(r: vt::Res<T>) -> Res<T> {
    r.map_err(invalid_arg)
}

/// The contract's `ViewerSession` (see `docs/session.md`).
#[wasm_bindgen]
pub struct ViewerSession {
    inner: s::ViewerSession,
}

#[wasm_bindgen]
impl ViewerSession {
    /// A session with the core's defaults, changed by the members of `config` (JSON text;
    /// `viewer_text::config`).
    #[wasm_bindgen(constructor)]
    pub fn new(config: &str) -> Res<ViewerSession> {
        Ok(ViewerSession { inner: s::ViewerSession::new(arg(vt::config(config))?) })
    }

    /// A new app connection (also implied by its first frame).
    #[wasm_bindgen(js_name = "connectionOpened")]
    pub fn connection_opened(&mut self, conn: f64) -> Res<()> {
        self.inner.connection_opened(arg(vt::conn_arg(conn))?);
        Ok(())
    }

    /// The connection closed: its open pauses are released (fail-open, §5.4).
    #[wasm_bindgen(js_name = "connectionClosed")]
    pub fn connection_closed(&mut self, conn: f64, now_ms: f64) -> Res<()> {
        self.inner.connection_closed(arg(vt::conn_arg(conn))?, arg(vt::now_arg(now_ms))?);
        Ok(())
    }

    /// One text frame of `len` bytes from the frame buffer, from `conn`: what was done with it
    /// (`viewer_text::frame_received`); the actions it queued come from [`Self::poll_action`].
    #[wasm_bindgen(js_name = "frameReceived")]
    pub fn frame_received(&mut self, conn: f64, len: usize, now_ms: f64) -> Res<String> {
        let conn = arg(vt::conn_arg(conn))?;
        let now = arg(vt::now_arg(now_ms))?;
        Ok(with_frame(len, |text| vt::frame_received(&mut self.inner, conn, text, now)).to_owned())
    }

    /// Arms a breakpoint (JSON text of a matcher) and broadcasts the set; whether it was new.
    #[wasm_bindgen(js_name = "setBreakpoint")]
    pub fn set_breakpoint(&mut self, matcher: &str, now_ms: f64) -> Res<bool> {
        let m = arg(vt::object_arg(matcher, "matcher"))?;
        Ok(self.inner.set_breakpoint(m, arg(vt::now_arg(now_ms))?))
    }

    /// Removes the breakpoints equal to `matcher` (§5.12); how many were removed.
    #[wasm_bindgen(js_name = "clearBreakpoint")]
    pub fn clear_breakpoint(&mut self, matcher: &str, now_ms: f64) -> Res<usize> {
        let m = arg(vt::object_arg(matcher, "matcher"))?;
        Ok(self.inner.clear_breakpoint(&m, arg(vt::now_arg(now_ms))?))
    }

    /// Sets the run mode and broadcasts it.
    #[wasm_bindgen(js_name = "setMode")]
    pub fn set_mode(&mut self, mode: &str, now_ms: f64) -> Res<()> {
        let mode = arg(vt::enum_arg(mode, "mode"))?;
        self.inner.set_mode(mode, arg(vt::now_arg(now_ms))?);
        Ok(())
    }

    /// Sends `exec.resume` for an open pause (§5.5; `viewer_text::resume`).
    pub fn resume(&mut self, pause_id: &str, action: &str, now_ms: f64, output: Option<String>, request_id: Option<String>) -> Res<()> {
        arg(vt::resume(&mut self.inner, pause_id, action, now_ms, output, request_id))
    }

    /// Fires resume waits and abandon graces due at `now_ms`.
    #[wasm_bindgen(js_name = "handleTimeout")]
    pub fn handle_timeout(&mut self, now_ms: f64) -> Res<()> {
        self.inner.handle_timeout(arg(vt::now_arg(now_ms))?);
        Ok(())
    }

    /// The next action as JSON text (`{"type":"send",…}`), or undefined when none is queued.
    #[wasm_bindgen(js_name = "pollAction")]
    pub fn poll_action(&mut self) -> Option<String> {
        self.inner.poll_action().map(vt::action_json)
    }

    /// When [`Self::handle_timeout`] is next due (milliseconds), or undefined.
    #[wasm_bindgen(js_name = "pollTimeout")]
    pub fn poll_timeout(&self) -> Option<f64> {
        self.inner.poll_timeout().map(s::Millis::get)
    }

    /// The armed breakpoints as a JSON array.
    #[wasm_bindgen(js_name = "breakpointsJson")]
    pub fn breakpoints_json(&self) -> String {
        vt::breakpoints_json(&self.inner)
    }

    /// The run mode.
    pub fn mode(&self) -> String {
        self.inner.mode().as_str().to_owned()
    }

    /// The ids of the open pauses, as a JSON array.
    #[wasm_bindgen(js_name = "openPausesJson")]
    pub fn open_pauses_json(&self) -> String {
        vt::open_pauses_json(&self.inner)
    }

    /// Whether the session still holds state for `run_id` (de-duplication keys, owner, pauses).
    #[wasm_bindgen(js_name = "retainsRun")]
    pub fn retains_run(&self, run_id: &str) -> bool {
        self.inner.retains_run(run_id)
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
