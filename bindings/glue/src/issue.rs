//! The one conversion of a contract issue into what every host shows: `path` (dotted, as the
//! reference parsers print it), `segments` (root first: key strings and integer indexes),
//! `code` and `message`. Python's `Issue`, the Kotlin/Swift `Issue` records and the JavaScript
//! issue objects are all built from a [`HostIssue`].

use wirecontract::wire::{Issue, IssueCode, PathSegment};

/// Whether a protocol promises a stable code on every issue (spec graphorin-v1 §13) or gives
/// codes only where the contract recorded one (GraphMind's reference pins path and message).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codes {
    /// Every issue carries a code: `custom` where the contract recorded none (a syntax error
    /// found while reading a host value).
    Promised,
    /// The code the contract recorded, if any.
    AsRecorded,
}

/// A contract issue as hosts show it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HostIssue {
    /// The path joined with `.` (`payload.deltas.0.t`), `""` for the root.
    pub path: String,
    /// The path's segments from the frame root (`[payload, deltas, 0, t]`), empty for the root.
    pub segments: Vec<PathSegment>,
    /// The rule's stable code, per the protocol's [`Codes`].
    pub code: Option<IssueCode>,
    /// English text naming the rule and what was received.
    pub message: String,
}

impl HostIssue {
    /// The host view of `issue` under the protocol's code policy.
    pub fn new(issue: &Issue, codes: Codes) -> Self {
        let code = match codes {
            Codes::Promised => Some(issue.code.unwrap_or(IssueCode::Custom)),
            Codes::AsRecorded => issue.code,
        };
        HostIssue { path: issue.dotted_path(), segments: issue.path.segments(), code, message: issue.message.clone() }
    }
}

/// Appends the dotted form of a path given as host segments (`key` bytes, or an index) to
/// `out`: for a host record whose keys may hold bytes that are not UTF-8 (a Kotlin string with
/// a lone surrogate crosses as generalized UTF-8), so joining never fails.
pub fn write_dotted<'a, I>(out: &mut Vec<u8>, segments: I)
where
    I: IntoIterator<Item = Result<&'a [u8], i64>>,
{
    for (i, s) in segments.into_iter().enumerate() {
        if i > 0 {
            out.push(b'.');
        }
        match s {
            Ok(key) => out.extend_from_slice(key),
            Err(index) => wirecontract_json::write_int(out, index),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wirecontract::wire::IssuePath;

    #[test]
    fn path_and_segments_come_from_one_issue_path() {
        let mut path = IssuePath::root();
        path.push_key("payload");
        path.push_key("a.b");
        path.push_index(2);
        let issue = Issue { path, code: None, message: "m".into() };
        let host = HostIssue::new(&issue, Codes::AsRecorded);
        assert_eq!(host.path, "payload.a.b.2");
        assert_eq!(host.segments, [PathSegment::Key("payload".into()), PathSegment::Key("a.b".into()), PathSegment::Index(2)]);
        assert_eq!(host.code, None);
        assert_eq!(HostIssue::new(&issue, Codes::Promised).code, Some(IssueCode::Custom));
        let root = HostIssue::new(&Issue::at("", "x"), Codes::AsRecorded);
        assert_eq!((root.path.as_str(), root.segments.len()), ("", 0));
        let coded = Issue { code: Some(IssueCode::TooBig), ..Issue::at("seq", "too big") };
        assert_eq!(HostIssue::new(&coded, Codes::Promised).code, Some(IssueCode::TooBig));
        assert_eq!(HostIssue::new(&coded, Codes::AsRecorded).code, Some(IssueCode::TooBig));
    }

    #[test]
    fn dotted_bytes_join_keys_that_are_not_utf8() {
        let mut out = Vec::new();
        write_dotted(&mut out, [Ok(&[b'a', 0xED, 0xA0, 0x80][..]), Err(2)]);
        assert_eq!(out, [b'a', 0xED, 0xA0, 0x80, b'.', b'2']);
        let mut out = Vec::new();
        write_dotted(&mut out, []);
        assert!(out.is_empty());
    }
}
