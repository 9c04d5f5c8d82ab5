//! The Markdown protocol references (`docs/<protocol>.v1.md`).

/// The GraphMind reference.
pub fn graphmind_reference() -> String {
    String::new()
}

/// The Graphorin reference.
pub fn graphorin_reference() -> String {
    String::new()
}
