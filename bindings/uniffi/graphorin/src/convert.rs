//! Host ⇄ contract conversion for Graphorin. Contract → host never fails; host → contract
//! checks every rule the host type cannot express (non-empty strings, JSON text validity, an
//! object for `capabilities`) and collects every problem with its path and code, as the parser
//! does. The generated code (`generated.rs`) calls these leaf impls for every field.
//!
//! The same trait as the GraphMind binding's `convert.rs` (dotted paths, the contract's issues,
//! `ffi_support`'s readers); Graphorin's issues carry their stable codes (`ISSUE_CODES`).

use wirecontract::graphorin;
use wirecontract::wire::{to_json, Issue, IssueCode, OpaqueObject};
use wirecontract_json::RawJson;
use wirecontract_json::{JsonKind, Val};

use crate::ffi_support::read;
pub(crate) use crate::ffi_support::{Convert, HostPath, Issues};
use crate::{ExactCount, HostString, JsonText, RpcId};

fn issue(issues: &mut Issues, path: &HostPath<'_>, code: IssueCode, message: String) {
    let mut i = Issue::at(&path.dotted(), message);
    i.code = Some(code);
    issues.push(i);
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

/// Every identifier and text field (§2 "Non-empty strings"): a host string, refused when
/// empty by the contract's reader (its rule, message and code), or when it holds a lone
/// surrogate (Kotlin).
impl Convert for graphorin::NonEmptyString {
    type Host = HostString;
    fn to_host(&self) -> HostString {
        HostString::from(self.as_str())
    }
    fn from_host(host: &HostString, issues: &mut Issues, path: &HostPath<'_>) -> Option<Self> {
        let text = match host.to_str() {
            Ok(t) => t,
            Err(e) => {
                issue(issues, path, IssueCode::Custom, e.message());
                return None;
            }
        };
        // The contract's reader decides (an empty string is `too small`, its message and code).
        read(&to_json(&text.to_owned()), issues, path)
    }
}

/// The JSON type of an id crosses as the variant: `StringId` or `IntId`.
impl Convert for graphorin::RpcId {
    type Host = RpcId;
    fn to_host(&self) -> RpcId {
        match self {
            graphorin::RpcId::Str(s) => RpcId::StringId { value: HostString::from(s.as_str()) },
            graphorin::RpcId::Int(i) => RpcId::IntId { value: *i },
        }
    }
    fn from_host(host: &RpcId, issues: &mut Issues, path: &HostPath<'_>) -> Option<Self> {
        match host {
            RpcId::StringId { value } => <graphorin::NonEmptyString as Convert>::from_host(value, issues, path).map(graphorin::RpcId::Str),
            RpcId::IntId { value } => Some(graphorin::RpcId::Int(*value)),
        }
    }
}

/// `replay-marker.droppedCount`: an [`ExactCount`] (decimal text), read by the contract's own
/// reader, so its bounds and messages are the parser's.
impl Convert for graphorin::Count {
    type Host = ExactCount;
    fn to_host(&self) -> ExactCount {
        ExactCount::from(self.0)
    }
    fn from_host(host: &ExactCount, issues: &mut Issues, path: &HostPath<'_>) -> Option<Self> {
        read(&host.0, issues, path)
    }
}

/// An RPC `error.code`: the bare integer; catalogue codes and any other value alike.
impl Convert for graphorin::RpcErrorCode {
    type Host = i64;
    fn to_host(&self) -> i64 {
        self.code()
    }
    fn from_host(host: &i64, _: &mut Issues, _: &HostPath<'_>) -> Option<Self> {
        Some(graphorin::RpcErrorCode::from_code(*host))
    }
}

/// Extension points cross as their exact JSON text.
impl Convert for RawJson {
    type Host = JsonText;
    fn to_host(&self) -> JsonText {
        JsonText::from(self.as_str())
    }
    fn from_host(host: &JsonText, issues: &mut Issues, path: &HostPath<'_>) -> Option<Self> {
        let text = match host.text() {
            Ok(t) => t,
            Err(e) => {
                issue(issues, path, IssueCode::Custom, e.message());
                return None;
            }
        };
        match RawJson::from_json(text) {
            Ok(v) => Some(v),
            Err(e) => {
                issue(issues, path, IssueCode::Custom, format!("not valid JSON text: {e}"));
                None
            }
        }
    }
}

/// `initialize.params.capabilities` crosses as JSON object text (any keys, opaque values).
impl Convert for OpaqueObject {
    type Host = JsonText;
    fn to_host(&self) -> JsonText {
        JsonText::from(to_json(self))
    }
    fn from_host(host: &JsonText, issues: &mut Issues, path: &HostPath<'_>) -> Option<Self> {
        let raw = <RawJson as Convert>::from_host(host, issues, path)?;
        if Val::root(raw.as_str()).kind() != JsonKind::Object {
            issue(
                issues,
                path,
                IssueCode::InvalidType,
                format!("expected a JSON object text such as {{}} or {{\"x\":1}}, received {}", first_chars(raw.as_str())),
            );
            return None;
        }
        match wirecontract::wire::from_json::<OpaqueObject>(raw.as_str()) {
            Ok(r) => Some(r),
            Err(found) => {
                for i in found {
                    issue(issues, path, IssueCode::Custom, i.message);
                }
                None
            }
        }
    }
}

fn first_chars(text: &str) -> String {
    let head: String = text.chars().take(40).collect();
    if head.len() < text.len() {
        format!("{head}…")
    } else {
        head
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

/// Whether `text` is one JSON value (the frame reader's rules).
#[cfg(test)]
pub(crate) fn is_json(text: &str) -> bool {
    wirecontract_json::validate(text, wirecontract_json::DEFAULT_MAX_DEPTH).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_strings_and_bad_json_text_are_refused_with_coded_issues() {
        let mut issues = Issues::new();
        assert!(<graphorin::NonEmptyString as Convert>::from_host(&HostString::default(), &mut issues, &HostPath::root("params").key("runId")).is_none());
        assert!(<graphorin::RpcId as Convert>::from_host(&RpcId::StringId { value: HostString::default() }, &mut issues, &HostPath::root("")).is_none());
        assert!(<RawJson as Convert>::from_host(&JsonText("{nope".into()), &mut issues, &HostPath::root("")).is_none());
        assert!(<OpaqueObject as Convert>::from_host(&JsonText("[]".into()), &mut issues, &HostPath::root("")).is_none());
        let got: Vec<(String, IssueCode)> = issues.iter().map(|i| (i.dotted_path(), i.code.unwrap())).collect();
        assert_eq!(
            got,
            [
                ("params.runId".into(), IssueCode::TooSmall),
                (String::new(), IssueCode::TooSmall),
                (String::new(), IssueCode::Custom),
                (String::new(), IssueCode::InvalidType)
            ]
        );
    }

    #[test]
    fn ids_keep_their_json_type_and_opaque_text_stays_exact() {
        let s = <graphorin::RpcId as Convert>::from_host(&RpcId::StringId { value: "1".into() }, &mut Issues::new(), &HostPath::root("")).unwrap();
        let i = <graphorin::RpcId as Convert>::from_host(&RpcId::IntId { value: 1 }, &mut Issues::new(), &HostPath::root("")).unwrap();
        assert_ne!(s, i);
        assert_eq!((s.to_json(), i.to_json()), ("\"1\"".to_owned(), "1".to_owned()));
        let raw = <RawJson as Convert>::from_host(&JsonText(r#"{"a":1e400,"s":"\ud800"}"#.into()), &mut Issues::new(), &HostPath::root("")).unwrap();
        assert_eq!(Convert::to_host(&raw).0, r#"{"a":1e400,"s":"\ud800"}"#);
        assert!(is_json("null") && !is_json(""));
    }
}
