//! Input frames as [`SharedText`] / [`SharedBytes`]: a parse keeps its opaque values as spans
//! of the caller's input instead of copying them, and the result holds a reference to that
//! input (the `bytes` or `str` object itself), so it stays valid after the caller drops its
//! own. A `bytes` input is not checked here: the GraphMind parse checks its UTF-8 in the same
//! scan that reads it (the contract's rule and verdicts; the binding adds none).
//!
//! `bytes` and `str` are immutable and referenced; a `bytearray` can be mutated after the
//! call, so it is copied once, up front.

use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::{PyByteArray, PyBytes, PyString};
use wirecontract::graphmind::Frame;
use wirecontract_json::{SharedBytes, SharedText};

/// What a parse reads: frame text the result may share, a `bytes` object the result may
/// share once the parse has checked it is UTF-8, or bytes that are not UTF-8 (the parser
/// names the offset of the first bad byte).
pub enum Input {
    /// UTF-8 text, shareable.
    Text(SharedText),
    /// A `bytes` object, not yet checked: the GraphMind parse checks it while it reads it
    /// (`Frame::SharedBytes`), so a valid frame is read once.
    Bytes(SharedBytes),
    /// Not UTF-8 (or a `str` holding lone surrogates, as its surrogatepass bytes).
    NotUtf8(Vec<u8>),
}

impl Input {
    /// The input's length in bytes (the frame size cap is checked on this first).
    pub fn byte_len(&self) -> usize {
        match self {
            Input::Text(t) => t.as_str().len(),
            Input::Bytes(b) => b.as_bytes().len(),
            Input::NotUtf8(b) => b.len(),
        }
    }

    /// The input as the contract's [`Frame`], what each protocol's `parse` reads.
    pub fn frame(&self) -> Frame<'_> {
        match self {
            Input::Text(t) => Frame::SharedText(t),
            Input::Bytes(b) => Frame::SharedBytes(b),
            Input::NotUtf8(b) => Frame::Bytes(b),
        }
    }
}

/// Reads `data` (`str`, `bytes` or `bytearray`); `Ok(None)` for any other type.
pub fn input(data: &Bound<'_, PyAny>) -> PyResult<Option<Input>> {
    if let Ok(b) = data.downcast::<PyBytes>() {
        // Held by reference (`PyBackedBytes` keeps the immutable `bytes` object alive).
        return Ok(Some(Input::Bytes(SharedBytes::new(PyBackedBytes::from(b.clone())))));
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
