//! The comparison: message types first, then a parallel walk of each old/new schema pair,
//! keyword by keyword. Every finding is a [`Change`] with a verdict per direction.
//!
//! Most findings are a change in the set of accepted values, and the verdicts follow from its
//! direction ([`Effect`]): NEW accepts more (widening) breaks old receivers, NEW accepts
//! less (narrowing) breaks old senders, neither contains the other breaks both. Message
//! types and properties are judged with the contract's tolerance rules instead (see the
//! crate documentation).

use std::collections::{BTreeSet, HashSet};

use serde_json::{Map, Value};

use crate::messages::{self, Message};
use crate::schema::{
    allows, canonical, child, child_index, document_title, effective_types, is_annotation, is_any, is_nothing, openness, show, types_subset, types_text,
    union_keyword, value_set, Doc, Num, Openness, Types, ValueSetForm,
};
use crate::{Change, Diff, Options, Rule, Side, Verdict};

/// Which way the set of accepted values moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Effect {
    /// NEW accepts more: breaking for old receivers.
    Widen,
    /// NEW accepts less: breaking for old senders.
    Narrow,
    /// Neither contains the other: breaking both ways.
    Both,
}

impl Effect {
    /// The verdicts (old receivers, old senders).
    fn verdicts(self) -> (Verdict, Verdict) {
        match self {
            Effect::Widen => (Verdict::Breaking, Verdict::Safe),
            Effect::Narrow => (Verdict::Safe, Verdict::Breaking),
            Effect::Both => (Verdict::Breaking, Verdict::Breaking),
        }
    }

    /// The usual reason, appended to a change's text.
    fn reason(self) -> &'static str {
        match self {
            Effect::Widen => "new senders may write values old receivers reject",
            Effect::Narrow => "new receivers reject values old senders may write",
            Effect::Both => "each side may write values the other rejects",
        }
    }
}

/// Keywords the walk understands; any other validation keyword is compared as text.
const HANDLED: &[&str] = &[
    "$ref",
    "type",
    "const",
    "enum",
    "anyOf",
    "oneOf",
    "allOf",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minItems",
    "maxItems",
    "uniqueItems",
    "items",
    "properties",
    "required",
    "additionalProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
];

/// Runs the whole comparison.
pub(crate) fn run(old: &Value, new: &Value, options: &Options) -> Diff {
    let (od, nd) = (Doc { root: old }, Doc { root: new });
    let (old_leaves, new_leaves) = (messages::leaves(od), messages::leaves(nd));
    let version_field = options.version_field.clone().or_else(|| messages::detect_version_field((od, &old_leaves), (nd, &new_leaves)));
    let version_of = |doc: Doc<'_>, leaves: &[messages::Leaf]| messages::version_value(doc, leaves, version_field.as_deref()?);
    let old_version = version_of(od, &old_leaves);
    let new_version = version_of(nd, &new_leaves);
    let (old_msgs, new_msgs) = messages::name_both((od, old_leaves), (nd, new_leaves), version_field.as_deref());
    let title = document_title(new).or_else(|| document_title(old));

    let mut w = Walker { old: od, new: nd, visited: HashSet::new(), changes: Vec::new() };
    if let Some(change) = whole_document(od, nd, &old_msgs, &new_msgs) {
        w.changes.extend(change);
        return Diff { title, version_field, old_version, new_version, changes: w.changes };
    }
    if let Some(field) = &version_field {
        if old_version != new_version {
            let path = new_msgs.first().map(|m| child(&child(&m.home, "properties"), field)).unwrap_or_default();
            let show_v = |v: &Option<Value>| v.as_ref().map_or_else(|| "(none)".to_owned(), show);
            w.push(
                Rule::ProtocolVersionChanged,
                Side::New,
                path,
                format!(
                    "protocol version {field} {} -> {}: each side sees the other's frames as a version mismatch",
                    show_v(&old_version),
                    show_v(&new_version)
                ),
                (Verdict::Breaking, Verdict::Breaking),
            );
            if let Some(c) = w.changes.last_mut() {
                c.messages = new_msgs.iter().map(|m| m.key.clone()).collect();
            }
        }
    }
    w.compare_messages(&old_msgs, &new_msgs, version_field.as_deref());

    let mut changes = w.changes;
    for c in &mut changes {
        if c.messages.is_empty() {
            let msgs = if c.side == Side::Old { &old_msgs } else { &new_msgs };
            c.messages = messages::users(msgs, &c.path);
        }
    }
    Diff { title, version_field, old_version, new_version, changes }
}

/// What a whole document accepts, when it is a catch-all: every value (`true`, `{}`, or only
/// annotations such as `{"foo": 1}`) or no value (`false`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Whole {
    /// Accepts every value.
    Everything,
    /// Accepts no value.
    Nothing,
    /// Accepts the frames of its message types.
    Messages,
}

impl Whole {
    /// How `doc` is read as a whole.
    fn of(doc: Doc<'_>) -> Whole {
        let root = doc.resolve(doc.root, "").value;
        if is_nothing(&root) {
            Whole::Nothing
        } else if is_any(&root) {
            Whole::Everything
        } else {
            Whole::Messages
        }
    }

    /// What it accepts, in words.
    fn text(self, msgs: &[Message]) -> String {
        match self {
            Whole::Everything => "accepts every value (true, {}, or no validation keyword at all)".to_owned(),
            Whole::Nothing => "accepts no value (false)".to_owned(),
            Whole::Messages => {
                // The catch-all branch for unknown types is no message type of its own.
                let n = msgs.iter().filter(|m| !m.catch_all).count();
                let unknown = if msgs.iter().any(|m| m.catch_all) { " (and frames of unknown types)" } else { "" };
                format!("accepts only the frames of its {n} message type{}{unknown}", if n == 1 { "" } else { "s" })
            }
        }
    }
}

/// A catch-all document on either side: it has no message types, versions or properties to
/// pair, so the two documents are compared as the sets of values they accept. One change for
/// the whole document (pointer `""`), judged by direction like any other change of accepted
/// values: accepting less (`true` -> a contract, a contract -> `false`) breaks old senders,
/// accepting more breaks old receivers. `None` when neither document is a catch-all.
fn whole_document(old: Doc<'_>, new: Doc<'_>, old_msgs: &[Message], new_msgs: &[Message]) -> Option<Vec<Change>> {
    let (o, n) = (Whole::of(old), Whole::of(new));
    if o == Whole::Messages && n == Whole::Messages {
        return None;
    }
    if o == n {
        return Some(Vec::new());
    }
    let effect = match (o, n) {
        (Whole::Everything, _) | (_, Whole::Nothing) => Effect::Narrow,
        _ => Effect::Widen,
    };
    let described = match (o, n) {
        (_, Whole::Messages) => new_msgs,
        (Whole::Messages, _) => old_msgs,
        _ => &[],
    };
    let messages: Vec<String> = described.iter().map(|m| m.key.clone()).collect();
    let change = format!("the whole schema {} and now {}: {}", o.text(old_msgs).replacen("accepts", "accepted", 1), n.text(new_msgs), effect.reason());
    let (old_receivers, old_senders) = effect.verdicts();
    Some(vec![Change { rule: Rule::SchemaChanged, path: String::new(), side: Side::New, change, old_receivers, old_senders, messages }])
}

/// The parallel walk over one old and one new document.
struct Walker<'a> {
    /// The old document.
    old: Doc<'a>,
    /// The new document.
    new: Doc<'a>,
    /// (old, new) definition pairs already compared: each shared definition is compared
    /// once, and recursive schemas end.
    visited: HashSet<(String, String)>,
    /// The findings so far.
    changes: Vec<Change>,
}

impl Walker<'_> {
    /// Records a change.
    fn push(&mut self, rule: Rule, side: Side, path: String, change: String, v: (Verdict, Verdict)) {
        // A keyword that was removed only exists in the old document.
        let side = if side == Side::New && self.new.root.pointer(&path).is_none() && self.old.root.pointer(&path).is_some() { Side::Old } else { side };
        self.changes.push(Change { rule, path, side, change, old_receivers: v.0, old_senders: v.1, messages: Vec::new() });
    }

    /// Records a change judged by its [`Effect`].
    fn effect(&mut self, rule: Rule, path: String, what: impl std::fmt::Display, effect: Effect) {
        let change = format!("{what}: {}", effect.reason());
        self.push(rule, Side::New, path, change, effect.verdicts());
    }

    /// Pairs the message types by name and compares each pair.
    fn compare_messages(&mut self, old: &[Message], new: &[Message], version: Option<&str>) {
        let tolerant = |msgs: &[Message], group: &str| msgs.iter().any(|m| m.catch_all && m.group == group);
        for o in old {
            match new.iter().find(|n| n.key == o.key) {
                Some(n) => {
                    let mut skip: Vec<&str> = version.into_iter().collect();
                    skip.extend(o.discriminator.as_deref());
                    skip.extend(n.discriminator.as_deref());
                    self.compare(&o.branch, &o.branch_ptr, &n.branch, &n.branch_ptr, &skip);
                }
                None if o.catch_all => self.push(
                    Rule::UnknownTypesNowRejected,
                    Side::Old,
                    o.home.clone(),
                    "the catch-all branch for unknown message types was removed: new receivers reject types they do not know, and a type added later breaks them".to_owned(),
                    (Verdict::Safe, Verdict::Breaking),
                ),
                None => {
                    let why = if tolerant(new, &o.group) {
                        "new receivers treat it as an unknown type: what old senders say with it is no longer understood"
                    } else {
                        "new receivers reject it"
                    };
                    self.changes.push(Change {
                        rule: Rule::MessageTypeRemoved,
                        path: o.home.clone(),
                        side: Side::Old,
                        change: format!("message type \"{}\" removed: {why}", o.key),
                        old_receivers: Verdict::Safe,
                        old_senders: Verdict::Breaking,
                        messages: vec![o.key.clone()],
                    });
                }
            }
        }
        for n in new.iter().filter(|n| !old.iter().any(|o| o.key == n.key)) {
            if n.catch_all {
                self.push(
                    Rule::UnknownTypesNowAccepted,
                    Side::New,
                    n.home.clone(),
                    "a catch-all branch for unknown message types was added: new senders may write types old receivers reject".to_owned(),
                    (Verdict::Breaking, Verdict::Safe),
                );
                continue;
            }
            let (receivers, why) = if tolerant(old, &n.group) {
                (Verdict::Safe, "old receivers accept it as an unknown type")
            } else {
                (Verdict::Breaking, "old receivers reject it (no catch-all for unknown types)")
            };
            self.changes.push(Change {
                rule: Rule::MessageTypeAdded,
                path: n.home.clone(),
                side: Side::New,
                change: format!("message type \"{}\" added: {why}", n.key),
                old_receivers: receivers,
                old_senders: Verdict::Safe,
                messages: vec![n.key.clone()],
            });
        }
    }

    /// Compares one old schema node with one new one. `skip` names properties left out at
    /// this level (the version and discriminator of a message type).
    fn compare(&mut self, o: &Value, o_ptr: &str, n: &Value, n_ptr: &str, skip: &[&str]) {
        let on = self.old.resolve(o, o_ptr);
        let nn = self.new.resolve(n, n_ptr);
        if (on.via_ref || nn.via_ref) && !self.visited.insert((on.ptr.clone(), nn.ptr.clone())) {
            return;
        }
        let (ov, nv, ptr) = (on.value, nn.value, nn.ptr);
        if is_nothing(&ov) || is_nothing(&nv) {
            if is_nothing(&ov) != is_nothing(&nv) {
                let (what, effect) = if is_nothing(&ov) {
                    ("schema false (no value) became a schema that accepts values", Effect::Widen)
                } else {
                    ("schema became false (no value is accepted)", Effect::Narrow)
                };
                self.effect(Rule::SchemaChanged, ptr, what.to_owned(), effect);
            }
            return;
        }
        let (ov, nv) = (as_object(&ov), as_object(&nv));

        // A union on one side only: read the other side as a union of one branch.
        let ou = union_keyword(self.old, &Value::Object(ov.clone()));
        let nu = union_keyword(self.new, &Value::Object(nv.clone()));
        let (ov, nv) = match (ou, nu) {
            (Some(_), None) => (ov, wrap_union(&nv)),
            (None, Some(_)) => (wrap_union(&ov), nv),
            _ => (ov, nv),
        };

        let ovs = value_set(self.old, &Value::Object(ov.clone()));
        let nvs = value_set(self.new, &Value::Object(nv.clone()));
        let ot = effective_types(&Value::Object(ov.clone()), ovs.as_ref().map(|v| v.0.as_slice()));
        let nt = effective_types(&Value::Object(nv.clone()), nvs.as_ref().map(|v| v.0.as_slice()));
        let value_sets = (ovs.is_some(), nvs.is_some());
        self.compare_values(ovs, nvs, &ot, &nt, &ptr);
        if value_sets != (true, true) {
            self.compare_types(&ot, &nt, &ptr);
        }
        let both = |t: &str| allows(&ot, t) && allows(&nt, t);
        if both("number") || both("integer") {
            self.compare_numeric(&ov, &nv, &ot, &nt, &ptr);
        }
        if both("string") {
            self.compare_strings(&ov, &nv, &ptr);
        }
        if both("array") {
            self.compare_arrays(&ov, &nv, &on.ptr, &ptr);
        }
        if both("object") {
            self.compare_objects(&ov, &nv, &on.ptr, &ptr, skip);
        }
        if !(value_sets.0 && value_sets.1) {
            self.compare_unions(&ov, &nv, &on.ptr, &ptr);
        }
        self.compare_all_of(&ov, &nv, &on.ptr, &ptr);
        self.compare_other(&ov, &nv, &ptr);
    }

    /// `const`/`enum` (and unions of `const`s): closed sets of values.
    fn compare_values(&mut self, ovs: Option<(Vec<Value>, ValueSetForm)>, nvs: Option<(Vec<Value>, ValueSetForm)>, ot: &Types, nt: &Types, ptr: &str) {
        match (ovs, nvs) {
            (None, None) => {}
            (Some((ov, of)), None) => self.effect(
                Rule::EnumRemoved,
                child(ptr, of.keyword()),
                format!("the closed set {} was dropped (now any {})", list(&ov), types_text(nt)),
                Effect::Widen,
            ),
            (None, Some((nv, nf))) => self.effect(
                Rule::EnumAdded,
                child(ptr, nf.keyword()),
                format!("values restricted to {} (was any {})", list(&nv), types_text(ot)),
                Effect::Narrow,
            ),
            (Some((ov, of)), Some((nv, nf))) => {
                if ov.len() == 1 && nv.len() == 1 && of == ValueSetForm::Const && nf == ValueSetForm::Const {
                    if ov[0] != nv[0] {
                        self.effect(Rule::ConstChanged, child(ptr, "const"), format!("const {} -> {}", show(&ov[0]), show(&nv[0])), Effect::Both);
                    }
                    return;
                }
                let at = child(ptr, nf.keyword());
                for v in nv.iter().filter(|v| !ov.contains(v)) {
                    if v.is_null() {
                        self.effect(Rule::BecameNullable, at.clone(), "null added to the allowed values (optional is not nullable)".to_owned(), Effect::Widen);
                    } else {
                        self.effect(Rule::EnumValueAdded, at.clone(), format!("value {} added (enums are closed)", show(v)), Effect::Widen);
                    }
                }
                for v in ov.iter().filter(|v| !nv.contains(v)) {
                    let rule = if v.is_null() { Rule::BecameNonNullable } else { Rule::EnumValueRemoved };
                    self.push(rule, Side::New, at.clone(), format!("value {} removed: new receivers reject it", show(v)), Effect::Narrow.verdicts());
                }
            }
        }
    }

    /// `type`, with `null` judged on its own.
    fn compare_types(&mut self, ot: &Types, nt: &Types, ptr: &str) {
        let at = child(ptr, "type");
        match (ot, nt) {
            (None, None) => {}
            (None, Some(_)) => self.effect(Rule::TypeChanged, at, format!("type any -> {}", types_text(nt)), Effect::Narrow),
            (Some(_), None) => self.effect(Rule::TypeChanged, at, format!("type {} -> any", types_text(ot)), Effect::Widen),
            (Some(o), Some(n)) => {
                let strip = |s: &BTreeSet<&'static str>| s.iter().copied().filter(|t| *t != "null").collect::<BTreeSet<_>>();
                let (os, ns) = (strip(o), strip(n));
                let (down, up) = (types_subset(&ns, &os), types_subset(&os, &ns));
                if !(down && up) {
                    let effect = match (down, up) {
                        (true, false) => Effect::Narrow,
                        (false, true) => Effect::Widen,
                        _ => Effect::Both,
                    };
                    self.effect(Rule::TypeChanged, at.clone(), format!("type {} -> {}", types_text(&Some(os)), types_text(&Some(ns))), effect);
                }
                match (o.contains("null"), n.contains("null")) {
                    (false, true) => self.effect(Rule::BecameNullable, at, "null became allowed (optional is not nullable)".to_owned(), Effect::Widen),
                    (true, false) => self.effect(Rule::BecameNonNullable, at, "null is no longer allowed".to_owned(), Effect::Narrow),
                    _ => {}
                }
            }
        }
    }

    /// `minimum`/`exclusiveMinimum`, `maximum`/`exclusiveMaximum` (compared as the bound they
    /// give, so `exclusiveMinimum: 0` equals `minimum: 1` on integers) and `multipleOf`.
    fn compare_numeric(&mut self, ov: &Map<String, Value>, nv: &Map<String, Value>, ot: &Types, nt: &Types, ptr: &str) {
        let int_only = |t: &Types| t.as_ref().is_some_and(|s| s.contains("integer") && !s.contains("number"));
        let (oi, ni) = (int_only(ot), int_only(nt));
        for lower in [true, false] {
            let ob = bound(ov, lower, oi);
            let nb = bound(nv, lower, ni);
            let tighter = match (ob, nb) {
                (None, None) => continue,
                (None, Some(_)) => true,
                (Some(_), None) => false,
                (Some(a), Some(b)) => {
                    let ord = a.0.cmp(b.0);
                    let ord = if lower { ord.reverse() } else { ord };
                    match ord {
                        std::cmp::Ordering::Greater => true,
                        std::cmp::Ordering::Less => false,
                        std::cmp::Ordering::Equal if a.1 == b.1 => continue,
                        std::cmp::Ordering::Equal => b.1,
                    }
                }
            };
            let keys: &[&str] = if lower { &["minimum", "exclusiveMinimum"] } else { &["maximum", "exclusiveMaximum"] };
            let what = format!("{} bound {} -> {}", if lower { "lower" } else { "upper" }, bound_text(ov, keys), bound_text(nv, keys));
            let key = keys.iter().find(|k| nv.contains_key(**k)).or_else(|| keys.iter().find(|k| ov.contains_key(**k))).unwrap_or(&keys[0]);
            let (rule, effect) = if tighter { (Rule::BoundTightened, Effect::Narrow) } else { (Rule::BoundLoosened, Effect::Widen) };
            self.effect(rule, child(ptr, key), what, effect);
        }
        let (om, nm) = (ov.get("multipleOf").and_then(Num::of), nv.get("multipleOf").and_then(Num::of));
        let effect = match (om, nm) {
            (None, None) => None,
            (None, Some(_)) => Some(Effect::Narrow),
            (Some(_), None) => Some(Effect::Widen),
            (Some(a), Some(b)) => {
                let (a, b) = (a.as_f64(), b.as_f64());
                let integral = |x: f64| (x - x.round()).abs() < 1e-9;
                if (a - b).abs() == 0.0 {
                    None
                } else if a != 0.0 && integral(b / a) {
                    Some(Effect::Narrow)
                } else if b != 0.0 && integral(a / b) {
                    Some(Effect::Widen)
                } else {
                    Some(Effect::Both)
                }
            }
        };
        if let Some(effect) = effect {
            self.constraint(ov, nv, "multipleOf", ptr, effect);
        }
    }

    /// Records a change of a non-bound constraint keyword.
    fn constraint(&mut self, ov: &Map<String, Value>, nv: &Map<String, Value>, key: &str, ptr: &str, effect: Effect) {
        let rule = match effect {
            Effect::Narrow => Rule::ConstraintTightened,
            Effect::Widen => Rule::ConstraintLoosened,
            Effect::Both => Rule::ConstraintChanged,
        };
        let what = format!("{key} {} -> {}", opt_show(ov.get(key)), opt_show(nv.get(key)));
        self.effect(rule, child(ptr, key), what, effect);
    }

    /// A count bound: `min*` (absent is 0) or `max*` (absent is unbounded).
    fn count_bound(&mut self, ov: &Map<String, Value>, nv: &Map<String, Value>, key: &str, ptr: &str) {
        let is_min = key.starts_with("min");
        let read = |m: &Map<String, Value>| m.get(key).and_then(Num::of).map(Num::as_f64);
        let (o, n) = (read(ov), read(nv));
        let norm = |v: Option<f64>| {
            if is_min {
                v.unwrap_or(0.0)
            } else {
                v.unwrap_or(f64::INFINITY)
            }
        };
        let (a, b) = (norm(o), norm(n));
        if (a - b).abs() == 0.0 || (a.is_infinite() && b.is_infinite()) {
            return;
        }
        let tighter = if is_min { b > a } else { b < a };
        let (rule, effect) = if tighter { (Rule::BoundTightened, Effect::Narrow) } else { (Rule::BoundLoosened, Effect::Widen) };
        let what = format!("{key} {} -> {}", opt_show(ov.get(key)), opt_show(nv.get(key)));
        self.effect(rule, child(ptr, key), what, effect);
    }

    /// `minLength`, `maxLength`, `pattern`, `format`.
    fn compare_strings(&mut self, ov: &Map<String, Value>, nv: &Map<String, Value>, ptr: &str) {
        self.count_bound(ov, nv, "minLength", ptr);
        self.count_bound(ov, nv, "maxLength", ptr);
        for key in ["pattern", "format"] {
            let effect = match (ov.get(key), nv.get(key)) {
                (None, None) => continue,
                (Some(a), Some(b)) if a == b => continue,
                (None, Some(_)) => Effect::Narrow,
                (Some(_), None) => Effect::Widen,
                (Some(_), Some(_)) => Effect::Both,
            };
            self.constraint(ov, nv, key, ptr, effect);
        }
    }

    /// `items`, `minItems`, `maxItems`, `uniqueItems`.
    fn compare_arrays(&mut self, ov: &Map<String, Value>, nv: &Map<String, Value>, o_ptr: &str, ptr: &str) {
        self.count_bound(ov, nv, "minItems", ptr);
        self.count_bound(ov, nv, "maxItems", ptr);
        let unique = |m: &Map<String, Value>| m.get("uniqueItems").and_then(Value::as_bool).unwrap_or(false);
        match (unique(ov), unique(nv)) {
            (false, true) => self.constraint(ov, nv, "uniqueItems", ptr, Effect::Narrow),
            (true, false) => self.constraint(ov, nv, "uniqueItems", ptr, Effect::Widen),
            _ => {}
        }
        if ov.contains_key("items") || nv.contains_key("items") {
            let any = Value::Bool(true);
            let oi = ov.get("items").unwrap_or(&any).clone();
            let ni = nv.get("items").unwrap_or(&any).clone();
            self.compare(&oi, &child(o_ptr, "items"), &ni, &child(ptr, "items"), &[]);
        }
    }

    /// `properties`, `required`, `additionalProperties`, `propertyNames`, `min/maxProperties`.
    fn compare_objects(&mut self, ov: &Map<String, Value>, nv: &Map<String, Value>, o_ptr: &str, ptr: &str, skip: &[&str]) {
        let names = |m: &Map<String, Value>| -> Vec<String> {
            let mut out: Vec<String> = m.get("properties").and_then(Value::as_object).map(|p| p.keys().cloned().collect()).unwrap_or_default();
            for r in m.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
                if !out.iter().any(|n| n == r) {
                    out.push(r.to_owned());
                }
            }
            out.retain(|n| !skip.contains(&n.as_str()));
            out
        };
        let (on, nn) = (names(ov), names(nv));
        let (o_open, n_open) = (openness(&Value::Object(ov.clone())), openness(&Value::Object(nv.clone())));

        for name in on.iter().filter(|n| nn.contains(n)) {
            let (op, np) = (child(&child(o_ptr, "properties"), name), child(&child(ptr, "properties"), name));
            self.compare(&prop(ov, name), &op, &prop(nv, name), &np, &[]);
            match (is_required(ov, name), is_required(nv, name)) {
                (false, true) => self.push(
                    Rule::PropertyBecameRequired,
                    Side::New,
                    np,
                    format!("property \"{name}\" became required: old senders may omit it, new receivers reject that"),
                    (Verdict::Safe, Verdict::Breaking),
                ),
                (true, false) => self.push(
                    Rule::PropertyBecameOptional,
                    Side::New,
                    np,
                    format!("property \"{name}\" became optional: new senders may omit it, old receivers require it"),
                    (Verdict::Breaking, Verdict::Safe),
                ),
                _ => {}
            }
        }

        self.compare_property_sets(ov, nv, o_ptr, ptr, &on, &nn);

        // Unknown keys.
        let at = child(ptr, "additionalProperties");
        match (&o_open, &n_open) {
            (Openness::Open | Openness::Schema(_), Openness::Closed) => self.push(
                Rule::ObjectClosed,
                Side::New,
                at,
                format!(
                    "additionalProperties {} -> false: new receivers reject the unknown fields old senders may add",
                    opt_show(ov.get("additionalProperties"))
                ),
                Effect::Narrow.verdicts(),
            ),
            (Openness::Closed, Openness::Open | Openness::Schema(_)) => self.push(
                Rule::ObjectOpened,
                Side::New,
                at,
                format!("additionalProperties false -> {}: new senders may add fields old receivers reject", opt_show(nv.get("additionalProperties"))),
                Effect::Widen.verdicts(),
            ),
            (Openness::Open, Openness::Open) | (Openness::Closed, Openness::Closed) => {}
            _ => {
                let oa = ov.get("additionalProperties").cloned().unwrap_or(Value::Bool(true));
                let na = nv.get("additionalProperties").cloned().unwrap_or(Value::Bool(true));
                self.compare(&oa, &child(o_ptr, "additionalProperties"), &na, &at, &[]);
            }
        }
        if ov.contains_key("propertyNames") || nv.contains_key("propertyNames") {
            let op = ov.get("propertyNames").cloned().unwrap_or(Value::Bool(true));
            let np = nv.get("propertyNames").cloned().unwrap_or(Value::Bool(true));
            self.compare(&op, &child(o_ptr, "propertyNames"), &np, &child(ptr, "propertyNames"), &[]);
        }
        self.count_bound(ov, nv, "minProperties", ptr);
        self.count_bound(ov, nv, "maxProperties", ptr);
    }

    /// Properties present on one side only: added, removed, or (same schema, unambiguous)
    /// renamed; judged with the objects' openness.
    fn compare_property_sets(&mut self, ov: &Map<String, Value>, nv: &Map<String, Value>, o_ptr: &str, ptr: &str, on: &[String], nn: &[String]) {
        let (o_open, n_open) = (openness(&Value::Object(ov.clone())), openness(&Value::Object(nv.clone())));
        let removed: Vec<&String> = on.iter().filter(|n| !nn.contains(n)).collect();
        let added: Vec<&String> = nn.iter().filter(|n| !on.contains(n)).collect();
        // Renames: a removed and an added property with the same schema, unambiguously.
        let key_old = |n: &str| canonical(&self.old.resolve(&prop(ov, n), "").value).to_string();
        let key_new = |n: &str| canonical(&self.new.resolve(&prop(nv, n), "").value).to_string();
        let mut renames: Vec<(&String, &String)> = Vec::new();
        for r in &removed {
            let k = key_old(r);
            let same_old: Vec<_> = removed.iter().filter(|x| key_old(x) == k).collect();
            let same_new: Vec<_> = added.iter().filter(|x| key_new(x) == k).collect();
            if same_old.len() == 1 && same_new.len() == 1 {
                renames.push((r, same_new[0]));
            }
        }

        let added_verdict = |name: &str| added_verdict(&o_open, nv, name);
        let removed_verdict = |name: &str| removed_verdict(ov, &n_open, name);

        for (from, to) in &renames {
            let (rr, rs) = removed_verdict(from);
            let (ar, as_) = added_verdict(to);
            let (receivers, senders) = (rr.0.max(ar.0), rs.0.max(as_.0));
            let why_receivers = match (rr.0, ar.0) {
                (Verdict::Breaking, _) => format!("old receivers require \"{from}\""),
                (_, Verdict::Breaking) => format!("old receivers reject the unknown key \"{to}\""),
                _ => format!("old receivers did not require \"{from}\" and keep \"{to}\" as an unknown field"),
            };
            let why_senders = match &n_open {
                Openness::Closed => format!("new receivers reject \"{from}\""),
                _ => format!("new receivers no longer understand \"{from}\""),
            };
            self.push(
                Rule::PropertyRenamed,
                Side::New,
                child(&child(ptr, "properties"), to),
                format!("property \"{from}\" renamed to \"{to}\" (same schema): {why_receivers}; {why_senders}"),
                (receivers, senders),
            );
        }
        for name in &removed {
            if renames.iter().any(|(f, _)| f == name) {
                continue;
            }
            let (r, s) = removed_verdict(name);
            let req = if is_required(ov, name) { "required" } else { "optional" };
            self.push(
                Rule::PropertyRemoved,
                Side::Old,
                child(&child(o_ptr, "properties"), name),
                format!("{req} property \"{name}\" removed: {}; {}", r.1, s.1),
                (r.0, s.0),
            );
        }
        for name in &added {
            if renames.iter().any(|(_, t)| t == name) {
                continue;
            }
            let (r, s) = added_verdict(name);
            let req = if is_required(nv, name) { "required" } else { "optional" };
            self.push(
                Rule::PropertyAdded,
                Side::New,
                child(&child(ptr, "properties"), name),
                format!("{req} property \"{name}\" added: {}; {}", r.1, s.1),
                (r.0, s.0),
            );
        }
    }

    /// `anyOf`/`oneOf` of schemas: branches paired by equality, then reference, then type.
    fn compare_unions(&mut self, ov: &Map<String, Value>, nv: &Map<String, Value>, o_ptr: &str, ptr: &str) {
        let kw = |m: &Map<String, Value>| {
            if m.get("anyOf").is_some_and(Value::is_array) {
                Some("anyOf")
            } else if m.get("oneOf").is_some_and(Value::is_array) {
                Some("oneOf")
            } else {
                None
            }
        };
        let (Some(ok), Some(nk)) = (kw(ov), kw(nv)) else {
            return;
        };
        let ob: Vec<Value> = ov[ok].as_array().cloned().unwrap_or_default();
        let nb: Vec<Value> = nv[nk].as_array().cloned().unwrap_or_default();
        // A wrapped single schema has no pointer of its own: its branch is the node itself.
        let bptr = |base: &str, k: &str, m: &Map<String, Value>, i: usize| {
            if m.contains_key(WRAPPED) {
                base.to_owned()
            } else {
                child_index(&child(base, k), i)
            }
        };
        if ok != nk && !ov.contains_key(WRAPPED) && !nv.contains_key(WRAPPED) {
            let effect = if nk == "oneOf" { Effect::Narrow } else { Effect::Widen };
            self.effect(Rule::UnionKindChanged, child(ptr, nk), format!("{ok} -> {nk}"), effect);
        }
        let ores: Vec<Value> = ob.iter().enumerate().map(|(i, b)| self.old.resolve(b, &bptr(o_ptr, ok, ov, i)).value).collect();
        let nres: Vec<Value> = nb.iter().enumerate().map(|(i, b)| self.new.resolve(b, &bptr(ptr, nk, nv, i)).value).collect();
        let (pairs, used_o, used_n) = pair_branches(&ob, &nb, &ores, &nres);
        for (i, j) in pairs {
            self.compare(&ob[i], &bptr(o_ptr, ok, ov, i), &nb[j], &bptr(ptr, nk, nv, j), &[]);
        }
        for j in (0..nb.len()).filter(|&j| !used_n[j]) {
            let at = bptr(ptr, nk, nv, j);
            if is_null_schema(&nres[j]) {
                self.effect(Rule::BecameNullable, at, "a null branch was added (optional is not nullable)".to_owned(), Effect::Widen);
            } else {
                self.effect(Rule::UnionBranchAdded, at, format!("{nk} branch {} added", branch_text(&nb[j], &nres[j])), Effect::Widen);
            }
        }
        for i in (0..ob.len()).filter(|&i| !used_o[i]) {
            let at = bptr(o_ptr, ok, ov, i);
            let (rule, what) = if is_null_schema(&ores[i]) {
                (Rule::BecameNonNullable, "the null branch was removed: new receivers reject null".to_owned())
            } else {
                (Rule::UnionBranchRemoved, format!("{ok} branch {} removed: new receivers reject values only it allowed", branch_text(&ob[i], &ores[i])))
            };
            self.push(rule, Side::Old, at, what, Effect::Narrow.verdicts());
        }
    }

    /// `allOf`: conjuncts paired by position.
    fn compare_all_of(&mut self, ov: &Map<String, Value>, nv: &Map<String, Value>, o_ptr: &str, ptr: &str) {
        let empty = Vec::new();
        let ob = ov.get("allOf").and_then(Value::as_array).unwrap_or(&empty).clone();
        let nb = nv.get("allOf").and_then(Value::as_array).unwrap_or(&empty).clone();
        for i in 0..ob.len().max(nb.len()) {
            let (op, np) = (child_index(&child(o_ptr, "allOf"), i), child_index(&child(ptr, "allOf"), i));
            match (ob.get(i), nb.get(i)) {
                (Some(a), Some(b)) => self.compare(a, &op, b, &np, &[]),
                (None, Some(b)) => self.effect(Rule::SchemaChanged, np, format!("allOf conjunct {} added", show(&canonical(b))), Effect::Narrow),
                (Some(a), None) => {
                    self.push(
                        Rule::SchemaChanged,
                        Side::Old,
                        op,
                        format!("allOf conjunct {} removed: new senders may write values old receivers reject", show(&canonical(a))),
                        Effect::Widen.verdicts(),
                    );
                }
                (None, None) => {}
            }
        }
    }

    /// Every other validation keyword (`not`, `if`, `prefixItems`, `contains`, ...): compared
    /// as text; a difference is judged breaking both ways, since it is not analysed.
    fn compare_other(&mut self, ov: &Map<String, Value>, nv: &Map<String, Value>, ptr: &str) {
        let mut keys: Vec<&String> = ov.keys().chain(nv.keys()).collect();
        keys.sort();
        keys.dedup();
        for k in keys {
            if is_annotation(k) || HANDLED.contains(&k.as_str()) || k == WRAPPED {
                continue;
            }
            let (a, b) = (ov.get(k).map(canonical), nv.get(k).map(canonical));
            if a != b {
                self.effect(
                    Rule::SchemaChanged,
                    child(ptr, k),
                    format!("keyword {k} {} -> {} (not analysed)", opt_show(a.as_ref()), opt_show(b.as_ref())),
                    Effect::Both,
                );
            }
        }
    }
}

/// Marker key of a schema read as a one-branch union (see [`wrap_union`]).
const WRAPPED: &str = "$wirecontract-wrapped";

/// A schema as a one-branch `anyOf`, keeping its annotations outside the branch.
fn wrap_union(m: &Map<String, Value>) -> Map<String, Value> {
    let mut outer = Map::new();
    let mut inner = Map::new();
    for (k, v) in m {
        if is_annotation(k) {
            outer.insert(k.clone(), v.clone());
        } else {
            inner.insert(k.clone(), v.clone());
        }
    }
    outer.insert("anyOf".into(), Value::Array(vec![Value::Object(inner)]));
    outer.insert(WRAPPED.into(), Value::Bool(true));
    outer
}

/// The schema as an object (`true` is `{}`).
fn as_object(v: &Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m.clone(),
        _ => Map::new(),
    }
}

/// A branch that only allows `null`.
fn is_null_schema(v: &Value) -> bool {
    let t = effective_types(v, None);
    t.is_some_and(|s| s.len() == 1 && s.contains("null")) || v.get("const").is_some_and(Value::is_null)
}

/// The declared types of a branch, for pairing.
fn types_key(v: &Value) -> Option<String> {
    if is_any(v) {
        return None;
    }
    effective_types(v, None).map(|t| types_text(&Some(t)))
}

/// The effective lower (or upper) bound: value and whether it is exclusive; normalized to an
/// inclusive integer bound when only integers are allowed.
fn bound(m: &Map<String, Value>, lower: bool, int_only: bool) -> Option<(Num, bool)> {
    let (incl, excl) = if lower { ("minimum", "exclusiveMinimum") } else { ("maximum", "exclusiveMaximum") };
    let mut cands = Vec::new();
    // `maximum: f64::MAX` (`minimum: -f64::MAX`) holds for every finite double, and finite
    // doubles are all the contracts accept as numbers (graphmind-v1 §1): no bound at all.
    let vacuous = |n: Num| {
        let f = n.as_f64();
        if lower {
            f <= -f64::MAX
        } else {
            f >= f64::MAX
        }
    };
    if let Some(n) = m.get(incl).and_then(Num::of).filter(|n| !vacuous(*n)) {
        cands.push((n, false));
    }
    if let Some(n) = m.get(excl).and_then(Num::of) {
        cands.push((n, true));
    }
    let cands = cands.into_iter().map(|(n, ex)| if int_only { (if lower { n.int_above(ex) } else { n.int_below(ex) }, false) } else { (n, ex) });
    // The tightest candidate.
    cands.reduce(|a, b| {
        let ord = a.0.cmp(b.0);
        let ord = if lower { ord } else { ord.reverse() };
        match ord {
            std::cmp::Ordering::Greater => a,
            std::cmp::Ordering::Less => b,
            std::cmp::Ordering::Equal => {
                if a.1 {
                    a
                } else {
                    b
                }
            }
        }
    })
}

/// The bound keywords as written: `minimum 0`, `exclusiveMinimum 0`, `none`.
fn bound_text(m: &Map<String, Value>, keys: &[&str]) -> String {
    let parts: Vec<String> = keys.iter().filter_map(|k| m.get(*k).map(|v| format!("{k} {v}"))).collect();
    if parts.is_empty() {
        "none".to_owned()
    } else {
        parts.join(", ")
    }
}

/// A keyword's value for messages, `none` when absent.
fn opt_show(v: Option<&Value>) -> String {
    v.map_or_else(|| "none".to_owned(), show)
}

/// Values for messages: `["a", "b"]`.
fn list(values: &[Value]) -> String {
    show(&Value::Array(values.to_vec()))
}

/// A union branch for messages: its definition name, its types, or its text.
fn branch_text(written: &Value, resolved: &Value) -> String {
    if let Some(r) = written.get("$ref").and_then(Value::as_str) {
        return r.rsplit('/').next().unwrap_or(r).to_owned();
    }
    match effective_types(resolved, None) {
        Some(t) => format!("({})", types_text(&Some(t))),
        None => show(&canonical(resolved)),
    }
}

/// The schema of property `name` (`true` when only `required` names it).
fn prop(m: &Map<String, Value>, name: &str) -> Value {
    m.get("properties").and_then(|p| p.get(name)).cloned().unwrap_or(Value::Bool(true))
}

/// Whether the object requires property `name`.
fn is_required(m: &Map<String, Value>, name: &str) -> bool {
    m.get("required").and_then(Value::as_array).is_some_and(|r| r.iter().any(|x| x == name))
}

/// A verdict with its reason.
type Judged = (Verdict, &'static str);

/// Verdicts (old receivers, old senders) for a property added to an object whose old
/// version has openness `old_open`.
fn added_verdict(old_open: &Openness, nv: &Map<String, Value>, name: &str) -> (Judged, Judged) {
    let receivers = match old_open {
        Openness::Open => (Verdict::Safe, "old receivers keep it as an unknown field"),
        Openness::Closed => (Verdict::Breaking, "old receivers reject unknown keys (strict object)"),
        Openness::Schema(s) if canonical(s) == canonical(&prop(nv, name)) => (Verdict::Safe, "it matches the old additionalProperties"),
        Openness::Schema(_) => (Verdict::Breaking, "old receivers check it against their additionalProperties"),
    };
    let senders = if is_required(nv, name) { (Verdict::Breaking, "old senders do not send it") } else { (Verdict::Safe, "old senders may leave it out") };
    (receivers, senders)
}

/// Verdicts (old receivers, old senders) for a property removed from an object whose new
/// version has openness `new_open`.
fn removed_verdict(ov: &Map<String, Value>, new_open: &Openness, name: &str) -> (Judged, Judged) {
    let receivers = if is_required(ov, name) { (Verdict::Breaking, "old receivers require it") } else { (Verdict::Safe, "old receivers did not require it") };
    let senders = match new_open {
        Openness::Closed => (Verdict::Breaking, "new receivers reject it (strict object)"),
        _ => (Verdict::Breaking, "new receivers no longer understand it (at best kept as an unknown field)"),
    };
    (receivers, senders)
}

/// Pairs old and new union branches: equal schemas first, then the same `$ref`, then the
/// same types; a single leftover on each side pairs too. Returns the pairs (in new order)
/// and which branches were used on each side.
fn pair_branches(ob: &[Value], nb: &[Value], ores: &[Value], nres: &[Value]) -> (Vec<(usize, usize)>, Vec<bool>, Vec<bool>) {
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut used_o = vec![false; ob.len()];
    let mut used_n = vec![false; nb.len()];
    let strategies: [&dyn Fn(usize, usize) -> bool; 3] =
        [&|i, j| canonical(&ores[i]) == canonical(&nres[j]), &|i, j| ob[i].get("$ref").is_some() && ob[i].get("$ref") == nb[j].get("$ref"), &|i, j| {
            types_key(&ores[i]) == types_key(&nres[j])
        }];
    for same in strategies {
        for (i, used) in used_o.iter_mut().enumerate() {
            if *used {
                continue;
            }
            if let Some(j) = (0..nb.len()).find(|&j| !used_n[j] && same(i, j)) {
                *used = true;
                used_n[j] = true;
                pairs.push((i, j));
            }
        }
    }
    // Whatever is left pairs up in order when both sides have one left.
    let left_o: Vec<usize> = (0..ob.len()).filter(|&i| !used_o[i]).collect();
    let left_n: Vec<usize> = (0..nb.len()).filter(|&j| !used_n[j]).collect();
    if left_o.len() == 1 && left_n.len() == 1 {
        pairs.push((left_o[0], left_n[0]));
        used_o[left_o[0]] = true;
        used_n[left_n[0]] = true;
    }
    pairs.sort_by_key(|p| p.1);
    (pairs, used_o, used_n)
}
