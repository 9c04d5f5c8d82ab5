//! Finding the message types of a contract schema.
//!
//! The top-level `anyOf`/`oneOf` is the union of message types; a branch that is itself a
//! union (Graphorin's `ServerMessage`, `ClientMessage`) is a named group, flattened. Within a
//! group, the discriminator is the property that carries a different `const` per branch
//! (`type`, `kind`, `method`); a branch where that property has no `const` is the catch-all
//! for unknown types (GraphMind's `envelope.unknown`), and a branch without it is named after
//! its definition (Graphorin's `ServerRpcSuccess`). A schema without a top-level union is one
//! message type, `(root)`.

use std::collections::{BTreeMap, HashSet};

use serde_json::Value;

use crate::schema::{child, child_index, union_keyword, Doc};

/// The name of the catch-all branch.
pub(crate) const CATCH_ALL: &str = "(unknown types)";

/// One message type of a schema.
#[derive(Debug, Clone)]
pub(crate) struct Message {
    /// Stable name used to pair old and new: `run.started`, `ClientMessage: initialize`.
    pub key: String,
    /// The group key part (`ClientMessage`), empty at the top level.
    pub group: String,
    /// Whether this is the catch-all branch for unknown types.
    pub catch_all: bool,
    /// The branch as written in the union.
    pub branch: Value,
    /// Pointer of the branch in the union.
    pub branch_ptr: String,
    /// Pointer of the branch after `$ref` resolution (the message's definition).
    pub home: String,
    /// The discriminator property of its group, if any.
    pub discriminator: Option<String>,
    /// Every definition reachable from the message.
    pub reach: HashSet<String>,
}

/// A message type's schema before it is named.
pub(crate) struct Leaf {
    /// The branch as written in the union.
    branch: Value,
    /// Pointer of the branch in the union.
    branch_ptr: String,
    /// The branch after `$ref` resolution.
    resolved: Value,
    /// Pointer of the resolved branch.
    home: String,
    /// The group (nested union) it belongs to; empty at the top level.
    group: String,
    /// Its position within its group.
    index: usize,
}

/// The message-type schemas of a document, in union order.
pub(crate) fn leaves(doc: Doc<'_>) -> Vec<Leaf> {
    let mut out = Vec::new();
    if union_keyword(doc, doc.root).is_some() && doc.root.get("properties").is_none() {
        flatten(doc, doc.root, "", "", &mut out);
    } else {
        out.push(Leaf { branch: doc.root.clone(), branch_ptr: String::new(), resolved: doc.root.clone(), home: String::new(), group: String::new(), index: 0 });
    }
    out
}

/// Adds the leaves of the union `node` (at `ptr`) to `out`, under `group`, in written order.
fn flatten(doc: Doc<'_>, node: &Value, ptr: &str, group: &str, out: &mut Vec<Leaf>) {
    let Some(kw) = union_keyword(doc, node) else {
        return;
    };
    let Some(branches) = node.get(kw).and_then(Value::as_array) else {
        return;
    };
    let union_ptr = child(ptr, kw);
    for (i, b) in branches.iter().enumerate() {
        let bptr = child_index(&union_ptr, i);
        let res = doc.resolve(b, &bptr);
        if union_keyword(doc, &res.value).is_some() && res.value.get("properties").is_none() {
            let name = def_name(&res.ptr).unwrap_or_else(|| format!("#{i}"));
            let sub = if group.is_empty() { name } else { format!("{group}/{name}") };
            flatten(doc, &res.value, &res.ptr, &sub, out);
        } else {
            out.push(Leaf { branch: b.clone(), branch_ptr: bptr, resolved: res.value, home: res.ptr, group: group.to_owned(), index: i });
        }
    }
}

/// The `const` of property `field` in a leaf.
fn leaf_const(doc: Doc<'_>, leaf: &Leaf, field: &str) -> Option<Value> {
    let p = leaf.resolved.get("properties")?.get(field)?;
    doc.resolve(p, "").value.get("const").cloned()
}

/// The protocol-version property: `gm`, `v` or `version`, the first that is a `const` in
/// every message type of the old schema (of the new one when the old has none).
pub(crate) fn detect_version_field(old: (Doc<'_>, &[Leaf]), new: (Doc<'_>, &[Leaf])) -> Option<String> {
    let in_all = |(doc, leaves): (Doc<'_>, &[Leaf]), name: &str| !leaves.is_empty() && leaves.iter().all(|l| leaf_const(doc, l, name).is_some());
    let names = ["gm", "v", "version"];
    names.into_iter().find(|n| in_all(old, n)).or_else(|| names.into_iter().find(|n| in_all(new, n))).map(str::to_owned)
}

/// The protocol version: `field`'s `const` in the first message type that has one.
pub(crate) fn version_value(doc: Doc<'_>, leaves: &[Leaf], field: &str) -> Option<Value> {
    leaves.iter().find_map(|l| leaf_const(doc, l, field))
}

/// Names the message types of both documents. Per group, the discriminator is the property
/// (other than the version) with a `const` in the most branches of either document whose
/// values differ, or, failing that, `type`, `kind` or `method` with a `const` anywhere.
pub(crate) fn name_both(old: (Doc<'_>, Vec<Leaf>), new: (Doc<'_>, Vec<Leaf>), version: Option<&str>) -> (Vec<Message>, Vec<Message>) {
    let mut consts: BTreeMap<(String, String), Vec<Value>> = BTreeMap::new();
    for (doc, leaves) in [(old.0, &old.1), (new.0, &new.1)] {
        for leaf in leaves {
            let Some(props) = leaf.resolved.get("properties").and_then(Value::as_object) else {
                continue;
            };
            for (name, p) in props {
                if Some(name.as_str()) == version || ["gm", "v", "version"].contains(&name.as_str()) {
                    continue;
                }
                if let Some(c) = doc.resolve(p, "").value.get("const") {
                    consts.entry((leaf.group.clone(), name.clone())).or_default().push(c.clone());
                }
            }
        }
    }
    let preferred = ["type", "kind", "method"];
    let discriminator = |group: &str| -> Option<String> {
        consts
            .iter()
            .filter(|((g, name), values)| g == group && (values.iter().any(|v| *v != values[0]) || preferred.contains(&name.as_str())))
            .max_by_key(|((_, name), values)| {
                let rank = preferred.iter().position(|p| p == name).map_or(0, |i| 3 - i);
                (values.len(), rank, std::cmp::Reverse(name.clone()))
            })
            .map(|((_, name), _)| name.clone())
    };
    let name = |doc: Doc<'_>, leaves: Vec<Leaf>| -> Vec<Message> {
        let mut seen = HashSet::new();
        leaves
            .into_iter()
            .map(|leaf| {
                let disc = discriminator(&leaf.group);
                let prop = disc.as_ref().and_then(|d| leaf.resolved.get("properties").and_then(|p| p.get(d))).map(|p| doc.resolve(p, "").value);
                let (name, catch_all) = match &prop {
                    Some(p) if p.get("const").is_some() => (const_text(&p["const"]), false),
                    Some(_) => (CATCH_ALL.to_owned(), true),
                    None if leaf.home.is_empty() && leaf.branch_ptr.is_empty() => ("(root)".to_owned(), false),
                    None => (def_name(&leaf.home).unwrap_or_else(|| format!("#{}", leaf.index)), false),
                };
                let mut key = if leaf.group.is_empty() { name } else { format!("{}: {name}", leaf.group) };
                if !seen.insert(key.clone()) {
                    key = format!("{key} ({})", leaf.branch_ptr);
                }
                Message {
                    key,
                    group: leaf.group,
                    catch_all,
                    reach: doc.reachable(&leaf.branch, &leaf.branch_ptr),
                    branch: leaf.branch,
                    branch_ptr: leaf.branch_ptr,
                    home: leaf.home,
                    discriminator: disc,
                }
            })
            .collect()
    };
    (name(old.0, old.1), name(new.0, new.1))
}

/// The definition name of a pointer like `/$defs/NodeKind`.
fn def_name(ptr: &str) -> Option<String> {
    let rest = ptr.strip_prefix("/$defs/").or_else(|| ptr.strip_prefix("/definitions/"))?;
    (!rest.contains('/')).then(|| rest.replace("~1", "/").replace("~0", "~"))
}

/// A discriminator value as a name: strings bare, anything else as JSON.
fn const_text(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_owned)
}

/// The message types a change at `path` concerns.
pub(crate) fn users(messages: &[Message], path: &str) -> Vec<String> {
    let under = |prefix: &str| path == prefix || (path.starts_with(prefix) && path[prefix.len()..].starts_with('/'));
    messages
        .iter()
        .filter(|m| {
            (!m.home.is_empty() && under(&m.home))
                || (!m.branch_ptr.is_empty() && under(&m.branch_ptr))
                || m.reach.iter().any(|r| under(r))
                || (m.home.is_empty() && m.key == "(root)")
        })
        .map(|m| m.key.clone())
        .collect()
}
