//! Reflection over declared objects, for bindings that walk the contract generically, and the
//! one-value JSON entry points ([`from_json`], [`to_json`]).

use std::fmt;

use super::{Ctx, Extras, Issue, OpaqueObject, Path, WireValue};
use wirecontract_json::RawJson;
use wirecontract_json::{self as json, Val};

/// A borrowed view of one field value, for bindings that walk the contract generically
/// (Python attribute access, `to_dict`, the uniffi conversions).
#[derive(Debug)]
pub enum FieldRef<'a> {
    /// A string field (decoded).
    Str(&'a str),
    /// A boolean field.
    Bool(bool),
    /// A nonnegative integer field (`≤ 2^53 − 1`).
    UInt(u64),
    /// A signed integer field (`|x| ≤ 2^53 − 1`).
    Int(i64),
    /// A finite number field.
    Number(f64),
    /// A closed-enum field: its wire string.
    Enum(&'static str),
    /// An opaque field: its raw JSON text.
    Raw(&'a RawJson),
    /// A string-keyed record of opaque values.
    OpaqueObject(&'a OpaqueObject),
    /// A nested contract object.
    Object(&'a dyn Reflect),
    /// An array field.
    List(Vec<FieldRef<'a>>),
}

/// The registry entry of a declared object type (`wire_object!`, `wire_strict_object!`).
pub trait Described {
    /// Name, doc, fields with typed descriptions, literals, strictness, reader.
    const DESC: crate::registry::ObjectDesc;
}

/// Object-safe reflection over a contract object.
pub trait Reflect: fmt::Debug + Send + Sync {
    /// The type's registry entry.
    fn desc(&self) -> &'static crate::registry::ObjectDesc;
    /// A known field by wire name; `None` when absent or not a field of this type.
    fn get(&self, wire: &str) -> Option<FieldRef<'_>>;
    /// Calls `f` on every present known field, in spec order ([`Reflect::fields`] with
    /// [`Reflect::get`], without looking each name up).
    fn visit_fields<'a>(&'a self, f: &mut dyn FnMut(&'static crate::registry::FieldDesc, FieldRef<'a>)) {
        for desc in self.fields() {
            if let Some(r) = self.get(desc.wire) {
                f(desc, r);
            }
        }
    }
    /// The unknown members.
    fn extra(&self) -> &Extras;
    /// Appends the object's JSON, exactly as inside a serialized frame.
    fn write_json(&self, out: &mut Vec<u8>);
    /// The type's name (`NodeStarted`).
    fn type_name(&self) -> &'static str {
        self.desc().name
    }
    /// Known fields in spec order.
    fn fields(&self) -> &'static [crate::registry::FieldDesc] {
        self.desc().fields
    }
    /// Constant members `(wire name, string value)` of a strict frame, in wire order.
    fn literals(&self) -> &'static [(&'static str, &'static str)] {
        self.desc().literals
    }
    /// `true` for a strict object: an unknown member makes it invalid, so [`Reflect::extra`]
    /// is always empty.
    fn is_strict(&self) -> bool {
        self.desc().strict
    }
}

/// [`from_json`] boxed as a reflected object: the registry's `read_json` for each type.
#[doc(hidden)]
pub fn read_boxed<T: WireValue + Reflect + 'static>(text: &str) -> Result<Box<dyn Reflect>, Vec<Issue>> {
    from_json::<T>(text).map(|x| Box::new(x) as Box<dyn Reflect>)
}

/// Reads one contract value (any declared object, enum or field type) from JSON text with the
/// frame reader's rules: the building block bindings use to accept host values.
///
/// # Errors
/// Every issue found (paths relative to the value, `""` for the value itself); a syntax
/// error is one issue at `""`.
pub fn from_json<T: WireValue>(text: &str) -> Result<T, Vec<Issue>> {
    if let Err(e) = json::validate(text, json::DEFAULT_MAX_DEPTH) {
        return Err(vec![Issue::at("", format!("not valid JSON: {e}"))]);
    }
    let mut ctx = Ctx::new();
    T::read(&mut ctx, Val::root(text), &Path::Root).ok_or(ctx.issues)
}

/// [`from_json`] for a protocol that promises stable issue codes (Graphorin, spec graphorin-v1
/// §13): each issue carries its [`super::IssueCode`].
///
/// # Errors
/// As [`from_json`]; a syntax error is one issue at `""` without a code.
pub fn from_json_coded<T: WireValue>(text: &str) -> Result<T, Vec<Issue>> {
    if let Err(e) = json::validate(text, json::DEFAULT_MAX_DEPTH) {
        return Err(vec![Issue::at("", format!("not valid JSON: {e}"))]);
    }
    let mut ctx = Ctx::with_codes();
    T::read(&mut ctx, Val::root(text), &Path::Root).ok_or(ctx.issues)
}

/// Writes one contract value as JSON (`JSON.stringify` rules).
pub fn to_json<T: WireValue>(value: &T) -> String {
    let mut out = Vec::new();
    value.write(&mut out);
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}
