//! The checks a frame must pass that Rust types do not enforce: [`check_envelope`] (what
//! [`super::serialize_envelope`] refuses and bindings call instead of restating the rules),
//! and the counter rules shared with the builders.

use crate::wire::Issue;
use wirecontract_json as json;

use super::{payload_type_name, BuildError, Envelope, Message, SafeUInt};

/// The parser's own issue for a counter spelled `text` (the [`SafeUInt`] reader's rule and
/// message, at `name`), or `None` when it is in range: one text for one rule, built or parsed.
pub(super) fn counter_issue(name: &str, text: &str) -> Option<Issue> {
    let issue = crate::wire::from_json::<SafeUInt>(text).err()?.into_iter().next()?;
    Some(Issue::at(name, issue.message))
}

pub(super) fn check_counters(seq: u64, ts: u64, run_id: &str) -> Vec<Issue> {
    let mut issues = Vec::new();
    for (name, v) in [("seq", seq), ("ts", ts)] {
        if v > json::MAX_SAFE_INTEGER {
            issues.extend(counter_issue(name, &v.to_string()));
        }
    }
    if run_id.contains('\0') {
        issues.push(Issue::at("runId", "runId must not contain U+0000"));
    }
    issues
}

/// Checks an envelope against every rule a frame must meet that Rust types do not already
/// enforce, without writing it: `seq`/`ts` within `0 ≤ x ≤ 2^53 − 1`, no U+0000 in
/// `run_id` (§2 stage 1), a [`Message::Unknown`] not named like a known type, and every
/// integer field of a typed payload within the JS safe range (`|x| ≤ 2^53 − 1`, unsigned
/// ones `≥ 0`). Bindings converting host values call this instead of restating the rules.
/// [`serialize_envelope`](super::serialize_envelope) adds the one rule left, the nesting depth of the written frame.
///
/// # Errors
/// [`BuildError`] with one issue per broken rule (paths from the frame root: `seq`, `ts`,
/// `runId`, `type`, `payload.…`).
pub fn check_envelope(envelope: &Envelope) -> Result<(), BuildError> {
    let mut issues = check_counters(envelope.seq, envelope.ts, &envelope.run_id);
    match &envelope.message {
        Message::Unknown { message_type, .. } if payload_type_name(message_type).is_some() => {
            issues.push(Issue::at("type", format!("\"{message_type}\" is a known type: its message must be typed (create_envelope reads it)")));
        }
        m => {
            if let Some(p) = m.payload() {
                check_object(p, &CheckPath::Root("payload"), &mut issues);
            }
        }
    }
    if issues.is_empty() {
        Ok(())
    } else {
        Err(BuildError { reason: "envelope fields out of range".into(), issues })
    }
}

/// A path built only when an issue needs it (the check runs on every serialize, so the
/// happy path allocates nothing).
enum CheckPath<'a> {
    Root(&'static str),
    Key(&'a CheckPath<'a>, &'static str),
    Index(&'a CheckPath<'a>, usize),
}

impl CheckPath<'_> {
    fn path(&self) -> crate::wire::IssuePath {
        match self {
            CheckPath::Root(k) => {
                let mut p = crate::wire::IssuePath::root();
                p.push_key(k);
                p
            }
            CheckPath::Key(parent, k) => {
                let mut p = parent.path();
                p.push_key(k);
                p
            }
            CheckPath::Index(parent, i) => {
                let mut p = parent.path();
                p.push_index(*i);
                p
            }
        }
    }

    fn issue(&self, message: String) -> Issue {
        Issue { path: self.path(), code: None, message }
    }
}

fn check_object(obj: &dyn crate::wire::Reflect, path: &CheckPath<'_>, issues: &mut Vec<Issue>) {
    // Only fields whose declared type can hold a number are looked at: most fields (strings,
    // enums, opaque values, lists of text-only objects) cannot fail this check.
    for f in obj.fields().iter().filter(|f| may_hold_number(&f.ty, 8)) {
        if let Some(v) = obj.get(f.wire) {
            check_field(&v, &CheckPath::Key(path, f.wire), issues);
        }
    }
}

/// Whether a value of declared type `ty` can hold a number (what [`check_field`] checks):
/// `false` only for booleans, strings, enums and opaque values, and lists and objects made of
/// nothing else. Conservative past `depth` levels of nested declarations.
fn may_hold_number(ty: &crate::registry::Ty, depth: u8) -> bool {
    use crate::registry::{Scalar, Ty};
    match ty {
        Ty::Scalar(Scalar::Bool | Scalar::String | Scalar::NonEmptyString | Scalar::Opaque | Scalar::OpaqueObject) | Ty::Enum(_) => false,
        Ty::Scalar(_) => true,
        Ty::List(item) => may_hold_number(item, depth),
        Ty::Object(o) => depth == 0 || o.fields.iter().any(|f| may_hold_number(&f.ty, depth - 1)),
    }
}

fn check_field(v: &crate::wire::FieldRef<'_>, path: &CheckPath<'_>, issues: &mut Vec<Issue>) {
    use crate::wire::FieldRef;
    let max = json::MAX_SAFE_INTEGER;
    match v {
        FieldRef::UInt(x) if *x > max => issues.push(path.issue(format!("too big: expected integer to be <= {max}, received {x}"))),
        FieldRef::Int(x) if x.unsigned_abs() > max => {
            issues.push(path.issue(format!("out of range: expected integer between -{max} and {max}, received {x}")));
        }
        FieldRef::Number(x) if !x.is_finite() => issues.push(path.issue(format!("expected a finite number, received {x}"))),
        FieldRef::Object(o) => check_object(*o, path, issues),
        FieldRef::List(items) => {
            for (i, item) in items.iter().enumerate() {
                check_field(item, &CheckPath::Index(path, i), issues);
            }
        }
        _ => {}
    }
}
