//! Post-processing shared by every protocol's JSON Schema export, and the per-type schema
//! entry point the registry records ([`subschema`], [`crate::registry::ObjectDesc::schema`]).

use serde_json::{json, Map, Value};

/// The schema of one declared type in `gen` (a `$ref` into its definitions once the type has
/// been seen): what `wire_object!`/`wire_strict_object!` store as
/// [`ObjectDesc::schema`](crate::registry::ObjectDesc::schema), so a generic export
/// ([`crate::registry::schema_by_key`]) reaches every type's schemars schema through the
/// registry alone.
pub fn subschema<T: schemars::JsonSchema>(gen: &mut schemars::SchemaGenerator) -> schemars::Schema {
    gen.subschema_for::<T>()
}

/// Optional is not nullable (graphmind-v1 §5.11, graphorin-v1 §2): removes the `null` that
/// schemars adds for an `Option<T>` field, as a `"null"` type entry or an `anyOf` branch.
/// Only opaque values (`true`) accept `null` in these contracts, so this is exact.
pub(crate) fn strip_null(v: &mut Value) {
    match v {
        Value::Object(map) => {
            if let Some(Value::Array(types)) = map.get_mut("type") {
                types.retain(|t| t != "null");
                if types.len() == 1 {
                    let only = types.remove(0);
                    map.insert("type".into(), only);
                }
            }
            if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
                let before = branches.len();
                branches.retain(|b| b.get("type").and_then(Value::as_str) != Some("null"));
                // `Option<T>` is `anyOf: [T, null]`: what is left is T itself.
                if branches.len() == 1 && before == 2 {
                    let only = branches.remove(0);
                    map.remove("anyOf");
                    match only {
                        Value::Object(inner) => {
                            for (k, val) in inner {
                                map.entry(k).or_insert(val);
                            }
                        }
                        Value::Bool(true) => {}
                        other => {
                            map.insert("allOf".into(), Value::Array(vec![other]));
                        }
                    }
                }
            }
            map.values_mut().for_each(strip_null);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_null),
        _ => {}
    }
}

/// "number means any finite double" (graphmind-v1 §1 global rules): every `number` gets the
/// largest finite double as its `maximum`, so a validator that decodes `1e400` to Infinity (as
/// `JSON.parse` does) rejects it in a typed number field like the parser, while it stays
/// accepted inside opaque values, which have no schema.
pub(crate) fn finite_numbers(v: &mut Value) {
    match v {
        Value::Object(map) => {
            if map.get("type").and_then(Value::as_str) == Some("number") && !map.contains_key("maximum") {
                map.insert("maximum".into(), json!(f64::MAX));
            }
            for child in map.values_mut() {
                finite_numbers(child);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(finite_numbers),
        _ => {}
    }
}

/// schemars writes a documented enum as `oneOf` of `const` branches; adapters and typify read
/// a plain `{"type": "string", "enum": [...]}` better, and it says the same thing.
pub(crate) fn plain_enums(v: &mut Value) {
    match v {
        Value::Object(map) => {
            let consts: Option<Vec<Value>> = map
                .get("oneOf")
                .and_then(Value::as_array)
                .and_then(|branches| branches.iter().map(|b| b.get("const").filter(|c| c.is_string()).cloned()).collect());
            if let Some(values) = consts {
                map.remove("oneOf");
                map.insert("type".into(), json!("string"));
                map.insert("enum".into(), Value::Array(values));
            }
            for child in map.values_mut() {
                plain_enums(child);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(plain_enums),
        _ => {}
    }
}

/// Gives a strict frame's definition its literal members (`"v": "1"`): `const` properties,
/// required before its fields.
pub(crate) fn add_literals(def: &mut Map<String, Value>, literals: &[(&str, &str)]) {
    if let Some(Value::Object(props)) = def.get_mut("properties") {
        for (key, value) in literals {
            props.insert((*key).to_owned(), json!({ "const": value }));
        }
    }
    let mut required: Vec<Value> = literals.iter().map(|(k, _)| json!(k)).collect();
    if let Some(Value::Array(existing)) = def.remove("required") {
        required.extend(existing);
    }
    def.insert("required".into(), Value::Array(required));
}

/// Rebuilds every object with sorted keys, whatever serde_json's map ordering feature is.
pub(crate) fn sort_keys(v: Value) -> Value {
    match v {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().map(|(k, v)| (k, sort_keys(v))).collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sort_keys).collect()),
        other => other,
    }
}
