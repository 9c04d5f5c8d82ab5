//! Generates the uniffi declarations of a protocol (`src/generated.rs` of its binding crate)
//! from the contract's reflection tables: one uniffi record per contract object, one uniffi
//! enum per closed enum, the message union(s), and the `Convert` impls between host and
//! contract types.
//!
//! A protocol is a [`Protocol`] value built from its tables: `OBJECTS` (name, fields, and for
//! strict objects the constant members), `ENUMS`, and its message union(s). Two shapes of
//! object are handled: open ones (GraphMind: unknown members kept in `extra_json`) and strict
//! ones (Graphorin: no `extra_json`, constant members such as `v` and `kind` written by the
//! contract's serializer and never stored). Two shapes of union are handled: open (GraphMind's
//! `Message` with an `Unknown` variant) and closed (Graphorin's `ServerMessage` and
//! `ClientMessage`, with one guard function per variant and routing accessors).
//!
//! What is not table-driven: the leaf types ([`Leaf`]: which host type a contract scalar such
//! as `NonEmptyString` or `RpcId` becomes, and its hand-written `Convert` impl in the binding
//! crate's `convert.rs`), and the union → frame type pairing of Graphorin, which the contract
//! exposes only through its JSON Schema (`$defs/ServerMessage/oneOf`, in declaration order).
//!
//! The output is deterministic (a pure function of the tables) so `scripts/check-drift` and
//! each binding crate's `generated_rs_matches_the_contract` test compare it byte for byte.

use std::fmt::Write as _;

use wirecontract::core::FieldInfo;
use wirecontract::{graphmind, graphorin};

/// One contract object type.
pub struct Object {
    /// The type name (`NodeStarted`, `ServerPongFrame`).
    pub name: &'static str,
    /// Known fields in spec order (`Described::FIELDS`).
    pub fields: &'static [FieldInfo],
    /// Constant members `(wire name, value)` of a strict frame (`Described::LITERALS`).
    pub literals: &'static [(&'static str, &'static str)],
    /// Strict: an unknown member makes the object invalid, so the host record has no
    /// `extra_json`.
    pub strict: bool,
}

/// One closed enum: its name and `(wire value, Rust variant name)` pairs in spec order.
pub struct Enum {
    /// The type name, the same in the contract module and on the host.
    pub name: &'static str,
    /// `(wire value, variant name)`.
    pub values: Vec<(&'static str, String)>,
}

impl Enum {
    /// An enum whose variant names are the PascalCase of their wire values, as `wire_enum!`
    /// declares them (`tool-args` → `ToolArgs`, `auth.scope_denied` → `AuthScopeDenied`).
    pub fn pascal(name: &'static str, values: &'static [&'static str]) -> Enum {
        Enum { name, values: values.iter().map(|v| (*v, pascal(v))).collect() }
    }
}

/// A contract scalar (a field type that is neither an object nor an enum of the protocol):
/// its host type, its path from the generated module and how the field docs describe it. Its
/// `Convert` impl is hand-written in the binding crate (`convert.rs`).
pub struct Leaf {
    /// The type as `FieldInfo::ty` spells it (`NonEmptyString`).
    pub name: &'static str,
    /// The uniffi type the host sees (`String`).
    pub host: &'static str,
    /// The contract type spelled from the generated module (`contract::NonEmptyString`).
    pub contract: &'static str,
    /// For the field's doc comment.
    pub describe: &'static str,
}

/// One variant of a closed message union.
pub struct Variant {
    /// Stable wire name (`rpc-success`, `event`, `subscription.subscribe`).
    pub wire: &'static str,
    /// Rust variant name, also the host's (`RpcSuccess`, `ErrorFrame`).
    pub name: String,
    /// The frame type it holds (`ServerRpcSuccess`).
    pub ty: &'static str,
    /// The guard's Rust name (`is_rpc_success`) and reference (TypeScript) name
    /// (`isRpcSuccess`), which is also its Kotlin and Swift name.
    pub guard: (&'static str, &'static str),
}

/// A method on a closed union that returns one field of the frame when the variant has it
/// (`subscription_id`, `rpc_id`): `None` for variants without that field.
pub struct Accessor {
    /// The Rust method name.
    pub method: &'static str,
    /// The wire name of the field it returns.
    pub wire: &'static str,
    /// Its doc comment.
    pub doc: &'static str,
}

/// A closed tagged union of frames (`ServerMessage`, `ClientMessage`).
pub struct Union {
    /// The union's name, the same in the contract module and on the host.
    pub name: &'static str,
    /// The closed enum naming its variants (`ServerVariant`), one of [`Protocol::enums`].
    pub variant_enum: &'static str,
    /// The variants in spec order.
    pub variants: Vec<Variant>,
    /// Routing accessors.
    pub accessors: Vec<Accessor>,
    /// The union's doc comment (one paragraph).
    pub doc: &'static str,
}

/// What the generator needs to know about one protocol.
pub struct Protocol {
    /// Rust path of the contract module, aliased as `contract` in the output.
    pub module: &'static str,
    /// Spec document name used in doc comments (`graphmind-v1`).
    pub spec: &'static str,
    /// The output's module doc comment (`//!` lines).
    pub header: String,
    /// `use` lines of the output (after the contract alias).
    pub imports: &'static [&'static str],
    /// The type of the `path` argument of `Convert::from_host` in the binding crate (`str`
    /// for dotted paths, `[PathSegment]` for segment paths).
    pub path_type: &'static str,
    /// Every object type (`OBJECTS`), nested ones first.
    pub objects: Vec<Object>,
    /// Every closed enum (`ENUMS`).
    pub enums: Vec<Enum>,
    /// Every scalar field type.
    pub leaves: Vec<Leaf>,
    /// The open message union (GraphMind's `Message`): `(wire type, payload type name)` in spec
    /// order, plus an `Unknown` variant. Empty for a protocol without one.
    pub messages: Vec<(&'static str, &'static str)>,
    /// Closed unions of frames, each with guards and accessors.
    pub unions: Vec<Union>,
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
    let module = "wirecontract::graphmind";
    let header = format!(
        "//! @generated by `wirecontract-uniffi-gen` from `{module}`'s reflection tables (`OBJECTS`,\n\
         //! `ENUMS`, `MESSAGE_TYPES`). Do not edit by hand: run `scripts/regen`.\n\
         //!\n\
         //! One uniffi record per contract object (known fields in spec order, then `extra_json`\n\
         //! holding the unknown members), one uniffi enum per closed enum, the message union, and\n\
         //! the [`Convert`] impls between host and contract types.\n"
    );
    Protocol {
        module,
        spec: "graphmind-v1",
        header,
        imports: &["crate::convert::{extras_from_host, extras_to_host, join, Convert, Issues}", "crate::JsonText"],
        path_type: "str",
        objects: graphmind::OBJECTS.iter().map(|(name, fields)| Object { name, fields, literals: &[], strict: false }).collect(),
        enums: graphmind::ENUMS.iter().map(|(name, values)| Enum::pascal(name, values)).collect(),
        leaves: vec![
            Leaf { name: "String", host: "String", contract: "String", describe: "string" },
            Leaf { name: "bool", host: "bool", contract: "bool", describe: "boolean" },
            Leaf { name: "u64", host: "u64", contract: "u64", describe: "integer, 0 ≤ x ≤ 2^53 − 1 (checked when sent)" },
            Leaf { name: "i64", host: "i64", contract: "i64", describe: "integer, |x| ≤ 2^53 − 1 (checked when sent)" },
            Leaf { name: "f64", host: "f64", contract: "f64", describe: "finite number" },
            Leaf { name: "NonZeroU64", host: "u64", contract: "std::num::NonZeroU64", describe: "integer, 1 ≤ x ≤ 2^53 − 1 (checked when sent)" },
            Leaf { name: "NonNegativeF64", host: "f64", contract: "contract::NonNegativeF64", describe: "finite number ≥ 0" },
            Leaf { name: "RawJson", host: "JsonText", contract: "contract::RawJson", describe: "opaque JSON value as text (decode with `decodeJson`)" },
            Leaf { name: "Record", host: "JsonText", contract: "contract::Record", describe: "JSON object text, values opaque" },
        ],
        messages,
        unions: Vec::new(),
    }
}

/// The frame type names of a Graphorin union, in declaration order, from the published JSON
/// Schema (`$defs/<union>/oneOf`, one `$ref` per variant): the one public table that pairs a
/// variant with its frame type.
fn schema_union(schema: &serde_json::Value, union: &str) -> Vec<String> {
    let branches = schema["$defs"][union]["oneOf"].as_array().unwrap_or_else(|| panic!("the Graphorin schema has no $defs/{union}/oneOf"));
    branches
        .iter()
        .map(|b| b["$ref"].as_str().and_then(|r| r.strip_prefix("#/$defs/")).unwrap_or_else(|| panic!("{union}: branch {b} is not a $ref")).to_owned())
        .collect()
}

/// A closed union's variants from its guard table (`(variant, Rust guard, reference guard)`)
/// and its frame types from the schema, checked against each frame's discriminator literal.
fn closed_variants(
    objects: &[Object],
    rows: impl Iterator<Item = (&'static str, String, &'static str, &'static str)>,
    frames: Vec<String>,
    discriminator: &str,
) -> Vec<Variant> {
    let rows: Vec<_> = rows.collect();
    assert_eq!(rows.len(), frames.len(), "guard table and schema union disagree on the variant count");
    rows.into_iter()
        .zip(frames)
        .map(|((wire, name, rust, js), frame)| {
            let object = objects.iter().find(|o| o.name == frame).unwrap_or_else(|| panic!("{frame} is not in OBJECTS"));
            // The frame's discriminator literal must be the variant's wire name; the RPC responses
            // have none (they are told apart by `result`/`error`) and are the `rpc-*` variants.
            match object.literals.iter().find(|(k, _)| *k == discriminator) {
                Some((_, value)) => assert_eq!(*value, wire, "{frame} is not the frame of variant {wire}"),
                None => assert!(wire.starts_with("rpc-"), "{frame} has no `{discriminator}` literal but variant {wire} is not an RPC response"),
            }
            assert_eq!(camel(rust), js, "guard {rust} is not spelled like the reference's {js}");
            let ty = object.name;
            Variant { wire, name, ty, guard: (rust, js) }
        })
        .collect()
}

/// The Graphorin v1 tables.
///
/// # Panics
/// When the guard tables, the schema unions and the frames' literals disagree (a contract bug).
pub fn graphorin() -> Protocol {
    // Every object of this protocol is strict (`wire_strict_object!`).
    let objects: Vec<Object> = graphorin::OBJECTS.iter().map(|(name, fields, literals)| Object { name, fields, literals, strict: true }).collect();
    let schema = graphorin::export_json_schema();
    let server = closed_variants(
        &objects,
        graphorin::SERVER_GUARDS.iter().map(|(v, rust, js, _)| (v.as_str(), format!("{v:?}"), *rust, *js)),
        schema_union(&schema, "ServerMessage"),
        "kind",
    );
    let client = closed_variants(
        &objects,
        graphorin::CLIENT_GUARDS.iter().map(|(v, rust, js, _)| (v.as_str(), format!("{v:?}"), *rust, *js)),
        schema_union(&schema, "ClientMessage"),
        "method",
    );
    // Enum variant names are the PascalCase of the wire values, except the two variant enums,
    // whose names are the unions' (`error` → `ErrorFrame`, `subscription.subscribe` → `Subscribe`).
    let mut enums = vec![Enum::pascal("IssueCode", graphorin::IssueCode::VALUES)];
    for (name, values) in graphorin::ENUMS {
        let union = [("ServerVariant", &server), ("ClientVariant", &client)].into_iter().find(|(n, _)| n == name).map(|(_, u)| u);
        enums.push(match union {
            Some(variants) => Enum { name, values: variants.iter().map(|v| (v.wire, v.name.clone())).collect() },
            None => Enum::pascal(name, values),
        });
    }
    let module = "wirecontract::graphorin";
    let header = format!(
        "//! @generated by `wirecontract-uniffi-gen` from `{module}`'s reflection tables (`OBJECTS`\n\
         //! with their constant members, `ENUMS`, `SERVER_GUARDS`/`CLIENT_GUARDS` and the schema's\n\
         //! unions). Do not edit by hand: run `scripts/regen`.\n\
         //!\n\
         //! One uniffi record per strict contract object (known fields in spec order; constant\n\
         //! members such as `v`, `jsonrpc`, `kind` and `method` are written by serialize, never\n\
         //! stored), one uniffi enum per closed enum, the two frame unions with one guard function\n\
         //! per variant and the routing accessors, and the [`Convert`] impls between host and\n\
         //! contract types.\n"
    );
    Protocol {
        module,
        spec: "graphorin-v1",
        header,
        imports: &["crate::convert::{join, Convert, Issues}", "crate::{JsonText, PathSegment, RpcId}"],
        path_type: "[PathSegment]",
        objects,
        enums,
        leaves: vec![
            Leaf { name: "bool", host: "bool", contract: "bool", describe: "boolean" },
            Leaf { name: "NonEmptyString", host: "String", contract: "contract::NonEmptyString", describe: "non-empty string (checked when sent)" },
            Leaf { name: "RpcId", host: "RpcId", contract: "contract::RpcId", describe: "request id, a non-empty string or an integer, JSON type kept" },
            Leaf { name: "Count", host: "u64", contract: "contract::Count", describe: "integer ≥ 0" },
            Leaf { name: "RpcErrorCode", host: "i64", contract: "contract::RpcErrorCode", describe: "integer error code, any value (the catalogue: `rpcErrorCodes()`)" },
            Leaf { name: "RawJson", host: "JsonText", contract: "contract::RawJson", describe: "any JSON value as its exact text (`\"null\"` is JSON null; checked when sent)" },
            Leaf { name: "Record", host: "JsonText", contract: "contract::Record", describe: "JSON object text, any keys, values opaque (checked when sent)" },
        ],
        messages: Vec::new(),
        unions: vec![
            Union {
                name: "ServerMessage",
                variant_enum: "ServerVariant",
                variants: server,
                accessors: vec![
                    Accessor {
                        method: "subscription_id",
                        wire: "subscriptionId",
                        doc: "The subscription the frame is routed by (spec §8.3): set on `subscribed`, `unsubscribed`, `event`, `lifecycle`, `replay-marker` and an `error` frame that names one; `null`/`nil` otherwise.",
                    },
                    Accessor { method: "rpc_id", wire: "id", doc: "The id of an RPC response (its JSON type kept); `null`/`nil` for kinded frames." },
                ],
                doc: "Every frame a Graphorin server sends (spec graphorin-v1 §3): an RPC response (success or\n/// failure) or one of the 7 kinded frames. Closed: nothing else parses.",
            },
            Union {
                name: "ClientMessage",
                variant_enum: "ClientVariant",
                variants: client,
                accessors: vec![Accessor { method: "id", wire: "id", doc: "The request id (its JSON type kept); `null`/`nil` for `notifications/cancelled`, which has none." }],
                doc: "Every message a Graphorin client sends (spec graphorin-v1 §4), discriminated on `method`:\n/// five requests and one notification. Closed: nothing else parses.",
            },
        ],
    }
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

    /// The type without an outer `Option`.
    fn required(&self) -> &Ty {
        match self {
            Ty::Option(t) => t,
            other => other,
        }
    }

    /// The host (uniffi) type.
    fn host(&self, p: &Protocol) -> String {
        match self {
            Ty::Option(t) => format!("Option<{}>", t.host(p)),
            Ty::Vec(t) => format!("Vec<{}>", t.host(p)),
            Ty::Leaf(l) => match leaf(p, l) {
                Some(leaf) => leaf.host.to_owned(),
                None if is_declared(p, l) => l.clone(),
                None => panic!("no host mapping for contract type `{l}`: add a Leaf to the protocol in wirecontract-uniffi-gen"),
            },
        }
    }

    /// The contract type, spelled from the generated module.
    fn contract(&self, p: &Protocol) -> String {
        match self {
            Ty::Option(t) => format!("Option<{}>", t.contract(p)),
            Ty::Vec(t) => format!("Vec<{}>", t.contract(p)),
            Ty::Leaf(l) => match leaf(p, l) {
                Some(leaf) => leaf.contract.to_owned(),
                None if is_declared(p, l) => format!("contract::{l}"),
                None => panic!("no contract path for type `{l}`"),
            },
        }
    }

    /// What the value is, for the field's doc comment.
    fn describe(&self, p: &Protocol) -> String {
        match self {
            Ty::Option(t) => format!("{}; optional (`null`/`nil`: absent)", t.describe(p)),
            Ty::Vec(t) => format!("list of {}", t.describe(p)),
            Ty::Leaf(l) => leaf(p, l).map_or_else(|| format!("`{l}`"), |leaf| leaf.describe.to_owned()),
        }
    }
}

fn leaf<'p>(p: &'p Protocol, name: &str) -> Option<&'p Leaf> {
    p.leaves.iter().find(|l| l.name == name)
}

fn is_declared(p: &Protocol, name: &str) -> bool {
    p.objects.iter().any(|o| o.name == name) || p.enums.iter().any(|e| e.name == name)
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

/// `is_rpc_success` → `isRpcSuccess`, as uniffi names functions on the host.
fn camel(snake: &str) -> String {
    let p = pascal(snake);
    let mut c = p.chars();
    c.next().map(|f| f.to_ascii_lowercase().to_string() + c.as_str()).unwrap_or_default()
}

/// Names the bindings add to every open record; a contract field with one of these names would
/// clash.
const RESERVED_FIELDS: &[&str] = &["extra_json"];

/// The generated Rust source.
pub fn generate(p: &Protocol) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "{}", p.header);
    o.push_str("#![allow(clippy::too_many_lines, clippy::match_same_arms, clippy::trivially_copy_pass_by_ref)]\n\n");
    let _ = writeln!(o, "use {} as contract;\n", p.module);
    for line in p.imports {
        let _ = writeln!(o, "use {line};");
    }
    for e in &p.enums {
        gen_enum(&mut o, p, e);
    }
    for obj in &p.objects {
        gen_object(&mut o, p, obj);
    }
    if !p.messages.is_empty() {
        gen_message(&mut o, p);
    }
    for u in &p.unions {
        gen_union(&mut o, p, u);
    }
    o
}

fn gen_enum(o: &mut String, p: &Protocol, e: &Enum) {
    let name = e.name;
    let list: Vec<String> = e.values.iter().map(|(v, _)| format!("`\"{v}\"`")).collect();
    let _ = write!(
        o,
        "\n/// The closed enum `{name}` (spec {spec} §1): {list}. An unknown wire value makes a frame\n\
         /// invalid.\n\
         #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Enum)]\n\
         pub enum {name} {{\n",
        spec = p.spec,
        list = list.join(", ")
    );
    for (v, variant) in &e.values {
        let _ = writeln!(o, "    /// Wire value `\"{v}\"`.\n    {variant},");
    }
    o.push_str("}\n");
    let _ = write!(o, "\n#[uniffi::export]\nimpl {name} {{\n    /// The wire string of this value.\n    pub fn wire_value(&self) -> String {{\n        match self {{\n");
    for (v, variant) in &e.values {
        let _ = writeln!(o, "            {name}::{variant} => \"{v}\",");
    }
    o.push_str("        }\n        .to_owned()\n    }\n}\n");
    let _ = write!(o, "\nimpl Convert for contract::{name} {{\n    type Host = {name};\n    fn to_host(&self) -> {name} {{\n        match self {{\n");
    for (_, variant) in &e.values {
        let _ = writeln!(o, "            contract::{name}::{variant} => {name}::{variant},");
    }
    let _ = write!(o, "        }}\n    }}\n    fn from_host(host: &{name}, _: &mut Issues, _: &{}) -> Option<Self> {{\n        Some(match host {{\n", p.path_type);
    for (_, variant) in &e.values {
        let _ = writeln!(o, "            {name}::{variant} => contract::{name}::{variant},");
    }
    o.push_str("        })\n    }\n}\n");
}

/// What an object is, for its doc comment.
fn role(p: &Protocol, name: &str) -> String {
    if let Some((wire, _)) = p.messages.iter().find(|(_, t)| *t == name) {
        return format!("the payload of `{wire}`");
    }
    for u in &p.unions {
        if let Some(v) = u.variants.iter().find(|v| v.ty == name) {
            return format!("the `{}` frame (`{}.{}`)", v.wire, u.name, v.name);
        }
    }
    "a nested object".to_owned()
}

fn gen_object(o: &mut String, p: &Protocol, obj: &Object) {
    let name = obj.name;
    let role = role(p, name);
    if obj.strict {
        let literals: Vec<String> = obj.literals.iter().map(|(k, v)| format!("`\"{k}\": \"{v}\"`")).collect();
        let constants = if literals.is_empty() {
            String::new()
        } else {
            format!("\n/// Constant members, written by serialize and never stored: {}.", literals.join(", "))
        };
        let _ = write!(
            o,
            "\n/// `{name}`, {role}, spec {spec}.\n\
             /// Strict: a member not listed here makes the frame invalid, so there is no `extraJson`.\n\
             /// Known fields in spec (and wire) order.{constants}\n\
             #[derive(Debug, Clone, PartialEq, uniffi::Record)]\n\
             pub struct {name} {{\n",
            spec = p.spec
        );
    } else {
        let _ = write!(
            o,
            "\n/// `{name}`, {role} (spec {spec} §1). Known fields in spec order; unknown members are\n\
             /// kept in `extraJson` and written back after them.\n\
             #[derive(Debug, Clone, PartialEq, uniffi::Record)]\n\
             pub struct {name} {{\n",
            spec = p.spec
        );
    }
    let tys: Vec<Ty> = obj.fields.iter().map(|f| Ty::parse(f.ty)).collect();
    for (f, ty) in obj.fields.iter().zip(&tys) {
        if !obj.strict {
            assert!(!RESERVED_FIELDS.contains(&f.rust), "{name}.{} clashes with a name the bindings add", f.rust);
        }
        assert!(!obj.literals.iter().any(|(k, _)| *k == f.wire), "{name}.{}: a constant member cannot also be a field", f.wire);
        let _ = writeln!(o, "    /// Wire `{}`: {}.", f.wire, ty.describe(p));
        if ty.is_option() {
            o.push_str("    #[uniffi(default)]\n");
        }
        let _ = writeln!(o, "    pub {}: {},", f.rust, ty.host(p));
    }
    if obj.strict {
        o.push_str("}\n");
    } else {
        o.push_str(
            "    /// Unknown members as a JSON object text (`{}` when there are none), in wire order with\n    \
             /// their raw values; written back after the known fields. Must not repeat a known field.\n    \
             #[uniffi(default = \"{}\")]\n    \
             pub extra_json: JsonText,\n}\n",
        );
    }
    let _ = write!(o, "\nimpl Convert for contract::{name} {{\n    type Host = {name};\n    fn to_host(&self) -> {name} {{\n        {name} {{\n");
    for f in obj.fields {
        let _ = writeln!(o, "            {r}: Convert::to_host(&self.{r}),", r = f.rust);
    }
    if !obj.strict {
        o.push_str("            extra_json: extras_to_host(&self.extra),\n");
    }
    o.push_str("        }\n    }\n");
    let _ = writeln!(o, "    fn from_host(host: &{name}, issues: &mut Issues, path: &{}) -> Option<Self> {{", p.path_type);
    for (f, ty) in obj.fields.iter().zip(&tys) {
        let _ = writeln!(
            o,
            "        let {r} = <{c} as Convert>::from_host(&host.{r}, issues, &join(path, \"{w}\"));",
            r = f.rust,
            c = ty.contract(p),
            w = f.wire
        );
    }
    if !obj.strict {
        let known: Vec<String> = obj.fields.iter().map(|f| format!("\"{}\"", f.wire)).collect();
        let _ = writeln!(o, "        let extra = extras_from_host(&host.extra_json, &[{}], issues, path);", known.join(", "));
    }
    o.push_str("        Some(Self {\n");
    for f in obj.fields {
        let _ = writeln!(o, "            {r}: {r}?,", r = f.rust);
    }
    if !obj.strict {
        o.push_str("            extra: extra?,\n");
    }
    o.push_str("        })\n    }\n}\n");
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

/// A closed union: the enum, its `variant()` and accessor methods, one guard function per
/// variant, and the conversions.
fn gen_union(o: &mut String, p: &Protocol, u: &Union) {
    let (name, venum) = (u.name, u.variant_enum);
    assert!(p.enums.iter().any(|e| e.name == venum), "{name}: variant enum {venum} is not among the protocol's enums");
    let _ = write!(o, "\n/// {}\n#[derive(Debug, Clone, PartialEq, uniffi::Enum)]\npub enum {name} {{\n", u.doc);
    for v in &u.variants {
        let _ = writeln!(o, "    /// `{}`: a [`{}`].\n    {} {{\n        /// The frame.\n        frame: {},\n    }},", v.wire, v.ty, v.name, v.ty);
    }
    o.push_str("}\n");

    let _ = write!(
        o,
        "\n#[uniffi::export]\nimpl {name} {{\n    /// Which variant this is, by its stable wire name (`{venum}.wireValue()`).\n    pub fn variant(&self) -> {venum} {{\n        match self {{\n"
    );
    for v in &u.variants {
        let _ = writeln!(o, "            {name}::{} {{ .. }} => {venum}::{},", v.name, v.name);
    }
    o.push_str("        }\n    }\n");
    for a in &u.accessors {
        gen_accessor(o, p, u, a);
    }
    o.push_str("}\n");

    for v in &u.variants {
        let (rust, js) = v.guard;
        let _ = write!(
            o,
            "\n/// Guard `{js}` (the reference's name): `true` only for `{name}.{}`. Exactly one guard is true\n\
             /// for any `{name}`.\n\
             #[uniffi::export]\n\
             pub fn {rust}(message: &{name}) -> bool {{\n    \
             matches!(message, {name}::{} {{ .. }})\n}}\n",
            v.name, v.name
        );
    }

    let _ = write!(o, "\nimpl Convert for contract::{name} {{\n    type Host = {name};\n    fn to_host(&self) -> {name} {{\n        match self {{\n");
    for v in &u.variants {
        let _ = writeln!(o, "            contract::{name}::{n}(f) => {name}::{n} {{ frame: Convert::to_host(f) }},", n = v.name);
    }
    let _ = write!(o, "        }}\n    }}\n    fn from_host(host: &{name}, issues: &mut Issues, path: &{}) -> Option<Self> {{\n        Some(match host {{\n", p.path_type);
    for v in &u.variants {
        let _ = writeln!(
            o,
            "            {name}::{n} {{ frame }} => contract::{name}::{n}(<contract::{ty} as Convert>::from_host(frame, issues, path)?),",
            n = v.name,
            ty = v.ty
        );
    }
    o.push_str("        })\n    }\n}\n");
}

fn gen_accessor(o: &mut String, p: &Protocol, union: &Union, accessor: &Accessor) {
    let mut host: Option<String> = None;
    let mut arms = Vec::new();
    let mut without = Vec::new();
    for v in &union.variants {
        let obj = p.objects.iter().find(|obj| obj.name == v.ty).unwrap_or_else(|| panic!("{} is not an object", v.ty));
        let Some(field) = obj.fields.iter().find(|field| field.wire == accessor.wire) else {
            without.push(format!("{}::{} {{ .. }}", union.name, v.name));
            continue;
        };
        let ty = Ty::parse(field.ty);
        let h = ty.required().host(p);
        assert!(host.as_ref().is_none_or(|prev| *prev == h), "{}.{}: field `{}` has different types across variants", union.name, accessor.method, accessor.wire);
        host = Some(h);
        let value = if ty.is_option() { format!("frame.{}.clone()", field.rust) } else { format!("Some(frame.{}.clone())", field.rust) };
        arms.push(format!("            {}::{} {{ frame }} => {value},", union.name, v.name));
    }
    let host = host.unwrap_or_else(|| panic!("{}.{}: no variant has a `{}` field", union.name, accessor.method, accessor.wire));
    let _ = write!(o, "\n    /// {}\n    pub fn {}(&self) -> Option<{host}> {{\n        match self {{\n", accessor.doc, accessor.method);
    for arm in &arms {
        let _ = writeln!(o, "{arm}");
    }
    if !without.is_empty() {
        let _ = writeln!(o, "            {} => None,", without.join(" | "));
    }
    o.push_str("        }\n    }\n");
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
        assert_eq!(pascal("auth.scope_denied"), "AuthScopeDenied");
        assert_eq!(camel("is_replay_marker_frame"), "isReplayMarkerFrame");
    }

    #[test]
    fn generation_is_deterministic_and_covers_every_table_entry() {
        for (p, again) in [(graphmind(), graphmind()), (graphorin(), graphorin())] {
            let a = generate(&p);
            assert_eq!(a, generate(&again));
            let names = p.objects.iter().map(|o| o.name).chain(p.enums.iter().map(|e| e.name));
            for name in names {
                assert!(a.contains(&format!("impl Convert for contract::{name} {{")), "{name} missing");
            }
        }
    }

    #[test]
    fn graphorin_unions_pair_every_variant_with_its_frame() {
        let p = graphorin();
        let server: Vec<(&str, &str, &str)> = p.unions[0].variants.iter().map(|v| (v.wire, v.name.as_str(), v.ty)).collect();
        assert_eq!(server[0], ("rpc-success", "RpcSuccess", "ServerRpcSuccess"));
        assert_eq!(server[6], ("error", "ErrorFrame", "ServerErrorFrame"));
        assert_eq!(server.len(), 9);
        let client: Vec<(&str, &str, &str)> = p.unions[1].variants.iter().map(|v| (v.wire, v.name.as_str(), v.ty)).collect();
        assert_eq!(client[5], ("notifications/cancelled", "CancelledNotification", "ClientCancelledNotification"));
        assert_eq!(client.len(), 6);
        let text = generate(&p);
        assert!(!text.contains("extra_json"), "strict objects have no extra_json");
        assert!(text.contains("pub fn is_replay_marker_frame(message: &ServerMessage) -> bool"));
    }
}
