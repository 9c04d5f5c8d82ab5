//! Python objects made straight through the C API where pyo3's safe wrappers cost a measured
//! extra pass (docs/performance.md, Python binding). Limited API only (the wheel is abi3,
//! CPython ≥ 3.10); every `unsafe` block is one C call on arguments it documents.

use pyo3::exceptions::PyValueError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyString;

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

/// Decodes the JSON string whose opening quote is at `start` in validated JSON text, in one
/// block-at-a-time pass: a string without escapes becomes a `str` straight from the text; one
/// with escapes is decoded into `scratch` (reused across calls, so no allocation per string)
/// and made from there. Returns the offset after the closing quote and the `str`, or `None`
/// for the `str` when the string holds a lone-surrogate escape (the caller's slow path keeps
/// it as a lone surrogate, as `json.loads` does).
pub fn json_string<'py>(py: Python<'py>, src: &[u8], start: usize, scratch: &mut Vec<u8>) -> PyResult<(usize, Option<Bound<'py, PyString>>)> {
    use wirecontract::core::cursor::plain_run_end;
    let body = start + 1;
    let mut pos = plain_run_end(src, body);
    if src.get(pos) != Some(&b'\\') {
        let s = str_from_utf8(py, src.get(body..pos).unwrap_or_default())?;
        return Ok((pos + 1, Some(s)));
    }
    scratch.clear();
    scratch.extend_from_slice(&src[body..pos]);
    loop {
        match src.get(pos) {
            Some(b'\\') => {
                let esc = src.get(pos + 1).copied().unwrap_or(b'\\');
                pos += 2;
                match esc {
                    b'b' => scratch.push(0x08),
                    b'f' => scratch.push(0x0c),
                    b'n' => scratch.push(b'\n'),
                    b'r' => scratch.push(b'\r'),
                    b't' => scratch.push(b'\t'),
                    b'u' => {
                        let hi = hex4(src, pos);
                        pos += 4;
                        let c = if (0xD800..0xDC00).contains(&hi) && src.get(pos) == Some(&b'\\') && src.get(pos + 1) == Some(&b'u') {
                            let lo = hex4(src, pos + 2);
                            if !(0xDC00..0xE000).contains(&lo) {
                                return Ok((wirecontract::core::cursor::validated_string_end(src, start).0, None));
                            }
                            pos += 6;
                            0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                        } else {
                            hi
                        };
                        let Some(c) = char::from_u32(c) else {
                            return Ok((wirecontract::core::cursor::validated_string_end(src, start).0, None));
                        };
                        scratch.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                    }
                    other => scratch.push(other),
                }
            }
            Some(b'"') | None => break,
            // A control character cannot stand in validated text; keep it if it does.
            Some(&b) => {
                scratch.push(b);
                pos += 1;
            }
        }
        let run = pos;
        pos = plain_run_end(src, pos);
        scratch.extend_from_slice(src.get(run..pos).unwrap_or_default());
    }
    Ok((pos + 1, Some(str_from_utf8(py, scratch)?)))
}

/// The value of four hex digits at `pos` (validated text; anything else reads as U+FFFD).
fn hex4(src: &[u8], pos: usize) -> u32 {
    let Some(digits) = src.get(pos..pos + 4) else { return 0xFFFD };
    digits.iter().try_fold(0u32, |acc, &d| (d as char).to_digit(16).map(|v| acc * 16 + v)).unwrap_or(0xFFFD)
}
