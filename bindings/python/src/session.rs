//! `wirecontract.graphmind.session`, native half: the sans-IO session cores of the contract
//! crate (`graphmind::session`, spec graphmind-session.md) as Python classes.
//!
//! Thin: this converts host values (dicts, strings, ints) into the core's inputs and the
//! core's actions into frozen Python objects. Every rule (seq, handshake, ring and replay,
//! gates, fail-open, `heldMs`) stays in the core. The asyncio hosts over these classes are
//! pure Python (`wirecontract/graphmind/session.py`).
//!
//! Clock readings (`now_ms`) are milliseconds as an `int` or a `float` with fractions
//! (`1000.3`): the host's clock, epoch milliseconds read from a monotonic clock; the whole
//! part is also the frames' `ts`. NaN, infinities and negative readings are a `ValueError`.
//! Configured durations (`*_ms` keywords) stay integers.

// pyo3 methods receive owned values from Python.
#![allow(clippy::needless_pass_by_value)]

use std::sync::Arc;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use wirecontract::graphmind as gm;
use wirecontract::graphmind::session as s;
use wirecontract::wire::Reflect as _;

use crate::convert::{json_to_py, py_to_json, NonFinite};
use crate::graphmind::{arg_error, build_error, enum_arg, host_build_error, object_arg, refuse_other_object};
use crate::object::{make_object, Root};
use crate::{guard, str_param, Text};

/// A clock reading (`now_ms`): an `int` or `float` of milliseconds, fractions kept. A `bool`
/// or another type is a `TypeError`; NaN, an infinity, a negative value or one above
/// 2**53 - 1 a `ValueError` saying which.
pub(crate) fn clock_param(v: &Bound<'_, PyAny>) -> PyResult<s::Millis> {
    if v.is_instance_of::<pyo3::types::PyBool>() || !(v.is_instance_of::<pyo3::types::PyInt>() || v.is_instance_of::<pyo3::types::PyFloat>()) {
        let tn = v.get_type().name().map_or_else(|_| "?".to_owned(), |n| n.to_string());
        return Err(PyTypeError::new_err(format!("argument 'now_ms': expected int or float, received {tn}")));
    }
    let refused = |e: s::ClockError| PyValueError::new_err(format!("argument 'now_ms': {e}"));
    // An int too large for a float is above 2**53 - 1 anyway.
    let ms = v.extract::<f64>().map_err(|_| refused(s::ClockError::TooLarge))?;
    s::Millis::new(ms).map_err(refused)
}

/// An emit's outcome for Python: the seq, `BuildError` for a payload or argument, else
/// `ValueError`.
fn emit_result(py: Python<'_>, r: Result<Option<u64>, s::EmitError>) -> PyResult<Option<u64>> {
    match r {
        Ok(seq) => Ok(seq),
        Err(s::EmitError::Build(e)) => Err(build_error(py, &e)),
        Err(e) => Err(PyValueError::new_err(e.to_string())),
    }
}

/// The JSON text of argument `name` (a dict, list, scalar or contract object); a value with
/// no JSON form is a `BuildError` naming the path under `name`.
fn arg_json(py: Python<'_>, value: &Bound<'_, PyAny>, name: &str) -> PyResult<String> {
    py_to_json(value, NonFinite::Null).map_err(|e| {
        let issues = vec![wirecontract::wire::Issue::at(&e.full_path(name), e.message.clone())];
        build_error(py, &gm::BuildError { reason: format!("{name} has no JSON form"), issues })
    })
}

/// Declares a frozen Python record class: read-only attributes, `__match_args__` in field
/// order (for `match`), `__repr__` and `__eq__` over the fields.
macro_rules! record {
    ($(#[$m:meta])* $rust:ident = $py:literal { $( $(#[$fm:meta])* $field:ident : $ty:ty ),* $(,)? }) => {
        $(#[$m])*
        #[pyclass(frozen, module = "wirecontract.graphmind.session", name = $py)]
        pub struct $rust {
            $( $(#[$fm])* #[pyo3(get)] pub $field: $ty, )*
        }

        #[pymethods]
        impl $rust {
            #[new]
            fn new($( $field: $ty ),*) -> Self {
                $rust { $( $field ),* }
            }
            #[classattr]
            fn __match_args__(py: Python<'_>) -> PyResult<Py<::pyo3::types::PyTuple>> {
                Ok(::pyo3::types::PyTuple::new(py, [$( stringify!($field) ),*])?.unbind())
            }
            fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
                let mut parts: Vec<String> = Vec::new();
                $( parts.push(format!("{}={}", stringify!($field), slf.getattr(stringify!($field))?.repr()?)); )*
                Ok(format!("{}({})", $py, parts.join(", ")))
            }
            fn __eq__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
                if !other.is_instance_of::<Self>() {
                    return Ok(false);
                }
                $( if !slf.getattr(stringify!($field))?.eq(other.getattr(stringify!($field))?)? { return Ok(false); } )*
                Ok(true)
            }
            #[classattr]
            #[pyo3(name = "__hash__")]
            fn hash_none(py: Python<'_>) -> PyObject {
                py.None()
            }
        }
    };
}
pub(crate) use record;

// ---- inputs ----------------------------------------------------------------------------------

/// The node a gate sits on (graphmind-session §3.1, §3.9): `node_id` as in `node.started`,
/// `kind` (a `NodeKind` value) and `name` for matchers and the loop guard, and the optional
/// `instance_id` that pins the hold exactly and is copied into `exec.paused.instanceId`.
#[pyclass(frozen, eq, module = "wirecontract.graphmind.session", name = "GateNode")]
#[derive(Clone, PartialEq)]
pub struct GateNode {
    inner: s::GateNode,
}

#[pymethods]
impl GateNode {
    #[new]
    #[pyo3(signature = (node_id, kind, name, instance_id=None))]
    fn new(node_id: Text, kind: Text, name: Text, instance_id: Option<Text>) -> PyResult<Self> {
        let node_id = node_id.0;
        let kind: &str = &kind;
        let name = name.0;
        let instance_id = instance_id.map(|t| t.0);
        let kind = enum_arg(kind, "kind")?;
        Ok(GateNode { inner: s::GateNode { node_id, kind, name, instance_id } })
    }
    /// `nodeId`.
    #[getter]
    fn node_id(&self) -> &str {
        &self.inner.node_id
    }
    /// Node kind (`"tool"`, `"llm"`, …).
    #[getter]
    fn kind(&self) -> &'static str {
        self.inner.kind.as_str()
    }
    /// Node name.
    #[getter]
    fn name(&self) -> &str {
        &self.inner.name
    }
    /// Instance id, or `None`.
    #[getter]
    fn instance_id(&self) -> Option<&str> {
        self.inner.instance_id.as_deref()
    }
    #[classattr]
    fn __match_args__() -> (&'static str, &'static str, &'static str, &'static str) {
        ("node_id", "kind", "name", "instance_id")
    }
    fn __repr__(&self) -> String {
        let n = &self.inner;
        let instance = n.instance_id.as_ref().map_or_else(|| "None".to_owned(), |i| format!("{i:?}"));
        format!("GateNode(node_id={:?}, kind={:?}, name={:?}, instance_id={instance})", n.node_id, n.kind.as_str(), n.name)
    }
}

/// `str`, `bytes` or `bytearray` as frame bytes. A `str` with lone surrogates has no UTF-8
/// form: its surrogatepass bytes get the same "invalid UTF-8" verdict a socket would give.
pub(crate) fn frame_bytes(data: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(s) = data.downcast::<PyString>() {
        return match s.to_str() {
            Ok(t) => Ok(t.as_bytes().to_vec()),
            Err(_) => s.call_method1("encode", ("utf-8", "surrogatepass"))?.extract(),
        };
    }
    if let Ok(b) = data.downcast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    if let Ok(b) = data.extract::<Vec<u8>>() {
        return Ok(b);
    }
    let tn = data.get_type().name().map(|n| n.to_string()).unwrap_or_default();
    Err(PyTypeError::new_err(format!("a frame is str, bytes or bytearray, not {tn}")))
}

// ---- app-side actions ------------------------------------------------------------------------

record! {
    /// What a released gate tells the adapter to do (graphmind-session §3.7): `action` is
    /// `"continue"`, `"retry"`, `"inject"` or `"abort"`; for `"inject"`, `output` is the
    /// `exec.resume.output` as a Python value and `output_json` its exact JSON text
    /// (`has_output` is `False` for an inject of "no value", distinct from `null`).
    Decision = "Decision" {
        /// `"continue"`, `"retry"`, `"inject"` or `"abort"`.
        action: String,
        /// The injected value (`None` when absent or null; see `has_output`).
        output: PyObject,
        /// Whether an `inject` carried an `output` member.
        has_output: bool,
        /// The injected value's exact JSON text, or `None`.
        output_json: Option<String>,
    }
}

pub(crate) fn decision_to_py(py: Python<'_>, d: &s::Decision) -> PyResult<Py<Decision>> {
    let (output, output_json) = match d {
        s::Decision::Inject { output: Some(raw) } => (json_to_py(py, raw.as_str())?, Some(raw.as_str().to_owned())),
        _ => (py.None(), None),
    };
    let has_output = output_json.is_some();
    Py::new(py, Decision { action: d.action().as_str().to_owned(), output, has_output, output_json })
}

record! {
    /// Open a WebSocket to `url`, then call `transport_opened` (or `transport_failed`).
    Connect = "Connect" {
        /// Endpoint.
        url: String,
    }
}

record! {
    /// Send `frame` (text) on the open socket, in poll order.
    SendFrame = "Send" {
        /// The frame text.
        frame: String,
    }
}

record! {
    /// Close the socket or abandon the attempt (`code`: 1000 normal and timeouts, 1002
    /// protocol error). The core is already detached: ignore that socket from now on.
    Close = "Close" {
        /// WebSocket close code.
        code: u16,
        /// Close reason.
        reason: String,
    }
}

record! {
    /// Wake the gate `pause_id` with `decision`; its `exec.resumed` is already emitted.
    /// `cause`: `"resume"`, `"timeout"`, `"disconnect"`, `"dispose"` or `"cancel"` (§3.8).
    Release = "Release" {
        /// The pause id `gate` returned.
        pause_id: String,
        /// What the adapter must do.
        decision: Py<Decision>,
        /// Why the gate was released.
        cause: String,
    }
}

record! {
    /// Abort the run's context before the `abort` decision reaches the adapter (§3.7).
    AbortRun = "AbortRun" {
        /// The run to abort.
        run_id: String,
    }
}

record! {
    /// The `ready()` call `waiter` settled: `attached` is whether the session is attached.
    ReadySettled = "ReadySettled" {
        /// The id `ready` returned.
        waiter: u64,
        /// Attached (`True`) or timed out, disabled or disposed (`False`).
        attached: bool,
    }
}

record! {
    /// Log this: `rule` is a stable key (`"invalid-frame"`, `"version-mismatch"`,
    /// `"ack-protocol"`, `"handshake-timeout"`, `"connect-timeout"`, `"buffer-overflow"`,
    /// `"loop-detected"`, `"bad-run-id"`, `"breakpoint-limit"`), `text` is for humans.
    Warn = "Warn" {
        /// Stable rule key.
        rule: String,
        /// Detail.
        text: String,
    }
}

fn cause_str(c: s::ReleaseCause) -> &'static str {
    match c {
        s::ReleaseCause::Resume => "resume",
        s::ReleaseCause::Timeout => "timeout",
        s::ReleaseCause::Disconnect => "disconnect",
        s::ReleaseCause::Dispose => "dispose",
        s::ReleaseCause::Cancel => "cancel",
    }
}

fn action_to_py(py: Python<'_>, a: s::Action) -> PyResult<PyObject> {
    Ok(match a {
        s::Action::Connect { url } => Py::new(py, Connect { url })?.into_any(),
        s::Action::Send(frame) => Py::new(py, SendFrame { frame })?.into_any(),
        s::Action::Close { code, reason } => Py::new(py, Close { code, reason })?.into_any(),
        s::Action::Release { pause_id, decision, cause } => {
            Py::new(py, Release { pause_id, decision: decision_to_py(py, &decision)?, cause: cause_str(cause).to_owned() })?.into_any()
        }
        s::Action::AbortRun { run_id } => Py::new(py, AbortRun { run_id })?.into_any(),
        s::Action::ReadySettled { waiter, attached } => Py::new(py, ReadySettled { waiter: waiter.0, attached })?.into_any(),
        s::Action::Warn(w) => Py::new(py, Warn { rule: w.rule.to_owned(), text: w.text })?.into_any(),
    })
}

// ---- AppSession ------------------------------------------------------------------------------

fn state_str(c: s::ConnState) -> &'static str {
    match c {
        s::ConnState::Idle => "idle",
        s::ConnState::Connecting => "connecting",
        s::ConnState::AwaitingAck => "awaiting-ack",
        s::ConnState::Attached => "attached",
        s::ConnState::Disposed => "disposed",
    }
}

pub(crate) fn matchers_to_py(py: Python<'_>, list: &[gm::BreakpointMatcher]) -> PyResult<PyObject> {
    let items: Vec<PyObject> = list.iter().map(|m| make_object(py, m.type_name(), Root::Object(Arc::new(m.clone())), Vec::new())).collect::<PyResult<_>>()?;
    Ok(PyList::new(py, items)?.into_any().unbind())
}

fn size(v: u64) -> usize {
    usize::try_from(v).unwrap_or(usize::MAX)
}

/// The app side of a GraphMind session as a sans-IO state machine (graphmind-session §2.1):
/// one seq counter (hello included), the handshake, the replay ring with gap markers,
/// controls, gates with their `exec.resumed` obligations, and `heldMs`.
///
/// Feed it inputs stamped with `now_ms`, carry out what `poll_action()` returns, and call
/// `handle_timeout(now)` at `poll_timeout()`. Every keyword of the constructor is a field of
/// the core's `SessionConfig`; an omitted one takes the spec default (§1).
#[pyclass(module = "wirecontract.graphmind.session", name = "AppSession")]
pub struct AppSession {
    inner: s::AppSession,
}

#[pymethods]
impl AppSession {
    #[new]
    #[pyo3(signature = (
        *, env=None, url=None, app=None, sdk=None, client_version=None, capabilities=None, enabled=None,
        ring_max_frames=None, ring_max_bytes=None, max_tracked_gap_runs=None, loss_warn_interval_ms=None,
        pause_timeout_ms=None, connect_timeout_ms=None, handshake_timeout_ms=None, retry_interval_ms=None,
        fast_retry_ms=None, ready_timeout_ms=None, id_base=None, implicit_run_id=None, max_held_instances=None,
        max_breakpoints=None,
        loop_threshold=None, loop_mode=None, loop_kinds=None, loop_max_runs=None, loop_allow=None, redaction_placeholder=None,
        max_payload_bytes=None, hide_inputs=None, hide_outputs=None, hide_tool_args=None, hide_tool_results=None,
        token_batch_ms=None, root_node=None, meta=None, max_value_depth=None,
    ))]
    #[allow(clippy::too_many_arguments, clippy::too_many_lines)] // one keyword per config field
    fn new(
        py: Python<'_>,
        env: Option<&Bound<'_, PyAny>>,
        url: Option<Text>,
        app: Option<Text>,
        sdk: Option<&Bound<'_, PyAny>>,
        client_version: Option<Text>,
        capabilities: Option<Vec<Text>>,
        enabled: Option<bool>,
        ring_max_frames: Option<&Bound<'_, PyAny>>,
        ring_max_bytes: Option<&Bound<'_, PyAny>>,
        max_tracked_gap_runs: Option<&Bound<'_, PyAny>>,
        loss_warn_interval_ms: Option<&Bound<'_, PyAny>>,
        pause_timeout_ms: Option<&Bound<'_, PyAny>>,
        connect_timeout_ms: Option<&Bound<'_, PyAny>>,
        handshake_timeout_ms: Option<&Bound<'_, PyAny>>,
        retry_interval_ms: Option<&Bound<'_, PyAny>>,
        fast_retry_ms: Option<Vec<Bound<'_, PyAny>>>,
        ready_timeout_ms: Option<&Bound<'_, PyAny>>,
        id_base: Option<Text>,
        implicit_run_id: Option<Text>,
        max_held_instances: Option<&Bound<'_, PyAny>>,
        max_breakpoints: Option<&Bound<'_, PyAny>>,
        loop_threshold: Option<&Bound<'_, PyAny>>,
        loop_mode: Option<Text>,
        loop_kinds: Option<Vec<Text>>,
        loop_max_runs: Option<&Bound<'_, PyAny>>,
        loop_allow: Option<Vec<Text>>,
        redaction_placeholder: Option<Text>,
        max_payload_bytes: Option<&Bound<'_, PyAny>>,
        hide_inputs: Option<bool>,
        hide_outputs: Option<bool>,
        hide_tool_args: Option<bool>,
        hide_tool_results: Option<bool>,
        token_batch_ms: Option<&Bound<'_, PyAny>>,
        root_node: Option<bool>,
        meta: Option<&Bound<'_, PyAny>>,
        max_value_depth: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let token_batch_ms = crate::opt_uint(token_batch_ms, "token_batch_ms")?;
        let max_value_depth = crate::opt_uint(max_value_depth, "max_value_depth")?;
        let ring_max_frames = crate::opt_uint(ring_max_frames, "ring_max_frames")?;
        let ring_max_bytes = crate::opt_uint(ring_max_bytes, "ring_max_bytes")?;
        let max_tracked_gap_runs = crate::opt_uint(max_tracked_gap_runs, "max_tracked_gap_runs")?;
        let loss_warn_interval_ms = crate::opt_uint(loss_warn_interval_ms, "loss_warn_interval_ms")?;
        let pause_timeout_ms = crate::opt_uint(pause_timeout_ms, "pause_timeout_ms")?;
        let connect_timeout_ms = crate::opt_uint(connect_timeout_ms, "connect_timeout_ms")?;
        let handshake_timeout_ms = crate::opt_uint(handshake_timeout_ms, "handshake_timeout_ms")?;
        let retry_interval_ms = crate::opt_uint(retry_interval_ms, "retry_interval_ms")?;
        let fast_retry_ms = fast_retry_ms
            .map(|list| list.iter().enumerate().map(|(i, v)| crate::uint_param(v, &format!("fast_retry_ms[{i}]"))).collect::<PyResult<Vec<u64>>>())
            .transpose()?;
        let ready_timeout_ms = crate::opt_uint(ready_timeout_ms, "ready_timeout_ms")?;
        let max_held_instances = crate::opt_uint(max_held_instances, "max_held_instances")?;
        let max_breakpoints = crate::opt_uint(max_breakpoints, "max_breakpoints")?;
        let loop_threshold = crate::opt_uint(loop_threshold, "loop_threshold")?;
        let loop_max_runs = crate::opt_uint(loop_max_runs, "loop_max_runs")?;
        let max_payload_bytes = crate::opt_uint(max_payload_bytes, "max_payload_bytes")?;
        let url = url.map(|t| t.0);
        let app = app.map(|t| t.0);
        let client_version = client_version.map(|t| t.0);
        let capabilities = capabilities.map(Text::strings);
        let id_base = id_base.map(|t| t.0);
        let implicit_run_id = implicit_run_id.map(|t| t.0);
        let loop_mode = loop_mode.as_deref();
        let loop_kinds = loop_kinds.map(Text::strings);
        let redaction_placeholder = redaction_placeholder.map(|t| t.0);
        // The environment first (the core parses it, `SessionConfig::from_env`); every keyword
        // given beats it, except the floors the core re-applies (kill switch, hide switches).
        let mut c = match env {
            Some(e) if !e.is_none() => s::SessionConfig::from_env(env_pairs(e)?),
            _ => s::SessionConfig::default(),
        };
        if let Some(v) = enabled {
            c.enabled = v;
        }
        if let Some(v) = url {
            c.url = v;
        }
        if let Some(v) = app {
            c.app = v;
        }
        if let Some(v) = sdk {
            c.sdk = object_arg(v, "sdk")?;
        }
        if let Some(v) = client_version {
            c.client_version = v;
        }
        if let Some(v) = capabilities {
            c.capabilities = v;
        }
        if let Some(v) = ring_max_frames {
            c.ring_max_frames = size(v);
        }
        if let Some(v) = ring_max_bytes {
            c.ring_max_bytes = size(v);
        }
        if let Some(v) = max_tracked_gap_runs {
            c.max_tracked_gap_runs = size(v);
        }
        if let Some(v) = loss_warn_interval_ms {
            c.loss_warn_interval_ms = v;
        }
        c.pause_timeout_ms = pause_timeout_ms;
        if let Some(v) = connect_timeout_ms {
            c.connect_timeout_ms = v;
        }
        if let Some(v) = handshake_timeout_ms {
            c.handshake_timeout_ms = v;
        }
        if let Some(v) = retry_interval_ms {
            c.retry_interval_ms = v;
        }
        if let Some(v) = fast_retry_ms {
            c.fast_retry_ms = v;
        }
        if let Some(v) = ready_timeout_ms {
            c.ready_timeout_ms = v;
        }
        if let Some(v) = id_base {
            c.id_base = v;
        }
        c.implicit_run_id = implicit_run_id;
        if let Some(v) = max_held_instances {
            c.max_held_instances = size(v);
        }
        if let Some(v) = max_breakpoints {
            c.max_breakpoints = size(v);
        }
        if let Some(v) = loop_threshold {
            c.loop_guard.threshold = v;
        }
        if let Some(v) = loop_allow {
            c.loop_guard.allow = Text::strings(v);
        }
        if let Some(v) = loop_mode {
            c.loop_guard.mode = s::LoopMode::from_host(v).ok_or_else(|| arg_error(wirecontract::wire::not_one_of("loop_mode", s::LoopMode::VALUES, v)))?;
        }
        if let Some(v) = loop_kinds {
            c.loop_guard.kinds = v.iter().map(|k| enum_arg(k, "loop_kinds item")).collect::<PyResult<_>>()?;
        }
        if let Some(v) = loop_max_runs {
            c.loop_guard.max_runs = size(v);
        }
        if let Some(v) = redaction_placeholder {
            c.redaction_placeholder = Some(v);
        }
        if let Some(v) = max_payload_bytes {
            c.max_payload_bytes = Some(size(v));
        }
        for (flag, value) in [
            (&mut c.redaction.hide_inputs, hide_inputs),
            (&mut c.redaction.hide_outputs, hide_outputs),
            (&mut c.redaction.hide_tool_args, hide_tool_args),
            (&mut c.redaction.hide_tool_results, hide_tool_results),
        ] {
            if let Some(v) = value {
                *flag = v;
            }
        }
        if let Some(v) = token_batch_ms {
            c.token_batch_ms = Some(v);
        }
        if let Some(v) = root_node {
            c.root_node = v;
        }
        if let Some(v) = meta.filter(|m| !m.is_none()) {
            let text = arg_json(py, v, "meta")?;
            let meta = wirecontract::wire::from_json::<wirecontract::wire::OpaqueObject>(&text)
                .map_err(|issues| build_error(py, &gm::BuildError { reason: "invalid meta: it must be a JSON object".to_owned(), issues }))?;
            c.meta = Some(meta);
        }
        if let Some(v) = max_value_depth {
            c.max_value_depth = Some(size(v));
        }
        Ok(AppSession { inner: s::AppSession::new(c) })
    }

    /// transport_opened(now_ms, /)
    /// --
    ///
    /// T2: the socket opened; the core sends `hello` (next seq) and waits for the ack.
    #[pyo3(signature = (now_ms, /))]
    fn transport_opened(&mut self, now_ms: &Bound<'_, PyAny>) -> PyResult<()> {
        let now_ms = clock_param(now_ms)?;
        guard(|| self.inner.transport_opened(now_ms))
    }

    /// transport_failed(now_ms, /)
    /// --
    ///
    /// T3: the connect attempt failed.
    #[pyo3(signature = (now_ms, /))]
    fn transport_failed(&mut self, now_ms: &Bound<'_, PyAny>) -> PyResult<()> {
        let now_ms = clock_param(now_ms)?;
        guard(|| self.inner.transport_failed(now_ms))
    }

    /// transport_closed(now_ms, /)
    /// --
    ///
    /// T16 (attached: disarm, release every held gate with `exec.resumed{continue}`, retry)
    /// or T3 (still connecting). Report only the socket of the current attempt.
    #[pyo3(signature = (now_ms, /))]
    fn transport_closed(&mut self, now_ms: &Bound<'_, PyAny>) -> PyResult<()> {
        let now_ms = clock_param(now_ms)?;
        guard(|| self.inner.transport_closed(now_ms))
    }

    /// frame_received(data, now_ms, /)
    /// --
    ///
    /// One text frame from the viewer (`str`, `bytes` or `bytearray`). Bad frames become
    /// `Warn` actions; never raises for bad input.
    #[pyo3(signature = (data, now_ms, /))]
    fn frame_received(&mut self, data: &Bound<'_, PyAny>, now_ms: &Bound<'_, PyAny>) -> PyResult<()> {
        let now_ms = clock_param(now_ms)?;
        let bytes = frame_bytes(data)?;
        guard(|| self.inner.frame_received(&bytes, now_ms))
    }

    /// handle_timeout(now_ms, /)
    /// --
    ///
    /// Fires every deadline `<= now_ms`: connect, handshake, retry, pause timeouts, ready
    /// waiters.
    #[pyo3(signature = (now_ms, /))]
    fn handle_timeout(&mut self, now_ms: &Bound<'_, PyAny>) -> PyResult<()> {
        let now_ms = clock_param(now_ms)?;
        guard(|| self.inner.handle_timeout(now_ms))
    }

    /// emit(type, payload, now_ms, /, run=None)
    /// --
    ///
    /// T19, §2.3: emits an event of `type` with `payload` (a wire-shaped dict with camelCase
    /// keys, or a contract object) in `run` (`None`: the implicit run, created on first use).
    /// Stamps `heldMs`, takes the next seq, buffers the frame and sends it when attached.
    /// Returns the seq taken, or `None` when the session is disabled or disposed.
    ///
    /// Raises `BuildError` (a `ValueError`, with `.issues`) for a payload that is not valid
    /// for `type` or an unknown type, and `ValueError` for a control or handshake type, a
    /// session-owned type (`exec.paused`, `exec.resumed`, `exec.refused`) or a run id with
    /// U+0000. Nothing is sent then and no seq is taken.
    #[pyo3(signature = (r#type, payload, now_ms, /, run=None))]
    fn emit(
        &mut self,
        py: Python<'_>,
        r#type: &Bound<'_, PyAny>,
        payload: &Bound<'_, PyAny>,
        now_ms: &Bound<'_, PyAny>,
        run: Option<Text>,
    ) -> PyResult<Option<u64>> {
        let run = run.as_deref();
        let now_ms = clock_param(now_ms)?;
        let r#type = str_param(r#type, "type")?;
        let payload_json = py_to_json(payload, NonFinite::Null).map_err(|e| host_build_error(py, &e))?;
        emit_result(py, guard(|| self.inner.emit_json(r#type, &payload_json, run, now_ms))?)
    }

    /// start_run(run_id, name, now_ms, /, meta=None)
    /// --
    ///
    /// Starts run `run_id`: emits `run.started` with the session's `app` and `sdk` and
    /// `meta` = `{"name": name}` followed by the members of `meta` (a dict; its own `name`
    /// wins, keeping the first position). Same seq, buffering and no-op rules as `emit`;
    /// returns the seq taken or `None` when disabled or disposed.
    ///
    /// Raises `BuildError` with issues under `meta` when `meta` is not a JSON object, and
    /// `ValueError` for a run id with U+0000 or `"*"`.
    #[pyo3(signature = (run_id, name, now_ms, /, meta=None))]
    fn start_run(&mut self, py: Python<'_>, run_id: Text, name: Text, now_ms: &Bound<'_, PyAny>, meta: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
        let now_ms = clock_param(now_ms)?;
        let meta_json = meta.filter(|m| !m.is_none()).map(|m| arg_json(py, m, "meta")).transpose()?;
        emit_result(py, guard(|| self.inner.start_run_json(&run_id, &name, meta_json.as_deref(), now_ms))?)
    }

    /// finish_run(run_id, now_ms, /, error=None, aborted=False)
    /// --
    ///
    /// Finishes run `run_id`: emits `run.finished` with `ok`; `error` with `error` (an
    /// `ErrorInfo` or a dict `{"name", "message", "stack"?}`) when given; `aborted` when
    /// `aborted` is true or the viewer aborted the run (an `AbortRun` action), whatever else
    /// is given. Same seq, buffering and no-op rules as `emit`.
    ///
    /// Raises `BuildError` with issues under `error` for an invalid `error`, `TypeError` for a
    /// contract object of another type (`error must be a dict or a ErrorInfo, not a SdkInfo`),
    /// and `ValueError` for a run id with U+0000 or `"*"`.
    #[pyo3(signature = (run_id, now_ms, /, error=None, aborted=false))]
    fn finish_run(
        &mut self,
        py: Python<'_>,
        run_id: Text,
        now_ms: &Bound<'_, PyAny>,
        error: Option<&Bound<'_, PyAny>>,
        aborted: bool,
    ) -> PyResult<Option<u64>> {
        let now_ms = clock_param(now_ms)?;
        let end = match error.filter(|e| !e.is_none()) {
            _ if aborted => s::RunEnd::Aborted,
            None => s::RunEnd::Ok,
            Some(e) => match s::RunEnd::error_json(&arg_json(py, refuse_other_object::<gm::ErrorInfo>(e, "error")?, "error")?) {
                Ok(end) => end,
                Err(e) => return emit_result(py, Err(e)),
            },
        };
        emit_result(py, guard(|| self.inner.finish_run(&run_id, end, now_ms))?)
    }

    /// gate(point, node, now_ms, /, run=None)
    /// --
    ///
    /// T20, §3.1: may the adapter proceed at `point` (`"before"`, `"after"`, `"error"`) of
    /// `node` (a `GateNode`) in `run` (`None`: the implicit run)? Returns `None` to continue
    /// now, or the pause id of a hold: `exec.paused` is already emitted; wait for the
    /// `Release` action with that id. Continues when disabled, disposed or detached.
    #[pyo3(signature = (point, node, now_ms, /, run=None))]
    fn gate(&mut self, point: Text, node: PyRef<'_, GateNode>, now_ms: &Bound<'_, PyAny>, run: Option<Text>) -> PyResult<Option<String>> {
        let point: &str = &point;
        let run = run.as_deref();
        let now_ms = clock_param(now_ms)?;
        let point = enum_arg(point, "point")?;
        Ok(match guard(|| self.inner.gate(point, &node.inner, run, now_ms))? {
            s::GateOutcome::Continue => None,
            s::GateOutcome::Held(id) => Some(id),
        })
    }

    /// cancel(pause_id, now_ms, /)
    /// --
    ///
    /// §3.8, §4 D16: the waiter of `pause_id` went away (a cancelled task). Settles it with
    /// `continue` and `exec.resumed`; `False` when the pause is not held.
    #[pyo3(signature = (pause_id, now_ms, /))]
    fn cancel(&mut self, pause_id: Text, now_ms: &Bound<'_, PyAny>) -> PyResult<bool> {
        let pause_id: &str = &pause_id;
        let now_ms = clock_param(now_ms)?;
        guard(|| self.inner.cancel(pause_id, now_ms))
    }

    /// ready(now_ms, /, timeout_ms=None)
    /// --
    ///
    /// T22: returns a waiter id settled by a `ReadySettled` action: `True` at the ack, `False`
    /// after `timeout_ms` (default: the session's `ready_timeout_ms`, 2000) or when disabled or
    /// disposed. Starts the session and connects now when idle.
    #[pyo3(signature = (now_ms, /, timeout_ms=None))]
    fn ready(&mut self, now_ms: &Bound<'_, PyAny>, timeout_ms: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
        let timeout_ms = crate::opt_uint(timeout_ms, "timeout_ms")?;
        let now_ms = clock_param(now_ms)?;
        Ok(guard(|| self.inner.ready(now_ms, timeout_ms))?.0)
    }

    /// push_token(node_id, channel, value, now_ms, /, run=None)
    /// --
    ///
    /// Queues one streamed delta (`channel` `"text"`, `"reasoning"` or `"tool-args"`) of node
    /// `node_id`: sent in the node's next `node.token` when the batch window
    /// (`token_batch_ms`, 34) closes (`handle_timeout`), before the node's `node.finished`,
    /// at a run's end or at dispose; at once with `token_batch_ms=0`. An empty `value` is
    /// dropped. Raises `BuildError` for another channel and `ValueError` for a bad run id.
    #[pyo3(signature = (node_id, channel, value, now_ms, /, run=None))]
    fn push_token(&mut self, py: Python<'_>, node_id: Text, channel: Text, value: Text, now_ms: &Bound<'_, PyAny>, run: Option<Text>) -> PyResult<()> {
        let now_ms = clock_param(now_ms)?;
        let run = run.as_deref();
        emit_result(py, guard(|| self.inner.push_token_str(&node_id, &channel, &value, run, now_ms))?.map(|()| None)).map(|_| ())
    }

    /// flush_tokens(now_ms, /)
    /// --
    ///
    /// Sends every pending token batch now.
    #[pyo3(signature = (now_ms, /))]
    fn flush_tokens(&mut self, now_ms: &Bound<'_, PyAny>) -> PyResult<()> {
        let now_ms = clock_param(now_ms)?;
        guard(|| self.inner.flush_tokens(now_ms))
    }

    /// dispose(now_ms, /)
    /// --
    ///
    /// §2.5: releases every held gate (`exec.resumed{continue}`, live when attached), finishes
    /// the implicit run, closes with 1000 and settles ready waiters `False`. Idempotent.
    #[pyo3(signature = (now_ms, /))]
    fn dispose(&mut self, now_ms: &Bound<'_, PyAny>) -> PyResult<()> {
        let now_ms = clock_param(now_ms)?;
        guard(|| self.inner.dispose(now_ms))
    }

    /// poll_action()
    /// --
    ///
    /// The next action (`Connect`, `Send`, `Close`, `Release`, `AbortRun`, `ReadySettled`,
    /// `Warn`), oldest first, or `None`.
    fn poll_action(&mut self, py: Python<'_>) -> PyResult<Option<PyObject>> {
        self.inner.poll_action().map(|a| action_to_py(py, a)).transpose()
    }

    /// poll_actions()
    /// --
    ///
    /// Every pending action, oldest first (`poll_action` until `None`).
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

    /// `"idle"`, `"connecting"`, `"awaiting-ack"`, `"attached"` or `"disposed"`.
    #[getter]
    fn state(&self) -> &'static str {
        state_str(self.inner.state())
    }
    /// Whether a valid `hello.ack` attached the current connection.
    #[getter]
    fn is_attached(&self) -> bool {
        self.inner.is_attached()
    }
    /// The seq the next frame takes.
    #[getter]
    fn next_seq(&self) -> u64 {
        self.inner.next_seq()
    }
    /// The last non-empty `hello.ack.sessionToken` (never cleared), or `None`.
    #[getter]
    fn session_token(&self) -> Option<&str> {
        self.inner.session_token()
    }
    /// `hello.ack.hubCapabilities` of the current attachment, or `None`.
    #[getter]
    fn hub_capabilities(&self) -> Option<Vec<String>> {
        self.inner.hub_capabilities().map(<[String]>::to_vec)
    }
    /// The armed breakpoints (`BreakpointMatcher` objects; `[]` while detached).
    #[getter]
    fn breakpoints(&self, py: Python<'_>) -> PyResult<PyObject> {
        matchers_to_py(py, self.inner.breakpoints())
    }
    /// The armed mode, `"run"` or `"step"` (`"run"` while detached).
    #[getter]
    fn mode(&self) -> &'static str {
        self.inner.mode().as_str()
    }
    /// Pause ids of the gates held now, in hold order.
    #[getter]
    fn held_pause_ids(&self) -> Vec<String> {
        self.inner.held_pause_ids()
    }
    /// The replay ring's frames, oldest first, exactly as they are (re)sent.
    #[getter]
    fn buffered_frames(&self) -> Vec<String> {
        self.inner.buffered_frames().map(str::to_owned).collect()
    }
    /// Unsent frames lost to the ring's bounds.
    #[getter]
    fn lost(&self) -> u64 {
        self.inner.lost()
    }
    /// Every eviction from the ring, delivered or not.
    #[getter]
    fn dropped(&self) -> u64 {
        self.inner.dropped()
    }
    fn __repr__(&self) -> String {
        format!("AppSession(state={:?}, next_seq={})", state_str(self.inner.state()), self.inner.next_seq())
    }
}

/// Builds the Python object of a core typed value, its class named by its registry entry (for
/// viewer events).
pub(crate) fn object_to_py<T: wirecontract::wire::Reflect + Send + Sync + 'static>(py: Python<'_>, value: T) -> PyResult<PyObject> {
    make_object(py, value.type_name(), Root::Object(Arc::new(value)), Vec::new())
}

/// The `(name, value)` pairs of an environment mapping (`os.environ` or a dict of `str`):
/// items whose name or value is not a `str` are skipped, as an environment has none.
fn env_pairs(env: &Bound<'_, PyAny>) -> PyResult<Vec<(String, String)>> {
    let items = env.call_method0("items").map_err(|_| pyo3::exceptions::PyTypeError::new_err("env must be a mapping of str to str (os.environ or a dict)"))?;
    let mut out = Vec::new();
    for item in items.try_iter()? {
        let (k, v): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item?.extract()?;
        if let (Ok(k), Ok(v)) = (k.extract::<String>(), v.extract::<String>()) {
            out.push((k, v));
        }
    }
    Ok(out)
}

/// env_config(env, /)
/// --
///
/// The app-session configuration the environment `env` (a mapping of str to str, such as
/// `os.environ`) resolves to, as the core reads it (`GRAPHMIND_*`, the kill switch and
/// production detection): a dict with `enabled`, `url`, `loop_threshold`, `loop_mode`,
/// `loop_allow` and the four `hide_*` switches.
#[pyfunction]
fn env_config<'py>(py: Python<'py>, env: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    let c = s::SessionConfig::from_env(env_pairs(env)?).effective();
    let d = PyDict::new(py);
    d.set_item("enabled", c.enabled)?;
    d.set_item("url", &c.url)?;
    d.set_item("loop_threshold", c.loop_guard.threshold)?;
    d.set_item("loop_mode", s::LoopMode::VALUES[c.loop_guard.mode as usize])?;
    d.set_item("loop_allow", c.loop_guard.allow.clone())?;
    d.set_item("hide_inputs", c.redaction.hide_inputs)?;
    d.set_item("hide_outputs", c.redaction.hide_outputs)?;
    d.set_item("hide_tool_args", c.redaction.hide_tool_args)?;
    d.set_item("hide_tool_results", c.redaction.hide_tool_results)?;
    Ok(d)
}

/// `{"name": ..., "version": ...}` of the default SDK, for the stub and docs.
fn default_config(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let c = s::SessionConfig::default();
    let d = PyDict::new(py);
    d.set_item("url", &c.url)?;
    d.set_item("app", &c.app)?;
    let sdk = PyDict::new(py);
    sdk.set_item("name", &c.sdk.name)?;
    sdk.set_item("version", &c.sdk.version)?;
    d.set_item("sdk", sdk)?;
    d.set_item("client_version", &c.client_version)?;
    d.set_item("capabilities", c.capabilities.clone())?;
    d.set_item("ring_max_frames", c.ring_max_frames)?;
    d.set_item("ring_max_bytes", c.ring_max_bytes)?;
    d.set_item("max_tracked_gap_runs", c.max_tracked_gap_runs)?;
    d.set_item("loss_warn_interval_ms", c.loss_warn_interval_ms)?;
    d.set_item("pause_timeout_ms", c.pause_timeout_ms)?;
    d.set_item("connect_timeout_ms", c.connect_timeout_ms)?;
    d.set_item("handshake_timeout_ms", c.handshake_timeout_ms)?;
    d.set_item("retry_interval_ms", c.retry_interval_ms)?;
    d.set_item("fast_retry_ms", c.fast_retry_ms.clone())?;
    d.set_item("ready_timeout_ms", c.ready_timeout_ms)?;
    d.set_item("id_base", &c.id_base)?;
    d.set_item("max_held_instances", c.max_held_instances)?;
    d.set_item("max_breakpoints", c.max_breakpoints)?;
    d.set_item("loop_threshold", c.loop_guard.threshold)?;
    d.set_item("loop_mode", "pause")?;
    d.set_item("loop_kinds", c.loop_guard.kinds.iter().map(|k| k.as_str()).collect::<Vec<_>>())?;
    d.set_item("loop_max_runs", c.loop_guard.max_runs)?;
    d.set_item("max_payload_bytes", c.max_payload_bytes)?;
    d.set_item("loop_allow", c.loop_guard.allow.clone())?;
    d.set_item("redaction_placeholder", c.redaction_placeholder.clone())?;
    d.set_item("token_batch_ms", c.token_batch_ms)?;
    d.set_item("root_node", c.root_node)?;
    d.set_item("max_value_depth", c.max_value_depth)?;
    Ok(d)
}

/// Fills the `wirecontract._native.session` module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<AppSession>()?;
    m.add_function(pyo3::wrap_pyfunction!(env_config, m)?)?;
    m.add_class::<GateNode>()?;
    m.add_class::<Decision>()?;
    m.add_class::<Connect>()?;
    m.add_class::<SendFrame>()?;
    m.add_class::<Close>()?;
    m.add_class::<Release>()?;
    m.add_class::<AbortRun>()?;
    m.add_class::<ReadySettled>()?;
    m.add_class::<Warn>()?;
    let cont = Decision { action: "continue".to_owned(), output: py.None(), has_output: false, output_json: None };
    m.add("CONTINUE", Py::new(py, cont)?)?;
    m.add("DEFAULT_URL", s::DEFAULT_URL)?;
    m.add("SESSION_CAPABILITIES", PyTuple::new(py, s::SESSION_CAPABILITIES)?)?;
    m.add("APP_DEFAULTS", default_config(py)?)?;
    Ok(())
}
