//! # wirecontract-schema-diff
//!
//! Is this contract change additive or breaking? Compares two JSON Schemas (draft 2020-12) of
//! one wire contract, lists every change with its JSON Pointer, and judges each change in
//! both directions of a mixed deployment:
//!
//! - **old receivers**: a peer built from the OLD contract reads frames written by the NEW
//!   one. Safe when every frame NEW allows is still accepted, with its meaning, by OLD.
//!   Widening (an added enum value, a looser bound, an opened object) breaks it.
//! - **old senders**: a peer built from the OLD contract writes frames a NEW peer reads. Safe
//!   when every frame OLD allows is still accepted, with its meaning, by NEW. Narrowing (a
//!   removed enum value, a tighter bound, an optional field made required, a removed field
//!   or message type) breaks it.
//!
//! The contract's own tolerance rules are part of the judgement (graphmind-v1 §1, §5.11):
//! unknown message types are tolerated when the schema has a catch-all branch for them, so
//! an added type is safe for old receivers; unknown fields are tolerated in open objects
//! (`additionalProperties` not `false`), so an added optional field is safe for old
//! receivers; enums are closed, so an added value breaks old receivers; optional is not
//! nullable, so allowing `null` breaks old receivers. A strict contract (Graphorin,
//! `additionalProperties: false`, no catch-all type) gets the strict verdicts from the same
//! rules. Something that had a meaning and loses it (a removed field or message type that
//! new receivers would keep only as an unknown) breaks old senders even where it is
//! tolerated: the frame is accepted, but what the sender said is no longer understood.
//!
//! [`diff`] does the comparison, [`Diff::policy`] applies the versioning policy (a breaking
//! change needs a protocol-version bump: `gm` for GraphMind, `v` for Graphorin, read from the
//! schemas), and [`Diff::to_table`] / [`Diff::to_json`] render the result. [`Suppressions`]
//! reads the suppression file (`.wirecontract-evolution.toml`) whose entries accept a breaking
//! change with a reason; a [`Review`] is a diff with its suppressions applied, and
//! [`Format::render`] prints it as a table, JSON, Markdown, GitHub workflow commands or JUnit
//! XML. The rules and their verdicts are listed in `docs/evolution.md`; each has a fixture
//! pair under `tests/fixtures/`.

mod compare;
pub mod format;
mod messages;
mod report;
mod review;
mod schema;
mod suppress;

use serde::Serialize;
use serde_json::Value;

pub use format::Format;
pub use report::summary_line;
pub use review::{Labels, Review, Status, Unused, UnusedReason};
pub use suppress::{Accept, SuppressionError, Suppressions, DEFAULT_FILE};

/// Whether a change is safe for one direction of a mixed deployment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Peers built from the old contract keep working.
    Safe,
    /// Some frame is rejected, or no longer understood, by the other side.
    Breaking,
}

impl Verdict {
    /// `safe` or `BREAKING` (upper case so it stands out in a table).
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Safe => "safe",
            Verdict::Breaking => "BREAKING",
        }
    }
}

/// The kind of a change. Every rule has a fixture pair under `tests/fixtures/`; a new rule is
/// added at the end and to [`Rule::ALL`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// The protocol-version constant (`gm`, `v`) changed: every frame of one version is a
    /// version mismatch for the other, so this is breaking both ways; it is also the bump
    /// that makes other breaking changes allowed.
    ProtocolVersionChanged,
    /// A message type was added.
    MessageTypeAdded,
    /// A message type was removed.
    MessageTypeRemoved,
    /// The catch-all branch for unknown message types was added.
    UnknownTypesNowAccepted,
    /// The catch-all branch for unknown message types was removed.
    UnknownTypesNowRejected,
    /// An object gained a property.
    PropertyAdded,
    /// An object lost a property.
    PropertyRemoved,
    /// A property was removed and another one with the same schema added in the same object.
    PropertyRenamed,
    /// An optional property became required.
    PropertyBecameRequired,
    /// A required property became optional.
    PropertyBecameOptional,
    /// The JSON types a value may have changed (`null` aside).
    TypeChanged,
    /// `null` became allowed.
    BecameNullable,
    /// `null` stopped being allowed.
    BecameNonNullable,
    /// A closed set of values (`enum`, or a union of `const`s) gained a value.
    EnumValueAdded,
    /// A closed set of values lost a value.
    EnumValueRemoved,
    /// A value without a closed set of values got one.
    EnumAdded,
    /// A closed set of values was dropped: any value of the type is now accepted.
    EnumRemoved,
    /// A `const` changed to another value.
    ConstChanged,
    /// A bound (`minimum`, `exclusiveMaximum`, `minLength`, `maxItems`, ...) now admits fewer
    /// values.
    BoundTightened,
    /// A bound now admits more values.
    BoundLoosened,
    /// Another constraint (`pattern`, `format`, `multipleOf`, `uniqueItems`) now admits
    /// fewer values.
    ConstraintTightened,
    /// Another constraint now admits more values.
    ConstraintLoosened,
    /// Another constraint changed so that neither version contains the other.
    ConstraintChanged,
    /// An object stopped accepting unknown keys (`additionalProperties` became `false`).
    ObjectClosed,
    /// An object started accepting unknown keys.
    ObjectOpened,
    /// A union (`anyOf`/`oneOf` of schemas) gained a branch.
    UnionBranchAdded,
    /// A union lost a branch.
    UnionBranchRemoved,
    /// `anyOf` became `oneOf` or the other way round.
    UnionKindChanged,
    /// Any other change to a validation keyword; judged by what it does when that is clear
    /// (`false` ↔ a schema, an `allOf` conjunct), breaking both ways when it is not.
    SchemaChanged,
}

impl Rule {
    /// Every rule the checker knows, in declaration order.
    pub const ALL: [Rule; 29] = [
        Rule::ProtocolVersionChanged,
        Rule::MessageTypeAdded,
        Rule::MessageTypeRemoved,
        Rule::UnknownTypesNowAccepted,
        Rule::UnknownTypesNowRejected,
        Rule::PropertyAdded,
        Rule::PropertyRemoved,
        Rule::PropertyRenamed,
        Rule::PropertyBecameRequired,
        Rule::PropertyBecameOptional,
        Rule::TypeChanged,
        Rule::BecameNullable,
        Rule::BecameNonNullable,
        Rule::EnumValueAdded,
        Rule::EnumValueRemoved,
        Rule::EnumAdded,
        Rule::EnumRemoved,
        Rule::ConstChanged,
        Rule::BoundTightened,
        Rule::BoundLoosened,
        Rule::ConstraintTightened,
        Rule::ConstraintLoosened,
        Rule::ConstraintChanged,
        Rule::ObjectClosed,
        Rule::ObjectOpened,
        Rule::UnionBranchAdded,
        Rule::UnionBranchRemoved,
        Rule::UnionKindChanged,
        Rule::SchemaChanged,
    ];

    /// The rule printed as `name`, if the checker knows one.
    pub fn from_name(name: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.name() == name)
    }

    /// The rule's name as printed (`enum-value-added`).
    pub fn name(self) -> String {
        serde_json::to_value(self).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
    }
}

/// Which document a change's `path` points into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    /// The new schema (everything that still exists there).
    New,
    /// The old schema (things that were removed).
    Old,
}

/// One change between the two schemas.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    /// What kind of change this is.
    pub rule: Rule,
    /// JSON Pointer of the changed schema element, in the document named by `side`.
    pub path: String,
    /// The document `path` points into.
    pub side: Side,
    /// What changed, in words, with the reason for the verdicts.
    pub change: String,
    /// Can peers built from the old contract read frames written by the new one?
    pub old_receivers: Verdict,
    /// Can peers built from the old contract write frames the new one reads?
    pub old_senders: Verdict,
    /// The message types whose frames the change concerns.
    pub messages: Vec<String>,
}

impl Change {
    /// Whether the change breaks either direction.
    pub fn is_breaking(&self) -> bool {
        self.old_receivers == Verdict::Breaking || self.old_senders == Verdict::Breaking
    }
}

/// What the versioning policy says about a diff (`docs/evolution.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Policy {
    /// The two schemas accept the same frames.
    Unchanged,
    /// Changes, none breaking: allowed without a version bump.
    Additive,
    /// The protocol version changed: breaking changes are allowed (re-baseline on release).
    VersionBumped,
    /// At least one breaking change and no protocol-version bump: not allowed.
    BreakingWithoutVersionBump,
    /// Breaking changes without a protocol-version bump, every one accepted by an entry of
    /// the suppression file (only a [`Review`] says this).
    BreakingAccepted,
}

impl Policy {
    /// Whether the policy allows the change.
    pub fn allowed(self) -> bool {
        self != Policy::BreakingWithoutVersionBump
    }

    /// The policy verdict's name as printed.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Unchanged => "unchanged",
            Policy::Additive => "additive",
            Policy::VersionBumped => "version-bumped",
            Policy::BreakingWithoutVersionBump => "breaking-without-version-bump",
            Policy::BreakingAccepted => "breaking-accepted",
        }
    }
}

/// Options of [`diff`].
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The property holding the protocol version; detected when `None` (`gm`, `v`,
    /// `version`: the first that is a `const` in every message type).
    pub version_field: Option<String>,
    /// The caller vouches that both schemas describe one protocol although at least one states
    /// no absolute `$id` (hand-written schemas, test fixtures). Without it such a pair is
    /// refused: nothing shows they are two versions of one protocol, and comparing two
    /// unrelated contracts gives a meaningless verdict. It never overrides two `$id`s that name
    /// different protocols (what the schemas state wins over what the caller assumes).
    pub same_protocol: bool,
}

impl Options {
    /// The default options with [`Options::same_protocol`] set: for schemas without `$id`.
    pub fn assuming_same_protocol() -> Self {
        Options { same_protocol: true, ..Options::default() }
    }
}

/// The result of [`diff`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diff {
    /// The protocol's name as the schemas state it: the new schema's `title`, else its `$id`,
    /// else the old schema's (`None` when neither states one; outputs then fall back to the
    /// file name).
    pub title: Option<String>,
    /// The protocol-version property, when the schemas have one.
    pub version_field: Option<String>,
    /// The protocol version of the old schema.
    pub old_version: Option<Value>,
    /// The protocol version of the new schema.
    pub new_version: Option<Value>,
    /// Every change, in schema order (message types in union order, shared definitions once,
    /// where first reached).
    pub changes: Vec<Change>,
}

impl Diff {
    /// Whether any change breaks either direction.
    pub fn is_breaking(&self) -> bool {
        self.changes.iter().any(Change::is_breaking)
    }

    /// The changes that break either direction.
    pub fn breaking(&self) -> impl Iterator<Item = &Change> {
        self.changes.iter().filter(|c| c.is_breaking())
    }

    /// Whether the protocol version changed: both schemas state one, and they differ. A
    /// version that appears or disappears (a schema without one, such as a catch-all `true`,
    /// on either side) is no bump: no peer of one side sees the other's frames as a version
    /// mismatch.
    pub fn version_bumped(&self) -> bool {
        self.old_version.is_some() && self.new_version.is_some() && self.old_version != self.new_version
    }

    /// The versioning policy's verdict: breaking changes need a protocol-version bump.
    pub fn policy(&self) -> Policy {
        if self.version_bumped() {
            Policy::VersionBumped
        } else if self.is_breaking() {
            Policy::BreakingWithoutVersionBump
        } else if self.changes.is_empty() {
            Policy::Unchanged
        } else {
            Policy::Additive
        }
    }
}

/// Why two values could not be compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError(pub String);

impl std::fmt::Display for SchemaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SchemaError {}

/// Compares two schemas of one contract.
///
/// Both must be JSON Schema documents (an object or a boolean at the top). `$ref`s are
/// resolved locally (`#/$defs/...`); a shared definition is compared once and its changes
/// reported at its own pointer, with every message type that uses it.
pub fn diff(old: &Value, new: &Value, options: &Options) -> Result<Diff, SchemaError> {
    for (name, v) in [("old", old), ("new", new)] {
        if !v.is_object() && !v.is_boolean() {
            return Err(SchemaError(format!("the {name} schema is not a JSON Schema (expected an object, found {})", schema::json_type(v))));
        }
    }
    match (protocol_of(old), protocol_of(new)) {
        // Hosts are case-insensitive (RFC 3986 §3.2.2): `GraphMind.dev` is `graphmind.dev`.
        (Some(a), Some(b)) if !a.eq_ignore_ascii_case(b) => {
            return Err(SchemaError(format!(
                "the schemas describe different protocols (old: {a}, new: {b}); an evolution check compares two versions of one protocol"
            )));
        }
        (Some(_), Some(_)) => {}
        (a, b) if !options.same_protocol => {
            let missing: Vec<&str> = [("old", a), ("new", b)].into_iter().filter(|(_, p)| p.is_none()).map(|(n, _)| n).collect();
            return Err(SchemaError(format!(
                "cannot tell that the schemas describe one protocol: the {} schema{} no absolute `$id` (https://HOST/...); \
                 an evolution check compares two versions of one protocol. If they are, say so (--same-protocol)",
                missing.join(" and "),
                if missing.len() == 2 { "s state" } else { " states" }
            )));
        }
        _ => {}
    }
    Ok(compare::run(old, new, options))
}

/// The protocol a schema describes, as its `$id` names it: the host of an absolute `$id`
/// (`graphmind.dev`, `graphorin.dev`; user info and port left out), which stays the same
/// across versions; `None` without one. Compared case-insensitively, as hosts are.
fn protocol_of(schema: &Value) -> Option<&str> {
    let id = schema.get("$id")?.as_str()?;
    let rest = id.split_once("://")?.1;
    let authority = rest.split(['/', '?', '#']).next()?;
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    // A port follows the last `:` unless that colon sits inside an IPv6 literal (`[::1]`).
    let host = match host_port.rsplit_once(':') {
        Some((h, port)) if !port.contains(']') => h,
        _ => host_port,
    };
    (!host.is_empty()).then_some(host)
}

/// Parses schema text and compares; `old_name`/`new_name` label parse errors.
pub fn diff_text(old: &str, new: &str, old_name: &str, new_name: &str, options: &Options) -> Result<Diff, SchemaError> {
    let parse = |text: &str, name: &str| serde_json::from_str::<Value>(text).map_err(|e| SchemaError(format!("{name} is not valid JSON: {e}")));
    diff(&parse(old, old_name)?, &parse(new, new_name)?, options)
}

#[cfg(test)]
mod tests {
    use super::Rule;

    #[test]
    fn schemas_of_different_protocols_are_refused() {
        let gm = serde_json::json!({"$id": "https://graphmind.dev/wire/v1/envelope.schema.json"});
        let go = serde_json::json!({"$id": "https://graphorin.dev/wire/v1/frame.schema.json"});
        let gm2 = serde_json::json!({"$id": "https://graphmind.dev/wire/v2/envelope.schema.json"});
        let options = super::Options::default();
        let err = super::diff(&gm, &go, &options).expect_err("different protocols must be refused");
        assert!(err.0.contains("graphmind.dev") && err.0.contains("graphorin.dev"), "{}", err.0);
        assert!(super::diff(&gm, &gm2, &options).is_ok(), "two versions of one protocol compare");
        let upper = serde_json::json!({"$id": "https://GraphMind.DEV:443/wire/v2/envelope.schema.json"});
        assert!(super::diff(&gm, &upper, &options).is_ok(), "hosts compare case-insensitively (port ignored)");
        let assumed = super::Options::assuming_same_protocol();
        assert!(super::diff(&gm, &go, &assumed).is_err(), "--same-protocol never overrides two different $ids");
    }

    #[test]
    fn a_schema_without_id_is_refused_unless_the_caller_says_same_protocol() {
        let gm = serde_json::json!({"$id": "https://graphmind.dev/wire/v1/envelope.schema.json"});
        let bare = serde_json::json!({});
        let options = super::Options::default();
        let both = super::diff(&bare, &serde_json::json!(true), &options).expect_err("two schemas without $id");
        assert!(both.0.contains("old and new schemas state no absolute `$id`") && both.0.contains("--same-protocol"), "{}", both.0);
        let one = super::diff(&gm, &bare, &options).expect_err("one schema without $id");
        assert!(one.0.contains("the new schema states no absolute `$id`"), "{}", one.0);
        let relative = serde_json::json!({"$id": "envelope.schema.json"});
        assert!(super::diff(&relative, &gm, &options).is_err(), "a relative $id names no protocol");
        let assumed = super::Options::assuming_same_protocol();
        assert!(super::diff(&bare, &serde_json::json!(true), &assumed).is_ok());
        assert!(super::diff(&gm, &bare, &assumed).is_ok());
    }

    #[test]
    fn all_lists_every_rule_once_in_declaration_order() {
        for (i, r) in Rule::ALL.into_iter().enumerate() {
            assert_eq!(r as usize, i, "{r:?}");
            assert_eq!(Rule::from_name(&r.name()), Some(r));
        }
        assert_eq!(Rule::from_name("no-such-rule"), None);
    }
}
