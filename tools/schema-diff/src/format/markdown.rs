//! The `markdown` format: a changelog a release note can paste. A heading, the protocol
//! version and policy verdict, a table of counts (with both directions), then the sections
//! "Breaking", "Accepted" and "Additive", one bullet per change: rule, JSON Pointer, what
//! changed, both verdicts and the message types.

use std::fmt::Write as _;

use crate::report::version_line;
use crate::{Change, Review, Status, Verdict};

/// Escapes text so that Markdown shows it as written (one line).
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '\\' | '`' | '*' | '_' | '<' | '>' | '[' | ']' | '|' | '#' | '~' | '&' => {
                out.push('\\');
                out.push(ch);
            }
            '\r' | '\n' => out.push(' '),
            _ => out.push(ch),
        }
    }
    out
}

/// `s` as a code span, with a fence longer than any run of backticks in it.
fn code(s: &str) -> String {
    if s.is_empty() {
        return "`\"\"`".to_owned();
    }
    let s = s.replace(['\r', '\n'], " ");
    let mut longest = 0;
    let mut run = 0;
    for ch in s.chars() {
        run = if ch == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') { " " } else { "" };
    format!("{fence}{pad}{s}{pad}{fence}")
}

/// One bullet: rule, pointer, change, verdicts, message types and the status note.
fn bullet(c: &Change, status: Status, note: &str) -> String {
    let verdict = |v: Verdict| match v {
        Verdict::Safe => "safe",
        Verdict::Breaking => "**breaking**",
    };
    let old = if c.side == crate::Side::Old { " (old schema)" } else { "" };
    let mut s = format!(
        "- **{}** {}{old}: {}. Old receivers: {}, old senders: {}.",
        c.rule.name(),
        code(&c.path),
        escape(&c.change),
        verdict(c.old_receivers),
        verdict(c.old_senders)
    );
    if !c.messages.is_empty() {
        let names: Vec<String> = c.messages.iter().map(|m| code(m)).collect();
        let _ = write!(s, " Message types: {}.", names.join(", "));
    }
    if !note.is_empty() && status != Status::Safe {
        let _ = write!(s, " {}.", escape(&upper_first(note.trim_end_matches('.'))));
    }
    s
}

/// The policy verdict in words.
fn verdict_line(r: &Review) -> String {
    let name = r.policy().name();
    if r.fails() {
        format!("**Verdict: breaking** (policy: `{name}`): deployed peers break; see \"Breaking\".")
    } else {
        format!("**Verdict: allowed** (policy: `{name}`).")
    }
}

/// Renders the changelog.
pub(crate) fn render(r: &Review) -> String {
    let d = &r.diff;
    let mut out = String::new();
    let _ = writeln!(out, "## Wire contract changes: {}\n", escape(r.protocol_name()));
    let _ = writeln!(out, "From {} to {}. {}.\n", code(&r.labels.old), code(&r.labels.new), escape(&upper_first(&version_line(d))));
    let _ = writeln!(out, "{}\n", verdict_line(r));
    let (_, recv, send) = r.breaking_counts();
    let rows = [
        ("changes", d.changes.len()),
        ("breaking, not accepted", r.count(Status::Breaking)),
        ("breaking, accepted", r.count(Status::Accepted)),
        ("breaking, allowed by the version bump", r.count(Status::AllowedByBump)),
        ("additive (safe both ways)", r.count(Status::Safe)),
        ("breaking for old receivers (accepted ones aside)", recv),
        ("breaking for old senders (accepted ones aside)", send),
    ];
    out.push_str("| | count |\n|---|---:|\n");
    for (label, n) in rows {
        let _ = writeln!(out, "| {label} | {n} |");
    }
    let source = r.suppressions.as_deref();
    let sections = [("Breaking", &[Status::Breaking, Status::AllowedByBump][..]), ("Accepted", &[Status::Accepted][..]), ("Additive", &[Status::Safe][..])];
    for (title, statuses) in sections {
        let _ = writeln!(out, "\n### {title}\n");
        let mut any = false;
        for (_, c, status, by) in r.entries().filter(|e| statuses.contains(&e.2)) {
            let note = super::status_note(status, by, source);
            let _ = writeln!(out, "{}", bullet(c, status, &note));
            any = true;
        }
        if !any {
            out.push_str("None.\n");
        }
    }
    let unused = r.unused_lines();
    if !unused.is_empty() {
        out.push_str("\n### Unused suppressions\n\n");
        for line in unused {
            let _ = writeln!(out, "- {}", escape(&line));
        }
    }
    out
}

/// `s` with its first letter in upper case.
fn upper_first(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect::<String>())
}

#[cfg(test)]
mod tests {
    use super::{code, escape};

    #[test]
    fn text_and_code_spans_show_what_is_written() {
        assert_eq!(escape("a_b *c* <d> `e`\nf"), "a\\_b \\*c\\* \\<d\\> \\`e\\` f");
        assert_eq!(code("/$defs/a"), "`/$defs/a`");
        assert_eq!(code("/a`b"), "``/a`b``");
        assert_eq!(code("`x"), "`` `x ``");
        assert_eq!(code(""), "`\"\"`");
    }
}
