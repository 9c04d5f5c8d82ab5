//! Output formats of a [`Review`]: one file per format.
//!
//! - `text`: the aligned table (the default), then accepted changes and warnings.
//! - `json`: one JSON object for tools.
//! - `markdown`: a changelog a release note can paste.
//! - `github`: GitHub Actions workflow commands (`::error`, `::warning`, `::notice`).
//! - `junit`: JUnit XML, one test case per rule of the checker.

pub(crate) mod github;
pub(crate) mod json;
pub(crate) mod junit;
pub(crate) mod markdown;
pub(crate) mod text;

use crate::{Accept, Change, Review, Side, Status};

/// An output format of `wirecontract diff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// The aligned table for people.
    Text,
    /// Pretty-printed JSON for tools.
    Json,
    /// A Markdown changelog.
    Markdown,
    /// GitHub Actions workflow commands, one annotation per change.
    Github,
    /// JUnit XML, one test case per rule.
    Junit,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 5] = [Format::Text, Format::Json, Format::Markdown, Format::Github, Format::Junit];

    /// The format's name on the command line (`markdown`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Markdown => "markdown",
            Format::Github => "github",
            Format::Junit => "junit",
        }
    }

    /// The format named `name`, if any.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Renders `review` in this format; the text ends with a newline.
    pub fn render(self, review: &Review) -> String {
        match self {
            Format::Text => text::render(review),
            Format::Json => json::render(review),
            Format::Markdown => markdown::render(review),
            Format::Github => github::render(review),
            Format::Junit => junit::render(review),
        }
    }
}

/// `old receivers: BREAKING, old senders: safe`.
pub(crate) fn directions(c: &Change) -> String {
    format!("old receivers: {}, old senders: {}", c.old_receivers.label(), c.old_senders.label())
}

/// The pointer for prose, marked `(old schema)` when it points into the old schema.
pub(crate) fn pointer(c: &Change) -> String {
    let p = crate::review::show_pointer(&c.path);
    match c.side {
        Side::New => p.to_owned(),
        Side::Old => format!("{p} (old schema)"),
    }
}

/// What the status adds to a change's description: the acceptance and its reason, or the
/// bump that allows it.
pub(crate) fn status_note(status: Status, by: Option<&Accept>, source: Option<&str>) -> String {
    match (status, by) {
        (Status::Accepted, Some(a)) => format!("accepted ({}): {}", a.location(source.unwrap_or("suppressions")), a.reason),
        (Status::AllowedByBump, _) => "allowed by the protocol-version bump".to_owned(),
        _ => String::new(),
    }
}
