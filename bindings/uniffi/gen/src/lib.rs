//! Generates `bindings/uniffi/src/generated.rs` from a protocol's reflection tables
//! (`OBJECTS`, `ENUMS`, the message list): one uniffi record per contract object, one uniffi
//! enum per closed enum, the message union, and the `Convert` impls between host and contract
//! types. A second protocol needs only a new [`Protocol`] value here, no hand-written
//! declarations.
//!
//! The output is deterministic (a pure function of the tables) so `scripts/check-drift` and the
//! crate's `generated_rs_matches_the_contract` test can compare it byte for byte.

use std::fmt::Write as _;

use wirecontract::core::FieldInfo;
use wirecontract::graphmind;

/// What the generator needs to know about one protocol.
pub struct Protocol {
    /// Rust path of the contract module, aliased as `contract` in the output.
    pub module: &'static str,
    /// Spec document name used in doc comments (`graphmind-v1`).
    pub spec: &'static str,
    /// Every object type with its field table (`OBJECTS`).
    pub objects: &'static [(&'static str, &'static [FieldInfo])],
    /// Every closed enum with its wire values (`ENUMS`).
    pub enums: &'static [(&'static str, &'static [&'static str])],
    /// The message union: `(wire type, payload type name)` in spec order. Empty for a protocol
    /// without a `Message` enum of this shape.
    pub messages: Vec<(&'static str, &'static str)>,
}

/// The GraphMind v1 tables.
///
/// # Panics
/// When a message type has no payload type (a contract bug).
pub fn graphmind() -> Protocol {
    let messages = graphmind::MESSAGE_TYPES
        .iter()
        .map(|t| (*t, graphmind::payload_type_name(t).unwrap_or_else(|| panic!("no payload type for {t}"))))
        .collect();
    Protocol { module: "wirecontract::graphmind", spec: "graphmind-v1", objects: graphmind::OBJECTS, enums: graphmind::ENUMS, messages }
}

/// A field type as the contract declares it (`FieldInfo::ty`).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Ty {
    Option(Box<Ty>),
    Vec(Box<Ty>),
    Leaf(String),
}

impl Ty {
    fn parse(text: &str) -> Ty {
        let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        for (prefix, wrap) in [("Option<", Ty::Option as fn(Box<Ty>) -> Ty), ("Vec<", Ty::Vec)] {
            if let Some(inner) = t.strip_prefix(prefix).and_then(|r| r.strip_suffix('>')) {
                return wrap(Box::new(Ty::parse(inner)));
            }
        }
        assert!(t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'), "unsupported field type `{text}`");
        Ty::Leaf(t)
    }

    fn is_option(&self) -> bool {
        matches!(self, Ty::Option(_))
    }

    /// The host (uniffi) type.
    fn host(&self, p: &Protocol) -> String {
        match self {
            Ty::Option(t) => format!("Option<{}>", t.host(p)),
            Ty::Vec(t) => format!("Vec<{}>", t.host(p)),
            Ty::Leaf(l) => match l.as_str() {
                "String" | "bool" | "u64" | "i64" | "f64" => l.clone(),
                "NonZeroU64" => "u64".into(),
                "NonNegativeF64" => "f64".into(),
                "RawJson" | "Record" => "JsonText".into(),
                name if is_declared(p, name) => name.to_owned(),
                other => panic!("no host mapping for contract type `{other}`: teach wirecontract-uniffi-gen"),
            },
        }
    }

    /// The contract type, spelled from the generated module.
    fn contract(&self, p: &Protocol) -> String {
        match self {
            Ty::Option(t) => format!("Option<{}>", t.contract(p)),
            Ty::Vec(t) => format!("Vec<{}>", t.contract(p)),
            Ty::Leaf(l) => match l.as_str() {
                "String" | "bool" | "u64" | "i64" | "f64" => l.clone(),
                "NonZeroU64" => "std::num::NonZeroU64".into(),
                "NonNegativeF64" | "RawJson" | "Record" => format!("contract::{l}"),
                name if is_declared(p, name) => format!("contract::{name}"),
                other => panic!("no contract path for type `{other}`"),
            },
        }
    }

    /// What the value is, for the field's doc comment.
    fn describe(&self) -> String {
        match self {
            Ty::Option(t) => format!("{}; optional (`null`/`nil`: absent)", t.describe()),
            Ty::Vec(t) => format!("list of {}", t.describe()),
            Ty::Leaf(l) => match l.as_str() {
                "String" => "string".into(),
                "bool" => "boolean".into(),
                "u64" => "integer, 0 ≤ x ≤ 2^53 − 1 (checked when sent)".into(),
                "i64" => "integer, |x| ≤ 2^53 − 1 (checked when sent)".into(),
                "f64" => "finite number".into(),
                "NonZeroU64" => "integer, 1 ≤ x ≤ 2^53 − 1 (checked when sent)".into(),
                "NonNegativeF64" => "finite number ≥ 0".into(),
                "RawJson" => "opaque JSON value as text (decode with `decodeJson`)".into(),
                "Record" => "JSON object text, values opaque".into(),
                name => format!("`{name}`"),
            },
        }
    }
}

fn is_declared(p: &Protocol, name: &str) -> bool {
    p.objects.iter().any(|(n, _)| *n == name) || p.enums.iter().any(|(n, _)| *n == name)
}

/// `tool-args` → `ToolArgs`, as the contract names its enum variants.
fn pascal(wire: &str) -> String {
    wire.split(['-', '_', '.', ' '])
        .filter(|s| !s.is_empty())
        .map(|s| {
            let mut c = s.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        })
        .collect()
}

/// Names the bindings add to every record; a contract field with one of these names would clash.
const RESERVED_FIELDS: &[&str] = &["extra_json"];

/// The generated Rust source.
pub fn generate(p: &Protocol) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "//! @generated by `wirecontract-uniffi-gen` from `{}`'s reflection tables (`OBJECTS`,\n\
         //! `ENUMS`, `MESSAGE_TYPES`). Do not edit by hand: run `scripts/regen`.\n\
         //!\n\
         //! One uniffi record per contract object (known fields in spec order, then `extra_json`\n\
         //! holding the unknown members), one uniffi enum per closed enum, the message union, and\n\
         //! the [`Convert`] impls between host and contract types.\n",
        p.module
    );
    o.push_str("#![allow(clippy::too_many_lines, clippy::match_same_arms, clippy::trivially_copy_pass_by_ref)]\n\n");
    let _ = writeln!(o, "use {} as contract;\n", p.module);
    o.push_str("use crate::convert::{extras_from_host, extras_to_host, join, Convert, Issues};\n");
    o.push_str("use crate::JsonText;\n");
    for (name, values) in p.enums {
        gen_enum(&mut o, p, name, values);
    }
    for (name, fields) in p.objects {
        gen_object(&mut o, p, name, fields);
    }
    if !p.messages.is_empty() {
        gen_message(&mut o, p);
    }
    o
}

fn gen_enum(o: &mut String, p: &Protocol, name: &str, values: &[&str]) {
    let list: Vec<String> = values.iter().map(|v| format!("`\"{v}\"`")).collect();
    let _ = write!(
        o,
        "\n/// The closed enum `{name}` (spec {spec} §1): {list}. An unknown wire value makes a frame\n\
         /// invalid.\n\
         #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Enum)]\n\
         pub enum {name} {{\n",
        spec = p.spec,
        list = list.join(", ")
    );
    for v in values {
        let _ = writeln!(o, "    /// Wire value `\"{v}\"`.\n    {},", pascal(v));
    }
    o.push_str("}\n");
    let _ = write!(o, "\n#[uniffi::export]\nimpl {name} {{\n    /// The wire string of this value.\n    pub fn wire_value(&self) -> String {{\n        match self {{\n");
    for v in values {
        let _ = writeln!(o, "            {name}::{} => \"{v}\",", pascal(v));
    }
    o.push_str("        }\n        .to_owned()\n    }\n}\n");
    let _ = write!(o, "\nimpl Convert for contract::{name} {{\n    type Host = {name};\n    fn to_host(&self) -> {name} {{\n        match self {{\n");
    for v in values {
        let _ = writeln!(o, "            contract::{name}::{p} => {name}::{p},", p = pascal(v));
    }
    let _ = write!(o, "        }}\n    }}\n    fn from_host(host: &{name}, _: &mut Issues, _: &str) -> Option<Self> {{\n        Some(match host {{\n");
    for v in values {
        let _ = writeln!(o, "            {name}::{p} => contract::{name}::{p},", p = pascal(v));
    }
    o.push_str("        })\n    }\n}\n");
}

fn gen_object(o: &mut String, p: &Protocol, name: &str, fields: &[FieldInfo]) {
    let role = match p.messages.iter().find(|(_, t)| *t == name) {
        Some((wire, _)) => format!("the payload of `{wire}`"),
        None => "a nested object".to_owned(),
    };
    let _ = write!(
        o,
        "\n/// `{name}`, {role} (spec {spec} §1). Known fields in spec order; unknown members are\n\
         /// kept in `extraJson` and written back after them.\n\
         #[derive(Debug, Clone, PartialEq, uniffi::Record)]\n\
         pub struct {name} {{\n",
        spec = p.spec
    );
    let tys: Vec<Ty> = fields.iter().map(|f| Ty::parse(f.ty)).collect();
    for (f, ty) in fields.iter().zip(&tys) {
        assert!(!RESERVED_FIELDS.contains(&f.rust), "{name}.{} clashes with a name the bindings add", f.rust);
        let _ = writeln!(o, "    /// Wire `{}`: {}.", f.wire, ty.describe());
        if ty.is_option() {
            o.push_str("    #[uniffi(default)]\n");
        }
        let _ = writeln!(o, "    pub {}: {},", f.rust, ty.host(p));
    }
    o.push_str(
        "    /// Unknown members as a JSON object text (`{}` when there are none), in wire order with\n    \
         /// their raw values; written back after the known fields. Must not repeat a known field.\n    \
         #[uniffi(default = \"{}\")]\n    \
         pub extra_json: JsonText,\n}\n",
    );
    let _ = write!(o, "\nimpl Convert for contract::{name} {{\n    type Host = {name};\n    fn to_host(&self) -> {name} {{\n        {name} {{\n");
    for f in fields {
        let _ = writeln!(o, "            {r}: Convert::to_host(&self.{r}),", r = f.rust);
    }
    o.push_str("            extra_json: extras_to_host(&self.extra),\n        }\n    }\n");
    let _ = writeln!(o, "    fn from_host(host: &{name}, issues: &mut Issues, path: &str) -> Option<Self> {{");
    for (f, ty) in fields.iter().zip(&tys) {
        let _ = writeln!(
            o,
            "        let {r} = <{c} as Convert>::from_host(&host.{r}, issues, &join(path, \"{w}\"));",
            r = f.rust,
            c = ty.contract(p),
            w = f.wire
        );
    }
    let known: Vec<String> = fields.iter().map(|f| format!("\"{}\"", f.wire)).collect();
    let _ = writeln!(o, "        let extra = extras_from_host(&host.extra_json, &[{}], issues, path);", known.join(", "));
    o.push_str("        Some(Self {\n");
    for f in fields {
        let _ = writeln!(o, "            {r}: {r}?,", r = f.rust);
    }
    o.push_str("            extra: extra?,\n        })\n    }\n}\n");
}

fn gen_message(o: &mut String, p: &Protocol) {
    let _ = write!(
        o,
        "\n/// A message: one of the {n} known types with its typed payload, or an unknown type with its\n\
         /// payload kept as JSON text (spec {spec} §2 step 4).\n\
         #[derive(Debug, Clone, PartialEq, uniffi::Enum)]\n\
         pub enum Message {{\n",
        n = p.messages.len(),
        spec = p.spec
    );
    for (wire, ty) in &p.messages {
        let _ = writeln!(o, "    /// `{wire}`.\n    {ty} {{\n        /// The typed payload.\n        payload: {ty},\n    }},");
    }
    o.push_str(
        "    /// A type outside the known ones, kept as data (the `unknown-type` outcome).\n    \
         Unknown {\n        \
             /// The type string.\n        \
             message_type: String,\n        \
             /// The raw payload (any JSON value), `None` when the frame had no `payload` key.\n        \
             payload: Option<JsonText>,\n    \
         },\n}\n",
    );
    o.push_str("\nimpl Message {\n    /// The wire type string.\n    pub fn wire_type(&self) -> &str {\n        match self {\n");
    for (wire, ty) in &p.messages {
        let _ = writeln!(o, "            Message::{ty} {{ .. }} => \"{wire}\",");
    }
    o.push_str("            Message::Unknown { message_type, .. } => message_type,\n        }\n    }\n}\n");
    o.push_str("\nimpl Convert for contract::Message {\n    type Host = Message;\n    fn to_host(&self) -> Message {\n        match self {\n");
    for (_, ty) in &p.messages {
        let _ = writeln!(o, "            contract::Message::{ty}(p) => Message::{ty} {{ payload: Convert::to_host(p) }},");
    }
    o.push_str(
        "            contract::Message::Unknown { message_type, payload } => Message::Unknown { message_type: message_type.clone(), payload: Convert::to_host(payload) },\n        \
         }\n    }\n",
    );
    o.push_str("    fn from_host(host: &Message, issues: &mut Issues, path: &str) -> Option<Self> {\n        Some(match host {\n");
    for (_, ty) in &p.messages {
        let _ = writeln!(
            o,
            "            Message::{ty} {{ payload }} => contract::Message::{ty}(<contract::{ty} as Convert>::from_host(payload, issues, path)?),"
        );
    }
    o.push_str(
        "            Message::Unknown { message_type, payload } => contract::Message::Unknown {\n                \
             message_type: message_type.clone(),\n                \
             payload: <Option<contract::RawJson> as Convert>::from_host(payload, issues, path)?,\n            \
         },\n        })\n    }\n}\n",
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_types_parse_into_options_and_lists() {
        assert_eq!(Ty::parse("Option < Vec<String> >"), Ty::Option(Box::new(Ty::Vec(Box::new(Ty::Leaf("String".into()))))));
    }

    #[test]
    fn enum_variant_names_follow_the_contract() {
        assert_eq!(pascal("tool-args"), "ToolArgs");
        assert_eq!(pascal("truncated-tool-call"), "TruncatedToolCall");
        assert_eq!(pascal("ok"), "Ok");
    }

    #[test]
    fn generation_is_deterministic_and_covers_every_table_entry() {
        let p = graphmind();
        let a = generate(&p);
        assert_eq!(a, generate(&graphmind()));
        let names = p.objects.iter().map(|(n, _)| *n).chain(p.enums.iter().map(|(n, _)| *n));
        for name in names {
            assert!(a.contains(&format!("impl Convert for contract::{name} {{")), "{name} missing");
        }
    }
}
