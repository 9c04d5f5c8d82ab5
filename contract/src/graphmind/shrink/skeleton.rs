//! Tier 3, the skeleton (graphmind-shrink §7), with plans derived from the contract's registry
//! (§7.1) and the "must also validate" check (§6).

use std::borrow::Cow;

use super::units::{cut, len16};
use super::value::{JsObject, JsValue};
use super::write::{set, write_out, Out};
use super::MARKER_KEY;
use crate::graphmind::{MessageGroup, PROTOCOL};
use crate::registry::{MessageDesc, ObjectDesc, Ty};

/// What a skeleton does with one planned key (§7.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlanKey {
    /// A required key: kept, hard-shrunk (`null` in the reference's plan).
    Keep,
    /// An optional key: kept only when its value is a string, number or boolean.
    Optional,
    /// A required key whose schema is a loose object: that object's own plan.
    Nested(Vec<(&'static str, PlanKey)>),
}

/// How a field's declaration maps to a plan entry (§7.1): required loose object → nested,
/// other required → keep, optional → optional.
fn classify(field: &crate::registry::FieldDesc) -> Option<&'static ObjectDesc> {
    match field.ty {
        Ty::Object(o) if field.required && !o.strict => Some(o),
        _ => None,
    }
}

fn plan_of(obj: &'static ObjectDesc) -> Vec<(&'static str, PlanKey)> {
    obj.fields
        .iter()
        .map(|f| {
            let key = match classify(f) {
                _ if !f.required => PlanKey::Optional,
                Some(o) => PlanKey::Nested(plan_of(o)),
                None => PlanKey::Keep,
            };
            (f.wire, key)
        })
        .collect()
}

/// The event type `message_type`, the only types with a plan and a validator (§3 S1, §6 V1).
/// An exact lookup: `constructor`, `""` or `Node.Finished` find nothing.
pub(super) fn event(message_type: Option<&str>) -> Option<&'static MessageDesc> {
    PROTOCOL.message(message_type?).filter(|m| m.group == MessageGroup::Event)
}

/// The skeleton plan of an event type, in declaration (= plan) order, read from the
/// registry; `None` for every other type (§7.1).
pub fn skeleton_plan(message_type: &str) -> Option<Vec<(&'static str, PlanKey)>> {
    event(Some(message_type)).map(|m| plan_of(m.payload))
}

/// `isValidFor` (§6 V1): the text parses as the event type's payload with the contract's own
/// reader; "valid" for no type or a non-event type.
pub(super) fn valid_or_unchecked(event: Option<&MessageDesc>, json: &str) -> bool {
    event.is_none_or(|m| (m.payload.read_json)(json).is_ok())
}

/// The outcome of `keepPlanned` (§7.2 K2) on one object.
struct Kept<'a> {
    members: Vec<(&'a [u8], Out<'a>)>,
    /// Keys kept (K2 step 3).
    count: usize,
    /// Keys kept unchanged.
    verbatim: Vec<&'a [u8]>,
}

/// `keepPlanned(value, plan, chars)` (K2): planned keys in plan order. Recursion follows the
/// plan's nesting (at most two levels in this contract).
fn keep_planned<'a>(o: &'a JsObject, plan: &'static ObjectDesc, chars: usize) -> Kept<'a> {
    let mut k = Kept { members: Vec::new(), count: 0, verbatim: Vec::new() };
    for f in plan.fields {
        let Some((key, value)) = o.entries().iter().find(|(key, _)| key.as_wtf8() == f.wire.as_bytes()) else { continue };
        // K2.2: an optional null, object or array is skipped (the "repair" of §6 V4).
        if !f.required && !matches!(value, JsValue::String(_) | JsValue::Number(_) | JsValue::Bool(_)) {
            continue;
        }
        let (v, verbatim) = hard_shrink(value, if f.required { classify(f) } else { None }, chars);
        k.members.push((key.as_wtf8(), v));
        k.count += 1;
        if verbatim {
            k.verbatim.push(key.as_wtf8());
        }
    }
    k
}

/// `hardShrink` (K3): the shrunk value and whether it is unchanged.
fn hard_shrink<'a>(value: &'a JsValue, sub: Option<&'static ObjectDesc>, chars: usize) -> (Out<'a>, bool) {
    match value {
        JsValue::String(s) => {
            let (c, was_cut) = cut(s.as_wtf8(), chars);
            (Out::Str(c), !was_cut)
        }
        JsValue::Null | JsValue::Bool(_) | JsValue::Number(_) => (Out::Ref(value), true),
        JsValue::Array(items) => (Out::List(Vec::new()), items.is_empty()),
        JsValue::Object(o) => match sub {
            Some(plan) => {
                let k = keep_planned(o, plan, chars);
                let verbatim = k.verbatim.len() == k.count && o.len() <= k.count;
                (Out::Object(k.members), verbatim)
            }
            None => (super::trim::marker(0, Cow::Borrowed(b"[omitted]")), false),
        },
    }
}

/// `skeletonPayload` (§7.2 K1–K9): the first attempt that fits and validates, as JSON text.
pub(super) fn skeleton(o: &JsObject, event: &MessageDesc, max_bytes: usize, bytes: usize, preview: &[u8]) -> Option<String> {
    for (chars, full) in [(super::SKELETON_CHARS, true), (super::SKELETON_CHARS, false), (super::SKELETON_MIN_CHARS, false)] {
        let k = keep_planned(o, event.payload, chars);
        let mut out = k.members;
        // K5.
        set(&mut out, MARKER_KEY, Out::Bool(true));
        set(&mut out, "bytes", Out::Count(bytes));
        set(&mut out, "preview", Out::Str(Cow::Borrowed(if full { preview } else { b"" })));
        if full {
            // K6: payload keys not kept verbatim, in payload order; too many key units skip
            // the attempt.
            let mut fields = Vec::new();
            let mut units = 0usize;
            let mut over = false;
            for (key, _) in o.entries() {
                if k.verbatim.contains(&key.as_wtf8()) {
                    continue;
                }
                units += len16(key.as_wtf8());
                if units > max_bytes {
                    over = true;
                    break;
                }
                fields.push(Out::Str(Cow::Borrowed(key.as_wtf8())));
            }
            if over {
                continue;
            }
            set(&mut out, "fields", Out::List(fields));
        }
        // K7, K8.
        let mut json = Vec::new();
        write_out(&mut json, &Out::Object(out));
        if json.len() > max_bytes {
            continue;
        }
        let json = super::write::into_string(json);
        if valid_or_unchecked(Some(event), &json) {
            return Some(json);
        }
    }
    None
}
