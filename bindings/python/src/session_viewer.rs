//! `wirecontract.graphmind.session`, native half, viewer side: the contract's
//! `ViewerSession` (graphmind-session §5) and its actions as Python classes. Thin like
//! `session.rs`: de-duplication, pause bookkeeping and routing are the core's.

#![allow(clippy::needless_pass_by_value)]

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use wirecontract::graphmind as gm;
use wirecontract::graphmind::session as s;
use wirecontract_json::RawJson;

use crate::convert::{py_to_json, NonFinite};
use crate::graphmind::{enum_arg, object_arg, objects_arg, Envelope};
use crate::session::{clock_param, frame_bytes, matchers_to_py, object_to_py, record};
use crate::{guard, uint_param, Text};

// Named by its public home, so a pickled ResumeError unpickles (pickle finds the class by
// `__module__` and name).
pyo3::create_exception!(
    wirecontract.graphmind.session,
    ResumeError,
    PyValueError,
    "ViewerSession.resume sent nothing: `.code` is \"unknown-pause\", \"released-by-disconnect\" or \"owner-gone\"."
);

record! {
    /// What `ViewerSession.frame_received` did with one frame: `kind` is `"hello"` (answered
    /// with a `hello.ack`), `"accepted"` (first-seen `(runId, seq)`), `"duplicate"` (already
    /// seen: dropped), `"wildcard"` (a `runId "*"` frame: neither stored nor de-duplicated) or
    /// `"rejected"` (invalid, `gm != 1` or a `hello` of another protocol version, a viewer-side
    /// type, or before `hello`; a `ViewerWarn` says which). `replayed`: the frame's seq is below its connection's hello seq.
    Received = "Received" {
        /// `"hello"`, `"accepted"`, `"duplicate"`, `"wildcard"` or `"rejected"`.
        kind: String,
        /// Whether it arrived as a replay (accepted and duplicate frames only).
        replayed: bool,
    }
}

fn received_to_py(r: s::Received) -> Received {
    let (kind, replayed) = match r {
        s::Received::Hello => ("hello", false),
        s::Received::Accepted { replayed } => ("accepted", replayed),
        s::Received::Duplicate { replayed } => ("duplicate", replayed),
        s::Received::Wildcard => ("wildcard", false),
        s::Received::Rejected => ("rejected", false),
    };
    Received { kind: kind.to_owned(), replayed }
}

record! {
    /// Send `frame` on connection `conn`.
    ViewerSend = "ViewerSend" {
        /// Target connection.
        conn: u64,
        /// The frame text.
        frame: String,
    }
}

record! {
    /// Close connection `conn` (1002 for `gm != 1` or a `hello` of another protocol version,
    /// §5.5).
    ViewerClose = "ViewerClose" {
        /// Target connection.
        conn: u64,
        /// WebSocket close code.
        code: u16,
        /// Close reason.
        reason: String,
    }
}

record! {
    /// `conn` said `hello` (a `Hello` payload object) and was answered with a `hello.ack`
    /// carrying `session_token`.
    AppAttached = "AppAttached" {
        /// The connection.
        conn: u64,
        /// The token in the ack (reused or minted).
        session_token: String,
        /// The app's `hello` payload.
        hello: PyObject,
    }
}

record! {
    /// A first-seen event frame (by `(runId, seq)`, §5.2) to store and render; `replayed`
    /// when it was buffered before this connection existed (§5.3).
    FrameAccepted = "FrameAccepted" {
        /// The connection it arrived on.
        conn: u64,
        /// The parsed frame (`wirecontract.graphmind.Envelope`).
        envelope: Py<Envelope>,
        /// Whether it arrived as a replay.
        replayed: bool,
    }
}

record! {
    /// A live, first-seen `exec.paused`: the pause is open and resumable (§5.4).
    PauseOpened = "PauseOpened" {
        /// Owning connection.
        conn: u64,
        /// Run.
        run_id: String,
        /// Pause id.
        pause_id: String,
        /// Node.
        node_id: String,
        /// Gate point (`"before"`, `"after"`, `"error"`).
        point: String,
    }
}

record! {
    /// `exec.resumed` arrived for a known pause: it is settled with `action`.
    PauseClosed = "PauseClosed" {
        /// Pause id.
        pause_id: String,
        /// The action the app applied.
        action: String,
    }
}

record! {
    /// The owning connection closed while the pause was open: the app continued on its own
    /// (fail-open, §5.4); its `exec.resumed` comes in a later replay, if ever.
    PauseReleased = "PauseReleased" {
        /// The closed connection.
        conn: u64,
        /// Pause id.
        pause_id: String,
    }
}

record! {
    /// `exec.refused`: the pause stays open (§5.4).
    ResumeRefused = "ResumeRefused" {
        /// Pause id.
        pause_id: String,
        /// Refusal code (`"placeholder"`, `"truncated"`, …).
        code: String,
        /// Echoed request id, or `None`.
        request_id: Option<String>,
    }
}

record! {
    /// A sent `exec.resume` got no answer within `resume_wait_ms`.
    ResumeTimedOut = "ResumeTimedOut" {
        /// Pause id.
        pause_id: String,
    }
}

record! {
    /// A run's owner stayed away for `abandon_grace_ms` (§5.5).
    RunAbandoned = "RunAbandoned" {
        /// Run.
        run_id: String,
    }
}

record! {
    /// Log this: `rule` is a stable key (`"invalid-frame"`, `"version-mismatch"`,
    /// `"before-hello"`, `"unexpected-type"`).
    ViewerWarn = "ViewerWarn" {
        /// The connection.
        conn: u64,
        /// Stable rule key.
        rule: String,
        /// Detail.
        text: String,
    }
}

fn action_to_py(py: Python<'_>, a: s::ViewerAction) -> PyResult<PyObject> {
    use s::ViewerAction as A;
    Ok(match a {
        A::Send { conn, frame } => Py::new(py, ViewerSend { conn: conn.0, frame })?.into_any(),
        A::Close { conn, code, reason } => Py::new(py, ViewerClose { conn: conn.0, code, reason })?.into_any(),
        A::AppAttached { conn, session_token, hello } => Py::new(py, AppAttached { conn: conn.0, session_token, hello: object_to_py(py, *hello)? })?.into_any(),
        A::FrameAccepted { conn, envelope, replayed } => {
            let envelope = Py::new(py, Envelope { inner: Arc::new(*envelope) })?;
            Py::new(py, FrameAccepted { conn: conn.0, envelope, replayed })?.into_any()
        }
        A::PauseOpened { conn, run_id, pause_id, node_id, point } => {
            Py::new(py, PauseOpened { conn: conn.0, run_id, pause_id, node_id, point: point.as_str().to_owned() })?.into_any()
        }
        A::PauseClosed { pause_id, action } => Py::new(py, PauseClosed { pause_id, action: action.as_str().to_owned() })?.into_any(),
        A::PauseReleased { conn, pause_id } => Py::new(py, PauseReleased { conn: conn.0, pause_id })?.into_any(),
        A::ResumeRefused { pause_id, code, request_id } => Py::new(py, ResumeRefused { pause_id, code: code.as_str().to_owned(), request_id })?.into_any(),
        A::ResumeTimedOut { pause_id } => Py::new(py, ResumeTimedOut { pause_id })?.into_any(),
        A::RunAbandoned { run_id } => Py::new(py, RunAbandoned { run_id })?.into_any(),
        A::Warn { conn, rule, text } => Py::new(py, ViewerWarn { conn: conn.0, rule: rule.to_owned(), text })?.into_any(),
    })
}

/// The viewer side of GraphMind sessions as a sans-IO state machine (graphmind-session §5):
/// per-connection handshake, `(runId, seq)` de-duplication that outlives connections, pause
/// bookkeeping, resume routing and breakpoint/mode broadcast.
///
/// Connections are ints chosen by the host. Keywords are the core's `ViewerConfig`; omitted
/// ones take the reference hub's defaults (breakpoints `[{"point": "error"}]`, mode `"run"`,
/// resume wait 5000 ms, abandon grace 15000 ms, tokens reused up to 128 UTF-16 units).
#[pyclass(module = "wirecontract.graphmind.session", name = "ViewerSession")]
pub struct ViewerSession {
    inner: s::ViewerSession,
}

#[pymethods]
impl ViewerSession {
    #[new]
    #[pyo3(signature = (
        *, breakpoints=None, mode=None, viewer_version=None, hub_capabilities=None, token_prefix=None,
        max_resume_token_len=None, resume_wait_ms=None, abandon_grace_ms=None,
        max_retained_runs=None, max_retained_bytes=None, max_seqs_per_run=None, max_tracked_pauses=None,
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        breakpoints: Option<&Bound<'_, PyAny>>,
        mode: Option<Text>,
        viewer_version: Option<Text>,
        hub_capabilities: Option<Vec<Text>>,
        token_prefix: Option<Text>,
        max_resume_token_len: Option<&Bound<'_, PyAny>>,
        resume_wait_ms: Option<&Bound<'_, PyAny>>,
        abandon_grace_ms: Option<&Bound<'_, PyAny>>,
        max_retained_runs: Option<&Bound<'_, PyAny>>,
        max_retained_bytes: Option<&Bound<'_, PyAny>>,
        max_seqs_per_run: Option<&Bound<'_, PyAny>>,
        max_tracked_pauses: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let max_resume_token_len = crate::opt_uint(max_resume_token_len, "max_resume_token_len")?;
        let resume_wait_ms = crate::opt_uint(resume_wait_ms, "resume_wait_ms")?;
        let abandon_grace_ms = crate::opt_uint(abandon_grace_ms, "abandon_grace_ms")?;
        let mode = mode.as_deref();
        let viewer_version = viewer_version.map(|t| t.0);
        let hub_capabilities = hub_capabilities.map(Text::strings);
        let token_prefix = token_prefix.map(|t| t.0);
        let mut c = s::ViewerConfig::default();
        if let Some(list) = breakpoints {
            c.breakpoints = objects_arg(list, "breakpoints")?;
        }
        if let Some(m) = mode {
            c.mode = enum_arg(m, "mode")?;
        }
        if let Some(v) = viewer_version {
            c.viewer_version = v;
        }
        c.hub_capabilities = hub_capabilities;
        if let Some(v) = token_prefix {
            c.token_prefix = v;
        }
        if let Some(v) = max_resume_token_len {
            c.max_resume_token_len = usize::try_from(v).unwrap_or(usize::MAX);
        }
        if let Some(v) = resume_wait_ms {
            c.resume_wait_ms = v;
        }
        if let Some(v) = abandon_grace_ms {
            c.abandon_grace_ms = v;
        }
        // The retention bounds (docs/robustness.md "Resource limits"): positive counts.
        for (arg, name, field) in [
            (max_retained_runs, "max_retained_runs", &mut c.max_retained_runs),
            (max_retained_bytes, "max_retained_bytes", &mut c.max_retained_bytes),
            (max_seqs_per_run, "max_seqs_per_run", &mut c.max_seqs_per_run),
            (max_tracked_pauses, "max_tracked_pauses", &mut c.max_tracked_pauses),
        ] {
            match crate::opt_size(arg, name)? {
                Some(0) => return Err(PyValueError::new_err(format!("{name} must be positive, got 0"))),
                Some(v) => *field = v,
                None => {}
            }
        }
        Ok(ViewerSession { inner: s::ViewerSession::new(c) })
    }

    /// connection_opened(conn, /)
    /// --
    ///
    /// A new app connection (also implied by its first frame).
    #[pyo3(signature = (conn, /))]
    fn connection_opened(&mut self, conn: &Bound<'_, PyAny>) -> PyResult<()> {
        let conn = uint_param(conn, "conn")?;
        guard(|| self.inner.connection_opened(s::ConnectionId(conn)))
    }

    /// connection_closed(conn, now_ms, /)
    /// --
    ///
    /// `conn` closed: its open pauses are released by fail-open (`PauseReleased`) and its
    /// runs start the abandon grace (§5.4, §5.5).
    #[pyo3(signature = (conn, now_ms, /))]
    fn connection_closed(&mut self, conn: &Bound<'_, PyAny>, now_ms: &Bound<'_, PyAny>) -> PyResult<()> {
        let conn = uint_param(conn, "conn")?;
        let now_ms = clock_param(now_ms)?;
        guard(|| self.inner.connection_closed(s::ConnectionId(conn), now_ms))
    }

    /// frame_received(conn, data, now_ms, /)
    /// --
    ///
    /// One text frame from `conn` (`str`, `bytes` or `bytearray`); returns a `Received`
    /// saying what the session did with it. Never raises for bad input: bad frames become
    /// `ViewerWarn`, `gm != 1` and a `hello` of another protocol version a `ViewerClose` with
    /// 1002.
    #[pyo3(signature = (conn, data, now_ms, /))]
    fn frame_received(&mut self, conn: &Bound<'_, PyAny>, data: &Bound<'_, PyAny>, now_ms: &Bound<'_, PyAny>) -> PyResult<Received> {
        let conn = uint_param(conn, "conn")?;
        let now_ms = clock_param(now_ms)?;
        let bytes = frame_bytes(data)?;
        let outcome = guard(|| gm::parse(&bytes, &gm::ParseOptions::default()))?;
        Ok(received_to_py(guard(|| self.inner.outcome_received(s::ConnectionId(conn), &bytes, outcome, now_ms))?))
    }

    /// set_breakpoint(matcher, now_ms, /)
    /// --
    ///
    /// Adds a breakpoint (a dict or `BreakpointMatcher`) unless an equal one exists
    /// (graphmind-v1 §5.12) and broadcasts `breakpoint.set`; returns whether it was added.
    #[pyo3(signature = (matcher, now_ms, /))]
    fn set_breakpoint(&mut self, matcher: &Bound<'_, PyAny>, now_ms: &Bound<'_, PyAny>) -> PyResult<bool> {
        let now_ms = clock_param(now_ms)?;
        let m = object_arg(matcher, "matcher")?;
        guard(|| self.inner.set_breakpoint(m, now_ms))
    }

    /// clear_breakpoint(matcher, now_ms, /)
    /// --
    ///
    /// Removes every equal breakpoint and broadcasts `breakpoint.clear` when one was there;
    /// returns how many were removed.
    #[pyo3(signature = (matcher, now_ms, /))]
    fn clear_breakpoint(&mut self, matcher: &Bound<'_, PyAny>, now_ms: &Bound<'_, PyAny>) -> PyResult<usize> {
        let now_ms = clock_param(now_ms)?;
        let m = object_arg(matcher, "matcher")?;
        guard(|| self.inner.clear_breakpoint(&m, now_ms))
    }

    /// set_mode(mode, now_ms, /)
    /// --
    ///
    /// Sets the mode (`"run"` or `"step"`) and broadcasts `mode.set` when it changed.
    #[pyo3(signature = (mode, now_ms, /))]
    fn set_mode(&mut self, mode: Text, now_ms: &Bound<'_, PyAny>) -> PyResult<()> {
        let mode: &str = &mode;
        let now_ms = clock_param(now_ms)?;
        let mode = enum_arg(mode, "mode")?;
        guard(|| self.inner.set_mode(mode, now_ms))
    }

    /// resume(pause_id, action, now_ms, /, *, output=..., request_id=None)
    /// --
    ///
    /// §5.5: sends `exec.resume` with `action` (`"continue"`, `"retry"`, `"inject"`,
    /// `"abort"`) for an open pause to the connection owning its run. `output` (any JSON
    /// value; leave it out for "no value") is for `inject`. Raises `ResumeError` (a
    /// `ValueError` with `.code`) when the pause is not open or its owner is gone.
    #[pyo3(signature = (pause_id, action, now_ms, /, **kwargs))]
    fn resume(&mut self, py: Python<'_>, pause_id: Text, action: Text, now_ms: &Bound<'_, PyAny>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<()> {
        let pause_id: &str = &pause_id;
        let action: &str = &action;
        let now_ms = clock_param(now_ms)?;
        let action = enum_arg(action, "action")?;
        let mut output = None;
        let mut request_id = None;
        if let Some(kw) = kwargs {
            for (k, v) in kw.iter() {
                match k.extract::<String>()?.as_str() {
                    "output" => {
                        let text = py_to_json(&v, NonFinite::Null).map_err(|e| e.for_arg("output"))?;
                        output = Some(RawJson::from_json(&text).map_err(|e| PyValueError::new_err(format!("output: {e}")))?);
                    }
                    "request_id" => {
                        // A lone surrogate keeps `Text`'s BuildError; another type is named.
                        if !v.is_none() && !v.is_instance_of::<pyo3::types::PyString>() {
                            let tn = v.get_type().name().map_or_else(|_| "?".to_owned(), |n| n.to_string());
                            return Err(pyo3::exceptions::PyTypeError::new_err(format!("request_id must be a str or None, not {tn}")));
                        }
                        request_id = v.extract::<Option<Text>>()?.map(|t| t.0);
                    }
                    other => return Err(pyo3::exceptions::PyTypeError::new_err(format!("resume() got an unexpected keyword argument {other:?}"))),
                }
            }
        }
        guard(|| self.inner.resume(pause_id, action, output, request_id, now_ms))?.map_err(|e| {
            let code = match e {
                s::ResumeError::UnknownPause => "unknown-pause",
                s::ResumeError::ReleasedByDisconnect => "released-by-disconnect",
                s::ResumeError::OwnerGone => "owner-gone",
            };
            let err = ResumeError::new_err(e.to_string());
            let _ = err.value(py).setattr("code", code);
            err
        })
    }

    /// handle_timeout(now_ms, /)
    /// --
    ///
    /// Fires resume waits (`ResumeTimedOut`) and abandon graces (`RunAbandoned`) due.
    #[pyo3(signature = (now_ms, /))]
    fn handle_timeout(&mut self, now_ms: &Bound<'_, PyAny>) -> PyResult<()> {
        let now_ms = clock_param(now_ms)?;
        guard(|| self.inner.handle_timeout(now_ms))
    }

    /// poll_action()
    /// --
    ///
    /// The next action, oldest first, or `None`.
    fn poll_action(&mut self, py: Python<'_>) -> PyResult<Option<PyObject>> {
        self.inner.poll_action().map(|a| action_to_py(py, a)).transpose()
    }

    /// poll_actions()
    /// --
    ///
    /// Every pending action, oldest first.
    fn poll_actions(&mut self, py: Python<'_>) -> PyResult<Vec<PyObject>> {
        std::iter::from_fn(|| self.inner.poll_action()).map(|a| action_to_py(py, a)).collect()
    }

    /// poll_timeout()
    /// --
    ///
    /// The earliest deadline (ms, a float like `now_ms`) at which to call `handle_timeout`,
    /// or `None`.
    fn poll_timeout(&self) -> Option<f64> {
        self.inner.poll_timeout().map(s::Millis::get)
    }

    /// The current breakpoints (the full set every ack carries), as `BreakpointMatcher`s.
    #[getter]
    fn breakpoints(&self, py: Python<'_>) -> PyResult<PyObject> {
        matchers_to_py(py, self.inner.breakpoints())
    }
    /// The current mode, `"run"` or `"step"`.
    #[getter]
    fn mode(&self) -> &'static str {
        self.inner.mode().as_str()
    }
    /// Pause ids that are open (live, unanswered, owner connected), sorted.
    #[getter]
    fn open_pauses(&self) -> Vec<String> {
        self.inner.open_pauses()
    }
    /// Runs whose state (de-duplication keys, owner, pauses) is retained now; at most
    /// `max_retained_runs`.
    #[getter]
    fn retained_runs(&self) -> usize {
        self.inner.retained_runs()
    }
    /// Approximate bytes of retained run state; kept near `max_retained_bytes`.
    #[getter]
    fn retained_bytes(&self) -> usize {
        self.inner.retained_bytes()
    }
    fn __repr__(&self) -> String {
        format!("ViewerSession(mode={:?}, open_pauses={})", self.inner.mode().as_str(), self.inner.open_pauses().len())
    }
}

/// Adds the viewer classes to the `wirecontract._native.session` module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<ViewerSession>()?;
    m.add_class::<Received>()?;
    m.add_class::<ViewerSend>()?;
    m.add_class::<ViewerClose>()?;
    m.add_class::<AppAttached>()?;
    m.add_class::<FrameAccepted>()?;
    m.add_class::<PauseOpened>()?;
    m.add_class::<PauseClosed>()?;
    m.add_class::<PauseReleased>()?;
    m.add_class::<ResumeRefused>()?;
    m.add_class::<ResumeTimedOut>()?;
    m.add_class::<RunAbandoned>()?;
    m.add_class::<ViewerWarn>()?;
    m.add("ResumeError", py.get_type::<ResumeError>())?;
    Ok(())
}
