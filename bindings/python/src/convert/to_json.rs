//! Python values → JSON text, as `JSON.stringify` would write it, with three modes for
//! non-finite floats ([`NonFinite`]). A recursive pass bounded to a few dozen levels over the
//! plain built-in types (`write_plain`) takes the common case; anything else goes to the
//! iterative walk (`write_general`), which takes any depth the contract accepts on any thread's
//! stack and names the path of a value with no JSON form ([`HostError`]).

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use wirecontract_json::{write_f64, write_int, write_string};

/// What to write for NaN and ±Infinity.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum NonFinite {
    /// `null`, as `JSON.stringify` does (building frames).
    Null,
    /// `1e400`/`-1e400` (NaN: `null`), so the parser sees the value `JSON.parse` would
    /// produce for an already decoded JavaScript value (`parse_envelope(dict)`).
    Overflow,
    /// An error at the first one (its path, message `received nan`/`inf`/`-inf`): used to
    /// explain a refused build whose issue says `received null`.
    Refuse,
}

/// Converts a Python value (dict with str keys, list, tuple, str, int, float, bool, None, or
/// an object with `to_dict()`) to compact JSON text.
///
/// # Errors
/// [`HostError`] naming the dotted path (from the value's root) of the first value that has
/// no JSON form; it converts into a `TypeError`/`ValueError` with `?`.
pub fn py_to_json(value: &Bound<'_, PyAny>, non_finite: NonFinite) -> Result<String, HostError> {
    // Room for a typical event payload up front: growing from empty reallocated it several times.
    let mut out: Vec<u8> = Vec::with_capacity(512);
    write_json(value, non_finite, &mut out)?;
    String::from_utf8(out).map_err(|_| HostError { path: String::new(), message: "internal error: non-UTF-8 output".into(), type_error: false })
}

/// [`py_to_json`] appending to `out` (UTF-8 text); on an error `out` is as it was.
///
/// # Errors
/// As [`py_to_json`].
fn write_json(value: &Bound<'_, PyAny>, non_finite: NonFinite, out: &mut Vec<u8>) -> Result<(), HostError> {
    if write_plain_json(value, out) {
        return Ok(());
    }
    let start = out.len();
    let r = write_general(value, non_finite, out);
    if r.is_err() {
        out.truncate(start);
    }
    r
}

/// Appends `v`'s JSON text when [`write_plain`] can write all of it (the exact built-in types
/// and contract objects: no Python code runs); `false`, with `out` as it was, otherwise.
pub fn write_plain_json(v: &Bound<'_, PyAny>, out: &mut Vec<u8>) -> bool {
    let start = out.len();
    if write_plain(v, 0, out) {
        return true;
    }
    out.truncate(start);
    false
}

/// Levels [`write_plain`] recurses into before it leaves the value to the general walker (which
/// is iterative and takes any depth the contract accepts).
const PLAIN_DEPTH: usize = 24;

/// The common case of [`py_to_json`] in one recursive pass with no copies of a container's
/// items: exactly a `dict` with `str` keys, a `list`, a `str` without lone surrogates, an `int`
/// within `i64`, a finite `float`, a `bool`, `None` or a contract object (its wire JSON), at
/// most [`PLAIN_DEPTH`] levels deep. Only the exact built-in types: a subclass may change how it
/// reads. `false` when anything else is inside; `out` is then partly written, and the caller
/// truncates it and writes the whole value with [`write_general`], which writes every other kind
/// of value or names its path.
///
/// It runs no Python code, so no value can change under it; it stops at its first `false`, so
/// a dict iteration never goes on after an error was raised.
fn write_plain(v: &Bound<'_, PyAny>, depth: usize, out: &mut Vec<u8>) -> bool {
    if let Ok(s) = v.downcast_exact::<PyString>() {
        let Ok(text) = s.to_str() else { return false };
        write_string(out, text);
    } else if let Ok(d) = v.downcast_exact::<PyDict>() {
        if depth >= PLAIN_DEPTH {
            return false;
        }
        out.push(b'{');
        for (i, (k, item)) in d.iter().enumerate() {
            let Ok(k) = k.downcast_exact::<PyString>() else { return false };
            let Ok(key) = k.to_str() else { return false };
            if i > 0 {
                out.push(b',');
            }
            write_string(out, key);
            out.push(b':');
            if !write_plain(&item, depth + 1, out) {
                return false;
            }
        }
        out.push(b'}');
    } else if let Ok(l) = v.downcast_exact::<PyList>() {
        if depth >= PLAIN_DEPTH {
            return false;
        }
        out.push(b'[');
        for (i, item) in l.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            if !write_plain(&item, depth + 1, out) {
                return false;
            }
        }
        out.push(b']');
    } else if v.is_none() {
        out.extend_from_slice(b"null");
    } else if let Ok(b) = v.downcast_exact::<PyBool>() {
        out.extend_from_slice(if b.is_true() { b"true" } else { b"false" });
    } else if v.is_exact_instance_of::<PyInt>() {
        let Ok(i) = v.extract::<i64>() else { return false };
        write_int(out, i);
    } else if let Ok(f) = v.downcast_exact::<PyFloat>() {
        let x = f.value();
        if !x.is_finite() {
            return false;
        }
        write_f64(out, x);
    } else {
        return crate::handle::write_wire_json(v, out);
    }
    true
}

/// [`py_to_json`] for every value: iterative, so any depth the contract accepts is written
/// (or refused with its path) on any thread's stack.
#[allow(clippy::too_many_lines)] // one iterative walk; splitting it would scatter the stack
fn write_general(value: &Bound<'_, PyAny>, non_finite: NonFinite, out: &mut Vec<u8>) -> Result<(), HostError> {
    // Each frame: the container's items and the index of the next one. Paths are built only
    // when an error needs one (a path per frame would make deep values quadratic).
    enum Frame<'py> {
        Seq(Vec<Bound<'py, PyAny>>, usize),
        Map(Vec<(Bound<'py, PyAny>, Bound<'py, PyAny>)>, usize),
    }
    fn pointer(stack: &[Frame<'_>]) -> String {
        const SHOWN: usize = 12;
        let mut segs: Vec<String> = Vec::new();
        for f in stack.iter().take(SHOWN) {
            segs.push(match f {
                Frame::Seq(_, i) => i.saturating_sub(1).to_string(),
                Frame::Map(items, i) => items
                    .get(i.saturating_sub(1))
                    .and_then(|(k, _)| k.downcast::<PyString>().ok().map(|k| k.to_string_lossy().into_owned()))
                    .unwrap_or_default(),
            });
        }
        if stack.len() > SHOWN {
            segs.push(format!("… ({} levels)", stack.len()));
        }
        segs.join(".")
    }
    let type_err = |stack: &[Frame<'_>], message: String| HostError { path: pointer(stack), message, type_error: true };
    let value_err = |stack: &[Frame<'_>], e: PyErr| HostError { path: pointer(stack), message: e.to_string(), type_error: false };
    let max_depth = wirecontract_json::DEFAULT_MAX_DEPTH;
    let mut stack: Vec<Frame<'_>> = Vec::new();
    let mut next: Option<Bound<'_, PyAny>> = Some(value.clone());
    loop {
        if let Some(v) = next.take() {
            if v.is_none() {
                out.extend_from_slice(b"null");
            } else if let Ok(b) = v.downcast::<PyBool>() {
                out.extend_from_slice(if b.is_true() { b"true" } else { b"false" });
            } else if let Ok(s) = v.downcast::<PyString>() {
                write_py_str(out, s).map_err(|e| value_err(&stack, e))?;
            } else if v.is_instance_of::<PyInt>() {
                // The integer's value, never `str(v)`: an int subclass (IntEnum, or one with its
                // own __str__) must not put arbitrary text into the frame.
                if let Ok(i) = v.extract::<i64>() {
                    write_int(out, i);
                } else {
                    let digits = py_int_repr(&v).map_err(|e| value_err(&stack, e))?;
                    out.extend_from_slice(digits.as_bytes());
                }
            } else if let Ok(f) = v.downcast::<PyFloat>() {
                let x = f.value();
                if non_finite == NonFinite::Refuse && !x.is_finite() {
                    let shown = if x.is_nan() {
                        "nan"
                    } else if x > 0.0 {
                        "inf"
                    } else {
                        "-inf"
                    };
                    return Err(HostError { path: pointer(&stack), message: format!("received {shown}"), type_error: false });
                }
                if x.is_nan() || (non_finite == NonFinite::Null && x.is_infinite()) {
                    out.extend_from_slice(b"null");
                } else if x.is_infinite() {
                    out.extend_from_slice(if x > 0.0 { b"1e400" } else { b"-1e400" });
                } else {
                    write_f64(out, x);
                }
            } else if let Ok(d) = v.downcast::<PyDict>() {
                if stack.len() >= max_depth {
                    return Err(HostError { path: pointer(&stack), message: format!("value nests deeper than {max_depth} levels"), type_error: false });
                }
                out.push(b'{');
                stack.push(Frame::Map(d.iter().collect(), 0));
            } else if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
                if stack.len() >= max_depth {
                    return Err(HostError { path: pointer(&stack), message: format!("value nests deeper than {max_depth} levels"), type_error: false });
                }
                out.push(b'[');
                let items: Vec<_> = v.try_iter().and_then(Iterator::collect::<PyResult<_>>).map_err(|e| value_err(&stack, e))?;
                stack.push(Frame::Seq(items, 0));
            } else if crate::handle::write_wire_json(&v, out) {
                // A contract object: its wire JSON, written.
            } else if let Ok(m) = v.downcast::<pyo3::types::PyMapping>() {
                // Any collections.abc.Mapping (MappingProxyType, a user Mapping), as the stubs'
                // `Mapping` parameters promise; written in its items() order, like a dict.
                if stack.len() >= max_depth {
                    return Err(HostError { path: pointer(&stack), message: format!("value nests deeper than {max_depth} levels"), type_error: false });
                }
                let items: Vec<(Bound<'_, PyAny>, Bound<'_, PyAny>)> =
                    m.items().and_then(|l| l.iter().map(|kv| kv.extract()).collect::<PyResult<_>>()).map_err(|e| value_err(&stack, e))?;
                out.push(b'{');
                stack.push(Frame::Map(items, 0));
            } else {
                let tn = v.get_type().name().map_or_else(|_| "?".into(), |n| n.to_string());
                return Err(type_err(&stack, format!("a {tn} has no JSON form (use dict, list, str, int, float, bool or None)")));
            }
        }
        // Advance the innermost container.
        let Some(top) = stack.last_mut() else {
            break;
        };
        match top {
            Frame::Seq(items, i) => {
                if *i < items.len() {
                    if *i > 0 {
                        out.push(b',');
                    }
                    next = Some(items[*i].clone());
                    *i += 1;
                } else {
                    out.push(b']');
                    stack.pop();
                }
            }
            Frame::Map(items, i) => {
                if *i < items.len() {
                    if *i > 0 {
                        out.push(b',');
                    }
                    let (k, v) = (items[*i].0.clone(), items[*i].1.clone());
                    *i += 1;
                    let Ok(ks) = k.downcast::<PyString>() else {
                        // The path names the dict (the bad key has no string form to name it by);
                        // the message shows the key.
                        let tn = k.get_type().name().map_or_else(|_| "?".into(), |n| n.to_string());
                        let shown = k.repr().map_or_else(|_| String::new(), |r| format!(" {}", r.to_string_lossy()));
                        let parent = pointer(&stack[..stack.len() - 1]);
                        return Err(HostError { path: parent, message: format!("dict keys must be str, found the {tn} key{shown}"), type_error: true });
                    };
                    write_py_str(out, ks).map_err(|e| value_err(&stack, e))?;
                    out.push(b':');
                    next = Some(v);
                } else {
                    out.push(b'}');
                    stack.pop();
                }
            }
        }
    }
    Ok(())
}

/// A host value with no JSON form: where (dotted path from the value's root, `""` for the
/// root) and why.
#[derive(Debug)]
pub struct HostError {
    /// Dotted path from the converted value's root.
    pub path: String,
    /// What is wrong.
    pub message: String,
    /// `TypeError` (wrong kind of value) rather than `ValueError`.
    pub type_error: bool,
}

impl HostError {
    /// `path: message`, or just the message at the root.
    pub fn describe(&self, prefix: &str) -> String {
        let path = self.full_path(prefix);
        if path.is_empty() {
            self.message.clone()
        } else {
            format!("{path}: {}", self.message)
        }
    }

    /// The path with `prefix` (e.g. `payload`) in front.
    pub fn full_path(&self, prefix: &str) -> String {
        match (prefix.is_empty(), self.path.is_empty()) {
            (true, _) => self.path.clone(),
            (false, true) => prefix.to_owned(),
            (false, false) => format!("{prefix}.{}", self.path),
        }
    }
}

impl HostError {
    /// The `TypeError`/`ValueError` for this error in the argument `what`, its path prefixed
    /// with the argument (`breakpoints[0].x: value nests deeper…`, `output: a set has no JSON
    /// form…`).
    pub fn for_arg(&self, what: &str) -> PyErr {
        let text = self.describe(what);
        if self.type_error {
            PyTypeError::new_err(text)
        } else {
            PyValueError::new_err(text)
        }
    }
}

impl From<HostError> for PyErr {
    fn from(e: HostError) -> PyErr {
        let text = e.describe("");
        if e.type_error {
            PyTypeError::new_err(text)
        } else {
            PyValueError::new_err(text)
        }
    }
}

/// Writes a Python `str` as a JSON string literal; lone surrogates become `\udxxx`.
fn write_py_str(out: &mut Vec<u8>, s: &Bound<'_, PyString>) -> PyResult<()> {
    if let Ok(text) = s.to_str() {
        write_string(out, text);
        return Ok(());
    }
    // Lone surrogates: walk the code points through UTF-16 with surrogatepass.
    let encoded = s.call_method1("encode", ("utf-16-le", "surrogatepass"))?;
    let bytes: Vec<u8> = encoded.extract()?;
    let units: Vec<u16> = bytes.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
    let mut text = String::new();
    let mut escapes: Vec<u8> = Vec::new();
    out.push(b'"');
    for r in char::decode_utf16(units.iter().copied()) {
        match r {
            Ok(ch) => text.push(ch),
            Err(e) => {
                flush(out, &mut text, &mut escapes);
                out.extend_from_slice(format!("\\u{:04x}", e.unpaired_surrogate()).as_bytes());
            }
        }
    }
    flush(out, &mut text, &mut escapes);
    out.push(b'"');
    Ok(())
}

fn flush(out: &mut Vec<u8>, text: &mut String, scratch: &mut Vec<u8>) {
    if text.is_empty() {
        return;
    }
    scratch.clear();
    write_string(scratch, text);
    out.extend_from_slice(&scratch[1..scratch.len() - 1]);
    text.clear();
}

/// `int.__repr__(v)`: the decimal digits of an int (or int subclass) value.
fn py_int_repr(v: &Bound<'_, PyAny>) -> PyResult<String> {
    let int_type = v.py().get_type::<PyInt>();
    let text = int_type.getattr("__repr__")?.call1((v,))?;
    let text: String = text.extract()?;
    // Defensive: only digits and a sign may reach the frame.
    if text.bytes().enumerate().all(|(i, c)| c.is_ascii_digit() || (i == 0 && c == b'-')) && !text.is_empty() {
        Ok(text)
    } else {
        Err(PyTypeError::new_err("an int whose value has no decimal form"))
    }
}

/// A NaN or ±Infinity in a value is written `null` (as `JSON.stringify` does), so a typed field
/// holding one fails as "received null": this names the value the caller passed, in the issues
/// whose paths start at `prefix` (`""`: the value's root).
pub(crate) fn explain_non_finite_issues(value: &Bound<'_, PyAny>, prefix: &str, issues: &mut [wirecontract::wire::Issue]) {
    if !issues.iter().any(|i| i.message.contains("received null")) {
        return;
    }
    if let Err(h) = py_to_json(value, NonFinite::Refuse) {
        if let Some(shown) = h.message.strip_prefix("received ") {
            let path = h.full_path(prefix);
            for i in issues.iter_mut().filter(|i| i.dotted_path() == path) {
                i.message = i.message.replacen(
                    "received null",
                    &format!("received {shown} (JSON has no NaN or Infinity: it is written null, as JSON.stringify does)"),
                    1,
                );
            }
        }
    }
}
