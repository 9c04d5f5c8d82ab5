//! Post-processing shared by every protocol's JSON Schema export.

use serde_json::Value;

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
