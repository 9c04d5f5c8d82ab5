//! Generates the uniffi declarations of a protocol from the contract's typed registry
//! ([`wirecontract::registry`]): one uniffi record per contract object, one uniffi enum per
//! closed enum, the message union(s), and the `Convert` impls between host and contract types.
//! The binding crates run it from their `build.rs` and `include!` the result, so nothing
//! generated is committed under a binding's `src/`.
//!
//! Two shapes of object are handled: open ones (GraphMind: unknown members kept in
//! `extra_json`) and strict ones (Graphorin: no `extra_json`, constant members such as `v` and
//! `kind` written by the contract's serializer and never stored). Two shapes of union are
//! handled: open (an envelope protocol's `Message` with an `Unknown` variant) and closed
//! (discriminated frame unions, with one guard function per variant and routing accessors).
//!
//! What is binding-specific and so lives here: which host type each contract scalar
//! ([`Scalar`]) becomes ([`host_scalar`]); everything else comes from the registry. The output
//! is deterministic (a pure function of the registry).

use std::fmt::Write as _;

use wirecontract::registry::{self, FieldDesc, Scalar, Ty};

/// One contract object type.
pub struct Object {
    /// The type name (`NodeStarted`, `ServerPongFrame`).
    pub name: &'static str,
    /// Known fields in spec order.
    pub fields: &'static [FieldDesc],
    /// Constant members `(wire name, value)` of a strict frame.
    pub literals: &'static [(&'static str, &'static str)],
    /// Strict: no `extra_json` on the host record.
    pub strict: bool,
}

/// The contract's issue codes (`wirecontract::wire::IssueCode`), which the shared `Issue` record
/// of every namespace names.
const ISSUE_CODE: registry::EnumDesc = wirecontract::wire::IssueCode::DESC;

/// One closed enum: its name and `(wire value, Rust variant name)` pairs in spec order.
pub struct Enum {
    /// The type name, the same in the contract module and on the host.
    pub name: &'static str,
    /// Its Rust path from the generated module (`contract::RunMode`).
    pub path: String,
    /// `(wire value, variant name)`.
    pub values: Vec<(&'static str, String)>,
}

/// One variant of a closed message union.
pub struct Variant {
    /// Stable wire name (`rpc-success`, `event`, `subscription.subscribe`).
    pub wire: &'static str,
    /// Rust variant name, also the host's (`RpcSuccess`, `ErrorFrame`).
    pub name: String,
    /// The frame type it holds (`ServerRpcSuccess`).
    pub ty: &'static str,
    /// The guard's Rust name and reference (TypeScript) name.
    pub guard: (&'static str, &'static str),
}

/// A closed tagged union of frames (`ServerMessage`, `ClientMessage`).
pub struct Union {
    /// The union's name, the same in the contract module and on the host.
    pub name: &'static str,
    /// The closed enum naming its variants (`ServerVariant`).
    pub variant_enum: &'static str,
    /// The variants in spec order.
    pub variants: Vec<Variant>,
    /// Routing accessors.
    pub accessors: &'static [registry::AccessorDesc],
    /// The union's doc comment.
    pub doc: String,
}

/// What the generator needs to know about one protocol.
pub struct Protocol {
    /// Rust path of the contract module, aliased as `contract` in the output.
    pub module: String,
    /// Spec document name used in doc comments (`graphmind-v1`).
    pub spec: &'static str,
    /// The output's module doc comment (`//!` lines).
    pub header: String,
    /// `use` lines of the output (after the contract alias).
    pub imports: &'static [&'static str],
    /// The type of the `path` argument of `Convert::from_host` in the binding crate.
    pub path_type: &'static str,
    /// Every object type, nested ones first.
    pub objects: Vec<Object>,
    /// Every closed enum.
    pub enums: Vec<Enum>,
    /// The open message union: `(wire type, payload type name)` in spec order.
    pub messages: Vec<(&'static str, &'static str)>,
    /// Closed unions of frames.
    pub unions: Vec<Union>,
}

/// The host (uniffi) type of a scalar, its contract path from the generated module, and how a
/// field doc describes it. Host types are wider than the rules (a signed 64-bit host integer
/// for a safe integer): the contract's reader checks the rule when a value is sent.
fn host_scalar(s: Scalar) -> (&'static str, String) {
    let host = match s {
        Scalar::Bool => "bool",
        Scalar::String | Scalar::NonEmptyString => "HostString",
        // Hosts get signed integers only (Java has no unsigned types); the contract's reader
        // checks the range. An exact unsigned count needs all 64 bits: decimal text
        // (`BigInteger` in Kotlin, `UInt64` in Swift; exact_count.rs).
        Scalar::ExactUInt => "ExactCount",
        Scalar::SafeUInt | Scalar::PositiveSafeUInt | Scalar::SafeInt | Scalar::ExactInt => "i64",
        Scalar::Finite | Scalar::NonNegativeFinite => "f64",
        Scalar::Opaque | Scalar::OpaqueObject => "JsonText",
        Scalar::RpcId => "RpcId",
    };
    let contract = match s {
        Scalar::Bool | Scalar::String | Scalar::Finite => s.rust_type().to_owned(),
        other => format!("contract::{}", other.rust_type()),
    };
    (host, contract)
}

/// Builds the generator's model of a registered protocol. `binding` holds what differs per
/// binding crate (the module header, imports and path type).
///
/// # Panics
/// When a union's frames disagree with their discriminator literals (a contract bug).
pub fn protocol(p: &'static registry::Protocol) -> Protocol {
    let objects: Vec<Object> = p.objects().into_iter().map(|o| Object { name: o.name, fields: o.fields, literals: o.literals, strict: o.strict }).collect();
    let mut enums: Vec<Enum> = p
        .enums()
        .into_iter()
        .map(|e| Enum { name: e.name, path: format!("contract::{}", e.name), values: e.values.iter().map(|v| (v.wire, v.rust.to_owned())).collect() })
        .collect();
    // Every namespace's shared `Issue` record (`ffi_support!` of `wirecontract-uniffi-common`) names the contract's
    // `IssueCode`, so every protocol gets the host enum, whether or not its registry lists it.
    if !enums.iter().any(|e| e.name == ISSUE_CODE.name) {
        let values = ISSUE_CODE.values.iter().map(|v| (v.wire, v.rust.to_owned())).collect();
        enums.push(Enum { name: ISSUE_CODE.name, path: "wirecontract::wire::IssueCode".to_owned(), values });
    }
    let messages = p.messages.iter().map(|m| (m.wire, m.payload.name)).collect();
    let unions = p
        .unions
        .iter()
        .map(|u| Union {
            name: u.name,
            variant_enum: u.variant_enum.name,
            variants: u.variants.iter().map(|v| Variant { wire: v.wire, name: v.name.to_owned(), ty: v.frame.name, guard: (v.guard, v.guard_js) }).collect(),
            accessors: u.accessors,
            doc: doc_paragraph(u.doc),
        })
        .collect();
    let module = format!("wirecontract::{}", p.name);
    let header = format!("// @generated by `wirecontract-uniffi-gen` from the registry of `{module}` at build time.");
    // Both binding crates share `ffi_support` (dotted paths, the contract's issues); they differ
    // only in the leaf types a strict protocol names.
    let (imports, path_type): (&[&str], &str) = if p.strict {
        (&["crate::convert::{Convert, HostPath, Issues}", "crate::{ExactCount, HostString, JsonText, RpcId}"], "HostPath<'_>")
    } else {
        (&["crate::convert::{extras_from_host, extras_to_host, Convert, HostPath, Issues}", "crate::{HostString, JsonText}"], "HostPath<'_>")
    };
    Protocol { module, spec: p.spec, header, imports, path_type, objects, enums, messages, unions }
}

/// The GraphMind v1 model.
pub fn graphmind() -> Protocol {
    protocol(&wirecontract::graphmind::PROTOCOL)
}

/// The Graphorin v1 model.
pub fn graphorin() -> Protocol {
    protocol(&wirecontract::graphorin::PROTOCOL)
}

/// A doc comment's lines joined for a `///` paragraph.
fn doc_paragraph(doc: &str) -> String {
    doc.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("\n/// ")
}

/// The host (uniffi) type of a field.
fn host_ty(ty: &Ty) -> String {
    match ty {
        Ty::Scalar(s) => host_scalar(*s).0.to_owned(),
        Ty::Enum(e) => e.name.to_owned(),
        Ty::Object(o) => o.name.to_owned(),
        Ty::List(t) => format!("Vec<{}>", host_ty(t)),
    }
}

/// The contract type of a field, spelled from the generated module.
fn contract_ty(ty: &Ty) -> String {
    match ty {
        Ty::Scalar(s) => host_scalar(*s).1,
        Ty::Enum(e) => format!("contract::{}", e.name),
        Ty::Object(o) => format!("contract::{}", o.name),
        Ty::List(t) => format!("Vec<{}>", contract_ty(t)),
    }
}

/// What the value is, for the field's doc comment.
fn describe_ty(ty: &Ty) -> String {
    match ty {
        Ty::Scalar(s) => s.describe().to_owned(),
        Ty::Enum(e) => format!("`{}`", e.name),
        Ty::Object(o) => format!("`{}`", o.name),
        Ty::List(t) => format!("list of {}", describe_ty(t)),
    }
}

fn field_host(f: &FieldDesc) -> String {
    if f.required {
        host_ty(&f.ty)
    } else {
        format!("Option<{}>", host_ty(&f.ty))
    }
}

fn field_contract(f: &FieldDesc) -> String {
    if f.required {
        contract_ty(&f.ty)
    } else {
        format!("Option<{}>", contract_ty(&f.ty))
    }
}

fn field_describe(f: &FieldDesc) -> String {
    if f.required {
        describe_ty(&f.ty)
    } else {
        format!("{}; optional (`null`/`nil`: absent)", describe_ty(&f.ty))
    }
}

/// Names the bindings add to every open record; a contract field with one of these names would
/// clash.
const RESERVED_FIELDS: &[&str] = &["extra_json"];

/// The generated Rust source.
pub fn generate(p: &Protocol) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "{}", p.header);
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
    let _ = write!(
        o,
        "\n#[uniffi::export]\nimpl {name} {{\n    /// The wire string of this value.\n    pub fn wire_value(&self) -> String {{\n        match self {{\n"
    );
    for (v, variant) in &e.values {
        let _ = writeln!(o, "            {name}::{variant} => \"{v}\",");
    }
    o.push_str("        }\n        .to_owned()\n    }\n}\n");
    let path = &e.path;
    let _ = write!(o, "\nimpl Convert for {path} {{\n    type Host = {name};\n    fn to_host(&self) -> {name} {{\n        match self {{\n");
    for (_, variant) in &e.values {
        let _ = writeln!(o, "            {path}::{variant} => {name}::{variant},");
    }
    // Host → contract cannot fail for a closed host enum: `Convert::from_host` is the infallible
    // `From` below, which the bindings use directly (`kind.into()`), so no call site picks a
    // fallback variant.
    let _ = write!(
        o,
        "        }}\n    }}\n    fn from_host(host: &{name}, _: &mut Issues, _: &{}) -> Option<Self> {{\n        Some(Self::from(*host))\n    }}\n}}\n",
        p.path_type
    );
    let _ = write!(
        o,
        "\n/// Every host value is a contract value: the conversion cannot fail.\nimpl From<{name}> for {path} {{\n    fn from(host: {name}) -> Self {{\n        match host {{\n"
    );
    for (_, variant) in &e.values {
        let _ = writeln!(o, "            {name}::{variant} => {path}::{variant},");
    }
    o.push_str("        }\n    }\n}\n");
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
    for f in obj.fields {
        if !obj.strict {
            assert!(!RESERVED_FIELDS.contains(&f.rust), "{name}.{} clashes with a name the bindings add", f.rust);
        }
        assert!(!obj.literals.iter().any(|(k, _)| *k == f.wire), "{name}.{}: a constant member cannot also be a field", f.wire);
        let _ = writeln!(o, "    /// Wire `{}`: {}.", f.wire, field_describe(f));
        if !f.required {
            o.push_str("    #[uniffi(default)]\n");
        }
        let _ = writeln!(o, "    pub {}: {},", f.rust, field_host(f));
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
    for f in obj.fields {
        let _ =
            writeln!(o, "        let {r} = <{c} as Convert>::from_host(&host.{r}, issues, &path.key(\"{w}\"));", r = f.rust, c = field_contract(f), w = f.wire);
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
             message_type: HostString,\n        \
             /// The raw payload (any JSON value), `None` when the frame had no `payload` key.\n        \
             payload: Option<JsonText>,\n    \
         },\n}\n",
    );
    o.push_str("\nimpl Message {\n    /// The wire type string.\n    pub fn wire_type(&self) -> &str {\n        match self {\n");
    for (wire, ty) in &p.messages {
        let _ = writeln!(o, "            Message::{ty} {{ .. }} => \"{wire}\",");
    }
    o.push_str("            Message::Unknown { message_type, .. } => message_type.to_str().unwrap_or_default(),\n        }\n    }\n}\n");
    o.push_str("\nimpl Convert for contract::Message {\n    type Host = Message;\n    fn to_host(&self) -> Message {\n        match self {\n");
    for (_, ty) in &p.messages {
        let _ = writeln!(o, "            contract::Message::{ty}(p) => Message::{ty} {{ payload: Convert::to_host(p) }},");
    }
    o.push_str(
        "            contract::Message::Unknown { message_type, payload } => Message::Unknown { message_type: Convert::to_host(message_type), payload: Convert::to_host(payload) },\n        \
         }\n    }\n",
    );
    o.push_str("    fn from_host(host: &Message, issues: &mut Issues, path: &HostPath<'_>) -> Option<Self> {\n        Some(match host {\n");
    for (_, ty) in &p.messages {
        let _ =
            writeln!(o, "            Message::{ty} {{ payload }} => contract::Message::{ty}(<contract::{ty} as Convert>::from_host(payload, issues, path)?),");
    }
    o.push_str(
        "            Message::Unknown { message_type, payload } => contract::Message::Unknown {\n                \
             message_type: <String as Convert>::from_host(message_type, issues, &HostPath::root(\"type\"))?,\n                \
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
    for a in u.accessors {
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
    let _ = write!(
        o,
        "        }}\n    }}\n    fn from_host(host: &{name}, issues: &mut Issues, path: &{}) -> Option<Self> {{\n        Some(match host {{\n",
        p.path_type
    );
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

fn gen_accessor(o: &mut String, p: &Protocol, union: &Union, accessor: &registry::AccessorDesc) {
    let mut host: Option<String> = None;
    let mut arms = Vec::new();
    let mut without = Vec::new();
    for v in &union.variants {
        let obj = p.objects.iter().find(|obj| obj.name == v.ty).unwrap_or_else(|| panic!("{} is not an object", v.ty));
        let Some(field) = obj.fields.iter().find(|field| field.wire == accessor.wire) else {
            without.push(format!("{}::{} {{ .. }}", union.name, v.name));
            continue;
        };
        let h = host_ty(&field.ty);
        assert!(
            host.as_ref().is_none_or(|prev| *prev == h),
            "{}.{}: field `{}` has different types across variants",
            union.name,
            accessor.method,
            accessor.wire
        );
        host = Some(h);
        let value = if field.required { format!("Some(frame.{}.clone())", field.rust) } else { format!("frame.{}.clone()", field.rust) };
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
    fn generation_is_deterministic_and_covers_every_registry_entry() {
        for (p, again) in [(graphmind(), graphmind()), (graphorin(), graphorin())] {
            let a = generate(&p);
            assert_eq!(a, generate(&again));
            let paths = p.objects.iter().map(|o| format!("contract::{}", o.name)).chain(p.enums.iter().map(|e| e.path.clone()));
            for path in paths {
                assert!(a.contains(&format!("impl Convert for {path} {{")), "{path} missing");
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
