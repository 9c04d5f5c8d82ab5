//! The one-value JSON entry points: [`from_json`] (and [`from_json_coded`]) reads any declared
//! value with the frame reader's rules, [`to_json`] writes one, and [`read_boxed`] is
//! [`from_json`] as a registry entry's reader (`ObjectDesc::read_json`).

use super::{Ctx, Issue, Path, WireValue};
use crate::registry::Reflect;
use wirecontract_json::{self as json, Val};

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
