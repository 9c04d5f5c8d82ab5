//! The one-value JSON entry points: [`from_json`] (and [`from_json_coded`]) reads any declared
//! value with the frame reader's rules, [`to_json`] writes one, and [`read_boxed`] is
//! [`from_json`] as a registry entry's reader (`ObjectDesc::read_json`).

use super::{Ctx, Issue, Path, WireValue};
use crate::registry::Reflect;
use wirecontract_json::cursor::Cursor;
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
    // The single-pass reader first (what builders from host values mostly see: a valid value):
    // it returns a value only where the reference reader accepts the text without an issue, and
    // then the same value. Anything else is read again below, which says why.
    let mut cur = Cursor::new(text, json::DEFAULT_MAX_DEPTH);
    if let Some(v) = T::read_fast(&mut cur) {
        if cur.finish().is_some() {
            return Ok(v);
        }
    }
    from_json_reference(text)
}

/// [`from_json`] by the reference reader alone: validate, then read the value tree.
fn from_json_reference<T: WireValue>(text: &str) -> Result<T, Vec<Issue>> {
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

#[cfg(test)]
mod tests {
    use super::{from_json, from_json_reference, to_json};
    use crate::graphmind::{ErrorInfo, NodeToken};
    use crate::wire::WireValue;

    /// The single-pass route returns exactly what the reference reader returns, and refuses
    /// (to the reference path) whatever the reference reader refuses.
    fn agree<T: WireValue>(text: &str) -> bool {
        match (from_json::<T>(text), from_json_reference::<T>(text)) {
            (Ok(a), Ok(b)) => {
                assert_eq!(to_json(&a), to_json(&b), "{text}");
                true
            }
            (Err(a), Err(b)) => {
                assert_eq!(format!("{a:?}"), format!("{b:?}"), "{text}");
                false
            }
            (a, b) => panic!("{text}: single pass {:?}, reference {:?}", a.map(|v| to_json(&v)), b.map(|v| to_json(&v))),
        }
    }

    #[test]
    fn the_single_pass_route_agrees_with_the_reference_reader() {
        let deep = |n: usize| format!(r#"{{"nodeId":"n","deltas":[],"x":{}{}}}"#, "[".repeat(n), "]".repeat(n));
        let valid = [
            r#"{"nodeId":"n","deltas":[{"t":"text","v":"hi"}]}"#.to_owned(),
            r#"  {"nodeId":"n","deltas":[]}  "#.to_owned(),
            r#"{"deltas":[{"t":"text","v":"a\u00e9\ud800"}],"nodeId":"n","extra":{"a":[1,2.5e3,null,true]}}"#.to_owned(),
            r#"{"nodeId":"a","nodeId":"b","deltas":[]}"#.to_owned(),
            deep(100),
            deep(wirecontract_json::DEFAULT_MAX_DEPTH - 1),
        ];
        for text in &valid {
            assert!(agree::<NodeToken>(text), "{text} refused");
        }
        let invalid = [
            r#"{"nodeId":"n","deltas":[]} x"#.to_owned(),
            r#"{"nodeId":"n","deltas":[]}{}"#.to_owned(),
            r#"{"nodeId":"n","deltas":[],}"#.to_owned(),
            r#"{"nodeId":"n","deltas":[],"x":[1,]}"#.to_owned(),
            r#"{"nodeId":"\x","deltas":[]}"#.to_owned(),
            "{\"nodeId\":\"a\u{1}b\",\"deltas\":[]}".to_owned(),
            r#"{"nodeId":"n","deltas":[{"t":"text"}]}"#.to_owned(),
            r#"{"nodeId":1,"deltas":[]}"#.to_owned(),
            r#"{"nodeId":"n","deltas":[],"x":01}"#.to_owned(),
            deep(wirecontract_json::DEFAULT_MAX_DEPTH + 1),
            String::new(),
        ];
        for text in &invalid {
            assert!(!agree::<NodeToken>(text), "{text} accepted");
        }
        assert!(agree::<ErrorInfo>(r#"{"name":"E","message":"boom","stack":"at x"}"#));
        assert!(!agree::<ErrorInfo>(r#"{"message":5}"#));
    }
}
