//! The handle behind every `WireObject`: what it points into ([`Root`]), the path to the
//! object inside it ([`Step`]), and the object's wire JSON. Its Python methods and the
//! per-type classes are in `object.rs`; this file is apart so that `convert/to_json.rs` can embed a
//! `WireObject` in a value being written without importing `object.rs`, which imports it.

use std::sync::Arc;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use wirecontract::graphmind as gm;
use wirecontract::graphorin;
use wirecontract::wire::{FieldRef, Reflect};

/// What a handle points into. One variant per protocol root: adding a protocol adds a variant.
#[derive(Clone)]
pub enum Root {
    /// A parsed or built GraphMind envelope; objects live under its payload.
    Graphmind(Arc<gm::Envelope>),
    /// A parsed or built Graphorin server frame.
    GraphorinServer(Arc<graphorin::ServerMessage>),
    /// A parsed or built Graphorin client frame.
    GraphorinClient(Arc<graphorin::ClientMessage>),
    /// A standalone object (e.g. a matcher built from a dict).
    Object(Arc<dyn Reflect>),
}

impl Root {
    fn object(&self) -> Option<&dyn Reflect> {
        match self {
            Root::Graphmind(e) => e.message.payload(),
            Root::GraphorinServer(m) => Some(m.as_reflect()),
            Root::GraphorinClient(m) => Some(m.as_reflect()),
            Root::Object(o) => Some(&**o),
        }
    }
}

/// One step from the root object to a nested one.
#[derive(Clone, Copy, Debug)]
pub enum Step {
    /// A field, by wire name.
    Field(&'static str),
    /// An array element.
    Index(usize),
}

fn navigate<'a>(root: &'a dyn Reflect, path: &[Step]) -> Option<&'a dyn Reflect> {
    let mut cur: FieldRef<'a> = FieldRef::Object(root);
    for step in path {
        cur = match (cur, step) {
            (FieldRef::Object(o), Step::Field(w)) => o.get(w)?,
            (FieldRef::List(items), Step::Index(i)) => items.into_iter().nth(*i)?,
            _ => return None,
        };
    }
    match cur {
        FieldRef::Object(o) => Some(o),
        _ => None,
    }
}

/// Base class of every contract object.
#[pyclass(subclass, frozen, module = "wirecontract", name = "WireObject")]
pub struct WireObject {
    pub(crate) root: Root,
    pub(crate) path: Vec<Step>,
}

impl WireObject {
    /// The handle's root, when the handle is a whole frame (empty path).
    pub fn frame_root(&self) -> Option<&Root> {
        self.path.is_empty().then_some(&self.root)
    }

    pub(crate) fn obj(&self) -> PyResult<&dyn Reflect> {
        self.root.object().and_then(|r| navigate(r, &self.path)).ok_or_else(|| PyRuntimeError::new_err("internal error: dangling object handle"))
    }

    pub(crate) fn wire_json(&self) -> PyResult<String> {
        let mut out = Vec::new();
        self.obj()?.write_json(&mut out);
        Ok(String::from_utf8_lossy(&out).into_owned())
    }
}

/// Appends the wire JSON of a `WireObject` instance to `out`; `false` (nothing written) for
/// any other value.
pub fn write_wire_json(v: &Bound<'_, PyAny>, out: &mut Vec<u8>) -> bool {
    let Ok(w) = v.downcast::<WireObject>() else { return false };
    let Ok(obj) = w.get().obj() else { return false };
    obj.write_json(out);
    true
}
