//! `wirecontract.graphorin`: Graphorin's strict v1 frames for Python (spec graphorin-v1 §13).
//!
//! Same conventions as `graphmind`, opposite policy: a frame either parses into its typed
//! object or raises `ParseError` (a `ValueError`) carrying `.issues`, `.id` and `.is_json`.

use std::sync::Arc;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use wirecontract::graphorin;

use crate::convert::{json_to_py, py_to_json, NonFinite};
use crate::frame::Input;
use crate::issue::issues_to_py;
use crate::object::{make_object, Root, WireObject};
use crate::{guard, str_arg};

pyo3::create_exception!(
    wirecontract.graphorin,
    ParseError,
    PyValueError,
    "A Graphorin frame did not parse: `.is_syntax_error` (True: not JSON at all; False: JSON but not a legal frame; `.is_json` is its deprecated old name), `.issues` (path, code, message), `.id` (the frame's raw id, JSON type kept, or None), `.rpc_error_code`."
);

#[derive(Clone, Copy)]
enum Direction {
    Server,
    Client,
}

/// The frame as the parse's input: `bytes`/`str` shared by reference, a `bytearray` copied
/// once (`frame::input`), so opaque values of the result are spans of it.
fn frame_input(data: &Bound<'_, PyAny>) -> PyResult<Input> {
    if let Some(input) = crate::frame::input(data)? {
        return Ok(input);
    }
    let tn = data.get_type().name().map_or_else(|_| String::new(), |n| n.to_string());
    Err(PyTypeError::new_err(format!("expected str, bytes or bytearray, not {tn}")))
}

fn parse_error(py: Python<'_>, e: &graphorin::ParseError) -> PyResult<PyErr> {
    let err = ParseError::new_err(e.to_string());
    let value = err.value(py);
    value.setattr("issues", issues_to_py(py, e.issues())?)?;
    let id = match e.raw_id() {
        Some(raw) => json_to_py(py, raw.as_str())?,
        None => py.None(),
    };
    value.setattr("id", id)?;
    value.setattr("is_syntax_error", e.is_syntax_error())?;
    // The old name, kept for existing callers: it is True for a *syntax failure*.
    value.setattr("is_json", e.is_syntax_error())?;
    value.setattr("rpc_error_code", e.rpc_error_code().code())?;
    let reply = json_to_py(py, &e.reply_id().to_json())?;
    value.setattr("reply_id", reply)?;
    Ok(err)
}

fn parse(py: Python<'_>, data: &Bound<'_, PyAny>, direction: Direction) -> PyResult<PyObject> {
    let input = frame_input(data)?;
    let big = input.byte_len() >= wirecontract_glue::RELEASE_HOST_LOCK_BYTES;
    let run = move || {
        guard(|| {
            let opts = graphorin::ParseOptions::default();
            match direction {
                Direction::Server => graphorin::parse::<graphorin::ServerMessage>(input.frame(), &opts).map(|m| Root::GraphorinServer(Arc::new(m))),
                Direction::Client => graphorin::parse::<graphorin::ClientMessage>(input.frame(), &opts).map(|m| Root::GraphorinClient(Arc::new(m))),
            }
        })
    };
    let out = if big { py.allow_threads(run)? } else { run()? };
    match out {
        Ok(root) => root_object(py, root),
        Err(e) => Err(parse_error(py, &e)?),
    }
}

fn root_object(py: Python<'_>, root: Root) -> PyResult<PyObject> {
    let name = match &root {
        Root::GraphorinServer(m) => m.as_reflect().type_name(),
        Root::GraphorinClient(m) => m.as_reflect().type_name(),
        _ => "",
    };
    make_object(py, name, root, Vec::new())
}

/// parse_server_message(data, /)
/// --
///
/// Parses a server frame (`str`/`bytes`): returns its typed object (`ServerEventFrame`, …)
/// or raises `ParseError`.
#[pyfunction]
#[pyo3(signature = (data, /))]
pub fn parse_server_message(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    parse(py, data, Direction::Server)
}

/// parse_client_message(data, /)
/// --
///
/// Parses a client frame (`str`/`bytes`): returns its typed object
/// (`ClientInitializeRequest`, …) or raises `ParseError`.
#[pyfunction]
#[pyo3(signature = (data, /))]
pub fn parse_client_message(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    parse(py, data, Direction::Client)
}

fn from_value(py: Python<'_>, value: &Bound<'_, PyAny>, direction: Direction) -> PyResult<PyObject> {
    let text = py_to_json(value, NonFinite::Overflow)?;
    parse(py, PyString::new(py, &text).as_any(), direction)
}

/// parse_server_value(value, /)
/// --
///
/// Parses an already decoded server frame (a `dict`); raises `ParseError`.
#[pyfunction]
#[pyo3(signature = (value, /))]
pub fn parse_server_value(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    from_value(py, value, Direction::Server)
}

/// parse_client_value(value, /)
/// --
///
/// Parses an already decoded client frame (a `dict`); raises `ParseError`.
#[pyfunction]
#[pyo3(signature = (value, /))]
pub fn parse_client_value(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    from_value(py, value, Direction::Client)
}

fn frame_root(obj: &Bound<'_, PyAny>) -> PyResult<Root> {
    let w = obj.downcast::<WireObject>().map_err(|_| PyTypeError::new_err("expected a Graphorin frame object (from parse_*_message or build_*_message)"))?;
    w.get().frame_root().cloned().ok_or_else(|| PyTypeError::new_err("expected a whole frame, not a nested object"))
}

/// serialize_message(message, /)
/// --
///
/// The frame text of a parsed or built server or client frame object (only legal frames
/// can be built, so this never fails for one).
#[pyfunction]
#[pyo3(signature = (message, /))]
pub fn serialize_message(message: &Bound<'_, PyAny>) -> PyResult<String> {
    match frame_root(message)? {
        Root::GraphorinServer(m) => guard(move || graphorin::serialize_server_message(&m)),
        Root::GraphorinClient(m) => guard(move || graphorin::serialize_client_message(&m)),
        // A frame built with its class's constructor (validated by the reader on the way in).
        Root::Object(o) if graphorin::PROTOCOL.unions.iter().any(|u| u.variants.iter().any(|v| v.frame.name == o.type_name())) => guard(move || {
            let mut out = Vec::new();
            o.write_json(&mut out);
            String::from_utf8_lossy(&out).into_owned()
        }),
        _ => Err(PyTypeError::new_err("expected a Graphorin frame object")),
    }
}

/// build_server_message(value, /)
/// --
///
/// Validates a wire-shaped dict as a server frame and returns its object (raises
/// `ParseError` naming every issue): the way to build frames that can only be legal.
#[pyfunction]
#[pyo3(signature = (value, /))]
pub fn build_server_message(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    let text = py_to_json(value, NonFinite::Null)?;
    parse(py, PyString::new(py, &text).as_any(), Direction::Server)
}

/// build_client_message(value, /)
/// --
///
/// Validates a wire-shaped dict as a client frame and returns its object.
#[pyfunction]
#[pyo3(signature = (value, /))]
pub fn build_client_message(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    let text = py_to_json(value, NonFinite::Null)?;
    parse(py, PyString::new(py, &text).as_any(), Direction::Client)
}

/// variant(message, /)
/// --
///
/// The frame kind's stable wire name (`"rpc-success"`, `"event"`, `"initialize"`, …).
#[pyfunction]
#[pyo3(signature = (message, /))]
pub fn variant(message: &Bound<'_, PyAny>) -> PyResult<&'static str> {
    match frame_root(message)? {
        Root::GraphorinServer(m) => Ok(m.variant().as_str()),
        Root::GraphorinClient(m) => Ok(m.variant().as_str()),
        _ => Err(PyTypeError::new_err("expected a Graphorin frame object")),
    }
}

/// A subprotocol offer as the reference reads it (§7): a string (one header value, split on
/// commas), a list or tuple of strings, or anything else (the empty offer).
fn offer_entries(offer: &Bound<'_, PyAny>) -> Vec<String> {
    if let Ok(s) = offer.downcast::<PyString>() {
        return vec![s.to_string_lossy().into_owned()];
    }
    if offer.is_instance_of::<PyList>() || offer.is_instance_of::<PyTuple>() {
        if let Ok(items) = offer.try_iter() {
            return items.filter_map(Result::ok).filter_map(|i| i.downcast::<PyString>().ok().map(|s| s.to_string_lossy().into_owned())).collect();
        }
    }
    Vec::new()
}

/// negotiate(offer, /)
/// --
///
/// The subprotocol to answer a WebSocket offer with, or `None` (§7). `offer`: a header value
/// (`"a, b"`), a list of them, or anything else (no match).
#[pyfunction]
#[pyo3(signature = (offer, /))]
pub fn negotiate(offer: &Bound<'_, PyAny>) -> Option<&'static str> {
    graphorin::negotiate(offer_entries(offer))
}

/// parse_ticket(offer, /)
/// --
///
/// The auth ticket carried in a subprotocol offer (`ticket.<t>`), or `None`; `offer` as for
/// `negotiate`.
#[pyfunction]
#[pyo3(signature = (offer, /))]
pub fn parse_ticket(offer: &Bound<'_, PyAny>) -> Option<String> {
    graphorin::parse_ticket(offer_entries(offer))
}

/// format_ticket(ticket, /)
/// --
///
/// The subprotocol entry carrying `ticket`; raises `ValueError` for an empty ticket.
#[pyfunction]
#[pyo3(signature = (ticket, /))]
pub fn format_ticket(ticket: &Bound<'_, PyString>) -> PyResult<String> {
    let ticket = str_arg(ticket, "ticket")?;
    graphorin::format_ticket(ticket).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// close_code_for(reason, /)
/// --
///
/// The WebSocket close code (4001–4008) for a close reason (`"auth.required"`, …).
#[pyfunction]
#[pyo3(signature = (reason, /))]
pub fn close_code_for(reason: &Bound<'_, PyString>) -> PyResult<u16> {
    let reason = str_arg(reason, "reason")?;
    graphorin::CloseReason::from_wire(reason)
        .map(graphorin::close_code_for)
        .ok_or_else(|| PyValueError::new_err(format!("unknown close reason {reason:?}; known: {:?}", graphorin::CloseReason::VALUES)))
}

/// close_code_reason(code, /)
/// --
///
/// The close reason for a code 4001–4008, or `None` for any other value (§6).
#[pyfunction]
#[pyo3(signature = (code, /))]
pub fn close_code_reason(code: &Bound<'_, PyAny>) -> Option<&'static str> {
    let code: u16 = code.extract::<i64>().ok().and_then(|c| u16::try_from(c).ok())?;
    graphorin::close_code_reason(code).map(graphorin::CloseReason::as_str)
}

/// export_json_schema()
/// --
///
/// The draft 2020-12 JSON Schema of Graphorin frames, as a dict.
#[pyfunction]
pub fn export_json_schema(py: Python<'_>) -> PyResult<PyObject> {
    json_to_py(py, &graphorin::export_json_schema_string())
}

/// export_json_schema_string()
/// --
///
/// The schema text (pretty-printed, trailing newline).
#[pyfunction]
pub fn export_json_schema_string() -> String {
    graphorin::export_json_schema_string()
}

/// Fills the `wirecontract._native.graphorin` module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ParseError", py.get_type::<ParseError>())?;
    crate::object::add_object_classes(m, "graphorin")?;
    crate::object::add_registry_names(m, &graphorin::PROTOCOL)?;
    m.add_function(wrap_pyfunction!(parse_server_message, m)?)?;
    m.add_function(wrap_pyfunction!(parse_client_message, m)?)?;
    m.add_function(wrap_pyfunction!(parse_server_value, m)?)?;
    m.add_function(wrap_pyfunction!(parse_client_value, m)?)?;
    m.add_function(wrap_pyfunction!(serialize_message, m)?)?;
    m.add_function(wrap_pyfunction!(build_server_message, m)?)?;
    m.add_function(wrap_pyfunction!(build_client_message, m)?)?;
    m.add_function(wrap_pyfunction!(variant, m)?)?;
    m.add_function(wrap_pyfunction!(negotiate, m)?)?;
    m.add_function(wrap_pyfunction!(parse_ticket, m)?)?;
    m.add_function(wrap_pyfunction!(format_ticket, m)?)?;
    m.add_function(wrap_pyfunction!(close_code_for, m)?)?;
    m.add_function(wrap_pyfunction!(close_code_reason, m)?)?;
    m.add_function(wrap_pyfunction!(export_json_schema, m)?)?;
    m.add_function(wrap_pyfunction!(export_json_schema_string, m)?)?;
    m.add("PROTOCOL_VERSION", graphorin::PROTOCOL_VERSION)?;
    m.add("SUBPROTOCOL_NAME", graphorin::SUBPROTOCOL_NAME)?;
    m.add("TICKET_SUBPROTOCOL_PREFIX", graphorin::TICKET_SUBPROTOCOL_PREFIX)?;
    m.add("WS_PATH", graphorin::WS_PATH)?;
    m.add("JSONRPC_VERSION", graphorin::JSONRPC_VERSION)?;
    m.add("SCHEMA_ID", graphorin::SCHEMA_ID)?;
    m.add("KINDS", PyTuple::new(py, graphorin::KINDS)?)?;
    m.add("METHODS", PyTuple::new(py, graphorin::METHODS)?)?;
    let codes = PyDict::new(py);
    for (reason, code) in graphorin::CLOSE_CODE_VALUES {
        codes.set_item(reason.as_str(), code)?;
    }
    m.add("CLOSE_CODES", codes)?;
    let rpc = PyDict::new(py);
    for info in graphorin::RPC_ERROR_CODES {
        rpc.set_item(info.name, info.value)?;
    }
    m.add("RPC_ERROR_CODES", rpc)?;
    // Guards as data: (variant wire name, python name); graphorin.py turns them into functions.
    let guards = PyList::empty(py);
    for (variant, rust_name, _, _) in graphorin::SERVER_GUARDS {
        guards.append((variant.as_str(), *rust_name))?;
    }
    for (variant, rust_name, _, _) in graphorin::CLIENT_GUARDS {
        guards.append((variant.as_str(), *rust_name))?;
    }
    m.add("GUARDS", guards.to_tuple())?;
    Ok(())
}
