//! A JSON Schema `pattern` matching exactly the strings outside a finite set, written without
//! lookaround, for code generators that drop `not: {enum}` (datamodel-code-generator keeps a
//! `pattern`, and pydantic checks it with its Rust regex engine, which has no lookaround).
//!
//! The set's strings form a trie; a string is outside the set when, reading it along the
//! trie, it leaves the trie (a character no branch takes), stops at a node that ends no word,
//! or goes on past a leaf. Every regex construct used here (`^`, `$`, `(?:…)`, `?`, `*`, `+`,
//! `[^…]`, `[\s\S]`, escaped literals) means the same in ECMA-262, Python `re`, Rust `regex`
//! and RE2.

use std::collections::BTreeMap;
use std::fmt::Write as _;

#[derive(Default)]
struct Node {
    word_ends_here: bool,
    next: BTreeMap<char, Node>,
}

/// `^(?:…)$` matching every string (empty included) that is not one of `words`.
pub fn none_of_pattern(words: &[&str]) -> String {
    let mut root = Node::default();
    for w in words {
        let mut n = &mut root;
        for c in w.chars() {
            n = n.next.entry(c).or_default();
        }
        n.word_ends_here = true;
    }
    let mut out = String::from("^");
    outside(&root, &mut out);
    out.push('$');
    out
}

/// The suffixes that, after this node's prefix, make a string outside the set.
fn outside(n: &Node, out: &mut String) {
    if n.next.is_empty() {
        // A leaf ends a word: anything longer is outside.
        out.push_str(r"[\s\S]+");
        return;
    }
    out.push_str("(?:[^");
    for c in n.next.keys() {
        literal(*c, out);
    }
    out.push_str(r"][\s\S]*");
    for (c, child) in &n.next {
        out.push('|');
        literal(*c, out);
        outside(child, out);
    }
    out.push(')');
    if !n.word_ends_here {
        // Stopping here is outside too.
        out.push('?');
    }
}

/// `c` as a literal: regex metacharacters escaped, other printable ASCII as it is, anything
/// else as `\uXXXX` (portable for the BMP; the protocol's message types are ASCII).
fn literal(c: char, out: &mut String) {
    if "\\^$.|?*+()[]{}-".contains(c) {
        out.push('\\');
        out.push(c);
    } else if c.is_ascii_graphic() || c == ' ' {
        out.push(c);
    } else {
        let _ = write!(out, "\\u{:04x}", u32::from(c));
    }
}

#[cfg(test)]
mod tests {
    use super::none_of_pattern;

    #[test]
    fn small_sets() {
        assert_eq!(none_of_pattern(&["a"]), r"^(?:[^a][\s\S]*|a[\s\S]+)?$");
        assert_eq!(none_of_pattern(&["a", "ab"]), r"^(?:[^a][\s\S]*|a(?:[^b][\s\S]*|b[\s\S]+))?$");
        assert_eq!(none_of_pattern(&["a.b"]), r"^(?:[^a][\s\S]*|a(?:[^\.][\s\S]*|\.(?:[^b][\s\S]*|b[\s\S]+)?)?)?$");
    }
}
