//! `wirecontract.Issue`: one validation problem, shared by every protocol (GraphMind verdicts and
//! build errors, Graphorin parse errors, `parse_frame`), and the one conversion from the
//! contract's [`CoreIssue`].

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use wirecontract::wire::{Issue as CoreIssue, IssueCode};

use crate::{opt_str_arg, str_arg};

/// One validation problem: `path` (dotted, from the frame root, `""` for the root),
/// `message` (the rule) and, where the protocol gives one (Graphorin), a stable `code` (one of
/// the contract's `IssueCode` values). Frozen, comparable, hashable and picklable, so errors
/// carrying issues cross process boundaries (`multiprocessing`, `ProcessPoolExecutor`).
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
}

#[pymethods]
impl Issue {
    #[new]
    #[pyo3(signature = (path, message, code=None))]
    fn new(path: &Bound<'_, PyString>, message: &Bound<'_, PyString>, code: Option<&Bound<'_, PyString>>) -> PyResult<Self> {
        let code = opt_str_arg(code, "code")?;
        // Only the contract's stable codes: an issue with an invented code would read as a
        // contract verdict no parser can give.
        if let Some(c) = code {
            if IssueCode::from_wire(c).is_none() {
                return Err(PyValueError::new_err(format!("code must be None or one of {}, not {c:?}", IssueCode::VALUES.join(", "))));
            }
        }
        Ok(Issue { path: str_arg(path, "path")?.to_owned(), message: str_arg(message, "message")?.to_owned(), code: code.map(str::to_owned) })
    }
    /// `(Issue, (path, message, code))`: pickling rebuilds the issue through the constructor
    /// (so an unpickled issue obeys the same rules).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let me = slf.get();
        let args = PyTuple::new(
            py,
            [me.path.clone().into_pyobject(py)?.into_any(), me.message.clone().into_pyobject(py)?.into_any(), me.code.clone().into_pyobject(py)?],
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
    /// The one conversion of a contract issue, for every protocol: the dotted path, the
    /// message, the code where the protocol gives one.
    fn from(i: &CoreIssue) -> Self {
        Issue { path: i.dotted_path(), message: i.message.clone(), code: i.code.map(|c| c.as_str().to_owned()) }
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
