//! The `junit` format: JUnit XML for CI test reports. One `<testsuite>` per diff, named after
//! the protocol (the schema's `title`, else its `$id`; the inputs are its properties), with one
//! `<testcase>` per rule the checker knows (a green case for each rule that found nothing to
//! fail), a `<failure>` per failing breaking change under its rule, and the other changes of
//! the rule (safe, accepted, allowed by a version bump) in its `<system-out>`. Unused
//! suppressions go to the suite's `<system-err>`.

use std::fmt::Write as _;

use crate::{Change, Review, Rule, Status};

/// Escapes text for an XML attribute value or element content. Characters XML 1.0 cannot
/// carry at all (most controls) are written as `\u{..}`.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            '\u{0}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}' => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(ch));
            }
            c => out.push(c),
        }
    }
    out
}

/// One line describing a change for `<system-out>` or a failure's body.
fn describe(r: &Review, c: &Change, status: Status, by: Option<&crate::Accept>) -> String {
    let mut s = format!("{}: {} ({})", super::pointer(c), c.change, super::directions(c));
    if !c.messages.is_empty() {
        let _ = write!(s, "; message types: {}", c.messages.join(", "));
    }
    let note = super::status_note(status, by, r.suppressions.as_deref());
    if !note.is_empty() {
        let _ = write!(s, "; {note}");
    }
    s
}

/// Renders the XML document.
pub(crate) fn render(r: &Review) -> String {
    let failing_rules = Rule::ALL.into_iter().filter(|rule| r.entries().any(|(_, c, status, _)| c.rule == *rule && status == Status::Breaking)).count();
    let tests = Rule::ALL.len();
    let suite = r.protocol_name();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(out, "<testsuites name=\"wirecontract diff\" tests=\"{tests}\" failures=\"{failing_rules}\" errors=\"0\">");
    let _ = writeln!(out, "  <testsuite name=\"{}\" tests=\"{tests}\" failures=\"{failing_rules}\" errors=\"0\" skipped=\"0\">", escape(suite));
    out.push_str("    <properties>\n");
    let mut props = vec![("old", r.labels.old.clone()), ("new", r.labels.new.clone()), ("policy", r.policy().name().to_owned()), ("summary", r.summary_line())];
    if let Some(s) = &r.suppressions {
        props.push(("suppressions", s.clone()));
    }
    for (name, value) in props {
        let _ = writeln!(out, "      <property name=\"{name}\" value=\"{}\"/>", escape(&value));
    }
    out.push_str("    </properties>\n");
    let classname = format!("evolution.{}", r.protocol_id());
    for rule in Rule::ALL {
        let name = rule.name();
        let changes: Vec<_> = r.entries().filter(|e| e.1.rule == rule).collect();
        let _ = write!(out, "    <testcase name=\"{name}\" classname=\"{}\"", escape(&classname));
        if changes.is_empty() {
            out.push_str("/>\n");
            continue;
        }
        out.push_str(">\n");
        let mut other = Vec::new();
        for (_, c, status, by) in changes {
            let text = describe(r, c, status, by);
            if status == Status::Breaking {
                let _ = writeln!(
                    out,
                    "      <failure message=\"{}\" type=\"{name}\">{}</failure>",
                    escape(&format!("{}: {}", super::pointer(c), c.change)),
                    escape(&text)
                );
            } else {
                let label = match status {
                    Status::Accepted => "accepted",
                    Status::AllowedByBump => "allowed",
                    _ => "safe",
                };
                other.push(format!("{label}: {text}"));
            }
        }
        if !other.is_empty() {
            let _ = writeln!(out, "      <system-out>{}</system-out>", escape(&other.join("\n")));
        }
        out.push_str("    </testcase>\n");
    }
    let unused = r.unused_lines();
    if !unused.is_empty() {
        let _ = writeln!(out, "    <system-err>{}</system-err>", escape(&unused.join("\n")));
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn markup_quotes_and_controls_are_escaped() {
        assert_eq!(escape("<a href=\"x\">&'</a>"), "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;");
        assert_eq!(escape("a\nb\u{0}c\u{1b}"), "a&#10;b\\u{0}c\\u{1b}");
    }
}
