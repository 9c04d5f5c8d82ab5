//! Host ⇄ contract conversion. Contract → host never fails; host → contract checks every rule
//! the host type cannot express (2^53 − 1 bounds, finiteness, JSON text validity, positive
//! counts) through the contract's own readers (`ffi_support::read`, `read_int`, `read_f64`) and
//! collects every problem with its wire path, as the parser does.

use wirecontract::wire::{from_json, Extras, Issue, NonNegativeF64, OpaqueObject, PositiveSafeUInt, SafeInt, SafeUInt};
use wirecontract_json as json;
use wirecontract_json::RawJson;

use crate::ffi_support::{read_f64, read_int};
pub(crate) use crate::ffi_support::{Convert, HostPath, Issues};
use crate::{HostString, JsonText};

fn issue(issues: &mut Issues, path: &HostPath<'_>, message: String) {
    issues.push(Issue::at(&path.dotted(), message));
}

/// A host's JSON text, or an issue at `path` naming its first lone surrogate's UTF-16 index.
fn json_text<'a>(host: &'a JsonText, issues: &mut Issues, path: &HostPath<'_>) -> Option<&'a str> {
    match host.text() {
        Ok(t) => Some(t),
        Err(e) => {
            issue(issues, path, e.message());
            None
        }
    }
}

/// Strings cross as [`HostString`]: a Kotlin string with a lone surrogate is an issue at
/// `path` naming its UTF-16 index, never an encoder exception.
impl Convert for String {
    type Host = HostString;
    fn to_host(&self) -> HostString {
        HostString::from(self.as_str())
    }
    fn from_host(host: &HostString, issues: &mut Issues, path: &HostPath<'_>) -> Option<Self> {
        match host.to_str() {
            Ok(s) => Some(s.to_owned()),
            Err(e) => {
                issue(issues, path, e.message());
                None
            }
        }
    }
}

impl Convert for bool {
    type Host = bool;
    fn to_host(&self) -> bool {
        *self
    }
    fn from_host(host: &bool, _: &mut Issues, _: &HostPath<'_>) -> Option<Self> {
        Some(*host)
    }
}

// Host integers are `i64` (`Long`, `Int64`: Java can call every function), read by the
// contract's own reader for the contract type (`ffi_support::read_int`).

/// Nonnegative safe integers (token counts, seqs of a loop).
impl Convert for SafeUInt {
    type Host = i64;
    fn to_host(&self) -> i64 {
        crate::host_int(self.get())
    }
    fn from_host(host: &i64, issues: &mut Issues, path: &HostPath<'_>) -> Option<Self> {
        read_int(*host, issues, path)
    }
}

/// Safe integers, `|x| ≤ 2^53 − 1`.
impl Convert for SafeInt {
    type Host = i64;
    fn to_host(&self) -> i64 {
        self.get()
    }
    fn from_host(host: &i64, issues: &mut Issues, path: &HostPath<'_>) -> Option<Self> {
        read_int(*host, issues, path)
    }
}

/// Positive safe integers (`laps`).
impl Convert for PositiveSafeUInt {
    type Host = i64;
    fn to_host(&self) -> i64 {
        crate::host_int(self.get())
    }
    fn from_host(host: &i64, issues: &mut Issues, path: &HostPath<'_>) -> Option<Self> {
        read_int(*host, issues, path)
    }
}

/// `-0` crosses as `0`: it is what `JSON.stringify` writes, and host data classes compare
/// `-0.0` and `0.0` as different.
fn positive_zero(x: f64) -> f64 {
    if x == 0.0 {
        0.0
    } else {
        x
    }
}

impl Convert for f64 {
    type Host = f64;
    fn to_host(&self) -> f64 {
        positive_zero(*self)
    }
    fn from_host(host: &f64, issues: &mut Issues, path: &HostPath<'_>) -> Option<Self> {
        read_f64(*host, issues, path)
    }
}

impl Convert for NonNegativeF64 {
    type Host = f64;
    fn to_host(&self) -> f64 {
        positive_zero(self.get())
    }
    fn from_host(host: &f64, issues: &mut Issues, path: &HostPath<'_>) -> Option<Self> {
        read_f64(*host, issues, path)
    }
}

/// Opaque values cross as their exact JSON text.
impl Convert for RawJson {
    type Host = JsonText;
    fn to_host(&self) -> JsonText {
        JsonText::from(self.as_str())
    }
    fn from_host(host: &JsonText, issues: &mut Issues, path: &HostPath<'_>) -> Option<Self> {
        let text = json_text(host, issues, path)?;
        match RawJson::from_json(text) {
            Ok(v) => Some(v),
            Err(e) => {
                issue(issues, path, format!("not valid JSON: {e}"));
                None
            }
        }
    }
}

/// A record of opaque values (`run.started.meta`) crosses as JSON object text.
impl Convert for OpaqueObject {
    type Host = JsonText;
    fn to_host(&self) -> JsonText {
        extras_to_host(&self.0)
    }
    fn from_host(host: &JsonText, issues: &mut Issues, path: &HostPath<'_>) -> Option<Self> {
        crate::ffi_support::read(json_text(host, issues, path)?, issues, path)
    }
}

impl<T: Convert> Convert for Option<T> {
    type Host = Option<T::Host>;
    fn to_host(&self) -> Self::Host {
        self.as_ref().map(T::to_host)
    }
    fn from_host(host: &Self::Host, issues: &mut Issues, path: &HostPath<'_>) -> Option<Self> {
        match host {
            None => Some(None),
            Some(h) => T::from_host(h, issues, path).map(Some),
        }
    }
}

impl<T: Convert> Convert for Vec<T> {
    type Host = Vec<T::Host>;
    fn to_host(&self) -> Self::Host {
        self.iter().map(T::to_host).collect()
    }
    fn from_host(host: &Self::Host, issues: &mut Issues, path: &HostPath<'_>) -> Option<Self> {
        let mut out = Vec::with_capacity(host.len());
        let mut ok = true;
        for (i, h) in host.iter().enumerate() {
            match T::from_host(h, issues, &path.index(i)) {
                Some(v) if ok => out.push(v),
                Some(_) => {}
                None => ok = false,
            }
        }
        ok.then_some(out)
    }
}

/// Unknown members as one JSON object text, keys still escaped as on the wire (so a key with
/// a lone-surrogate escape survives), values raw.
pub(crate) fn extras_to_host(extras: &Extras) -> JsonText {
    if extras.is_empty() {
        return JsonText::from("{}");
    }
    let mut out = String::from("{");
    for (i, (k, v)) in extras.iter_raw().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('"');
        out.push_str(k);
        out.push_str("\":");
        out.push_str(v.as_str());
    }
    out.push('}');
    JsonText::from(out)
}

/// The host's `extraJson` back into [`Extras`]: must be a JSON object (duplicate keys: last
/// wins, first position kept) and must not name a known field of the object.
pub(crate) fn extras_from_host(text: &JsonText, known: &[&str], issues: &mut Issues, path: &HostPath<'_>) -> Option<Extras> {
    let t = json_text(text, issues, path)?.trim();
    if t == "{}" {
        return Some(Extras::new());
    }
    if let Err(e) = json::validate(t, json::DEFAULT_MAX_DEPTH) {
        issue(issues, path, format!("extraJson is not valid JSON: {e}"));
        return None;
    }
    let Ok(OpaqueObject(extras)) = from_json::<OpaqueObject>(t) else {
        issue(issues, path, "extraJson must be a JSON object text such as {} or {\"x\":1}".to_owned());
        return None;
    };
    let mut ok = true;
    for (name, _) in extras.iter() {
        if known.contains(&&*name) {
            issue(issues, &path.key(&name), format!("\"{name}\" is a known field: set it through its property, not extraJson"));
            ok = false;
        }
    }
    ok.then_some(extras)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_integers_are_read_by_the_contract_reader_never_wrapped() {
        let max = (1_i64 << 53) - 1;
        let mut issues = Issues::new();
        assert_eq!(<SafeUInt as Convert>::from_host(&max, &mut issues, &HostPath::root("seq")), Some(SafeUInt::MAX));
        assert_eq!(<SafeUInt as Convert>::from_host(&(max + 1), &mut issues, &HostPath::root("seq")), None);
        assert_eq!(<SafeUInt as Convert>::from_host(&-1, &mut issues, &HostPath::root("ts")), None);
        assert_eq!(<SafeInt as Convert>::from_host(&i64::MIN, &mut issues, &HostPath::root("p")), None);
        assert_eq!(<PositiveSafeUInt as Convert>::from_host(&0, &mut issues, &HostPath::root("laps")), None);
        let paths: Vec<String> = issues.iter().map(Issue::dotted_path).collect();
        assert_eq!(paths, ["seq", "ts", "p", "laps"]);
        assert_eq!(issues[1].message, "too small: expected integer to be >= 0, received -1");
    }

    #[test]
    fn extras_round_trip_keeps_escaped_keys_and_refuses_known_fields() {
        let mut issues = Issues::new();
        let text = JsonText::from(r#"{"\udc00":1e400,"x":[1, 2]}"#);
        let extras = extras_from_host(&text, &["name"], &mut issues, &HostPath::root("payload")).unwrap();
        assert_eq!(extras_to_host(&extras).0, r#"{"\udc00":1e400,"x":[1,2]}"#);
        assert!(extras_from_host(&JsonText(r#"{"name":"x"}"#.into()), &["name"], &mut issues, &HostPath::root("payload")).is_none());
        assert!(extras_from_host(&JsonText("[]".into()), &[], &mut issues, &HostPath::root("payload")).is_none());
        assert_eq!(issues.len(), 2);
        assert_eq!(issues[0].dotted_path(), "payload.name");
    }

    #[test]
    fn negative_zero_crosses_as_zero() {
        assert!(Convert::to_host(&-0.0_f64).is_sign_positive());
    }
}
