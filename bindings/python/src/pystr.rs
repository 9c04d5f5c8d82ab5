//! Python objects made straight through the C API where pyo3's safe wrappers cost a measured
//! extra pass (docs/performance.md, Python binding). Limited API only (the wheel is abi3,
//! CPython ≥ 3.10); every `unsafe` block is one C call on arguments it documents.

use pyo3::exceptions::PyValueError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyString;
use wirecontract_json::cursor::{plain_run_end, validated_string_end};
use wirecontract_json::{unescape_body, LoneSurrogate, LoneSurrogateRejected};

/// A `str` from UTF-8 bytes in one pass: CPython's decoder validates while it builds the
/// object (an ASCII text is a word-at-a-time copy), so the bytes need no check of their own
/// first. Bytes that are not UTF-8 give `ValueError` (an internal error: the writer emits
/// UTF-8 only).
pub fn str_from_utf8<'py>(py: Python<'py>, bytes: &[u8]) -> PyResult<Bound<'py, PyString>> {
    let len = ffi::Py_ssize_t::try_from(bytes.len()).map_err(|_| PyValueError::new_err("internal error: text too long"))?;
    // SAFETY: `PyUnicode_FromStringAndSize` (limited API) reads exactly `len` bytes from the
    // pointer, which `bytes` keeps valid for the call; the GIL is held (`py`). It returns a new
    // reference, or NULL with an exception set, which `from_owned_ptr_or_err` turns into `Err`.
    #[allow(unsafe_code)]
    let obj = unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyUnicode_FromStringAndSize(bytes.as_ptr().cast(), len)) }
        .map_err(|e| PyValueError::new_err(format!("internal error: serialized frame is not UTF-8 ({e})")))?;
    Ok(obj.downcast_into::<PyString>()?)
}

/// Non-ASCII texts of at least this many bytes are made through UTF-32 ([`str_from_text`]).
/// Below it the UTF-8 decoder's widening costs little and the transcoding would cost more.
#[cfg(not(windows))]
const WIDE_MIN: usize = 64;

/// ... and of at most this many: past it the UTF-32 buffer (four bytes a character, kept for
/// the next string) would grow the process by more than the text it is made from
/// (docs/performance.md, "5. Python binding").
#[cfg(not(windows))]
const WIDE_MAX: usize = 64 * 1024;

/// Buffers reused across the strings of one conversion: `text` for strings with escapes,
/// decoded; `wide` for [`str_from_text`]'s UTF-32.
#[derive(Default)]
pub struct Scratch {
    text: String,
    pub(crate) wide: Vec<u32>,
}

/// A `str` from text known to be UTF-8 (a `&str`). ASCII text, short text and very long text
/// go to CPython's UTF-8 decoder ([`str_from_utf8`]); other non-ASCII text is transcoded to
/// UTF-32 (`wirecontract_json::utf32`, SIMD) and made by `PyUnicode_FromWideChar`, which
/// finds the widest character and allocates the `str` once, where the UTF-8 decoder starts
/// narrow and reallocates and copies at each wider character it meets (docs/performance.md,
/// "5. Python binding"). Both give the same `str`.
pub fn str_from_text<'py>(py: Python<'py>, text: &str, wide: &mut Vec<u32>) -> PyResult<Bound<'py, PyString>> {
    #[cfg(not(windows))]
    if (WIDE_MIN..=WIDE_MAX).contains(&text.len()) && wirecontract_json::utf32::is_simd() && !text.is_ascii() {
        // `wchar_t` is UTF-32 on every platform but Windows (where it is UTF-16: not this route).
        const _: () = assert!(std::mem::size_of::<libc::wchar_t>() == 4);
        wide.clear();
        wirecontract_json::utf32::push_utf32(text, wide);
        let len = ffi::Py_ssize_t::try_from(wide.len()).map_err(|_| PyValueError::new_err("internal error: text too long"))?;
        // SAFETY: `PyUnicode_FromWideChar` (limited API) reads exactly `len` `wchar_t`s from the
        // pointer; `wide` holds that many `u32`s, `wchar_t` is four bytes here (asserted above)
        // and every value is a Unicode scalar value, so each is a valid `wchar_t` whether the
        // platform's is signed or not. The GIL is held (`py`). A new reference or NULL with an
        // exception set, which `from_owned_ptr_or_err` turns into `Err`.
        #[allow(unsafe_code)]
        let obj = unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyUnicode_FromWideChar(wide.as_ptr().cast(), len)) }?;
        return Ok(obj.downcast_into::<PyString>()?);
    }
    #[cfg(windows)]
    let _ = wide;
    str_from_utf8(py, text.as_bytes())
}

/// Decodes the JSON string whose opening quote is at `start` in validated JSON text, in one
/// block-at-a-time pass: a string without escapes becomes a `str` straight from the text; one
/// with escapes is decoded by the engine's decoder ([`unescape_body`], lone surrogates
/// rejected) into `scratch` (reused across calls, so no allocation per string) and made from
/// there, each through [`str_from_text`]. Returns the offset after the closing quote and the
/// `str`, or `None` for the `str` when the string holds a lone-surrogate escape (the caller's
/// slow path keeps it as a lone surrogate, as `json.loads` does).
pub fn json_string<'py>(py: Python<'py>, text: &str, start: usize, scratch: &mut Scratch) -> PyResult<(usize, Option<Bound<'py, PyString>>)> {
    let src = text.as_bytes();
    let body = start + 1;
    // `pos` is at an ASCII byte (a quote, a backslash) or the text's end, so each `get` is at a
    // character boundary.
    let pos = plain_run_end(src, body);
    if src.get(pos) != Some(&b'\\') {
        let s = str_from_text(py, text.get(body..pos).unwrap_or_default(), &mut scratch.wide)?;
        return Ok((pos + 1, Some(s)));
    }
    let out = &mut scratch.text;
    out.clear();
    out.push_str(text.get(body..pos).unwrap_or_default());
    match unescape_body(text, pos, out, LoneSurrogate::Reject) {
        Ok(read) => Ok((read.close + 1, Some(str_from_text(py, &scratch.text, &mut scratch.wide)?))),
        Err(LoneSurrogateRejected) => Ok((validated_string_end(src, start).0, None)),
    }
}
