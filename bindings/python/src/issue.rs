//! `wirecontract.Issue`: one validation problem, shared by every protocol (GraphMind verdicts and
//! build errors, Graphorin parse errors, `parse_frame`), and the one conversion from the
//! contract's [`CoreIssue`].

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString, PyTuple};
use wirecontract::wire::{Issue as CoreIssue, IssueCode, IssuePath, PathSegment};
use wirecontract_glue::{Codes, HostIssue};

use crate::{opt_str_arg, str_arg};

/// One validation problem: `path` (dotted, from the frame root, `""` for the root), `segments`
/// (the same path root first: `str` keys and `int` indexes), `message` (the rule) and, where
/// the protocol gives one (Graphorin), a stable `code` (one of the contract's `IssueCode`
/// values). Frozen, comparable, hashable and picklable, so errors carrying issues cross process
/// boundaries (`multiprocessing`, `ProcessPoolExecutor`).
#[pyclass(frozen, eq, hash, module = "wirecontract", name = "Issue")]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Issue {
    /// Dotted path from the frame root.
    #[pyo3(get)]
    pub path: String,
    /// The rule that failed.
    #[pyo3(get)]
    pub message: String,
    /// Stable issue code (Graphorin: `invalid_type`, `unrecognized_keys`, …), else `None`.
    #[pyo3(get)]
    pub code: Option<String>,
    /// The path's segments, root first.
    pub segments: Vec<PathSegment>,
}

/// Segments as the Python tuple `("payload", "deltas", 0)`.
fn segments_to_py<'py>(py: Python<'py>, segments: &[PathSegment]) -> PyResult<Bound<'py, PyTuple>> {
    let items = segments
        .iter()
        .map(|s| match s {
            PathSegment::Key(k) => k.into_pyobject(py).map(Bound::into_any),
            PathSegment::Index(i) => i.into_pyobject(py).map(Bound::into_any),
        })
        .collect::<Result<Vec<_>, std::convert::Infallible>>()?;
    PyTuple::new(py, items)
}

/// A `segments` argument: an iterable of `str` keys and nonnegative `int` indexes.
fn segments_arg(v: &Bound<'_, PyAny>) -> PyResult<Vec<PathSegment>> {
    let mut out = Vec::new();
    for (n, item) in v.try_iter().map_err(|_| PyTypeError::new_err("segments must be an iterable of str and int"))?.enumerate() {
        let item = item?;
        if let Ok(s) = item.downcast::<PyString>() {
            out.push(PathSegment::Key(str_arg(s, &format!("segments[{n}]"))?.to_owned()));
        } else if item.is_instance_of::<PyInt>() && !item.is_instance_of::<PyBool>() {
            let i = item.extract::<usize>().map_err(|_| PyValueError::new_err(format!("segments[{n}]: an index must be a nonnegative int")))?;
            out.push(PathSegment::Index(i));
        } else {
            let tn = item.get_type().name().map_or_else(|_| "?".to_owned(), |t| t.to_string());
            return Err(PyTypeError::new_err(format!("segments[{n}]: expected str or int, received {tn}")));
        }
    }
    Ok(out)
}

/// The dotted form of `segments` (`payload.deltas.0`).
fn dotted(segments: &[PathSegment]) -> String {
    let mut p = IssuePath::root();
    for s in segments {
        match s {
            PathSegment::Key(k) => p.push_key(k),
            PathSegment::Index(i) => p.push_index(*i),
        }
    }
    p.dotted()
}

#[pymethods]
impl Issue {
    #[new]
    #[pyo3(signature = (path, message, code=None, segments=None))]
    fn new(
        path: &Bound<'_, PyString>,
        message: &Bound<'_, PyString>,
        code: Option<&Bound<'_, PyString>>,
        segments: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let code = opt_str_arg(code, "code")?;
        // Only the contract's stable codes: an issue with an invented code would read as a
        // contract verdict no parser can give.
        if let Some(c) = code {
            if IssueCode::from_wire(c).is_none() {
                return Err(PyValueError::new_err(format!("code must be None or one of {}, not {c:?}", IssueCode::VALUES.join(", "))));
            }
        }
        let path = str_arg(path, "path")?.to_owned();
        // Without `segments`, the path split at `.` (a run of digits an index), as the
        // contract reads a dotted path; with them, they must spell `path`.
        let segments = match segments.filter(|s| !s.is_none()) {
            None => IssuePath::from_dotted(&path).segments(),
            Some(v) => {
                let segments = segments_arg(v)?;
                let joined = dotted(&segments);
                if joined != path {
                    return Err(PyValueError::new_err(format!("segments join to {joined:?}, not to path {path:?}")));
                }
                segments
            }
        };
        Ok(Issue { path, message: str_arg(message, "message")?.to_owned(), code: code.map(str::to_owned), segments })
    }
    /// The path's segments, root first: `str` keys and `int` indexes (`("payload", "deltas", 0)`).
    #[getter]
    fn segments<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        segments_to_py(py, &self.segments)
    }
    /// `(Issue, (path, message, code, segments))`: pickling rebuilds the issue through the
    /// constructor (so an unpickled issue obeys the same rules).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let me = slf.get();
        let args = PyTuple::new(
            py,
            [
                me.path.clone().into_pyobject(py)?.into_any(),
                me.message.clone().into_pyobject(py)?.into_any(),
                me.code.clone().into_pyobject(py)?,
                segments_to_py(py, &me.segments)?.into_any(),
            ],
        )?;
        Ok((slf.get_type().into_any(), args))
    }
    #[classattr]
    fn __match_args__() -> (&'static str, &'static str) {
        ("path", "message")
    }
    fn __repr__(&self) -> String {
        match &self.code {
            Some(code) => format!("Issue(path={:?}, message={:?}, code={code:?})", self.path, self.message),
            None => format!("Issue(path={:?}, message={:?})", self.path, self.message),
        }
    }
    /// `{"path": ..., "message": ...}`
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("path", &self.path)?;
        d.set_item("message", &self.message)?;
        if let Some(code) = &self.code {
            d.set_item("code", code)?;
        }
        Ok(d)
    }
}

impl From<&CoreIssue> for Issue {
    /// The one conversion of a contract issue, for every protocol, through the glue's
    /// [`HostIssue`]: the dotted path, its segments, the message, the code where the protocol
    /// gives one.
    fn from(i: &CoreIssue) -> Self {
        let h = HostIssue::new(i, Codes::AsRecorded);
        Issue { path: h.path, message: h.message, code: h.code.map(|c| c.as_str().to_owned()), segments: h.segments }
    }
}

/// A Python list of [`Issue`] for contract issues of any protocol.
pub fn issues_to_py(py: Python<'_>, issues: &[CoreIssue]) -> PyResult<PyObject> {
    let items: Vec<Issue> = issues.iter().map(Issue::from).collect();
    Ok(PyList::new(py, items)?.into_any().unbind())
}

/// Contract issues as one line, `path: rule; path: rule` (the contract's
/// [`CoreIssue::summary`]): the one text of every binding error that reports them.
pub fn summary(issues: &[CoreIssue]) -> String {
    issues.iter().map(CoreIssue::summary).collect::<Vec<_>>().join("; ")
}

/// A `wirecontract.BuildError` with `message` as its text, `.reason` and `.issues` (a list of
/// [`Issue`]) set; the one constructor of every `BuildError` the binding raises. Both
/// attributes live in the instance `__dict__`, so the error pickles with them.
pub fn build_error(py: Python<'_>, message: String, reason: String, issues: &[CoreIssue]) -> PyErr {
    let err = crate::BuildError::new_err(message);
    let value = err.value(py);
    if let Ok(list) = issues_to_py(py, issues) {
        let _ = value.setattr("issues", list);
    }
    let _ = value.setattr("reason", reason);
    err
}
