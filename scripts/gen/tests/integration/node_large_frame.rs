//! The registry invariant Node's large-frame path rests on (`bindings/node/src/large.rs`):
//! it replaces long string *values* below the envelope's top level by short placeholders
//! before the contract decides the frame, which is sound only while no GraphMind declaration
//! puts a rule on a string's content there (only the envelope's `runId` and `type` have one)
//! besides closed sets, and while every closed-set string is shorter than its `MIN_UNITS`
//! (so neither a long string nor a placeholder equals one). A declaration that breaks either
//! fails here, naming the field; the fix is to keep the rule out or to teach `large.rs` about
//! it (and say so in this test).

use crate::common;

use wirecontract::registry::{ObjectDesc, Protocol, Scalar, Ty};

/// Whether a string this scalar accepts is refused or accepted by its content beyond "is a
/// string". Exhaustive on purpose: a new scalar must be classified here.
fn string_content_rule(s: Scalar) -> bool {
    match s {
        // Any string at all (`String`, opaque values), or no string at all (the rest): content
        // does not change the verdict.
        Scalar::String
        | Scalar::Opaque
        | Scalar::OpaqueObject
        | Scalar::Bool
        | Scalar::SafeUInt
        | Scalar::PositiveSafeUInt
        | Scalar::SafeInt
        | Scalar::ExactUInt
        | Scalar::ExactInt
        | Scalar::Finite
        | Scalar::NonNegativeFinite => false,
        // A length rule (a non-empty string, or a JSON-RPC id's non-empty string form).
        Scalar::NonEmptyString | Scalar::RpcId => true,
    }
}

/// `Object.field` of every field of `p`'s objects whose values carry a string content rule.
fn fields_with_string_rules(p: &Protocol) -> Vec<String> {
    fn has_rule(ty: &Ty) -> bool {
        match ty {
            Ty::Scalar(s) => string_content_rule(*s),
            // A closed set: the placeholder and long strings are refused alike (checked by
            // `enum_values_and_message_types_are_shorter_than_a_long_string`). An object's own
            // fields are walked as one of `p.objects()`.
            Ty::Enum(_) | Ty::Object(_) => false,
            Ty::List(item) => has_rule(item),
        }
    }
    let objects: Vec<&ObjectDesc> = p.objects();
    objects.iter().flat_map(|o| o.fields.iter().filter(|f| has_rule(&f.ty)).map(move |f| format!("{}.{}", o.name, f.wire))).collect()
}

/// Node's `MIN_UNITS`, read from its source so that there is one number.
fn node_min_units() -> usize {
    let path = common::repo_dir().join("bindings/node/src/large.rs");
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let line =
        source.lines().find_map(|l| l.trim().strip_prefix("pub const MIN_UNITS: usize = ")).expect("large.rs declares `pub const MIN_UNITS: usize = N;`");
    line.trim_end_matches(';').parse().expect("MIN_UNITS is a plain integer")
}

#[test]
fn no_graphmind_payload_string_has_a_content_rule() {
    let found = fields_with_string_rules(&wirecontract::graphmind::PROTOCOL);
    assert!(
        found.is_empty(),
        "GraphMind fields with a string content rule below the envelope's top level: {found:?}. \
         Node's large-frame path (bindings/node/src/large.rs) replaces long string values there by \
         placeholders before the contract decides the frame, so it would miss such a rule"
    );
}

#[test]
fn the_walk_sees_nested_string_rules() {
    // Graphorin declares non-empty strings and RPC ids in its frames: the same walk must report
    // them, or the GraphMind test above could not fail.
    let found = fields_with_string_rules(&wirecontract::graphorin::PROTOCOL);
    assert!(!found.is_empty(), "the walk found no string content rule in Graphorin");
}

#[test]
fn enum_values_and_message_types_are_shorter_than_a_long_string() {
    let min = node_min_units();
    assert!(min >= 2, "MIN_UNITS {min}");
    let p = &wirecontract::graphmind::PROTOCOL;
    let closed = p.enums().into_iter().flat_map(wirecontract::registry::EnumDesc::wire_values).chain(p.messages.iter().map(|m| m.wire));
    let long: Vec<&str> = closed.filter(|s| s.encode_utf16().count() >= min).collect();
    assert!(long.is_empty(), "closed-set strings of {min} UTF-16 units or more, which Node's large-frame path would take out: {long:?}");
}
