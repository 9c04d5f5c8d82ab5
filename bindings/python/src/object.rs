//! Typed contract objects as Python objects.
//!
//! Every contract object type gets a Python class (`NodeStarted`, `ErrorInfo`, …) deriving
//! from `WireObject`. An instance is a handle — the parsed frame (shared, immutable) plus the
//! path to the object inside it — so parsing creates no Python objects for fields nobody
//! reads. Attribute access converts on demand: snake_case names for known fields (absent
//! optional fields read as `None`), `.extra` for unknown members, `.to_dict()` for the
//! wire-shaped dict.

use std::sync::Arc;

use pyo3::exceptions::{PyAttributeError, PyRuntimeError, PyTypeError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use wirecontract::graphmind as gm;
use wirecontract::registry::{FieldDesc, ObjectDesc, Protocol, Scalar, Ty};
use wirecontract::wire::{Extras, FieldRef, Reflect};

use crate::convert::{json_to_py, json_to_py_cached, py_to_json, string_to_py, KeyCache, NonFinite};

pub use crate::handle::{Root, Step, WireObject};

#[pymethods]
impl WireObject {
    /// Known field by snake_case name; `None` when an optional field is absent.
    fn __getattr__(&self, py: Python<'_>, name: &str) -> PyResult<PyObject> {
        let obj = self.obj()?;
        let Some(info) = obj.fields().iter().find(|f| f.rust == name) else {
            // Constant members (`jsonrpc`, `v`, `kind`, `method`) of strict frames.
            if let Some((_, value)) = obj.literals().iter().find(|(wire, _)| *wire == name) {
                return Ok(PyString::new(py, value).into_any().unbind());
            }
            return Err(PyAttributeError::new_err(format!("'{}' object has no attribute '{name}'", obj.type_name())));
        };
        match obj.get(info.wire) {
            None => Ok(py.None()),
            Some(r) => {
                let mut path = self.path.clone();
                path.push(Step::Field(info.wire));
                field_to_py(py, r, &self.root, &path)
            }
        }
    }

    /// Unknown members as a dict (values converted from their raw JSON).
    #[getter]
    fn extra(&self, py: Python<'_>) -> PyResult<PyObject> {
        extras_to_py(py, self.obj()?.extra())
    }

    /// The contract type name (`"NodeStarted"`).
    #[getter]
    fn type_name(&self) -> PyResult<&'static str> {
        Ok(self.obj()?.type_name())
    }

    /// The wire-shaped dict (camelCase keys, unknown members included, in wire order).
    fn to_dict(&self, py: Python<'_>) -> PyResult<PyObject> {
        let obj = self.obj()?;
        if obj.is_strict() || !obj.literals().is_empty() {
            // Literal members interleave with fields in declaration order: go through the
            // writer, which owns that order.
            return json_to_py(py, &self.wire_json()?);
        }
        Ok(reflect_to_dict(py, obj, &mut KeyCache::default())?.into_any().unbind())
    }

    /// The object's JSON text, exactly as inside a serialized frame.
    fn to_json(&self) -> PyResult<String> {
        self.wire_json()
    }

    /// `key in obj`: whether the member is present on the wire (even as `null`), by wire name
    /// (`"pauseId"`) or attribute name (`"pause_id"`); unknown members by their wire name.
    /// Attribute access cannot tell: an absent optional field and a `null` both read `None`.
    fn __contains__(&self, key: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(key) = key.downcast::<PyString>() else { return Ok(false) };
        let Ok(key) = key.to_str() else { return Ok(false) };
        let obj = self.obj()?;
        if let Some(f) = obj.fields().iter().find(|f| f.wire == key || f.rust == key) {
            return Ok(obj.get(f.wire).is_some());
        }
        Ok(obj.literals().iter().any(|(w, _)| *w == key) || obj.extra().get(key).is_some())
    }

    fn __dir__(&self, py: Python<'_>) -> PyResult<PyObject> {
        let obj = self.obj()?;
        let mut names: Vec<&str> = obj.literals().iter().map(|(w, _)| *w).collect();
        names.extend(obj.fields().iter().map(|f| f.rust));
        names.extend(["extra", "type_name", "to_dict", "to_json"]);
        Ok(PyList::new(py, names)?.into_any().unbind())
    }

    fn __repr__(&self) -> PyResult<String> {
        let json = self.wire_json()?;
        let shown = if json.len() > 200 { format!("{}…", json.chars().take(200).collect::<String>()) } else { json };
        Ok(format!("{}({shown})", self.obj()?.type_name()))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(o) = other.downcast::<WireObject>() else { return Ok(false) };
        let o = o.get();
        Ok(self.obj()?.type_name() == o.obj()?.type_name() && self.wire_json()? == o.wire_json()?)
    }

    fn __hash__(&self) -> PyResult<u64> {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.wire_json()?.hash(&mut h);
        Ok(h.finish())
    }
}

/// The envelope's six keys in wire order, values `None`: [`envelope_to_dict`] starts from a
/// copy and replaces the values in place. A fresh dict holds five keys before it grows, so
/// building the envelope key by key paid a resize on every frame (a second key table, every
/// entry re-inserted, the first table freed); `PyDict_Copy` of this template clones its table
/// in one allocation (docs/performance.md, "5. Python binding").
static ENVELOPE_TEMPLATE: GILOnceCell<Py<PyDict>> = GILOnceCell::new();

/// `json.loads(serialize_envelope(env))`, built straight from the parsed fields: known fields
/// from their typed values, opaque values and unknown members from their raw text.
pub fn envelope_to_dict(py: Python<'_>, env: &gm::Envelope) -> PyResult<PyObject> {
    let keys = &mut KeyCache::default();
    let template = ENVELOPE_TEMPLATE.get_or_try_init(py, || -> PyResult<Py<PyDict>> {
        let t = PyDict::new(py);
        for k in ["gm", "seq", "ts", "runId", "type", "payload"] {
            t.set_item(PyString::intern(py, k), py.None())?;
        }
        Ok(t.unbind())
    })?;
    let d = template.bind(py).copy()?;
    d.set_item(intern!(py, "gm"), gm::PROTOCOL_VERSION)?;
    d.set_item(intern!(py, "seq"), env.seq)?;
    d.set_item(intern!(py, "ts"), env.ts)?;
    // The run id and the type repeat frame after frame: made once, like keys.
    d.set_item(intern!(py, "runId"), keys.key(py, &env.run_id, false)?)?;
    d.set_item(intern!(py, "type"), keys.key(py, env.message_type(), false)?)?;
    match &env.message {
        gm::Message::Unknown { payload: Some(raw), .. } => d.set_item(intern!(py, "payload"), json_to_py_cached(py, raw.as_str(), keys)?)?,
        m => match m.payload() {
            Some(p) => d.set_item(intern!(py, "payload"), reflect_to_dict(py, p, keys)?)?,
            // No payload key on the wire (an unknown type without one): the template's goes.
            None => d.del_item(intern!(py, "payload"))?,
        },
    }
    add_extras(py, &d, &env.extra, keys)?;
    Ok(d.into_any().unbind())
}

fn add_extras(py: Python<'_>, d: &Bound<'_, PyDict>, extra: &Extras, keys: &mut KeyCache) -> PyResult<()> {
    for (k, v) in extra.iter_raw() {
        d.set_item(string_to_py(py, k)?, json_to_py_cached(py, v.as_str(), keys)?)?;
    }
    Ok(())
}

/// A loose contract object as its wire-shaped dict (known fields in spec order, then unknown
/// members in wire order), equal to converting its serialized JSON.
fn reflect_to_dict<'py>(py: Python<'py>, obj: &dyn Reflect, keys: &mut KeyCache) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let mut result = Ok(());
    obj.visit_fields(&mut |info, r| {
        if result.is_ok() {
            let k = keys.static_key(py, info.wire);
            result = field_to_builtin(py, r, keys).and_then(|v| d.set_item(k, v));
        }
    });
    result?;
    add_extras(py, &d, obj.extra(), keys)?;
    Ok(d)
}

fn field_to_builtin(py: Python<'_>, r: FieldRef<'_>, keys: &mut KeyCache) -> PyResult<PyObject> {
    Ok(match r {
        FieldRef::Str(s) => keys.text(py, s)?,
        // Enum values are few and repeat: made once, like keys.
        FieldRef::Enum(s) => keys.static_key(py, s),
        FieldRef::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        FieldRef::UInt(u) => u.into_pyobject(py)?.into_any().unbind(),
        FieldRef::Int(i) => i.into_pyobject(py)?.into_any().unbind(),
        // JSON.stringify writes an integral double below 1e21 without a fraction, so the
        // wire-shaped value is an `int` there (and `-0` is `0`).
        FieldRef::Number(x) if x.trunc() == x && x.abs() < 1e21 => (x as i128).into_pyobject(py)?.into_any().unbind(),
        FieldRef::Number(x) => x.into_pyobject(py)?.into_any().unbind(),
        FieldRef::Raw(raw) => json_to_py_cached(py, raw.as_str(), keys)?,
        FieldRef::OpaqueObject(rec) => {
            let d = PyDict::new(py);
            add_extras(py, &d, &rec.0, keys)?;
            d.into_any().unbind()
        }
        FieldRef::Object(o) if !o.is_strict() && o.literals().is_empty() => reflect_to_dict(py, o, keys)?.into_any().unbind(),
        FieldRef::Object(o) => {
            let mut out = Vec::new();
            o.write_json(&mut out);
            json_to_py_cached(py, &String::from_utf8_lossy(&out), keys)?
        }
        FieldRef::List(items) => {
            // Made at its final size (no growth while appending).
            let items = items.into_iter().map(|item| field_to_builtin(py, item, keys)).collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any().unbind()
        }
    })
}

/// Unknown members as a Python dict.
pub fn extras_to_py(py: Python<'_>, extra: &Extras) -> PyResult<PyObject> {
    let d = PyDict::new(py);
    for (k, v) in extra.iter_raw() {
        d.set_item(string_to_py(py, k)?, json_to_py(py, v.as_str())?)?;
    }
    Ok(d.into_any().unbind())
}

fn field_to_py(py: Python<'_>, r: FieldRef<'_>, root: &Root, path: &[Step]) -> PyResult<PyObject> {
    Ok(match r {
        FieldRef::Str(s) | FieldRef::Enum(s) => PyString::new(py, s).into_any().unbind(),
        FieldRef::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        FieldRef::UInt(u) => u.into_pyobject(py)?.into_any().unbind(),
        FieldRef::Int(i) => i.into_pyobject(py)?.into_any().unbind(),
        FieldRef::Number(x) => x.into_pyobject(py)?.into_any().unbind(),
        FieldRef::Raw(raw) => json_to_py(py, raw.as_str())?,
        FieldRef::OpaqueObject(rec) => extras_to_py(py, &rec.0)?,
        FieldRef::Object(o) => make_object(py, o.type_name(), root.clone(), path.to_vec())?,
        FieldRef::List(items) => {
            let list = PyList::empty(py);
            for (i, item) in items.into_iter().enumerate() {
                // An element object becomes a root of its own: a handle that went back through
                // the list on every attribute access would pay the list's length each time,
                // quadratic over a loop on a hostile 1,000,000-element list.
                if let FieldRef::Object(o) = &item {
                    if let Some(owned) = standalone(*o) {
                        list.append(make_object(py, o.type_name(), Root::Object(owned), Vec::new())?)?;
                        continue;
                    }
                }
                let mut p = path.to_vec();
                p.push(Step::Index(i));
                list.append(field_to_py(py, item, root, &p)?)?;
            }
            list.into_any().unbind()
        }
    })
}

/// Builds a standalone contract object of type `desc` from constructor keywords (snake_case
/// field names) and an `extra` mapping of unknown members: the wire JSON is assembled from the
/// host values and read with the registry's `read_json`, so every rule is the contract's.
/// A keyword left out is an absent field; `None` is absent too, except for an opaque (any
/// JSON) field, where it is JSON `null`.
///
/// # Errors
/// `TypeError` for an unknown keyword or a known field passed through `extra`; `BuildError`
/// with wire paths (`deltas.0.t`) for values the reader refuses or with no JSON form.
pub fn construct(
    py: Python<'_>,
    desc: &'static ObjectDesc,
    extra: Option<&Bound<'_, PyAny>>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Arc<dyn Reflect>> {
    if let Some(obj) = construct_plain(desc, extra, kwargs) {
        return Ok(obj);
    }
    let d = PyDict::new(py);
    for (wire, value) in desc.literals {
        d.set_item(wire, value)?;
    }
    if let Some(kwargs) = kwargs {
        for (k, v) in kwargs {
            let k: String = k.extract()?;
            let Some(f) = desc.fields.iter().find(|f| f.rust == k) else {
                let known: Vec<&str> = desc.fields.iter().map(|f| f.rust).collect();
                return Err(PyTypeError::new_err(format!(
                    "{}() got an unexpected keyword argument '{k}' (fields: {}; unknown members go in extra=)",
                    desc.name,
                    known.join(", ")
                )));
            };
            if left_out(f, &v) {
                continue;
            }
            d.set_item(f.wire, v)?;
        }
    }
    if let Some(extra) = extra.filter(|e| !e.is_none()) {
        let extra =
            extra.downcast::<pyo3::types::PyMapping>().map_err(|_| PyTypeError::new_err("extra must be a mapping of unknown member names to JSON values"))?;
        for item in extra.items()? {
            let (k, v): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item.extract()?;
            // A lone surrogate in a key is kept as its JSON escape, as in every nested key and
            // opaque value (py_to_json); it cannot name a known member, so the lossy text is
            // enough for that check.
            let name = k.downcast::<PyString>().map_err(|_| PyTypeError::new_err("extra keys must be str"))?.to_string_lossy().into_owned();
            if desc.fields.iter().any(|f| f.wire == name || f.rust == name) || desc.literals.iter().any(|(w, _)| *w == name) {
                return Err(PyTypeError::new_err(format!("{}: {name:?} is a known member; pass it as a keyword argument, not in extra=", desc.name)));
            }
            d.set_item(k, v)?;
        }
    }
    let json = py_to_json(d.as_any(), NonFinite::Null).map_err(|e| crate::arg_error(py, &e.path, &e.message))?;
    (desc.read_json)(&json).map(Arc::from).map_err(|mut issues| {
        crate::convert::explain_non_finite_issues(d.as_any(), "", &mut issues);
        let reason = format!("invalid {}: {}", desc.name, crate::issue::summary(&issues));
        crate::issue::build_error(py, reason.clone(), reason, &issues)
    })
}

/// Whether a constructor keyword's value leaves its field out: `None` does, except for an
/// opaque (any JSON) field, where it is JSON `null`.
fn left_out(f: &FieldDesc, v: &Bound<'_, PyAny>) -> bool {
    v.is_none() && !matches!(f.ty, Ty::Scalar(Scalar::Opaque))
}

/// [`construct`]'s common case, with no `dict` in between: no `extra`, every keyword a known
/// field, every value of the built-in JSON types or a contract object (nothing that runs Python
/// code), and the object valid; the wire JSON is written straight
/// from the keywords (literals first, then the keywords in their order, as [`construct`]'s
/// `dict` would hold them) and read with the registry's `read_json`. `None` for anything else:
/// [`construct`] then builds it again and says what is wrong.
fn construct_plain(desc: &'static ObjectDesc, extra: Option<&Bound<'_, PyAny>>, kwargs: Option<&Bound<'_, PyDict>>) -> Option<Arc<dyn Reflect>> {
    if extra.is_some_and(|e| !e.is_none()) {
        return None;
    }
    let mut out = Vec::with_capacity(128);
    out.push(b'{');
    let mut first = true;
    let mut member = |out: &mut Vec<u8>, wire: &str| {
        if !std::mem::take(&mut first) {
            out.push(b',');
        }
        wirecontract_json::write_string(out, wire);
        out.push(b':');
    };
    for (wire, value) in desc.literals {
        member(&mut out, wire);
        wirecontract_json::write_string(&mut out, value);
    }
    for (k, v) in kwargs.into_iter().flatten() {
        let k = k.downcast_exact::<PyString>().ok()?;
        let k = k.to_str().ok()?;
        let f = desc.fields.iter().find(|f| f.rust == k)?;
        if left_out(f, &v) {
            continue;
        }
        member(&mut out, f.wire);
        // Only the built-in types and contract objects: that pass runs no Python code, so a
        // value read again by the route below (a list subclass's `__iter__`, a mapping's
        // `items()`) is read once by its own code.
        if !crate::convert::write_plain_json(&v, &mut out) {
            return None;
        }
    }
    out.push(b'}');
    let json = std::str::from_utf8(&out).ok()?;
    (desc.read_json)(json).ok().map(Arc::from)
}

/// Adds the registry's names the stubs use as type aliases, as data the curated modules turn
/// into runtime aliases: `_ENUM_VALUES` (enum name → wire values), `_UNIONS` (union name →
/// frame class names) and `_PAYLOAD_TYPES` (the payload class of each message type, in
/// message order). Each enum whose declaration names a public constant (`NODE_KINDS`,
/// `SERVER_VARIANTS`, …: [`EnumDesc::constant`](wirecontract::registry::EnumDesc)) is added
/// as that tuple of wire values, and `_ENUM_CONSTANTS` (constant → enum name) lets the
/// curated module re-export them without naming one.
pub fn add_registry_names(m: &Bound<'_, PyModule>, protocol: &Protocol) -> PyResult<()> {
    let py = m.py();
    let enums = PyDict::new(py);
    let constants = PyDict::new(py);
    for e in protocol.enums() {
        let values = PyTuple::new(py, e.wire_values().collect::<Vec<_>>())?;
        if let Some(constant) = e.constant {
            m.add(constant, &values)?;
            constants.set_item(constant, e.name)?;
        }
        enums.set_item(e.name, values)?;
    }
    m.add("_ENUM_VALUES", enums)?;
    m.add("_ENUM_CONSTANTS", constants)?;
    let unions = PyDict::new(py);
    for u in protocol.unions {
        unions.set_item(u.name, PyTuple::new(py, u.variants.iter().map(|v| v.frame.name))?)?;
    }
    m.add("_UNIONS", unions)?;
    let payloads = PyDict::new(py);
    for msg in protocol.messages {
        payloads.set_item(msg.wire, msg.payload.name)?;
    }
    m.add("_PAYLOAD_TYPES", payloads)?;
    Ok(())
}

/// Declares one Python class per contract object type and the constructor dispatch. Invoked
/// once, by the list `build.rs` writes from the contract's registry (every object of every
/// protocol), so no hand-written file restates a type.
macro_rules! object_classes {
    ( $( $protocol:literal, $name:ident => $path:path; )+ ) => {
        $(
            #[doc = concat!("The contract object `", stringify!($name), "` (attributes: its fields in snake_case).")]
            #[pyclass(extends = WireObject, frozen, module = "wirecontract")]
            pub struct $name;

            #[pymethods]
            impl $name {
                /// Builds the object from snake_case keyword arguments (unknown members in
                /// `extra=`), validated by the contract's reader; see [`construct`].
                #[new]
                #[pyo3(signature = (*, extra=None, **kwargs))]
                fn __new__(py: Python<'_>, extra: Option<&Bound<'_, PyAny>>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<PyClassInitializer<Self>> {
                    let root = construct(py, &<$path as wirecontract::wire::Described>::DESC, extra, kwargs)?;
                    Ok(PyClassInitializer::from(WireObject { root: Root::Object(root), path: Vec::new() }).add_subclass($name))
                }

                #[classattr]
                fn __match_args__(py: Python<'_>) -> PyResult<Py<PyTuple>> {
                    let names: Vec<&str> = <$path as wirecontract::wire::Described>::DESC.fields.iter().map(|f| f.rust).collect();
                    Ok(PyTuple::new(py, names)?.unbind())
                }
            }
        )+

        /// An owned copy of a contract object, read back from its own JSON (exact: every
        /// object survives write → read unchanged).
        fn standalone(o: &dyn Reflect) -> Option<Arc<dyn Reflect>> {
            let mut json = Vec::new();
            o.write_json(&mut json);
            let json = String::from_utf8(json).ok()?;
            (o.desc().read_json)(&json).ok().map(Arc::from)
        }

        /// Wraps the object at `path` under `root` in the class named `type_name`.
        pub fn make_object(py: Python<'_>, type_name: &str, root: Root, path: Vec<Step>) -> PyResult<PyObject> {
            let base = WireObject { root, path };
            match type_name {
                $( stringify!($name) => Ok(Py::new(py, PyClassInitializer::from(base).add_subclass($name))?.into_any()), )+
                other => Err(PyRuntimeError::new_err(format!("internal error: no Python class for {other}"))),
            }
        }

        /// Registers on `m` the object classes of one protocol (its registry name).
        pub fn add_object_classes(m: &Bound<'_, PyModule>, protocol: &str) -> PyResult<()> {
            $( if $protocol == protocol { m.add_class::<$name>()?; } )+
            Ok(())
        }
    };
}

include!(concat!(env!("OUT_DIR"), "/object_classes.rs"));
