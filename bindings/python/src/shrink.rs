//! `wirecontract.graphmind.shrink_payload` / `shrink_payload_json`: payload shrinking
//! (spec graphmind-shrink §3) for Python. Thin: the algorithm is the contract's
//! [`gm::shrink_payload_json`]; this converts host values and shapes the result.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};
use wirecontract::graphmind as gm;

use crate::convert::{py_to_json, NonFinite};
use crate::{guard, str_param, uint_param};

/// A shrink result: `json` (the payload text to send, `JSON.stringify`-exact) and `tier`
/// (1 unchanged, 2 field trim, 3 skeleton, 4 whole-payload marker).
#[pyclass(frozen, eq, hash, module = "wirecontract", name = "Shrunk")]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Shrunk {
    /// The payload JSON text.
    #[pyo3(get)]
    pub json: String,
    /// 1–4.
    #[pyo3(get)]
    pub tier: u8,
}

#[pymethods]
impl Shrunk {
    /// Whether the payload was shrunk (tiers 2–4), the reference's `truncated`.
    #[getter]
    fn truncated(&self) -> bool {
        self.tier > 1
    }

    fn __repr__(&self) -> String {
        let shown: String = self.json.chars().take(60).collect();
        let more = if shown.len() < self.json.len() { "…" } else { "" };
        format!("Shrunk(tier={}, json={shown:?}{more})", self.tier)
    }
}

/// Rewrites each raw lone surrogate of a `str`'s surrogatepass UTF-8 (`ED A0..BF xx`) as its
/// `\uXXXX` escape. A raw surrogate is only legal JSON inside a string, where the escape
/// means the same code unit to `JSON.parse`; elsewhere the text stays a syntax error.
fn escape_raw_surrogates(b: &[u8]) -> String {
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match (c, b.get(i + 1), b.get(i + 2)) {
            (0xED, Some(&n1), Some(&n2)) if n1 >= 0xA0 => {
                let unit = 0xD000 | (u32::from(n1 & 0x3F) << 6) | u32::from(n2 & 0x3F);
                out.extend_from_slice(format!("\\u{unit:04x}").as_bytes());
                i += 3;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

fn run(py: Python<'_>, text: &str, max_bytes: usize, message_type: Option<&str>) -> PyResult<Shrunk> {
    let f = || gm::shrink_payload_json(text, max_bytes, message_type);
    let result = if text.len() >= wirecontract_glue::RELEASE_HOST_LOCK_BYTES { py.allow_threads(|| guard(f))? } else { guard(f)? };
    match result {
        Ok(s) => Ok(Shrunk { json: s.json, tier: s.tier }),
        Err(e) => Err(PyValueError::new_err(format!("payload is not valid JSON: {e}"))),
    }
}

/// shrink_payload_json(data, /, max_bytes=524288, type=None)
/// --
///
/// Shrinks one payload given as JSON text (`str`, `bytes` or `bytearray`, read with
/// `JSON.parse` semantics) to at most `max_bytes` UTF-8 bytes, exactly as the reference's
/// `serializePayload` does (graphmind-shrink §3). `type` (an event type) enables the skeleton
/// tier and validation. Returns a `Shrunk`; a tier-4 marker may exceed a budget below
/// ~6 KB. Raises `ValueError` when the text is not JSON.
#[pyfunction]
#[pyo3(signature = (data, /, max_bytes=None, r#type=None), text_signature = "(data, /, max_bytes=524288, type=None)")]
pub fn shrink_payload_json(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    max_bytes: Option<&Bound<'_, PyAny>>,
    r#type: Option<&Bound<'_, PyAny>>,
) -> PyResult<Shrunk> {
    let max_bytes = match max_bytes {
        Some(v) => usize::try_from(uint_param(v, "max_bytes")?).unwrap_or(usize::MAX),
        None => gm::DEFAULT_MAX_PAYLOAD_BYTES,
    };
    let r#type = r#type.filter(|t| !t.is_none()).map(|t| str_param(t, "type")).transpose()?;
    let bytes: Vec<u8>;
    let text: &str = if let Ok(s) = data.downcast::<PyString>() {
        if let Ok(t) = s.to_str() {
            return run(py, t, max_bytes, r#type);
        }
        // A str with lone surrogates (JSON.parse keeps them inside strings).
        let raw: Vec<u8> = s.call_method1("encode", ("utf-8", "surrogatepass"))?.extract()?;
        return run(py, &escape_raw_surrogates(&raw), max_bytes, r#type);
    } else if let Ok(b) = data.downcast::<PyBytes>() {
        bytes = b.as_bytes().to_vec();
        std::str::from_utf8(&bytes).map_err(|e| PyValueError::new_err(format!("payload is not valid JSON: invalid UTF-8 at byte {}", e.valid_up_to())))?
    } else if let Ok(b) = data.downcast::<PyByteArray>() {
        bytes = b.to_vec();
        std::str::from_utf8(&bytes).map_err(|e| PyValueError::new_err(format!("payload is not valid JSON: invalid UTF-8 at byte {}", e.valid_up_to())))?
    } else {
        let tn = data.get_type().name().map(|n| n.to_string()).unwrap_or_default();
        return Err(PyTypeError::new_err(format!("shrink_payload_json expects str, bytes or bytearray, not {tn}")));
    };
    run(py, text, max_bytes, r#type)
}

/// shrink_payload(value, /, max_bytes=524288, type=None)
/// --
///
/// Shrinks one payload given as a Python value (dict, list, str, int, float, bool, None, or a
/// contract object) like `shrink_payload_json` does with its JSON: `float('inf')` is
/// JavaScript's Infinity (written `null`), big ints round to the nearest double. Raises
/// `TypeError`/`ValueError` naming the path of a value with no JSON form.
#[pyfunction]
#[pyo3(signature = (value, /, max_bytes=None, r#type=None), text_signature = "(value, /, max_bytes=524288, type=None)")]
pub fn shrink_payload(py: Python<'_>, value: &Bound<'_, PyAny>, max_bytes: Option<&Bound<'_, PyAny>>, r#type: Option<&Bound<'_, PyAny>>) -> PyResult<Shrunk> {
    let max_bytes = match max_bytes {
        Some(v) => usize::try_from(uint_param(v, "max_bytes")?).unwrap_or(usize::MAX),
        None => gm::DEFAULT_MAX_PAYLOAD_BYTES,
    };
    let r#type = r#type.filter(|t| !t.is_none()).map(|t| str_param(t, "type")).transpose()?;
    let text = py_to_json(value, NonFinite::Overflow)?;
    run(py, &text, max_bytes, r#type)
}

/// Adds the shrink API to `wirecontract._native.graphmind`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Shrunk>()?;
    m.add_function(wrap_pyfunction!(shrink_payload, m)?)?;
    m.add_function(wrap_pyfunction!(shrink_payload_json, m)?)?;
    m.add("DEFAULT_MAX_PAYLOAD_BYTES", gm::DEFAULT_MAX_PAYLOAD_BYTES)?;
    Ok(())
}
