//! Input frames as [`SharedText`]: a parse keeps its opaque values as spans of the caller's
//! input instead of copying them, and the result holds a reference to that input (the
//! `bytes` or `str` object itself), so it stays valid after the caller drops its own.
//!
//! `bytes` and `str` are immutable and referenced; a `bytearray` can be mutated after the
//! call, so it is copied once, up front.

use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::{PyByteArray, PyBytes, PyString};
use wirecontract::core::SharedText;

/// A `bytes` object whose content has been checked to be UTF-8.
struct Utf8Bytes(PyBackedBytes);

impl AsRef<str> for Utf8Bytes {
    #[inline]
    #[allow(unsafe_code)]
    fn as_ref(&self) -> &str {
        // SAFETY: a `Utf8Bytes` is only made by `Utf8Bytes::new`, after the bytes passed
        // UTF-8 validation; they cannot change afterwards (a `bytes` object is immutable and
        // `PyBackedBytes` holds a strong reference to it, or owns its own copy).
        unsafe { std::str::from_utf8_unchecked(&self.0) }
    }
}

impl Utf8Bytes {
    /// `None` when the bytes are not UTF-8.
    fn new(bytes: PyBackedBytes) -> Option<Self> {
        simdutf8::basic::from_utf8(&bytes).is_ok().then_some(Utf8Bytes(bytes))
    }
}

/// What a parse reads: frame text the result may share, or bytes that are not UTF-8 (the
/// parser names the offset of the first bad byte), or a value of the wrong type.
pub enum Input {
    /// UTF-8 text, shareable.
    Text(SharedText),
    /// Not UTF-8 (or a `str` holding lone surrogates, as its surrogatepass bytes).
    NotUtf8(Vec<u8>),
}

impl Input {
    /// The input's length in bytes (the frame size cap is checked on this first).
    pub fn byte_len(&self) -> usize {
        match self {
            Input::Text(t) => t.as_str().len(),
            Input::NotUtf8(b) => b.len(),
        }
    }
}

/// Reads `data` (`str`, `bytes` or `bytearray`); `Ok(None)` for any other type.
pub fn input(data: &Bound<'_, PyAny>) -> PyResult<Option<Input>> {
    if let Ok(b) = data.downcast::<PyBytes>() {
        let backed = PyBackedBytes::from(b.clone());
        return Ok(Some(match Utf8Bytes::new(backed) {
            Some(t) => Input::Text(SharedText::new(t)),
            None => Input::NotUtf8(b.as_bytes().to_vec()),
        }));
    }
    if let Ok(s) = data.downcast::<PyString>() {
        return Ok(Some(match PyBackedStr::try_from(s.clone()) {
            Ok(text) => Input::Text(SharedText::new(text)),
            // A str holding lone surrogates has no UTF-8 form, so no WebSocket text frame
            // could carry it: its surrogatepass bytes give the same "invalid UTF-8" verdict.
            Err(_) => Input::NotUtf8(s.call_method1("encode", ("utf-8", "surrogatepass"))?.extract()?),
        }));
    }
    if let Ok(b) = data.downcast::<PyByteArray>() {
        let owned = b.to_vec();
        return Ok(Some(match String::from_utf8(owned) {
            Ok(text) => Input::Text(SharedText::new(text)),
            Err(e) => Input::NotUtf8(e.into_bytes()),
        }));
    }
    Ok(None)
}
