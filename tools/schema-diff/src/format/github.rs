//! The `github` format: GitHub Actions workflow commands, one annotation per change.
//!
//! A breaking change that fails the check is an `::error`, an accepted one (or one a
//! protocol-version bump allows, in policy mode) a `::warning`, a safe one a `::notice`. The
//! title is the rule; the message starts with the JSON Pointer. An unused suppression is a
//! `::warning` on its line of the suppression file. Escaping follows GitHub's runner: `%`,
//! CR and LF in the message; also `:` and `,` in properties.

use std::fmt::Write as _;

use crate::{Review, Status};

/// Escapes the message part of a workflow command.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// Escapes a property value (`file=`, `title=`).
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// One workflow command: `::level k=v,k=v::message`.
fn command(level: &str, props: &[(&str, &str)], message: &str) -> String {
    let props: Vec<String> = props.iter().map(|(k, v)| format!("{k}={}", escape_property(v))).collect();
    format!("::{level} {}::{}", props.join(","), escape_data(message))
}

/// Renders one annotation per change and per unused suppression, then a summary line.
pub(crate) fn render(r: &Review) -> String {
    let mut out = String::new();
    let source = r.suppressions.as_deref();
    for (_, c, status, by) in r.entries() {
        let (level, title) = match status {
            Status::Breaking => ("error", c.rule.name()),
            Status::Accepted => ("warning", format!("{} (accepted)", c.rule.name())),
            Status::AllowedByBump => ("warning", format!("{} (allowed by version bump)", c.rule.name())),
            Status::Safe => ("notice", c.rule.name()),
        };
        let mut message = format!("{}: {} ({})", super::pointer(c), c.change, super::directions(c));
        if !c.messages.is_empty() {
            let _ = write!(message, "; message types: {}", c.messages.join(", "));
        }
        let note = super::status_note(status, by, source);
        if !note.is_empty() {
            let _ = write!(message, "; {note}");
        }
        let mut props = Vec::new();
        if let Some(file) = &r.labels.file {
            props.push(("file", file.as_str()));
        }
        props.push(("title", title.as_str()));
        let _ = writeln!(out, "{}", command(level, &props, &message));
    }
    for (u, line) in r.unused.iter().zip(r.unused_lines()) {
        let n = u.entry.line.to_string();
        let props = match source {
            Some(file) => vec![("file", file), ("line", n.as_str()), ("title", "unused suppression")],
            None => vec![("title", "unused suppression")],
        };
        let _ = writeln!(out, "{}", command("warning", &props, &line));
    }
    let _ = write!(out, "wirecontract diff: {}: {}", r.protocol_name(), r.summary_line());
    if r.policy_mode {
        let _ = write!(out, "; policy: {}", r.policy().name());
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::{command, escape_data, escape_property};

    #[test]
    fn data_and_properties_are_escaped_as_the_runner_expects() {
        assert_eq!(escape_data("100% a\r\nb:c,d"), "100%25 a%0D%0Ab:c,d");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
        assert_eq!(command("error", &[("file", "x,y.json"), ("title", "t")], "m::n"), "::error file=x%2Cy.json,title=t::m::n");
    }
}
