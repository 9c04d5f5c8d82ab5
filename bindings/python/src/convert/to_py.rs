//! JSON text → Python values, following the `json` module: integer lexemes become `int` (exact,
//! any size), others `float` (`1e400` → `inf`), lone-surrogate escapes become lone surrogates in
//! `str`, duplicate keys keep the last value at the first position. Iterative, so any depth the
//! contract accepts converts on any thread's stack. Object keys come from a process-wide cache
//! ([`KeyCache`]).

use std::cell::RefCell;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::GILProtected;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString};
use wirecontract_json::cursor::validated_string_end;
use wirecontract_json::{decode_string, unescape, LoneSurrogate};

use crate::pystr::Scratch;

/// Object keys (and enum values) made into `str` once and reused across conversions, as
/// orjson and msgspec do: the same few keys repeat in every element of an array of objects and
/// in every frame. A process-wide table of [`KeyCache::SLOTS`] slots (a key's slot is picked
/// by its hash; a collision replaces the slot), guarded by the GIL; keys with escapes and
/// keys longer than [`KeyCache::MAX_KEY`] bytes are made fresh each time. The per-conversion
/// part holds the buffers strings are decoded into ([`Scratch`]).
#[derive(Default)]
pub struct KeyCache {
    scratch: Scratch,
}

type KeySlots = Vec<Option<(Box<str>, Py<PyString>)>>;

/// The process-wide key table. A `RefCell` under the GIL: a conversion that re-enters (a
/// finalizer run by the garbage collector during an allocation) finds it borrowed and makes
/// its keys fresh instead.
static KEYS: GILProtected<RefCell<KeySlots>> = GILProtected::new(RefCell::new(Vec::new()));

impl KeyCache {
    const SLOTS: usize = 1024;
    const MAX_KEY: usize = 32;

    /// `raw` (a key's text between the quotes; `escaped` when it holds an escape) as `str`,
    /// from the process-wide table when it can be. A method so that every conversion goes
    /// through its `KeyCache`, whatever the table's home.
    #[allow(clippy::unused_self)]
    pub fn key(&mut self, py: Python<'_>, raw: &str, escaped: bool) -> PyResult<PyObject> {
        if escaped {
            return string_to_py(py, raw);
        }
        if raw.len() > Self::MAX_KEY {
            return Ok(PyString::new(py, raw).into_any().unbind());
        }
        let Ok(mut slots) = KEYS.get(py).try_borrow_mut() else {
            return Ok(PyString::new(py, raw).into_any().unbind());
        };
        if slots.is_empty() {
            slots.resize_with(Self::SLOTS, || None);
        }
        let slot = &mut slots[(key_hash(raw.as_bytes()) as usize) % Self::SLOTS];
        if let Some((k, v)) = slot {
            if &**k == raw {
                return Ok(v.clone_ref(py).into_any());
            }
        }
        let s = PyString::new(py, raw).unbind();
        *slot = Some((raw.into(), s.clone_ref(py)));
        Ok(s.into_any())
    }
}

impl KeyCache {
    /// A text value (not a key) as `str`, through [`crate::pystr::str_from_text`] with this
    /// conversion's UTF-32 buffer.
    pub fn text(&mut self, py: Python<'_>, text: &str) -> PyResult<PyObject> {
        Ok(crate::pystr::str_from_text(py, text, &mut self.scratch.wide)?.into_any().unbind())
    }
}

/// `str` objects for the registry's `&'static str` texts (field wire names, enum values): a
/// slot is picked by the text's address and a hit is one pointer compare (no hash of the
/// bytes, no byte compare). Same rules as [`KEYS`] otherwise.
type StaticSlots = Vec<Option<((usize, usize), Py<PyString>)>>;
static STATIC_KEYS: GILProtected<RefCell<StaticSlots>> = GILProtected::new(RefCell::new(Vec::new()));

impl KeyCache {
    /// A registry text (`&'static str`: a field's wire name, an enum value) as `str`, made once.
    #[allow(clippy::unused_self)]
    pub fn static_key(&mut self, py: Python<'_>, text: &'static str) -> PyObject {
        let Ok(mut slots) = STATIC_KEYS.get(py).try_borrow_mut() else {
            return PyString::new(py, text).into_any().unbind();
        };
        if slots.is_empty() {
            slots.resize_with(Self::SLOTS, || None);
        }
        // Address and length name the text: two `&'static str` with both equal are the same
        // bytes (a literal merged with a longer one differs in length).
        let addr = (text.as_ptr() as usize, text.len());
        let slot = &mut slots[((addr.0 ^ addr.1).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) % Self::SLOTS];
        if let Some((a, v)) = slot {
            if *a == addr {
                return v.clone_ref(py).into_any();
            }
        }
        let s = PyString::new(py, text).unbind();
        *slot = Some((addr, s.clone_ref(py)));
        s.into_any()
    }
}

/// A slot hash for a key of at most [`KeyCache::MAX_KEY`] bytes from its first and last eight
/// bytes and its length (two loads instead of a loop; a collision only costs a miss).
fn key_hash(b: &[u8]) -> u64 {
    let eight = |s: &[u8]| u64::from_le_bytes(s.try_into().unwrap_or_default());
    let (head, tail) = if b.len() >= 8 { (eight(&b[..8]), eight(&b[b.len() - 8..])) } else { (b.iter().fold(0u64, |w, &c| (w << 8) | u64::from(c)), 0) };
    (head ^ tail.rotate_left(31) ^ b.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40
}

/// Converts validated JSON text (from the contract: raw opaque values, serialized objects).
pub fn json_to_py(py: Python<'_>, text: &str) -> PyResult<PyObject> {
    json_to_py_cached(py, text, &mut KeyCache::default())
}

/// [`json_to_py`] sharing a [`KeyCache`] across several values.
pub fn json_to_py_cached(py: Python<'_>, text: &str, keys: &mut KeyCache) -> PyResult<PyObject> {
    let b = text.as_bytes();
    let mut stack: Vec<Container<'_>> = Vec::new();
    let mut pos = 0usize;
    let mut expect_key = false;
    loop {
        while pos < b.len() && matches!(b[pos], b' ' | b'\n' | b'\r' | b'\t' | b',' | b':') {
            pos += 1;
        }
        let Some(&c) = b.get(pos) else {
            return Err(PyValueError::new_err("internal error: truncated JSON"));
        };
        // Close containers.
        if c == b']' || c == b'}' {
            pos += 1;
            let done = match stack.pop() {
                Some(Container::List(l)) => l.into_any().unbind(),
                Some(Container::Dict(d, _)) => d.into_any().unbind(),
                None => return Err(PyValueError::new_err("internal error: unbalanced JSON")),
            };
            if let Some(v) = attach(py, &mut stack, done, &mut expect_key)? {
                return Ok(v);
            }
            continue;
        }
        if expect_key {
            let (end, escaped) = validated_string_end(b, pos);
            let key = if escaped { string_at(py, text, pos, end, &mut keys.scratch)? } else { keys.key(py, &text[pos + 1..end - 1], false)? };
            if let Some(Container::Dict(_, k)) = stack.last_mut() {
                *k = Some(key);
            }
            expect_key = false;
            pos = end;
            continue;
        }
        let value: PyObject = match c {
            b'[' => {
                stack.push(Container::List(PyList::empty(py)));
                pos += 1;
                continue;
            }
            b'{' => {
                stack.push(Container::Dict(PyDict::new(py), None));
                pos += 1;
                expect_key = true;
                // `{}`: the loop sees `}` next and closes it before reading a key.
                let mut q = pos;
                while q < b.len() && matches!(b[q], b' ' | b'\n' | b'\r' | b'\t') {
                    q += 1;
                }
                if b.get(q) == Some(&b'}') {
                    expect_key = false;
                }
                continue;
            }
            b'"' => {
                let (end, s) = crate::pystr::json_string(py, text, pos, &mut keys.scratch)?;
                let s = match s {
                    Some(s) => s.into_any().unbind(),
                    None => string_to_py(py, text.get(pos + 1..end - 1).unwrap_or_default())?,
                };
                pos = end;
                s
            }
            b't' => {
                pos += 4;
                PyBool::new(py, true).to_owned().into_any().unbind()
            }
            b'f' => {
                pos += 5;
                PyBool::new(py, false).to_owned().into_any().unbind()
            }
            b'n' => {
                pos += 4;
                py.None()
            }
            _ => {
                let start = pos;
                while pos < b.len() && matches!(b[pos], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') {
                    pos += 1;
                }
                number_to_py(py, &text[start..pos])?
            }
        };
        if let Some(v) = attach(py, &mut stack, value, &mut expect_key)? {
            return Ok(v);
        }
    }
}

enum Container<'py> {
    List(Bound<'py, PyList>),
    /// A dict and the key waiting for its value.
    Dict(Bound<'py, PyDict>, Option<PyObject>),
}

/// Adds a finished value to the innermost container; returns it when it is the root.
/// Sets `expect_key` when the container is a dict (its next token is a key or `}`).
fn attach(py: Python<'_>, stack: &mut [Container<'_>], value: PyObject, expect_key: &mut bool) -> PyResult<Option<PyObject>> {
    match stack.last_mut() {
        None => Ok(Some(value)),
        Some(Container::List(l)) => {
            l.append(value)?;
            *expect_key = false;
            Ok(None)
        }
        Some(Container::Dict(d, key)) => {
            let k = key.take().unwrap_or_else(|| py.None());
            d.set_item(k, value)?;
            *expect_key = true;
            Ok(None)
        }
    }
}

/// The string token `text[start..end]` (quotes included) of validated text as `str`.
fn string_at(py: Python<'_>, text: &str, start: usize, end: usize, scratch: &mut Scratch) -> PyResult<PyObject> {
    match crate::pystr::json_string(py, text, start, scratch)?.1 {
        Some(s) => Ok(s.into_any().unbind()),
        None => string_to_py(py, text.get(start + 1..end - 1).unwrap_or_default()),
    }
}

/// A JSON string's escaped content to `str`, keeping lone surrogates (Python can hold them).
pub fn string_to_py(py: Python<'_>, raw: &str) -> PyResult<PyObject> {
    let d = decode_string(raw);
    if !d.had_lone_surrogate {
        return Ok(PyString::new(py, &d.text).into_any().unbind());
    }
    // Rare path: the engine's decoder keeps the lone surrogates as WTF-8, which Python's UTF-8
    // codec reads back into surrogate code points with `surrogatepass` (`Keep` into bytes
    // never rejects).
    let mut wtf8 = Vec::with_capacity(raw.len());
    let _ = unescape(raw, &mut wtf8, LoneSurrogate::Keep);
    Ok(PyBytes::new(py, &wtf8).call_method1("decode", ("utf-8", "surrogatepass"))?.unbind())
}

fn number_to_py(py: Python<'_>, lexeme: &str) -> PyResult<PyObject> {
    let integral = !lexeme.bytes().any(|c| matches!(c, b'.' | b'e' | b'E'));
    if integral {
        if let Ok(i) = lexeme.parse::<i64>() {
            return Ok(i.into_pyobject(py)?.into_any().unbind());
        }
        let int_type = py.get_type::<PyInt>();
        return Ok(int_type.call1((lexeme,))?.unbind());
    }
    let x: f64 = lexeme.parse().unwrap_or(f64::NAN);
    Ok(PyFloat::new(py, x).into_any().unbind())
}
