//! The native core of the `wirecontract` Python package (pyo3, one abi3 wheel for
//! CPython ≥ 3.10). The package curates this private module in Python, as pydantic-core does.
//!
//! Files: `build.rs` reads the registry and writes one Python class per contract object
//! (`object_classes!`, included by `object.rs`); `graphmind.rs`, `graphorin.rs`, `shrink.rs`,
//! `llm.rs` (`normalize_finish_reason`, `read_usage`),
//! `protocols.rs` (any registered protocol by name), `session.rs` and `session_viewer.rs` are
//! the modules; `convert/` turns JSON text into Python values (`to_py.rs`) and back
//! (`to_json.rs`); `object.rs` is the
//! `WireObject` classes over the handle in `handle.rs`; `issue.rs` is
//! `wirecontract.Issue` (shared by every protocol, picklable, codes only from the contract's
//! `IssueCode`: the one conversion from the contract's `Issue` and the one place that formats
//! contract issues into an error, `summary`, `value_error`, `build_error`); `frame.rs` hands the
//! input `str` over as the parse's `SharedText` and a `bytes` object as its unchecked
//! `SharedBytes`; `pystr.rs` holds the few audited C-API calls that build `str` objects
//! (CPython's UTF-8 decoder, or for non-ASCII text of 64 B to 64 KiB the contract's UTF-32 and
//! `PyUnicode_FromWideChar`, which allocates the `str` once). The package's `.pyi` stubs under
//! `python/wirecontract` are relative symlinks into `generated/python` (one copy; maturin packs
//! the target, `scripts/check-drift` checks the links).
//!
//! `unsafe`: only in `pystr.rs`, two limited-API C calls (`PyUnicode_FromStringAndSize`,
//! `PyUnicode_FromWideChar`), each with its SAFETY comment; pyo3's macros expand to their own.
//!
//! Host safety: every call into the contract runs under [`guard`], so a Rust panic surfaces
//! as `wirecontract.InternalError` (a `RuntimeError`, so an `Exception`), never as pyo3's
//! `PanicException` (a `BaseException` that `except Exception` misses).

mod convert;
mod frame;
mod graphmind;
mod graphorin;
mod handle;
mod issue;
mod llm;
mod object;
mod protocols;
mod pystr;
mod session;
mod session_viewer;
mod shrink;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

/// mimalloc for the extension's own allocations (parsed frames, opaque values, issue lists):
/// frames allocate many small, short-lived blocks, where it is measurably faster than glibc's
/// malloc (docs/performance.md). Python objects still come from CPython's allocator.
///
/// Its v2 line (the crate's `v2` feature): the v3 line the crate builds by default (3.3.x)
/// crashed the process (SIGSEGV in `mi_thread_init` -> `_mi_subproc`) when a thread allocated
/// here after another thread that had allocated here had exited (upstream mimalloc issue
/// 1287; `tests/test_threads.py`).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

pyo3::create_exception!(wirecontract, BuildError, PyValueError, "A frame could not be built: `.reason` says why, `.issues` lists path and rule.");
pyo3::create_exception!(
    wirecontract,
    InternalError,
    PyRuntimeError,
    "A bug inside wirecontract (a Rust panic caught at the boundary); the message says where. Please report it."
);

/// Runs contract code, turning a panic into [`InternalError`] with the glue's one text.
pub(crate) fn guard<T>(f: impl FnOnce() -> T) -> PyResult<T> {
    wirecontract_glue::catch(f).map_err(|p| InternalError::new_err(p.text()))
}

/// A `BuildError` about one argument of a public function: `.reason` is the message with the
/// argument named, `.issues` the glue's one argument issue (path = the argument's name).
pub(crate) fn arg_error(py: Python<'_>, arg: &str, message: &str) -> PyErr {
    let issue = wirecontract_glue::arg_issue(arg, message);
    let text = issue.summary();
    issue::build_error(py, text.clone(), text, &[issue])
}

/// A `str` argument as Rust text. A `str` holding a lone surrogate has no UTF-8 form (and no
/// wire form): a `BuildError` naming the argument, never `UnicodeEncodeError`.
pub(crate) fn str_arg<'a>(s: &'a Bound<'_, pyo3::types::PyString>, arg: &str) -> PyResult<&'a str> {
    s.to_str().map_err(|_| arg_error(s.py(), arg, "a str holding a lone surrogate has no UTF-8 form"))
}

/// An argument that must be a `str`, taken as any object so the `TypeError` names it as the
/// caller wrote it (`type`, not the Rust identifier `r#type`), as UTF-8 text through
/// [`str_arg`] (a lone surrogate is a `BuildError` naming it).
pub(crate) fn str_param<'a>(v: &'a Bound<'_, PyAny>, arg: &str) -> PyResult<&'a str> {
    let s = v.downcast::<pyo3::types::PyString>().map_err(|_| {
        let tn = v.get_type().name().map_or_else(|_| "?".to_owned(), |n| n.to_string());
        pyo3::exceptions::PyTypeError::new_err(format!("argument '{arg}': expected str, received {tn}"))
    })?;
    str_arg(s, arg)
}

/// A nonnegative integer argument (a size in bytes, a time in ms, an id) as `u64`: a `bool`,
/// a non-`int` (`TypeError`) or a value outside [0, 2**64 − 1] (`ValueError`) is refused
/// naming the argument, never with a bare `OverflowError`.
pub(crate) fn uint_param(v: &Bound<'_, PyAny>, arg: &str) -> PyResult<u64> {
    if v.is_instance_of::<pyo3::types::PyBool>() || !v.is_instance_of::<pyo3::types::PyInt>() {
        let tn = v.get_type().name().map_or_else(|_| "?".to_owned(), |n| n.to_string());
        return Err(pyo3::exceptions::PyTypeError::new_err(format!("argument '{arg}': expected int, received {tn}")));
    }
    v.extract::<u64>().map_err(|_| {
        let shown = v.repr().map_or_else(|_| String::new(), |r| r.to_string_lossy().chars().take(40).collect());
        pyo3::exceptions::PyValueError::new_err(format!("argument '{arg}': expected an integer in [0, 2**64 - 1], received {shown}"))
    })
}

/// A `str` argument as owned UTF-8 text. A `str` holding a lone surrogate has no UTF-8 (and no
/// wire) form: it is refused with `BuildError` giving the index, never `UnicodeEncodeError`;
/// a non-`str` is a `TypeError` (pyo3 prefixes the argument's name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Text(pub String);

impl<'py> FromPyObject<'py> for Text {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        let s = ob.downcast::<pyo3::types::PyString>()?;
        if let Ok(t) = s.to_str() {
            return Ok(Text(t.to_owned()));
        }
        let at = s.to_string_lossy().chars().position(|c| c == char::REPLACEMENT_CHARACTER).unwrap_or(0);
        let message = format!("a str holding a lone surrogate (at index {at}) has no UTF-8 form");
        Err(arg_error(ob.py(), "str argument", &message))
    }
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Text {
    /// The texts as `String`s.
    pub(crate) fn strings(list: Vec<Text>) -> Vec<String> {
        list.into_iter().map(|t| t.0).collect()
    }
}

/// [`uint_param`] for an optional argument (`None` stays `None`).
pub(crate) fn opt_uint(v: Option<&Bound<'_, PyAny>>, arg: &str) -> PyResult<Option<u64>> {
    v.map(|v| uint_param(v, arg)).transpose()
}

/// [`opt_uint`] as a size: a value beyond `usize` saturates (no buffer is that large).
pub(crate) fn opt_size(v: Option<&Bound<'_, PyAny>>, arg: &str) -> PyResult<Option<usize>> {
    Ok(opt_uint(v, arg)?.map(|n| usize::try_from(n).unwrap_or(usize::MAX)))
}

/// [`str_arg`] for an optional argument.
pub(crate) fn opt_str_arg<'a>(s: Option<&'a Bound<'_, pyo3::types::PyString>>, arg: &str) -> PyResult<Option<&'a str>> {
    s.map(|s| str_arg(s, arg)).transpose()
}

/// Test hook (feature `test-hooks`, never in a shipped wheel): panics with `message` inside
/// [`guard`], so the tests can see what a caller would get from a bug.
#[cfg(feature = "test-hooks")]
#[pyfunction]
fn _panic_for_test(message: &str) -> PyResult<()> {
    guard(|| panic!("{message}"))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("BuildError", py.get_type::<BuildError>())?;
    m.add("InternalError", py.get_type::<InternalError>())?;
    m.add_class::<issue::Issue>()?;
    #[cfg(feature = "test-hooks")]
    m.add_function(wrap_pyfunction!(_panic_for_test, m)?)?;
    let gm = PyModule::new(py, "graphmind")?;
    graphmind::register(&gm)?;
    m.add_submodule(&gm)?;
    let go = PyModule::new(py, "graphorin")?;
    graphorin::register(&go)?;
    m.add_submodule(&go)?;
    protocols::register(m)?;
    let session = PyModule::new(py, "session")?;
    session::register(&session)?;
    session_viewer::register(&session)?;
    m.add_submodule(&session)?;
    Ok(())
}
