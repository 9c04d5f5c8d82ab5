//! `wirecontract.graphmind.normalize_finish_reason` / `read_usage`: the LLM conventions
//! (reference 0.6.0) for Python. Thin: the rules are the contract's
//! [`gm::normalize_finish_reason`] and [`gm::read_usage_json`]; this converts host values.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString};
use wirecontract::graphmind as gm;
use wirecontract_json::{write_f64, write_string};

use crate::guard;

/// What a reader displays for one `TokenUsage` (`read_usage`).
#[pyclass(frozen, eq, module = "wirecontract", name = "UsageView")]
#[derive(Clone, PartialEq)]
pub struct UsageView {
    view: gm::UsageView,
}

/// A count as Python shows it: an `int` when it is a whole number JavaScript holds exactly.
fn count(py: Python<'_>, x: f64) -> PyObject {
    if x.fract() == 0.0 && x.abs() <= wirecontract_glue::MAX_SAFE_INTEGER_F64 {
        (x as i64).into_pyobject(py).map_or_else(|_| py.None(), |v| v.into_any().unbind())
    } else {
        x.into_pyobject(py).map_or_else(|_| py.None(), |v| v.into_any().unbind())
    }
}

#[pymethods]
impl UsageView {
    /// Prompt tokens: the total, cache included, unless `basis` is `"reported"`.
    #[getter]
    fn input_tokens(&self, py: Python<'_>) -> PyObject {
        count(py, self.view.input_tokens)
    }
    /// Output tokens as reported.
    #[getter]
    fn output_tokens(&self, py: Python<'_>) -> PyObject {
        count(py, self.view.output_tokens)
    }
    /// `"inclusive"`, `"recomputed"` or `"reported"`.
    #[getter]
    fn basis(&self) -> &'static str {
        self.view.basis.as_str()
    }
    /// Cache reads, when reported.
    #[getter]
    fn cache_read_tokens(&self, py: Python<'_>) -> Option<PyObject> {
        self.view.cache_read_tokens.map(|x| count(py, x))
    }
    /// Cache writes, when reported.
    #[getter]
    fn cache_write_tokens(&self, py: Python<'_>) -> Option<PyObject> {
        self.view.cache_write_tokens.map(|x| count(py, x))
    }
    /// Reasoning tokens, when reported.
    #[getter]
    fn reasoning_tokens(&self, py: Python<'_>) -> Option<PyObject> {
        self.view.reasoning_tokens.map(|x| count(py, x))
    }
    /// The reference's object: `inputTokens`, `outputTokens`, `basis`, then the present extras.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("inputTokens", count(py, self.view.input_tokens))?;
        d.set_item("outputTokens", count(py, self.view.output_tokens))?;
        d.set_item("basis", self.view.basis.as_str())?;
        for (k, x) in [
            ("cacheReadTokens", self.view.cache_read_tokens),
            ("cacheWriteTokens", self.view.cache_write_tokens),
            ("reasoningTokens", self.view.reasoning_tokens),
        ] {
            if let Some(x) = x {
                d.set_item(k, count(py, x))?;
            }
        }
        Ok(d)
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        self.to_dict(py).map_or_else(|_| "UsageView(?)".into(), |d| format!("UsageView({})", d.repr().map_or_else(|_| String::new(), |r| r.to_string())))
    }
}

/// normalize_finish_reason(raw, /, has_tool_calls=False)
/// --
///
/// The normalized finish reason (one of FINISH_REASONS) of a provider's raw value, or None
/// when nothing usable was reported (not a str, or blank). A plain stop on a step that
/// requested tool calls is "tool-calls".
#[pyfunction]
#[pyo3(signature = (raw, /, has_tool_calls=None), text_signature = "(raw, /, has_tool_calls=False)")]
pub fn normalize_finish_reason(raw: &Bound<'_, PyAny>, has_tool_calls: Option<&Bound<'_, PyAny>>) -> PyResult<Option<&'static str>> {
    let Ok(s) = raw.downcast::<PyString>() else { return Ok(None) };
    // A str holding a lone surrogate is read with U+FFFD: no provider spelling has one.
    let text = s.to_string_lossy().into_owned();
    let has = match has_tool_calls {
        Some(v) => v.is_truthy()?,
        None => false,
    };
    guard(|| gm::normalize_finish_reason(&text, has).map(gm::FinishReason::as_str))
}

/// read_usage(usage, /)
/// --
///
/// What a reader displays for a stored usage dict (camelCase keys, as on the wire), or None
/// when it is not a usage object. Only its top-level numbers and booleans take part. Never
/// raises for bad input.
#[pyfunction]
#[pyo3(signature = (usage, /))]
pub fn read_usage(usage: &Bound<'_, PyAny>) -> PyResult<Option<UsageView>> {
    let Ok(d) = usage.downcast::<PyDict>() else { return Ok(None) };
    // The dict's top-level numbers and booleans as a JSON object (a bool is no count, as in
    // JavaScript; other values cannot be counts and are left out).
    let mut text = vec![b'{'];
    for (k, v) in d.iter() {
        let Ok(k) = k.downcast::<PyString>() else { continue };
        let key = k.to_string_lossy();
        let value: Option<Vec<u8>> = if v.is_instance_of::<PyBool>() {
            Some(if v.is_truthy()? { b"true".to_vec() } else { b"false".to_vec() })
        } else if v.is_instance_of::<PyInt>() || v.is_instance_of::<PyFloat>() {
            // Big ints round to the nearest double, as JSON.parse reads them.
            v.extract::<f64>().ok().filter(|x| x.is_finite()).map(|x| {
                let mut out = Vec::new();
                write_f64(&mut out, x);
                out
            })
        } else {
            None
        };
        let Some(value) = value else { continue };
        if text.len() > 1 {
            text.push(b',');
        }
        write_string(&mut text, &key);
        text.push(b':');
        text.extend_from_slice(&value);
    }
    text.push(b'}');
    let text = String::from_utf8_lossy(&text).into_owned();
    Ok(guard(|| gm::read_usage_json(&text))?.map(|view| UsageView { view }))
}

/// Adds the LLM conventions to `wirecontract._native.graphmind`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<UsageView>()?;
    m.add_function(wrap_pyfunction!(normalize_finish_reason, m)?)?;
    m.add_function(wrap_pyfunction!(read_usage, m)?)?;
    Ok(())
}
