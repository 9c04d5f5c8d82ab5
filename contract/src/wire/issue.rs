//! Validation issues and the context that collects them while a frame is read: [`Issue`]
//! (a JSON Pointer path, optional code, message; one type for every protocol), [`IssuePath`], [`IssueCode`] (zod's stable codes), issue paths,
//! and the helpers that word issue messages.

use std::fmt;

use serde::Serialize;

use wirecontract_json::{self as json, JsonKind, Val};

/// One validation failure, the same type for every protocol: where (`path`), which rule
/// (`message`, and `code` when the protocol promises stable codes).
///
/// `path` is a JSON Pointer (RFC 6901) from the frame root: [`IssuePath::pointer`] renders it
/// (`/payload/deltas/0/t`), [`IssuePath::dotted`] as the reference parsers print it
/// (`payload.deltas.0.t`, spec graphmind-v1 §2 and §5.2, graphorin-v1 §13), and
/// [`IssuePath::segments`] as keys and array indices.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Issue {
    /// Where, from the frame root (empty for the root). An unrecognized key's path ends with
    /// that key.
    pub path: IssuePath,
    /// The stable code of the rule (zod's codes): recorded where the protocol promises them
    /// (Graphorin, spec graphorin-v1 §13), else `None` (GraphMind's reference pins `{path,
    /// message}` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<IssueCode>,
    /// Stable English text naming the rule (expected type, allowed values, bound) and what was
    /// received.
    pub message: String,
}

impl Issue {
    /// An issue without a code at `path`, given in the dotted form (`payload.mode`, `""` for the
    /// root); a segment of ASCII digits is an array index. For paths a caller names by hand
    /// (a host argument, an envelope member); readers record issues through [`Ctx`].
    pub fn at(dotted: &str, message: impl Into<String>) -> Self {
        Issue { path: IssuePath::from_dotted(dotted), code: None, message: message.into() }
    }

    /// The path in the dotted form, `""` for the root (`path.dotted()`).
    pub fn dotted_path(&self) -> String {
        self.path.dotted()
    }

    /// `path: message` with the dotted path, or the message alone at the root: one line of a
    /// host error's text.
    pub fn summary(&self) -> String {
        if self.path.is_empty() {
            self.message.clone()
        } else {
            format!("{}: {}", self.path.dotted(), self.message)
        }
    }
}

/// Where an [`Issue`] is: a JSON Pointer (RFC 6901) from the frame root, kept as one string
/// (a million issues cost one allocation each for their paths).
///
/// Stored as the pointer text, except that a key made only of ASCII digits is marked `~2`
/// (an escape RFC 6901 never produces) so it stays a key, not an index; every accessor
/// renders the standard forms.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct IssuePath(String);

impl IssuePath {
    /// The root (the empty pointer).
    pub fn root() -> Self {
        IssuePath(String::new())
    }

    /// A path from its segments, root first.
    pub fn from_segments<'a>(segments: impl IntoIterator<Item = &'a PathSegment>) -> Self {
        let mut p = IssuePath::root();
        for seg in segments {
            match seg {
                PathSegment::Key(k) => p.push_key(k),
                PathSegment::Index(i) => p.push_index(*i),
            }
        }
        p
    }

    /// A path in the dotted form (`payload.deltas.0`, `""` for the root); a segment that is an
    /// index as [`IssuePath::dotted`] writes one (ASCII digits, no leading zero, within `usize`)
    /// is an array index, any other segment a key, so `from_dotted(d).dotted() == d`.
    pub fn from_dotted(dotted: &str) -> Self {
        let mut p = IssuePath::root();
        if !dotted.is_empty() {
            for s in dotted.split('.') {
                match s.parse::<usize>() {
                    Ok(i) if is_digits(s) && (s == "0" || !s.starts_with('0')) => p.push_index(i),
                    _ => p.push_key(s),
                }
            }
        }
        p
    }

    /// Appends an object member name.
    pub fn push_key(&mut self, key: &str) {
        self.0.push('/');
        if is_digits(key) {
            self.0.push_str("~2");
        }
        for c in key.chars() {
            match c {
                '~' => self.0.push_str("~0"),
                '/' => self.0.push_str("~1"),
                c => self.0.push(c),
            }
        }
    }

    /// Appends an array position.
    pub fn push_index(&mut self, index: usize) {
        use fmt::Write as _;
        let _ = write!(self.0, "/{index}");
    }

    /// `true` for the root.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The segments, root first.
    pub fn segments(&self) -> Vec<PathSegment> {
        self.tokens()
            .map(|t| match t.strip_prefix("~2") {
                Some(key) => PathSegment::Key(unescape(key)),
                None if is_digits(t) => t.parse().map_or_else(|_| PathSegment::Key(t.to_owned()), PathSegment::Index),
                None => PathSegment::Key(unescape(t)),
            })
            .collect()
    }

    /// The JSON Pointer (RFC 6901): `/payload/deltas/0/t`, `""` for the root, `~` and `/` in
    /// keys escaped as `~0` and `~1`.
    pub fn pointer(&self) -> String {
        if !self.0.contains("/~2") {
            return self.0.clone();
        }
        let mut out = String::with_capacity(self.0.len());
        for t in self.tokens() {
            out.push('/');
            out.push_str(t.strip_prefix("~2").unwrap_or(t));
        }
        out
    }

    /// The segments joined with `.` (`params.clientInfo.version`), `""` for the root: the form
    /// the reference parsers report and the bindings expose.
    pub fn dotted(&self) -> String {
        let mut out = String::with_capacity(self.0.len());
        for (i, t) in self.tokens().enumerate() {
            if i > 0 {
                out.push('.');
            }
            out.push_str(&unescape(t.strip_prefix("~2").unwrap_or(t)));
        }
        out
    }

    fn tokens(&self) -> impl Iterator<Item = &str> {
        self.0.split('/').skip(1)
    }
}

impl fmt::Display for IssuePath {
    /// The dotted form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.dotted())
    }
}

impl Serialize for IssuePath {
    /// As its segments: `["payload", "deltas", 0]`.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.segments().serialize(s)
    }
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn unescape(token: &str) -> String {
    if token.contains('~') {
        token.replace("~1", "/").replace("~0", "~")
    } else {
        token.to_owned()
    }
}

impl fmt::Display for Issue {
    /// `path: message` with the dotted path, `(root): message` at the root.
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
    /// The path as an [`IssuePath`].
    pub(crate) fn issue_path(&self) -> IssuePath {
        let mut segs: Vec<&Path<'_>> = Vec::new();
        let mut cur = self;
        while let Path::Key(p, _) | Path::Index(p, _) = cur {
            segs.push(cur);
            cur = p;
        }
        let mut out = IssuePath::root();
        for seg in segs.iter().rev() {
            match seg {
                Path::Key(_, k) => out.push_key(k),
                Path::Index(_, i) => out.push_index(*i),
                Path::Root => {}
            }
        }
        out
    }
}

/// Collects issues while a frame is read.
#[doc(hidden)]
pub struct Ctx {
    pub(crate) issues: Vec<Issue>,
    /// Whether issues carry their [`IssueCode`] (the protocol promises codes).
    codes: bool,
    /// The frame's shared text, when opaque values read through this context may be spans
    /// of it ([`Ctx::raw`]).
    pub(crate) shared: Option<wirecontract_json::SharedText>,
}

impl Ctx {
    pub(crate) fn new() -> Self {
        Ctx { issues: Vec::new(), codes: false, shared: None }
    }

    /// A context whose issues carry their [`IssueCode`].
    pub(crate) fn with_codes() -> Self {
        Ctx { issues: Vec::new(), codes: true, shared: None }
    }

    /// The opaque value `v` as a [`wirecontract_json::RawJson`]: a span of the shared frame when there is
    /// one and `v` is compact, else a copy.
    #[inline]
    pub fn raw(&self, v: Val<'_>) -> wirecontract_json::RawJson {
        wirecontract_json::RawJson::from_validated_in(v.raw(), self.shared.as_ref())
    }

    /// Records an issue with code [`IssueCode::Custom`].
    pub fn issue(&mut self, path: &Path<'_>, message: impl Into<String>) {
        self.issue_with(path, IssueCode::Custom, message);
    }

    /// Records an issue with its code.
    pub fn issue_with(&mut self, path: &Path<'_>, code: IssueCode, message: impl Into<String>) {
        self.issues.push(Issue { path: path.issue_path(), code: self.codes.then_some(code), message: message.into() });
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

#[cfg(test)]
mod tests {
    use super::{Issue, IssuePath, PathSegment};

    #[test]
    fn issue_path_renders_pointer_dotted_and_segments() {
        let segs = [PathSegment::Key("payload".into()), PathSegment::Key("a/b~c".into()), PathSegment::Index(3), PathSegment::Key("7".into())];
        let p = IssuePath::from_segments(&segs);
        assert_eq!(p.pointer(), "/payload/a~1b~0c/3/7");
        assert_eq!(p.dotted(), "payload.a/b~c.3.7");
        assert_eq!(p.segments(), segs, "a digit-only key stays a key");
        assert!(IssuePath::root().is_empty());
        assert_eq!(IssuePath::root().pointer(), "");
    }

    #[test]
    fn issue_at_reads_the_dotted_form() {
        let i = Issue::at("payload.deltas.0.t", "m");
        assert_eq!(i.path.segments()[2], PathSegment::Index(0));
        assert_eq!(i.dotted_path(), "payload.deltas.0.t");
        assert_eq!(i.summary(), "payload.deltas.0.t: m");
        assert_eq!(Issue::at("", "m").summary(), "m");
        assert_eq!(i.to_string(), "payload.deltas.0.t: m");
    }

    #[test]
    fn a_dotted_path_reads_back_as_written() {
        // Only an index as `dotted` writes one is an index: "007" and a number past usize are
        // keys, so the segments spell the same dotted text again.
        for d in ["x.007", "a.00", "x.0", "x.18446744073709551616", "payload.deltas.10.t", ""] {
            assert_eq!(IssuePath::from_dotted(d).dotted(), d, "{d}");
        }
        assert_eq!(IssuePath::from_dotted("x.007").segments(), vec![PathSegment::Key("x".into()), PathSegment::Key("007".into())]);
        assert_eq!(IssuePath::from_dotted("x.10").segments()[1], PathSegment::Index(10));
    }
}
