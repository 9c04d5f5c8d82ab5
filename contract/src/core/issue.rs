//! Validation issues and the context that collects them while a frame is read: [`Issue`]
//! (path + message, the reference's form), [`IssueCode`] (zod's stable codes), issue paths,
//! and the helpers that word issue messages.

use std::fmt;

use serde::Serialize;

use super::json::{self, JsonKind, Val};

/// One validation failure: where (`path`) and which rule (`message`).
///
/// `path` is the reference's dotted form counted from the frame root, array indices as
/// numbers (`payload.deltas.0.t`); `""` is the root. Spec graphmind-v1 §2 and §5.2.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Issue {
    /// Dotted path from the frame root, `""` for the root itself.
    pub path: String,
    /// Stable English text naming the rule (expected type, allowed values, bound).
    pub message: String,
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "(root): {}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

wire_enum! {
    /// The stable code of a validation issue: zod's issue codes as the Graphorin contract names
    /// them (spec graphorin-v1 §13 "Parse API"). Protocol-independent; a [`Ctx`] records one per
    /// issue only when built with `Ctx::with_codes`.
    pub enum IssueCode {
        /// Wrong JSON type, a required field that is absent, or a number that is not an integer.
        InvalidType = "invalid_type",
        /// A literal field (`v`, `jsonrpc`) with any other value, or absent.
        InvalidLiteral = "invalid_literal",
        /// A key a strict object does not declare.
        UnrecognizedKeys = "unrecognized_keys",
        /// Below a lower bound: an empty string where `min(1)` applies, a negative count.
        TooSmall = "too_small",
        /// Above an upper bound (an integer outside the Rust type's range).
        TooBig = "too_big",
        /// A string outside a closed enum.
        InvalidEnum = "invalid_enum",
        /// A union discriminator (`kind`, `method`) that is absent or names no variant.
        InvalidDiscriminator = "invalid_discriminator",
        /// Any other rule (refinements).
        Custom = "custom",
    }
}

/// One segment of an issue path: an object key (decoded) or an array index, as zod's
/// `issue.path` holds them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(untagged)]
pub enum PathSegment {
    /// An object member name.
    Key(String),
    /// An array position, 0-based.
    Index(usize),
}

impl fmt::Display for PathSegment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathSegment::Key(k) => f.write_str(k),
            PathSegment::Index(i) => write!(f, "{i}"),
        }
    }
}

/// A path being walked, as a linked list on the stack: no allocation until an issue is made.
#[derive(Clone, Copy)]
#[doc(hidden)]
pub enum Path<'p> {
    Root,
    Key(&'p Path<'p>, &'p str),
    Index(&'p Path<'p>, usize),
}

impl Path<'_> {
    pub(crate) fn render(&self) -> String {
        let mut segs: Vec<String> = Vec::new();
        let mut cur = self;
        loop {
            match cur {
                Path::Root => break,
                Path::Key(p, k) => {
                    segs.push((*k).to_owned());
                    cur = p;
                }
                Path::Index(p, i) => {
                    segs.push(i.to_string());
                    cur = p;
                }
            }
        }
        segs.reverse();
        segs.join(".")
    }

    /// The path as segments from the root (empty for the root).
    pub(crate) fn segments(&self) -> Vec<PathSegment> {
        let mut segs = Vec::new();
        let mut cur = self;
        loop {
            match cur {
                Path::Root => break,
                Path::Key(p, k) => {
                    segs.push(PathSegment::Key((*k).to_owned()));
                    cur = p;
                }
                Path::Index(p, i) => {
                    segs.push(PathSegment::Index(*i));
                    cur = p;
                }
            }
        }
        segs.reverse();
        segs
    }
}

/// Collects issues while a frame is read.
#[doc(hidden)]
pub struct Ctx {
    pub(crate) issues: Vec<Issue>,
    /// Code and path segments of each issue, parallel to `issues`; kept only when built with
    /// [`Ctx::with_codes`], so readers that do not need them pay nothing.
    pub(crate) coded: Option<Vec<(IssueCode, Vec<PathSegment>)>>,
    /// The frame's shared text, when opaque values read through this context may be spans
    /// of it ([`Ctx::raw`]).
    pub(crate) shared: Option<super::SharedText>,
}

impl Ctx {
    pub(crate) fn new() -> Self {
        Ctx { issues: Vec::new(), coded: None, shared: None }
    }

    /// A context that also records each issue's [`IssueCode`] and path segments.
    pub(crate) fn with_codes() -> Self {
        Ctx { issues: Vec::new(), coded: Some(Vec::new()), shared: None }
    }

    /// The opaque value `v` as a [`super::RawJson`]: a span of the shared frame when there is
    /// one and `v` is compact, else a copy.
    #[inline]
    pub fn raw(&self, v: Val<'_>) -> super::RawJson {
        super::RawJson::from_validated_in(v.raw(), self.shared.as_ref())
    }

    /// Records an issue with code [`IssueCode::Custom`].
    pub fn issue(&mut self, path: &Path<'_>, message: impl Into<String>) {
        self.issue_with(path, IssueCode::Custom, message);
    }

    /// Records an issue with its code.
    pub fn issue_with(&mut self, path: &Path<'_>, code: IssueCode, message: impl Into<String>) {
        self.issues.push(Issue { path: path.render(), message: message.into() });
        if let Some(coded) = &mut self.coded {
            coded.push((code, path.segments()));
        }
    }

    /// The issues with their codes and path segments. A context not built with
    /// [`Ctx::with_codes`] reports [`IssueCode::Custom`] and the dotted path split on `.`.
    pub(crate) fn into_coded(self) -> Vec<(Issue, IssueCode, Vec<PathSegment>)> {
        let mut coded = self.coded.unwrap_or_default().into_iter();
        self.issues
            .into_iter()
            .map(|issue| {
                let (code, segs) = coded.next().unwrap_or_else(|| {
                    let segs = if issue.path.is_empty() { Vec::new() } else { issue.path.split('.').map(|s| PathSegment::Key(s.to_owned())).collect() };
                    (IssueCode::Custom, segs)
                });
                (issue, code, segs)
            })
            .collect()
    }

    /// Records "expected X, received Y" and returns `None`.
    pub fn expected<T>(&mut self, path: &Path<'_>, what: &str, got: Option<Val<'_>>) -> Option<T> {
        let received = match got {
            None => "undefined (the field is required)",
            Some(v) => v.kind().name(),
        };
        let suffix = if got.is_some_and(|v| v.kind() == JsonKind::Null) { " (optional fields are not nullable)" } else { "" };
        self.issue_with(path, IssueCode::InvalidType, format!("expected {what}, received {received}{suffix}"));
        None
    }
}

/// The issue message for a value outside a closed enum.
pub(crate) fn enum_message(values: &[&str], raw: &str) -> String {
    let allowed: Vec<String> = values.iter().map(|v| format!("\"{v}\"")).collect();
    format!("invalid option: expected one of {}, received {raw}", allowed.join("|"))
}
/// A value as an issue message names it: scalars as their JSON text (long ones cut at 64
/// bytes), containers by type.
pub(crate) fn describe_received(v: Option<Val<'_>>) -> String {
    let Some(v) = v else { return "undefined".to_owned() };
    match v.kind() {
        JsonKind::Object | JsonKind::Array => v.kind().name().to_owned(),
        _ => {
            let raw = v.raw();
            if raw.len() <= 64 {
                return raw.to_owned();
            }
            let mut cut = 64;
            while !raw.is_char_boundary(cut) {
                cut -= 1;
            }
            format!("{}…", &raw[..cut])
        }
    }
}

/// A key as JSON text, for issue messages.
pub(crate) fn quote_key(key: &str) -> String {
    let mut out = Vec::with_capacity(key.len() + 2);
    json::write_string(&mut out, key);
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}
