//! `wirecontract.graphmind`: the GraphMind v1 parser, builder and serializer for Python.
//!
//! Thin: every rule lives in the contract crate; this converts host values and shapes the
//! results (spec graphmind-v1 §5.2: `Ok`, `UnknownType`, `VersionMismatch`, `Invalid`).

use std::cell::RefCell;
use std::sync::Arc;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBytes, PyString, PyTuple};
use wirecontract::wire::{self, Described, HostArgError, Issue as CoreIssue, Reflect as _, WireEnum, WireValue};

use crate::issue::issues_to_py;
use wirecontract::graphmind as gm;

use crate::convert::{explain_non_finite_issues, json_to_py, py_to_json, NonFinite};
use crate::object::{envelope_to_dict, extras_to_py, make_object, Root, WireObject};
use crate::{guard, str_arg, str_param, BuildError, Text};

/// A GraphMind envelope `{gm, seq, ts, runId, type, payload}`.
#[pyclass(frozen, module = "wirecontract.graphmind", name = "Envelope")]
pub struct Envelope {
    pub inner: Arc<gm::Envelope>,
}

#[pymethods]
impl Envelope {
    /// Always 1.
    #[getter]
    #[allow(clippy::unused_self)]
    fn gm(&self) -> i64 {
        gm::PROTOCOL_VERSION
    }
    /// Sequence number (int, 0 ≤ seq ≤ 2**53 − 1).
    #[getter]
    fn seq(&self) -> u64 {
        self.inner.seq
    }
    /// Timestamp in epoch milliseconds.
    #[getter]
    fn ts(&self) -> u64 {
        self.inner.ts
    }
    /// Run id (`"*"` for frames outside any run).
    #[getter]
    fn run_id(&self) -> &str {
        &self.inner.run_id
    }
    /// The message type string.
    #[getter(r#type)]
    fn message_type(&self) -> &str {
        self.inner.message_type()
    }
    /// The typed payload object; for an unknown type the raw payload converted to Python
    /// values (`None` when the key was absent or null).
    #[getter]
    fn payload(&self, py: Python<'_>) -> PyResult<PyObject> {
        match &self.inner.message {
            gm::Message::Unknown { payload, .. } => match payload {
                Some(raw) => json_to_py(py, raw.as_str()),
                None => Ok(py.None()),
            },
            m => {
                let name = m.payload().map_or("", |p| p.type_name());
                make_object(py, name, Root::Graphmind(self.inner.clone()), Vec::new())
            }
        }
    }
    /// Whether the frame carried a `payload` key (only an unknown type may lack one).
    #[getter]
    fn has_payload(&self) -> bool {
        !matches!(self.inner.message, gm::Message::Unknown { payload: None, .. })
    }
    /// Unknown envelope-level members as a dict.
    #[getter]
    fn extra(&self, py: Python<'_>) -> PyResult<PyObject> {
        extras_to_py(py, &self.inner.extra)
    }
    /// The wire-shaped dict (what `json.loads(serialize_envelope(env))` gives), built straight
    /// from the parsed fields.
    fn to_dict(&self, py: Python<'_>) -> PyResult<PyObject> {
        envelope_to_dict(py, &self.inner)
    }
    /// `serialize_envelope(self)`.
    fn to_json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        envelope_json(py, &self.inner)
    }
    fn __repr__(&self) -> String {
        envelope_repr(&self.inner)
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.downcast::<Envelope>().is_ok_and(|o| *o.get().inner == *self.inner)
    }
}

/// The envelope of an `Ok`/`UnknownType` result: the parsed value, and its Python `Envelope`
/// made on first access (a parse allocates one Python object, not two).
pub struct LazyEnvelope {
    inner: Arc<gm::Envelope>,
    object: GILOnceCell<Py<Envelope>>,
}

impl LazyEnvelope {
    fn new(env: gm::Envelope) -> Self {
        Self::shared(Arc::new(env))
    }

    fn shared(inner: Arc<gm::Envelope>) -> Self {
        LazyEnvelope { inner, object: GILOnceCell::new() }
    }

    fn get(&self, py: Python<'_>) -> PyResult<Py<Envelope>> {
        self.object.get_or_try_init(py, || Py::new(py, Envelope { inner: self.inner.clone() })).map(|e| e.clone_ref(py))
    }
}

fn envelope_repr(e: &gm::Envelope) -> String {
    format!("Envelope(type={:?}, seq={}, run_id={:?})", e.message_type(), e.seq, e.run_id)
}

/// `ok`: a known type with a valid payload. `match r: case Ok(envelope): ...`
#[pyclass(frozen, module = "wirecontract.graphmind", name = "Ok")]
pub struct ParseOk {
    env: LazyEnvelope,
}

/// `unknown-type`: structurally valid, type not known; the envelope keeps the raw payload.
#[pyclass(frozen, module = "wirecontract.graphmind", name = "UnknownType")]
pub struct ParseUnknownType {
    env: LazyEnvelope,
}

/// `version-mismatch`: `gm` is a safe integer other than 1.
#[pyclass(frozen, module = "wirecontract.graphmind", name = "VersionMismatch")]
pub struct ParseVersionMismatch {
    /// The `gm` received.
    #[pyo3(get)]
    pub received: i64,
    /// The supported version (1).
    #[pyo3(get)]
    pub supported: i64,
}

/// `invalid`: `reason` (fixed per rule) and `issues` (`None` when the frame is not JSON,
/// too big or too deep); salvage: `seq`, `ts`, `run_id` and `type` when the envelope passed
/// the structure and version checks and only the payload failed, each `None` otherwise.
#[pyclass(frozen, module = "wirecontract.graphmind", name = "Invalid")]
pub struct ParseInvalid {
    /// Fixed reason per rule.
    #[pyo3(get)]
    pub reason: String,
    /// List of `Issue`, or `None`.
    #[pyo3(get)]
    pub issues: PyObject,
    /// Salvaged envelope `seq`, or `None`.
    #[pyo3(get)]
    pub seq: Option<u64>,
    /// Salvaged envelope `ts` (epoch ms), or `None`.
    #[pyo3(get)]
    pub ts: Option<u64>,
    /// Salvaged envelope `runId`, or `None`.
    #[pyo3(get)]
    pub run_id: Option<String>,
    /// Salvaged envelope `type`, or `None`.
    #[pyo3(get, name = "type")]
    pub message_type: Option<String>,
}

#[pymethods]
impl ParseOk {
    /// The envelope.
    #[getter]
    fn envelope(&self, py: Python<'_>) -> PyResult<Py<Envelope>> {
        self.env.get(py)
    }
    #[classattr]
    fn kind() -> &'static str {
        "ok"
    }
    #[classattr]
    fn __match_args__() -> (&'static str,) {
        ("envelope",)
    }
    fn __repr__(&self) -> String {
        format!("Ok({})", envelope_repr(&self.env.inner))
    }
}

#[pymethods]
impl ParseUnknownType {
    /// The envelope (payload opaque).
    #[getter]
    fn envelope(&self, py: Python<'_>) -> PyResult<Py<Envelope>> {
        self.env.get(py)
    }
    #[classattr]
    fn kind() -> &'static str {
        "unknown-type"
    }
    #[classattr]
    fn __match_args__() -> (&'static str,) {
        ("envelope",)
    }
    fn __repr__(&self) -> String {
        format!("UnknownType({})", envelope_repr(&self.env.inner))
    }
}

#[pymethods]
impl ParseVersionMismatch {
    #[classattr]
    fn kind() -> &'static str {
        "version-mismatch"
    }
    #[classattr]
    fn __match_args__() -> (&'static str, &'static str) {
        ("received", "supported")
    }
    fn __repr__(&self) -> String {
        format!("VersionMismatch(received={}, supported={})", self.received, self.supported)
    }
}

#[pymethods]
impl ParseInvalid {
    #[classattr]
    fn kind() -> &'static str {
        "invalid"
    }
    #[classattr]
    fn __match_args__() -> (&'static str, &'static str) {
        ("reason", "issues")
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        let n = self.issues.bind(py).len().map_or(String::new(), |n| format!(", {n} issues"));
        format!("Invalid(reason={:?}{n})", self.reason)
    }
}

/// A frame parse's outcome with its envelope already on the heap. A `gm::Envelope` holds its
/// largest payload variant inline (a few hundred bytes), and every hand-over of a
/// `ParseOutcome` by value (out of `guard`'s `catch_unwind`, through `?`, into the `Arc`) was
/// a `memcpy` of all of it. Moved into its `Arc` once, inside the parsing closure, what is
/// handed over afterwards is a pointer: 136 instructions less per default-corpus frame, under
/// 1% of a parse (docs/performance.md, "5. Python binding").
enum Parsed {
    Ok(Arc<gm::Envelope>),
    UnknownType(Arc<gm::Envelope>),
    /// `VersionMismatch` or `Invalid` (boxed: the rare case pays the allocation).
    Other(Box<gm::ParseOutcome>),
}

impl From<gm::ParseOutcome> for Parsed {
    #[inline]
    fn from(out: gm::ParseOutcome) -> Self {
        match out {
            gm::ParseOutcome::Ok(e) => Parsed::Ok(Arc::new(e)),
            gm::ParseOutcome::UnknownType(e) => Parsed::UnknownType(Arc::new(e)),
            other => Parsed::Other(Box::new(other)),
        }
    }
}

fn parsed_to_py(py: Python<'_>, out: Parsed) -> PyResult<PyObject> {
    Ok(match out {
        Parsed::Ok(e) => Py::new(py, ParseOk { env: LazyEnvelope::shared(e) })?.into_any(),
        Parsed::UnknownType(e) => Py::new(py, ParseUnknownType { env: LazyEnvelope::shared(e) })?.into_any(),
        Parsed::Other(other) => outcome_to_py(py, *other)?,
    })
}

pub fn outcome_to_py(py: Python<'_>, out: gm::ParseOutcome) -> PyResult<PyObject> {
    Ok(match out {
        gm::ParseOutcome::Ok(e) => Py::new(py, ParseOk { env: LazyEnvelope::new(e) })?.into_any(),
        gm::ParseOutcome::UnknownType(e) => Py::new(py, ParseUnknownType { env: LazyEnvelope::new(e) })?.into_any(),
        gm::ParseOutcome::VersionMismatch { received, supported } => Py::new(py, ParseVersionMismatch { received, supported })?.into_any(),
        gm::ParseOutcome::Invalid { reason, issues, seq, ts, run_id, message_type } => {
            let issues = match issues {
                Some(list) => issues_to_py(py, &list)?,
                None => py.None(),
            };
            Py::new(py, ParseInvalid { reason, issues, seq, ts, run_id, message_type })?.into_any()
        }
    })
}

fn options(max_frame_bytes: Option<usize>, max_depth: Option<usize>) -> gm::ParseOptions {
    let d = gm::ParseOptions::default();
    gm::ParseOptions { max_frame_bytes: max_frame_bytes.unwrap_or(d.max_frame_bytes), max_depth: max_depth.unwrap_or(d.max_depth) }
}

/// parse_envelope_json(data, /, *, max_frame_bytes=16 MiB, max_depth=100000)
/// --
///
/// Parses one frame (`str`, `bytes` or `bytearray`). Never raises for bad input: returns
/// `Ok`, `UnknownType`, `VersionMismatch` or `Invalid`. Large frames release the GIL.
/// Opaque values are kept as spans of the input, which the result references (a
/// `bytearray` is copied first).
#[pyfunction]
#[pyo3(signature = (data, /, *, max_frame_bytes=None, max_depth=None))]
pub fn parse_envelope_json(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    max_frame_bytes: Option<&Bound<'_, PyAny>>,
    max_depth: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyObject> {
    let max_frame_bytes = crate::opt_size(max_frame_bytes, "max_frame_bytes")?;
    let max_depth = crate::opt_size(max_depth, "max_depth")?;
    let opts = options(max_frame_bytes, max_depth);
    let Some(input) = crate::frame::input(data)? else {
        let tn = data.get_type().name().map(|n| n.to_string()).unwrap_or_default();
        return Err(PyTypeError::new_err(format!("parse_envelope_json expects str, bytes or bytearray, not {tn}")));
    };
    let parse = || Parsed::from(gm::parse(input.frame(), &opts));
    let out = if input.byte_len() >= wirecontract_glue::RELEASE_HOST_LOCK_BYTES { py.allow_threads(|| guard(parse)) } else { guard(parse) };
    parsed_to_py(py, out?)
}

/// parse_envelope(value, /)
/// --
///
/// Parses an already decoded frame (a `dict` as from `json.loads`), from decision step 2 on.
/// Values with no JSON form give `Invalid` naming their path.
#[pyfunction]
#[pyo3(signature = (value, /))]
pub fn parse_envelope(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    let text = match py_to_json(value, NonFinite::Overflow) {
        Ok(t) => t,
        Err(e) => {
            let reason = format!("value is not JSON-representable: {}", e.describe(""));
            let issues = vec![CoreIssue::at(&e.path, e.message)];
            return outcome_to_py(py, gm::ParseOutcome::invalid(reason, Some(issues)));
        }
    };
    let out = guard(|| gm::parse(&text, &gm::ParseOptions { max_frame_bytes: usize::MAX, ..Default::default() }))?;
    // A decoded value has no JSON syntax; only depth can fail at step 1.
    outcome_to_py(py, out)
}

/// A `BuildError` for a payload host value with no JSON form: `.reason` and `.issues` as for
/// every other build failure, the path dotted from the frame root (`payload.output.0`).
pub(crate) fn host_build_error(py: Python<'_>, e: &crate::convert::HostError) -> PyErr {
    build_error(
        py,
        &gm::BuildError {
            // The one issue below names the path and the cause; the reason does not repeat it.
            reason: "payload has no JSON form".to_owned(),
            issues: vec![CoreIssue::at(&e.full_path("payload"), e.message.clone())],
        },
    )
}

/// `seq`/`ts` as given from Python: any int; negative or beyond 2**53 − 1 is a `BuildError`
/// naming the field (a bool is refused: it is not a counter).
fn counter(py: Python<'_>, name: &str, v: &Bound<'_, PyAny>) -> PyResult<u64> {
    let bad = |message: String| build_error(py, &gm::BuildError { reason: format!("{name} out of range"), issues: vec![CoreIssue::at(name, message)] });
    if v.is_instance_of::<pyo3::types::PyBool>() || !v.is_instance_of::<pyo3::types::PyInt>() {
        let tn = v.get_type().name().map_or_else(|_| String::new(), |n| n.to_string());
        return Err(bad(format!("expected a nonnegative integer, received {tn}")));
    }
    // i64 first: under the limited API an i128 is read through a byte array, several times slower.
    let i = match v.extract::<i64>() {
        Ok(i) => i128::from(i),
        Err(_) => v.extract::<i128>().unwrap_or(-1),
    };
    match i {
        i if (0..=i128::from(wirecontract_glue::MAX_SAFE_INTEGER)).contains(&i) => Ok(i as u64),
        _ => Err(bad("expected an integer in [0, 2**53 - 1]".into())),
    }
}

pub(crate) fn build_error(py: Python<'_>, e: &gm::BuildError) -> PyErr {
    crate::issue::build_error(py, e.to_string(), e.reason.clone(), &e.issues)
}

/// create_envelope(type, payload, seq, run_id, ts=None, *, max_payload_bytes=None)
/// --
///
/// The one builder: any `type` string. A known type's `payload` (a wire-shaped dict with
/// camelCase keys, or a contract object) is validated against it; any other type is built
/// with the payload kept opaque (any JSON value). `ts` defaults to now in epoch ms. Raises
/// `BuildError` (a `ValueError`) with `.issues` for an invalid payload or `seq`/`ts` beyond
/// 2**53 − 1.
///
/// `max_payload_bytes` (UTF-8 bytes of payload JSON as `JSON.stringify` writes it;
/// `DEFAULT_MAX_PAYLOAD_BYTES` is the reference's 512 KiB) shrinks a payload over it for
/// `type` before building, as the reference's `serializePayload` does (graphmind-shrink §3:
/// field trim, then skeleton); the result is then validated and built. Raises `BuildError`
/// when only the whole-payload marker would fit (§8: not a valid payload; a valid event
/// payload always fits from 4096 bytes up). `None` (the default): no budget.
#[pyfunction]
#[pyo3(signature = (r#type, payload, seq, run_id, ts=None, *, max_payload_bytes=None))]
pub fn create_envelope(
    py: Python<'_>,
    r#type: &Bound<'_, PyAny>,
    payload: &Bound<'_, PyAny>,
    seq: &Bound<'_, PyAny>,
    run_id: &Bound<'_, PyAny>,
    ts: Option<&Bound<'_, PyAny>>,
    max_payload_bytes: Option<&Bound<'_, PyAny>>,
) -> PyResult<Envelope> {
    let max_payload_bytes = crate::opt_size(max_payload_bytes, "max_payload_bytes")?;
    let (r#type, run_id) = (str_param(r#type, "type")?, str_param(run_id, "run_id")?);
    let seq = counter(py, "seq", seq)?;
    let ts = ts.filter(|t| !t.is_none()).map(|t| counter(py, "ts", t)).transpose()?;
    let payload_json = py_to_json(payload, NonFinite::Null).map_err(|e| host_build_error(py, &e))?;
    let options = gm::BuildOptions { max_payload_bytes };
    let build = || gm::create_envelope_json_with(r#type, &payload_json, seq, run_id, ts, &options);
    // Shrinking a large payload takes a while: without the GIL, as shrink_payload does.
    let result = if max_payload_bytes.is_some() && payload_json.len() >= wirecontract_glue::RELEASE_HOST_LOCK_BYTES {
        py.allow_threads(|| guard(build))?
    } else {
        guard(build)?
    };
    let env = result.map_err(|e| build_error(py, &explain_non_finite(payload, e)))?;
    Ok(Envelope { inner: Arc::new(env) })
}

/// A NaN or ±Infinity in a payload is written `null` (as `JSON.stringify` does), so a typed
/// field holding one fails as "received null"; this names the value the caller passed.
pub(crate) fn explain_non_finite(payload: &Bound<'_, PyAny>, mut e: gm::BuildError) -> gm::BuildError {
    explain_non_finite_issues(payload, "payload", &mut e.issues);
    e
}

/// create_unknown_envelope(type, payload, seq, run_id, ts=None, *, omit_payload=False)
/// --
///
/// Deprecated alias of `create_envelope` (emits `DeprecationWarning`): builds an envelope of
/// any type with the payload as given (`omit_payload=True` leaves the key out); a known type
/// is validated and built typed, no longer refused.
#[pyfunction]
#[pyo3(signature = (r#type, payload, seq, run_id, ts=None, *, omit_payload=false))]
pub fn create_unknown_envelope(
    py: Python<'_>,
    r#type: &Bound<'_, PyAny>,
    payload: &Bound<'_, PyAny>,
    seq: &Bound<'_, PyAny>,
    run_id: &Bound<'_, PyAny>,
    ts: Option<&Bound<'_, PyAny>>,
    omit_payload: bool,
) -> PyResult<Envelope> {
    let warning = py.get_type::<pyo3::exceptions::PyDeprecationWarning>();
    PyErr::warn(py, &warning, c"create_unknown_envelope is deprecated: create_envelope takes any type string", 1)?;
    let (r#type, run_id) = (str_param(r#type, "type")?, str_param(run_id, "run_id")?);
    let seq = counter(py, "seq", seq)?;
    let ts = ts.filter(|t| !t.is_none()).map(|t| counter(py, "ts", t)).transpose()?;
    let raw = if omit_payload {
        None
    } else {
        let text = py_to_json(payload, NonFinite::Null).map_err(|e| host_build_error(py, &e))?;
        Some(wirecontract_json::RawJson::from_json(&text).map_err(|e| BuildError::new_err(format!("payload: {e}")))?)
    };
    let message = gm::Message::Unknown { message_type: r#type.to_owned(), payload: raw };
    let env = guard(|| gm::create_envelope(message, seq, run_id, ts))?.map_err(|e| build_error(py, &e))?;
    Ok(Envelope { inner: Arc::new(env) })
}

/// serialize_envelope(envelope, /)
/// --
///
/// The frame text, as `JSON.stringify` would write it (compact, spec key order, unknown
/// fields and opaque values byte for byte). `envelope`: an `Envelope`, or an `Ok` /
/// `UnknownType` parse result (its envelope). Never fails for those.
#[pyfunction]
#[pyo3(signature = (envelope, /))]
pub fn serialize_envelope<'py>(py: Python<'py>, envelope: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyString>> {
    let env = envelope_arg(envelope, "serialize_envelope")?;
    envelope_json(py, &env)
}

/// The envelope of an `Envelope`, `Ok` or `UnknownType` argument.
fn envelope_arg(v: &Bound<'_, PyAny>, what: &str) -> PyResult<Arc<gm::Envelope>> {
    if let Ok(e) = v.downcast::<Envelope>() {
        return Ok(e.get().inner.clone());
    }
    if let Ok(r) = v.downcast::<ParseOk>() {
        return Ok(r.get().env.inner.clone());
    }
    if let Ok(r) = v.downcast::<ParseUnknownType>() {
        return Ok(r.get().env.inner.clone());
    }
    Err(PyTypeError::new_err(format!("{what} expects an Envelope, Ok or UnknownType (from parse_envelope_json or create_envelope)")))
}

/// serialize_envelope_bytes(envelope, /)
/// --
///
/// `serialize_envelope` as UTF-8 `bytes`: the same text without building a `str` (what a
/// socket sends; skips CPython's UTF-8 decode of the whole frame).
#[pyfunction]
#[pyo3(signature = (envelope, /))]
pub fn serialize_envelope_bytes<'py>(py: Python<'py>, envelope: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    let env = envelope_arg(envelope, "serialize_envelope_bytes")?;
    with_serialized(py, &env, |out| Ok(PyBytes::new(py, out)))
}

thread_local! {
    /// Output buffer reused across calls: a fresh `Vec` per frame made every large frame a
    /// new mmap whose pages the kernel had to zero (a third of the time in the profile).
    static OUT: RefCell<Vec<u8>> = RefCell::new(Vec::with_capacity(16 * 1024));
}

/// Runs `f` on the serialized frame, written into the reused buffer.
fn with_serialized<T>(py: Python<'_>, env: &gm::Envelope, f: impl FnOnce(&[u8]) -> PyResult<T>) -> PyResult<T> {
    OUT.with(|cell| {
        let mut out = cell.borrow_mut();
        out.clear();
        guard(|| gm::write_envelope(env, &mut out))?.map_err(|e| build_error(py, &e))?;
        let r = f(&out);
        if out.capacity() > 1 << 20 {
            *out = Vec::with_capacity(16 * 1024);
        }
        r
    })
}

/// Serialized frame text as a Python `str`, made in one pass from the writer's reused buffer
/// (see [`crate::pystr::str_from_utf8`]).
fn envelope_json<'py>(py: Python<'py>, env: &gm::Envelope) -> PyResult<Bound<'py, PyString>> {
    with_serialized(py, env, |out| crate::pystr::str_from_utf8(py, out))
}

/// export_json_schema()
/// --
///
/// The draft 2020-12 JSON Schema of the envelope, as a dict.
#[pyfunction]
pub fn export_json_schema(py: Python<'_>) -> PyResult<PyObject> {
    json_to_py(py, &gm::export_json_schema_string())
}

/// export_json_schema_string()
/// --
///
/// The schema as pretty-printed JSON text with a trailing newline (the committed file).
#[pyfunction]
pub fn export_json_schema_string() -> String {
    gm::export_json_schema_string()
}

/// A `ValueError` with the text of a host argument the contract refused (see
/// [`wirecontract::wire::HostArgError`]).
#[allow(clippy::needless_pass_by_value)] // the shape `map_err` hands over
pub(crate) fn arg_error(e: HostArgError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Reads the closed enum `T` (inferred from where the value goes) from a host string with the
/// contract's reader; `ValueError` with the contract's text (`kind must be one of [...], not
/// "x"`) otherwise.
pub(crate) fn enum_arg<T: WireEnum>(v: &str, what: &str) -> PyResult<T> {
    wire::enum_arg(v, what).map_err(arg_error)
}

/// Reads the declared object `T` (inferred from where the value goes) from a wire-shaped dict
/// or a contract object of that type, with the contract's reader: `TypeError` with the
/// contract's wrong-object text for a contract object of another type (a payload, an
/// `Envelope`, a session action), `TypeError`/`ValueError` naming `what` and the path for a
/// value with no JSON form (`breakpoints[0].x: dict keys must be str, …`), `ValueError` with
/// the contract's text (`{what} is not a valid {T}: {issues}`) for a value it refuses.
pub(crate) fn object_arg<T: WireValue + Described>(v: &Bound<'_, PyAny>, what: &str) -> PyResult<T> {
    refuse_other_object::<T>(v, what)?;
    let text = py_to_json(v, NonFinite::Null).map_err(|e| {
        // A contract class without a JSON form (an `Envelope`, an `Accepted`) is the wrong
        // object, said as for a payload of another type.
        let ty = v.get_type();
        let from_us = ty.module().is_ok_and(|m| m.to_string_lossy().starts_with("wirecontract"));
        if e.type_error && e.path.is_empty() && from_us {
            let tn = ty.name().map_or_else(|_| "?".to_owned(), |n| n.to_string());
            return PyTypeError::new_err(wire::wrong_object::<T>(what, "a dict", &tn).to_string());
        }
        e.for_arg(what)
    })?;
    wire::object_arg(&text, what).map_err(arg_error)
}

/// `v` itself unless it is a contract object of another type than `T` (a payload, a
/// Graphorin frame): then `TypeError` with the contract's wrong-object text
/// (`error must be a dict or a ErrorInfo, not a SdkInfo`).
pub(crate) fn refuse_other_object<'a, 'py, T: Described>(v: &'a Bound<'py, PyAny>, what: &str) -> PyResult<&'a Bound<'py, PyAny>> {
    if let Ok(w) = v.downcast::<WireObject>() {
        let name = w.getattr("type_name")?.extract::<String>()?;
        if name != T::DESC.name {
            return Err(PyTypeError::new_err(wire::wrong_object::<T>(what, "a dict", &name).to_string()));
        }
    }
    Ok(v)
}

/// [`object_arg`] for each item of a sequence (`{what}[i]` names an item); `TypeError` when
/// `seq` is not iterable, or is a `dict`/`str`/`bytes`/`bytearray` (iterable, but its keys or
/// characters are not matchers: `breakpoints` is a sequence of objects).
pub(crate) fn objects_arg<T: WireValue + Described>(seq: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<T>> {
    let refuse = || {
        let tn = seq.get_type().name().map_or_else(|_| "?".to_owned(), |n| n.to_string());
        PyTypeError::new_err(format!("{what} must be a sequence of dicts or {} objects, not {tn}", T::DESC.name))
    };
    let not_a_sequence = seq.is_instance_of::<pyo3::types::PyString>()
        || seq.is_instance_of::<pyo3::types::PyBytes>()
        || seq.is_instance_of::<pyo3::types::PyByteArray>()
        || seq.is_instance_of::<pyo3::types::PyDict>()
        || seq.downcast::<pyo3::types::PyMapping>().is_ok()
        || seq.downcast::<WireObject>().is_ok();
    if not_a_sequence {
        return Err(refuse());
    }
    let items = seq.try_iter().map_err(|_| refuse())?;
    items.enumerate().map(|(i, item)| object_arg(&item?, &format!("{what}[{i}]"))).collect()
}

/// matchers_equal(a, b, /)
/// --
///
/// Matcher equality (§5.12): same `kind`, `name` and effective `point` (absent = `"before"`);
/// unknown keys do not take part. `a`/`b`: dicts or `BreakpointMatcher` objects.
#[pyfunction]
#[pyo3(signature = (a, b, /))]
pub fn matchers_equal(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(gm::BreakpointMatcher::same_as(&object_arg(a, "a")?, &object_arg(b, "b")?))
}

/// matcher_matches(matcher, kind, name, point, /)
/// --
///
/// Whether `matcher` selects the gate `(kind, name, point)` (§5.12).
#[pyfunction]
#[pyo3(signature = (matcher, kind, name, point, /))]
pub fn matcher_matches(matcher: &Bound<'_, PyAny>, kind: &Bound<'_, PyString>, name: &Bound<'_, PyString>, point: &Bound<'_, PyString>) -> PyResult<bool> {
    let (kind, name, point) = (str_arg(kind, "kind")?, str_arg(name, "name")?, str_arg(point, "point")?);
    let m = object_arg(matcher, "matcher")?;
    let kind = enum_arg(kind, "kind")?;
    let point = enum_arg(point, "point")?;
    Ok(gm::BreakpointMatcher::matches(&m, kind, name, point))
}

/// should_pause(mode, breakpoints, kind, name, point, /)
/// --
///
/// Whether a gate pauses: step mode pauses at every `before` and `error` point; otherwise
/// when any matcher in `breakpoints` matches (§5.12).
#[pyfunction]
#[pyo3(signature = (mode, breakpoints, kind, name, point, /))]
pub fn should_pause(
    mode: &Bound<'_, PyString>,
    breakpoints: &Bound<'_, PyAny>,
    kind: &Bound<'_, PyString>,
    name: &Bound<'_, PyString>,
    point: &Bound<'_, PyString>,
) -> PyResult<bool> {
    let (mode, kind, name, point) = (str_arg(mode, "mode")?, str_arg(kind, "kind")?, str_arg(name, "name")?, str_arg(point, "point")?);
    let mode = enum_arg(mode, "mode")?;
    let kind = enum_arg(kind, "kind")?;
    let point = enum_arg(point, "point")?;
    let list = objects_arg(breakpoints, "breakpoints")?;
    Ok(gm::should_pause(mode, &list, kind, name, point))
}

/// pause_reason(mode, breakpoints, kind, name, point, /)
/// --
///
/// Why a gate pauses (§5.12): `'breakpoint'` when a matcher in `breakpoints` matches (checked
/// first), `'step'` in step mode at a `before` or `error` point, else `None`. Same arguments
/// as `should_pause`, which is `pause_reason(...) is not None`.
#[pyfunction]
#[pyo3(signature = (mode, breakpoints, kind, name, point, /))]
#[allow(clippy::needless_pass_by_value)] // pyo3 extracts arguments by value
pub fn pause_reason(mode: Text, breakpoints: &Bound<'_, PyAny>, kind: Text, name: Text, point: Text) -> PyResult<Option<&'static str>> {
    let mode: &str = &mode;
    let kind: &str = &kind;
    let name: &str = &name;
    let point: &str = &point;
    let mode = enum_arg(mode, "mode")?;
    let kind = enum_arg(kind, "kind")?;
    let point = enum_arg(point, "point")?;
    let list = objects_arg(breakpoints, "breakpoints")?;
    Ok(gm::pause_reason(mode, &list, kind, name, point).map(gm::PauseReason::as_str))
}

/// `negotiate_hello` accepted the app: `protocol` (1), `capabilities` (the app's that the
/// viewer also implements, in the app's order) and `resume_token` (the hello's token when it
/// may be reused as `sessionToken`, else `None`).
#[pyclass(frozen, module = "wirecontract.graphmind", name = "Accepted")]
pub struct HelloAccepted {
    /// The protocol both speak (1).
    #[pyo3(get)]
    pub protocol: i64,
    /// The capabilities both implement.
    #[pyo3(get)]
    pub capabilities: Vec<String>,
    /// The reusable resume token, or `None` (mint a new session token).
    #[pyo3(get)]
    pub resume_token: Option<String>,
}

#[pymethods]
impl HelloAccepted {
    #[classattr]
    fn __match_args__() -> (&'static str, &'static str, &'static str) {
        ("protocol", "capabilities", "resume_token")
    }
    fn __repr__(&self) -> String {
        let token = self.resume_token.as_ref().map_or_else(|| "None".to_owned(), |t| format!("{t:?}"));
        format!("Accepted(protocol={}, capabilities={:?}, resume_token={token})", self.protocol, self.capabilities)
    }
}

/// `negotiate_hello` refused the app: `reason` names the protocol it speaks. Close the
/// connection (1002) instead of answering.
#[pyclass(frozen, module = "wirecontract.graphmind", name = "Refused")]
pub struct HelloRefused {
    /// Why.
    #[pyo3(get)]
    pub reason: String,
}

#[pymethods]
impl HelloRefused {
    #[classattr]
    fn __match_args__() -> (&'static str,) {
        ("reason",)
    }
    fn __repr__(&self) -> String {
        format!("Refused(reason={:?})", self.reason)
    }
}

/// negotiate_hello(hello, /, viewer_capabilities=KNOWN_CAPABILITIES)
/// --
///
/// Negotiates an app's `hello` payload (a dict or `Hello` object) for a viewer (§1
/// Handshake): `Refused(reason)` when `versions.protocol` is not 1, else
/// `Accepted(protocol, capabilities, resume_token)` with the capabilities both implement.
#[pyfunction]
#[pyo3(signature = (hello, /, viewer_capabilities=None))]
pub fn negotiate_hello(py: Python<'_>, hello: &Bound<'_, PyAny>, viewer_capabilities: Option<Vec<Text>>) -> PyResult<PyObject> {
    let viewer_capabilities = viewer_capabilities.map(Text::strings);
    let hello = object_arg(hello, "hello")?;
    let caps = viewer_capabilities.unwrap_or_else(|| gm::KNOWN_CAPABILITIES.iter().map(|c| (*c).to_owned()).collect());
    Ok(match gm::negotiate_hello(&hello, &caps) {
        gm::HelloNegotiation::Accepted(a) => {
            Py::new(py, HelloAccepted { protocol: a.protocol, capabilities: a.capabilities, resume_token: a.resume_token })?.into_any()
        }
        gm::HelloNegotiation::Refused(reason) => Py::new(py, HelloRefused { reason })?.into_any(),
    })
}

/// hello_ack(hello, /, *, viewer, breakpoints, mode, seq, session_token=None, hub_capabilities=None, ts=None)
/// --
///
/// The `hello.ack` envelope (`runId "*"`) that arms an app with the viewer's desired state
/// (graphmind-session §5.1): `versions {protocol: 1, viewer}`, the app's capabilities
/// echoed, `breakpoints` (dicts or `BreakpointMatcher`s; equal ones kept once) and `mode`,
/// `session_token`, `hub_capabilities`. `seq` is the connection's next viewer seq.
#[pyfunction]
#[pyo3(signature = (hello, /, *, viewer, breakpoints, mode, seq, session_token=None, hub_capabilities=None, ts=None))]
#[allow(clippy::too_many_arguments, clippy::needless_pass_by_value)]
pub fn hello_ack(
    py: Python<'_>,
    hello: &Bound<'_, PyAny>,
    viewer: Text,
    breakpoints: &Bound<'_, PyAny>,
    mode: Text,
    seq: &Bound<'_, PyAny>,
    session_token: Option<Text>,
    hub_capabilities: Option<Vec<Text>>,
    ts: Option<&Bound<'_, PyAny>>,
) -> PyResult<Envelope> {
    let viewer: &str = &viewer;
    let mode: &str = &mode;
    let session_token = session_token.as_deref();
    let hub_capabilities = hub_capabilities.map(Text::strings);
    let hello = object_arg(hello, "hello")?;
    let list = objects_arg(breakpoints, "breakpoints")?;
    let mode = enum_arg(mode, "mode")?;
    let seq = counter(py, "seq", seq)?;
    let ts = ts.filter(|t| !t.is_none()).map(|t| counter(py, "ts", t)).transpose()?;
    let ack = gm::hello_ack(&hello, viewer, &list, mode, session_token, hub_capabilities.as_deref());
    let env = guard(|| gm::create_envelope(ack, seq, gm::WILDCARD_RUN_ID, ts))?.map_err(|e| build_error(py, &e))?;
    Ok(Envelope { inner: Arc::new(env) })
}

/// breakpoint_matcher(value, /)
/// --
///
/// Validates a dict as a `BreakpointMatcher` object (raises `ValueError` naming the rule).
#[pyfunction]
#[pyo3(signature = (value, /))]
pub fn breakpoint_matcher(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    // This function's Python API is the one concrete type it builds.
    let m: gm::BreakpointMatcher = object_arg(value, "value")?;
    make_object(py, m.type_name(), Root::Object(Arc::new(m)), Vec::new())
}

fn tuple<'py>(py: Python<'py>, items: &[&str]) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, items)
}

/// Fills the `wirecontract._native.graphmind` module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Envelope>()?;
    m.add_class::<ParseOk>()?;
    m.add_class::<ParseUnknownType>()?;
    m.add_class::<ParseVersionMismatch>()?;
    m.add_class::<ParseInvalid>()?;
    m.add_class::<WireObject>()?;
    crate::object::add_object_classes(m, "graphmind")?;
    m.add_function(wrap_pyfunction!(parse_envelope_json, m)?)?;
    m.add_function(wrap_pyfunction!(parse_envelope, m)?)?;
    m.add_function(wrap_pyfunction!(create_envelope, m)?)?;
    m.add_function(wrap_pyfunction!(create_unknown_envelope, m)?)?;
    m.add_function(wrap_pyfunction!(serialize_envelope, m)?)?;
    m.add_function(wrap_pyfunction!(pause_reason, m)?)?;
    m.add_function(wrap_pyfunction!(negotiate_hello, m)?)?;
    m.add_function(wrap_pyfunction!(hello_ack, m)?)?;
    m.add_class::<HelloAccepted>()?;
    m.add_class::<HelloRefused>()?;
    m.add_function(wrap_pyfunction!(serialize_envelope_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(export_json_schema, m)?)?;
    m.add_function(wrap_pyfunction!(export_json_schema_string, m)?)?;
    m.add_function(wrap_pyfunction!(matchers_equal, m)?)?;
    m.add_function(wrap_pyfunction!(matcher_matches, m)?)?;
    m.add_function(wrap_pyfunction!(should_pause, m)?)?;
    m.add_function(wrap_pyfunction!(breakpoint_matcher, m)?)?;
    crate::shrink::register(m)?;
    crate::llm::register(m)?;
    m.add("PROTOCOL_VERSION", gm::PROTOCOL_VERSION)?;
    m.add("WILDCARD_RUN_ID", gm::WILDCARD_RUN_ID)?;
    m.add("DEFAULT_MAX_FRAME_BYTES", gm::DEFAULT_MAX_FRAME_BYTES)?;
    m.add("DEFAULT_MAX_DEPTH", gm::DEFAULT_MAX_DEPTH)?;
    m.add("MESSAGE_TYPES", tuple(py, gm::MESSAGE_TYPES)?)?;
    m.add("EVENT_TYPES", tuple(py, gm::EVENT_TYPES)?)?;
    m.add("CONTROL_TYPES", tuple(py, gm::CONTROL_TYPES)?)?;
    m.add("HANDSHAKE_TYPES", tuple(py, gm::HANDSHAKE_TYPES)?)?;
    m.add("KNOWN_CAPABILITIES", tuple(py, gm::KNOWN_CAPABILITIES)?)?;
    m.add("SCHEMA_ID", gm::SCHEMA_ID)?;
    let names: Vec<&str> = gm::PROTOCOL.objects().iter().map(|o| o.name).collect();
    m.add("OBJECT_TYPES", PyTuple::new(py, names)?)?;
    crate::object::add_registry_names(m, &gm::PROTOCOL)?;
    Ok(())
}
