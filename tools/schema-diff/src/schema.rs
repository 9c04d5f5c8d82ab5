//! Reading one JSON Schema document (draft 2020-12): `$ref` resolution, annotation
//! stripping, and the facets the comparison looks at (value sets, JSON types, bounds, object
//! openness). Nothing here compares two documents.

use std::cmp::Ordering;
use std::collections::{BTreeSet, HashSet};

use serde_json::{Map, Value};

/// Every keyword of JSON Schema (drafts 4 to 2020-12) that constrains values. Any other
/// keyword is an annotation: `title`, `description`, `examples`, `default` (the contract never
/// fills defaults in while parsing, graphmind-v1 §1), `$id`, `$defs`, and keywords no draft
/// defines (`{"foo": 1}`, `x-...`), which validators ignore (2020-12 core §6.5: unknown
/// keywords are collected as annotations). Changing an annotation never changes which frames
/// are valid.
const VALIDATION: &[&str] = &[
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
    "type",
    "const",
    "enum",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "format",
    "items",
    "prefixItems",
    "additionalItems",
    "contains",
    "minContains",
    "maxContains",
    "maxItems",
    "minItems",
    "uniqueItems",
    "unevaluatedItems",
    "properties",
    "patternProperties",
    "additionalProperties",
    "propertyNames",
    "unevaluatedProperties",
    "required",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "maxProperties",
    "minProperties",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
];

/// Whether `keyword` is an annotation: not one of the [`VALIDATION`] keywords.
pub(crate) fn is_annotation(keyword: &str) -> bool {
    !VALIDATION.contains(&keyword)
}

/// The protocol's name as a schema document states it: its `title`, else its `$id` (the
/// first that is a non-blank string).
pub(crate) fn document_title(root: &Value) -> Option<String> {
    ["title", "$id"].iter().find_map(|k| root.get(*k).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned))
}

/// The JSON types, in the order used when printing them.
pub(crate) const TYPE_ORDER: &[&str] = &["null", "boolean", "integer", "number", "string", "array", "object"];

/// One schema document.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Doc<'a> {
    /// The whole document (`$ref`s are resolved against it).
    pub root: &'a Value,
}

/// A schema node after `$ref` resolution: its value and its JSON Pointer in the document.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    /// The schema (with the referring node's non-annotation siblings merged in, if any).
    pub value: Value,
    /// Where the schema sits in the document (the `$ref` target when one was followed).
    pub ptr: String,
    /// Whether a `$ref` was followed to get here.
    pub via_ref: bool,
}

impl Doc<'_> {
    /// Follows `$ref` chains (local references only) from `value`, found at `ptr`. An
    /// unresolvable reference leaves the node as it is: it is then compared by its text.
    pub fn resolve(self, value: &Value, ptr: &str) -> Node {
        let mut node = Node { value: value.clone(), ptr: ptr.to_owned(), via_ref: false };
        for _ in 0..64 {
            let Some(target_ptr) = node.value.get("$ref").and_then(Value::as_str).and_then(local_pointer) else {
                break;
            };
            let Some(target) = self.root.pointer(&target_ptr) else {
                break;
            };
            let mut resolved = target.clone();
            // 2020-12 applies a `$ref`'s siblings too; merge the ones that constrain.
            if let (Value::Object(referrer), Value::Object(into)) = (&node.value, &mut resolved) {
                for (k, v) in referrer {
                    if k != "$ref" && !is_annotation(k) {
                        into.insert(k.clone(), v.clone());
                    }
                }
            }
            node = Node { value: resolved, ptr: target_ptr, via_ref: true };
        }
        node
    }

    /// Every `$ref` target reachable from `value` (found at `ptr`), transitively.
    pub fn reachable(self, value: &Value, ptr: &str) -> HashSet<String> {
        let mut seen = HashSet::new();
        let mut stack = vec![(value.clone(), ptr.to_owned())];
        while let Some((v, _)) = stack.pop() {
            let mut refs = Vec::new();
            collect_refs(&v, &mut refs);
            for r in refs {
                if seen.insert(r.clone()) {
                    if let Some(target) = self.root.pointer(&r) {
                        stack.push((target.clone(), r));
                    }
                }
            }
        }
        seen
    }
}

/// All local `$ref` targets written anywhere inside `v`.
fn collect_refs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, val) in map {
                match k.as_str() {
                    "$ref" => {
                        if let Some(p) = val.as_str().and_then(local_pointer) {
                            out.push(p);
                        }
                    }
                    "const" | "enum" | "examples" | "default" => {}
                    _ => collect_refs(val, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|i| collect_refs(i, out)),
        _ => {}
    }
}

/// The JSON Pointer of a local reference (`#/$defs/X` → `/$defs/X`), percent-decoded.
fn local_pointer(reference: &str) -> Option<String> {
    let fragment = reference.strip_prefix('#')?;
    let bytes = fragment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
            if let Some(b) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// `ptr` extended by one segment, escaped as RFC 6901 says (`~` → `~0`, `/` → `~1`).
pub(crate) fn child(ptr: &str, segment: &str) -> String {
    format!("{ptr}/{}", segment.replace('~', "~0").replace('/', "~1"))
}

/// `ptr` extended by an array index.
pub(crate) fn child_index(ptr: &str, index: usize) -> String {
    format!("{ptr}/{index}")
}

/// The schema with every annotation removed (recursively, but never inside `const`/`enum`
/// values), `true` written as `{}`, `required` and `type` lists sorted: two schemas that
/// accept the same values by the same keywords compare equal. `$ref`s stay references.
pub(crate) fn canonical(v: &Value) -> Value {
    match v {
        Value::Bool(true) => Value::Object(Map::new()),
        Value::Object(map) => {
            let mut out = Map::new();
            for (k, val) in map {
                if is_annotation(k) {
                    continue;
                }
                let c = match k.as_str() {
                    "properties" | "patternProperties" | "dependentSchemas" => match val {
                        Value::Object(props) => Value::Object(props.iter().map(|(n, s)| (n.clone(), canonical(s))).collect()),
                        other => other.clone(),
                    },
                    "anyOf" | "oneOf" | "allOf" | "prefixItems" => match val {
                        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
                        other => other.clone(),
                    },
                    "required" | "type" => match val {
                        Value::Array(items) => {
                            let mut sorted = items.clone();
                            sorted.sort_by_key(ToString::to_string);
                            sorted.dedup();
                            Value::Array(sorted)
                        }
                        other => other.clone(),
                    },
                    "const" | "enum" | "dependentRequired" | "pattern" | "format" | "$ref" => val.clone(),
                    _ if val.is_object() || val.is_boolean() => canonical(val),
                    _ => val.clone(),
                };
                out.insert(k.clone(), c);
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

/// Whether the schema accepts every value (`true`, `{}`, or only annotations, such as
/// `{"foo": 1}`).
pub(crate) fn is_any(v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        Value::Object(map) => map.keys().all(|k| is_annotation(k)),
        _ => false,
    }
}

/// Whether the schema rejects every value (`false`).
pub(crate) fn is_nothing(v: &Value) -> bool {
    matches!(v, Value::Bool(false))
}

/// How a value set is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ValueSetForm {
    /// `const`.
    Const,
    /// `enum`.
    Enum,
    /// `anyOf`/`oneOf` of `const` branches (schemars writes documented enums this way).
    Union(&'static str),
}

impl ValueSetForm {
    /// The keyword holding the values.
    pub fn keyword(self) -> &'static str {
        match self {
            ValueSetForm::Const => "const",
            ValueSetForm::Enum => "enum",
            ValueSetForm::Union(kw) => kw,
        }
    }
}

/// The closed set of values a schema allows, when it has one (`const`, `enum`, or a union
/// of `const`/`enum` branches), in the order written.
pub(crate) fn value_set(doc: Doc<'_>, v: &Value) -> Option<(Vec<Value>, ValueSetForm)> {
    let map = v.as_object()?;
    if let Some(Value::Array(values)) = map.get("enum") {
        let mut out: Vec<Value> = Vec::new();
        for val in values {
            if !out.contains(val) {
                out.push(val.clone());
            }
        }
        if let Some(c) = map.get("const") {
            out.retain(|x| x == c);
        }
        return Some((out, ValueSetForm::Enum));
    }
    if let Some(c) = map.get("const") {
        return Some((vec![c.clone()], ValueSetForm::Const));
    }
    let kw = union_keyword_raw(map)?;
    let branches = map.get(kw)?.as_array()?;
    if branches.is_empty() {
        return None;
    }
    let mut out: Vec<Value> = Vec::new();
    for (i, b) in branches.iter().enumerate() {
        let node = doc.resolve(b, &child_index("", i));
        let bm = node.value.as_object()?;
        let pure = bm.keys().all(|k| is_annotation(k) || matches!(k.as_str(), "const" | "enum" | "type"));
        if !pure {
            return None;
        }
        let (values, _) = value_set(doc, &node.value)?;
        for val in values {
            if !out.contains(&val) {
                out.push(val);
            }
        }
    }
    Some((out, ValueSetForm::Union(kw)))
}

/// `anyOf` or `oneOf`, whichever the object uses (`anyOf` first).
fn union_keyword_raw(map: &Map<String, Value>) -> Option<&'static str> {
    if map.get("anyOf").is_some_and(Value::is_array) {
        Some("anyOf")
    } else if map.get("oneOf").is_some_and(Value::is_array) {
        Some("oneOf")
    } else {
        None
    }
}

/// The union keyword of a schema that is a union of schemas (not a set of values).
pub(crate) fn union_keyword(doc: Doc<'_>, v: &Value) -> Option<&'static str> {
    let map = v.as_object()?;
    let kw = union_keyword_raw(map)?;
    if value_set(doc, v).is_some() {
        return None;
    }
    Some(kw)
}

/// The JSON type of a value (`integer` for a number with an integral value).
pub(crate) fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) => {
            if n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0) {
                "integer"
            } else {
                "number"
            }
        }
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A set of JSON type names; `None` means every type.
pub(crate) type Types = Option<BTreeSet<&'static str>>;

/// The types a schema allows as far as `type` (or, for a value set, its values) says.
pub(crate) fn effective_types(v: &Value, values: Option<&[Value]>) -> Types {
    if let Some(values) = values {
        return Some(values.iter().map(json_type).collect());
    }
    let declared = v.as_object()?.get("type")?;
    let names: Vec<&str> = match declared {
        Value::String(s) => vec![s.as_str()],
        Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
        _ => return None,
    };
    Some(names.into_iter().filter_map(|n| TYPE_ORDER.iter().copied().find(|t| *t == n)).collect())
}

/// Whether a value of JSON type `t` can pass a schema whose types are `types`.
pub(crate) fn allows(types: &Types, t: &str) -> bool {
    match types {
        None => true,
        Some(set) => set.contains(t) || (t == "integer" && set.contains("number")),
    }
}

/// Whether every value allowed by `a` has a type allowed by `b` (ignoring `null`).
pub(crate) fn types_subset(a: &BTreeSet<&'static str>, b: &BTreeSet<&'static str>) -> bool {
    let b = Some(b.clone());
    a.iter().filter(|t| **t != "null").all(|t| allows(&b, t))
}

/// Type names for messages: `string`, `integer | number`, `any`.
pub(crate) fn types_text(types: &Types) -> String {
    match types {
        None => "any".to_owned(),
        Some(set) if set.is_empty() => "nothing".to_owned(),
        Some(set) => TYPE_ORDER.iter().filter(|t| set.contains(*t)).copied().collect::<Vec<_>>().join(" | "),
    }
}

/// A number from a schema, exact for integers that fit `i128`.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Num {
    /// An integer.
    Int(i128),
    /// Any other number.
    Float(f64),
}

impl Num {
    /// Reads a JSON number.
    pub fn of(v: &Value) -> Option<Num> {
        let n = v.as_number()?;
        if let Some(i) = n.as_i64() {
            Some(Num::Int(i128::from(i)))
        } else if let Some(u) = n.as_u64() {
            Some(Num::Int(i128::from(u)))
        } else {
            n.as_f64().map(Num::Float)
        }
    }

    /// The value as a double.
    pub fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }

    /// Compares two numbers by value.
    pub fn cmp(self, other: Num) -> Ordering {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => a.cmp(&b),
            (a, b) => a.as_f64().partial_cmp(&b.as_f64()).unwrap_or(Ordering::Equal),
        }
    }

    /// The smallest integer `>= self` (`> self` when `strict`).
    pub fn int_above(self, strict: bool) -> Num {
        match self {
            Num::Int(i) => Num::Int(if strict { i + 1 } else { i }),
            Num::Float(f) => {
                let c = if strict && f.fract() == 0.0 { f + 1.0 } else { f.ceil() };
                to_int(c)
            }
        }
    }

    /// The largest integer `<= self` (`< self` when `strict`).
    pub fn int_below(self, strict: bool) -> Num {
        match self {
            Num::Int(i) => Num::Int(if strict { i - 1 } else { i }),
            Num::Float(f) => {
                let c = if strict && f.fract() == 0.0 { f - 1.0 } else { f.floor() };
                to_int(c)
            }
        }
    }
}

/// An integral double as [`Num::Int`] when it fits.
fn to_int(f: f64) -> Num {
    if f.is_finite() && f.abs() < 1e38 {
        Num::Int(f as i128)
    } else {
        Num::Float(f)
    }
}

/// What an object schema does with keys it does not list.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Openness {
    /// Unknown keys are accepted with any value (`additionalProperties` absent, `true`, `{}`).
    Open,
    /// Unknown keys are rejected (`additionalProperties: false`).
    Closed,
    /// Unknown keys must match a schema (`additionalProperties: {…}` or `patternProperties`).
    Schema(Value),
}

/// The object's [`Openness`].
pub(crate) fn openness(v: &Value) -> Openness {
    let Some(map) = v.as_object() else {
        return Openness::Open;
    };
    if map.contains_key("patternProperties") {
        return Openness::Schema(Value::Object(map.clone()));
    }
    match map.get("additionalProperties") {
        None => Openness::Open,
        Some(s) if is_any(s) => Openness::Open,
        Some(s) if is_nothing(s) => Openness::Closed,
        Some(s) => Openness::Schema(s.clone()),
    }
}

/// A value for messages: JSON text, shortened when long.
pub(crate) fn show(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 60 {
        let cut: String = s.chars().take(57).collect();
        format!("{cut}...")
    } else {
        s
    }
}
