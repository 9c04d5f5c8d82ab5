//! Doc-comment text as the generated documents show it: registry doc strings keep the leading
//! space of each `///` line; these helpers trim it and cut summaries.

/// The doc comment with each line trimmed, lines joined by `\n`.
pub fn doc(text: &str) -> String {
    text.lines().map(str::trim).collect::<Vec<_>>().join("\n").trim().to_owned()
}

/// The doc comment on one line (for table cells): lines joined by spaces, `|` escaped.
pub fn one_line(text: &str) -> String {
    doc(text).split('\n').filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ").replace('|', "\\|")
}

/// The first sentence of the doc comment (up to the first `. ` or the end of the paragraph).
pub fn summary(text: &str) -> String {
    let para = doc(text).split("\n\n").next().unwrap_or_default().replace('\n', " ");
    match para.find(". ") {
        Some(i) => para[..=i].to_owned(),
        None => para,
    }
}
