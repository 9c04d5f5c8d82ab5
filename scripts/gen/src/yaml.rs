//! A small, deterministic YAML writer for the generated AsyncAPI documents: an ordered tree
//! ([`Node`]) written in block style, every string double-quoted with JSON escapes (valid YAML
//! double-quoted scalars), so the output reads as YAML and never depends on a YAML library.

use std::fmt::Write as _;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// One YAML value. Mappings keep their insertion order.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// A mapping, in order.
    Map(Vec<(String, Node)>),
    /// A sequence.
    Seq(Vec<Node>),
    /// A string.
    Str(String),
    /// A number, as its JSON text.
    Num(String),
    /// A boolean.
    Bool(bool),
    /// `null`.
    Null,
}

impl Node {
    /// A string node.
    pub fn str(s: impl Into<String>) -> Node {
        Node::Str(s.into())
    }

    /// A mapping from `(key, value)` pairs.
    pub fn map<K: Into<String>>(entries: impl IntoIterator<Item = (K, Node)>) -> Node {
        Node::Map(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    /// `{ $ref: target }`.
    pub fn reference(target: impl Into<String>) -> Node {
        Node::map([("$ref", Node::Str(target.into()))])
    }

    /// The tree of a `serde_json` value (its object keys come sorted).
    pub fn from_json(v: &serde_json::Value) -> Node {
        match v {
            serde_json::Value::Null => Node::Null,
            serde_json::Value::Bool(b) => Node::Bool(*b),
            serde_json::Value::Number(n) => Node::Num(n.to_string()),
            serde_json::Value::String(s) => Node::Str(s.clone()),
            serde_json::Value::Array(a) => Node::Seq(a.iter().map(Node::from_json).collect()),
            serde_json::Value::Object(o) => Node::Map(o.iter().map(|(k, v)| (k.clone(), Node::from_json(v))).collect()),
        }
    }

    /// The tree of a JSON text with its members in written order.
    pub fn from_json_text(text: &str) -> Result<Node, serde_json::Error> {
        serde_json::from_str(text)
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Node, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Node;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_unit<E>(self) -> Result<Node, E> {
                Ok(Node::Null)
            }
            fn visit_bool<E>(self, b: bool) -> Result<Node, E> {
                Ok(Node::Bool(b))
            }
            fn visit_u64<E>(self, n: u64) -> Result<Node, E> {
                Ok(Node::Num(n.to_string()))
            }
            fn visit_i64<E>(self, n: i64) -> Result<Node, E> {
                Ok(Node::Num(n.to_string()))
            }
            fn visit_f64<E>(self, n: f64) -> Result<Node, E> {
                Ok(Node::Num(serde_json::Number::from_f64(n).map_or_else(|| "null".to_owned(), |n| n.to_string())))
            }
            fn visit_str<E>(self, s: &str) -> Result<Node, E> {
                Ok(Node::Str(s.to_owned()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Node, A::Error> {
                let mut out = Vec::new();
                while let Some(v) = a.next_element()? {
                    out.push(v);
                }
                Ok(Node::Seq(out))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Node, A::Error> {
                let mut out: Vec<(String, Node)> = Vec::new();
                while let Some((k, v)) = a.next_entry::<String, Node>()? {
                    out.retain(|(x, _)| *x != k); // JSON.parse: the last duplicate wins
                    out.push((k, v));
                }
                Ok(Node::Map(out))
            }
        }
        d.deserialize_any(V)
    }
}

/// Words YAML 1.1 readers take for booleans or null when unquoted.
const RESERVED: &[&str] = &["y", "n", "yes", "no", "on", "off", "true", "false", "null", "~"];

/// A mapping key: plain when it is unambiguous, otherwise double-quoted.
fn key(k: &str) -> String {
    let mut chars = k.chars();
    let plain = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.' | '-'))
        && !RESERVED.contains(&k.to_ascii_lowercase().as_str());
    if plain {
        k.to_owned()
    } else {
        quote(k)
    }
}

/// A double-quoted scalar: JSON string escapes are valid YAML escapes.
fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// A scalar or empty collection on one line, or `None` for a non-empty collection.
fn inline(n: &Node) -> Option<String> {
    match n {
        Node::Map(m) if m.is_empty() => Some("{}".into()),
        Node::Seq(s) if s.is_empty() => Some("[]".into()),
        Node::Map(_) | Node::Seq(_) => None,
        Node::Str(s) => Some(quote(s)),
        Node::Num(n) => Some(n.clone()),
        Node::Bool(b) => Some(b.to_string()),
        Node::Null => Some("null".into()),
    }
}

fn write_node(out: &mut String, n: &Node, indent: usize) {
    let pad = " ".repeat(indent);
    match n {
        Node::Map(entries) => {
            for (k, v) in entries {
                if let Some(s) = inline(v) {
                    let _ = writeln!(out, "{pad}{}: {s}", key(k));
                } else {
                    let _ = writeln!(out, "{pad}{}:", key(k));
                    write_node(out, v, indent + 2);
                }
            }
        }
        Node::Seq(items) => {
            for v in items {
                if let Some(s) = inline(v) {
                    let _ = writeln!(out, "{pad}- {s}");
                } else {
                    // The item's block at indent + 2, its first line's indent replaced by "- ".
                    let mut block = String::new();
                    write_node(&mut block, v, indent + 2);
                    let _ = write!(out, "{pad}- {}", &block[indent + 2..]);
                }
            }
        }
        scalar => {
            let _ = writeln!(out, "{pad}{}", inline(scalar).unwrap_or_default());
        }
    }
}

/// The document: `comment` lines as `#` comments, then the tree.
pub fn document(comment: &str, root: &Node) -> String {
    let mut out = String::new();
    for line in comment.lines() {
        if line.is_empty() {
            out.push_str("#\n");
        } else {
            let _ = writeln!(out, "# {line}");
        }
    }
    write_node(&mut out, root, 0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_block_yaml_with_quoted_strings() {
        let n = Node::from_json_text(r#"{"b":1,"a":[{"x":"y","on":true},[],"s"],"e":{}}"#).unwrap();
        let text = document("hi", &n);
        assert_eq!(text, "# hi\nb: 1\na:\n  - x: \"y\"\n    \"on\": true\n  - []\n  - \"s\"\ne: {}\n");
    }
}
