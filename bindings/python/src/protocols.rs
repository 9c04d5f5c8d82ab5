//! Any registered protocol from Python, by name: the generic entry points a protocol gets
//! without a hand-written module (`wirecontract.protocols()`, `wirecontract.parse_frame`).
//! Objects come back as the same typed classes the protocol modules use.

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};
use wirecontract::registry::{self, AnyOutcome};
use wirecontract::wire::Reflect;

use crate::issue::issues_to_py;
use crate::object::{make_object, Root};

/// The names of every registered protocol, in registry order.
#[pyfunction]
fn protocols(py: Python<'_>) -> PyResult<Py<PyTuple>> {
    Ok(PyTuple::new(py, registry::protocols().iter().map(|p| p.name))?.unbind())
}

/// Parses one frame of the protocol `protocol` with its registered parser. Returns
/// `(kind, message, object, issues)`: `kind` is `"ok"`, `"invalid"` or a protocol's own
/// verdict (`"unknown-type"`, `"version-mismatch"`); `message` the message type or variant
/// when ok, the reason (one line) when invalid, and for another verdict the message type when
/// it knows one, else `None`; `object` the typed frame or payload (`None` unless ok); `issues`
/// a list of `Issue` (empty unless invalid). Never raises for bad input (a `str` holding a lone surrogate has no
/// UTF-8 form, so no text frame carries it: `"invalid"`); `ValueError` for an unknown protocol
/// (`BuildError` when `protocol` holds a lone surrogate).
#[pyfunction]
fn parse_frame(py: Python<'_>, protocol: &Bound<'_, PyString>, data: &Bound<'_, PyString>) -> PyResult<PyObject> {
    let protocol = crate::str_arg(protocol, "protocol")?;
    let Ok(data) = data.to_str() else {
        let issues = [wirecontract::wire::Issue::at("", "invalid UTF-8: the text holds a lone surrogate")];
        let items =
            ["invalid".into_pyobject(py)?.into_any().unbind(), "invalid UTF-8".into_pyobject(py)?.into_any().unbind(), py.None(), issues_to_py(py, &issues)?];
        return Ok(PyTuple::new(py, items)?.into_any().unbind());
    };
    let Some(p) = registry::protocol(protocol) else {
        return Err(PyValueError::new_err(format!("unknown protocol {protocol:?}")));
    };
    let outcome = crate::guard(|| (p.parse_any)(data))?;
    let none = || py.None();
    let tuple = match outcome {
        AnyOutcome::Ok { message, object } => {
            let object = match object {
                Some(o) => {
                    let o: Arc<dyn Reflect> = Arc::from(o);
                    make_object(py, o.type_name(), Root::Object(o), Vec::new())?
                }
                None => none(),
            };
            ("ok".into_pyobject(py)?.into_any().unbind(), message.into_pyobject(py)?.into_any().unbind(), object, issues_to_py(py, &[])?)
        }
        AnyOutcome::Invalid { reason, issues } => {
            ("invalid".into_pyobject(py)?.into_any().unbind(), reason.into_pyobject(py)?.into_any().unbind(), none(), issues_to_py(py, &issues)?)
        }
        AnyOutcome::Other { kind, message } => {
            (kind.into_pyobject(py)?.into_any().unbind(), message.into_pyobject(py)?.into_any().unbind(), none(), issues_to_py(py, &[])?)
        }
    };
    Ok(PyTuple::new(py, [tuple.0, tuple.1, tuple.2, tuple.3])?.into_any().unbind())
}

/// Registers the generic functions and every protocol's object classes on `m`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(protocols, m)?)?;
    m.add_function(wrap_pyfunction!(parse_frame, m)?)?;
    Ok(())
}
