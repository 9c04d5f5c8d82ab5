//! `typescript/accept.js`: the acceptance test of GraphMind envelopes on a `JSON.parse` value,
//! written from the contract's typed registry. `acceptEnvelope(value)` says `0` when the
//! contract's parser gives `ok` for the frame the value came from, `1` for `unknown-type`, and
//! `-1` when it cannot tell; it never rejects. The WASM backend of `@wirecontract/node` parses
//! each frame with `JSON.parse` first and asks the contract (the WASM module) only on `-1`, so
//! an accepted frame costs one parse instead of two (`api.js` `decide`).
//!
//! Why a `JSON.parse` value is enough to say `ok` (graphmind-v1 §5): duplicate keys are
//! last-wins and `__proto__` an ordinary key in the contract as in `JSON.parse`; integer and
//! number fields are decided on the correctly rounded double (`json::safe_integer`, finite),
//! the very value `JSON.parse` makes; typed strings take any decoded text, and only `runId`
//! refuses lone surrogates and U+0000, checked here on the decoded string. What the value
//! cannot show is the frame's size and its nesting, including that of a duplicate key's
//! discarded value: the caller checks both on the text (`api.js`) before asking. A rule this
//! file cannot state (an exact 64-bit integer) answers `-1`.

use std::collections::HashSet;
use std::fmt::Write as _;

use wirecontract::graphmind;
use wirecontract::registry::{EnumDesc, ObjectDesc, Scalar, Ty};

fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// Names a `JSON.parse` object inherits from `Object.prototype`: a member of that name is
/// read as an own property only.
const INHERITED: &[&str] = &[
    "constructor",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toLocaleString",
    "toString",
    "valueOf",
    "__proto__",
    "__defineGetter__",
    "__defineSetter__",
    "__lookupGetter__",
    "__lookupSetter__",
];

/// The JavaScript expression reading member `wire` of object `v`.
fn member(v: &str, wire: &str) -> String {
    if INHERITED.contains(&wire) {
        format!("(hasOwn.call({v}, {q}) ? {v}[{q}] : undefined)", q = quote(wire))
    } else {
        format!("{v}[{}]", quote(wire))
    }
}

/// A JavaScript boolean expression: whether `x` (an expression without side effects) is a
/// value of `ty` as the contract reads it.
fn check(ty: &Ty, x: &str) -> String {
    match ty {
        Ty::List(t) => format!("list({x}, {})", checker(t)),
        Ty::Enum(e) => format!("e{}({x})", e.name),
        Ty::Object(o) => format!("o{}({x})", o.name),
        Ty::Scalar(s) => match s {
            Scalar::Bool => format!("typeof {x} === 'boolean'"),
            Scalar::String => format!("typeof {x} === 'string'"),
            Scalar::NonEmptyString => format!("(typeof {x} === 'string' && {x}.length > 0)"),
            Scalar::SafeUInt => format!("(Number.isSafeInteger({x}) && {x} >= 0)"),
            Scalar::PositiveSafeUInt => format!("(Number.isSafeInteger({x}) && {x} > 0)"),
            Scalar::SafeInt => format!("Number.isSafeInteger({x})"),
            // No JavaScript number holds every exact 64-bit integer: the contract decides.
            Scalar::ExactUInt | Scalar::ExactInt | Scalar::RpcId => "false".into(),
            Scalar::Finite => format!("Number.isFinite({x})"),
            Scalar::NonNegativeFinite => format!("(Number.isFinite({x}) && {x} >= 0)"),
            Scalar::Opaque => format!("{x} !== undefined"),
            Scalar::OpaqueObject => format!("isObject({x})"),
        },
    }
}

/// A function of one argument checking `ty` (for list elements).
fn checker(ty: &Ty) -> String {
    match ty {
        Ty::Enum(e) => format!("e{}", e.name),
        Ty::Object(o) => format!("o{}", o.name),
        _ => format!("(y) => {}", check(ty, "y")),
    }
}

fn enum_fn(out: &mut String, e: &EnumDesc) {
    let tests: Vec<String> = e.wire_values().map(|v| format!("x === {}", quote(v))).collect();
    let _ = writeln!(out, "function e{}(x) {{\n  return {};\n}}", e.name, tests.join(" || "));
}

fn deps(ty: &Ty, out: &mut Vec<&'static ObjectDesc>) {
    match ty {
        Ty::List(t) => deps(t, out),
        Ty::Object(o) => out.push(o),
        _ => {}
    }
}

fn object_fn(out: &mut String, o: &'static ObjectDesc, done: &mut HashSet<&'static str>) {
    if !done.insert(o.name) {
        return;
    }
    let mut refs = Vec::new();
    for f in o.fields {
        deps(&f.ty, &mut refs);
    }
    for r in refs {
        object_fn(out, r, done);
    }
    let _ = writeln!(out, "function o{}(v) {{\n  if (!isObject(v)) return false;\n  let x;", o.name);
    for (k, lit) in o.literals {
        let _ = writeln!(out, "  if ({} !== {}) return false;", member("v", k), quote(lit));
    }
    for f in o.fields {
        let _ = writeln!(out, "  x = {};", member("v", f.wire));
        let ok = check(&f.ty, "x");
        if f.required {
            let _ = writeln!(out, "  if (!({ok})) return false;");
        } else {
            let _ = writeln!(out, "  if (x !== undefined && !({ok})) return false;");
        }
    }
    if o.strict {
        let known: Vec<String> = o.literals.iter().map(|(k, _)| *k).chain(o.fields.iter().map(|f| f.wire)).map(|k| format!("k === {}", quote(k))).collect();
        let _ = writeln!(out, "  for (const k of Object.keys(v)) if (!({})) return false;", known.join(" || "));
    }
    let _ = writeln!(out, "  return true;\n}}");
}

/// The whole `accept.js`.
pub fn acceptor() -> String {
    let p = &graphmind::PROTOCOL;
    let mut out = String::from(
        "'use strict';
// @wirecontract/node: whether the contract's parser accepts a GraphMind v1 frame, told from its
// JSON.parse value. Generated by scripts/gen (src/accept.rs) from the wirecontract registry;
// do not edit. Regenerate with scripts/regen; bindings/node/build.sh copies this file into the
// package.
//
// acceptEnvelope(value): 0 when the parser says `ok`, 1 when it says `unknown-type`, -1 when
// this file cannot tell (the caller then asks the parser, which also gives every reason and
// issue). Sound for the JSON.parse value of a frame whose size (UTF-8 bytes) and nesting are
// within the parser's caps; the caller checks both on the text. See src/accept.rs.

const hasOwn = Object.prototype.hasOwnProperty;
const isObject = (x) => typeof x === 'object' && x !== null && !Array.isArray(x);
function list(x, item) {
  if (!Array.isArray(x)) return false;
  for (let i = 0; i < x.length; i++) if (!item(x[i])) return false;
  return true;
}
",
    );
    for e in p.enums() {
        enum_fn(&mut out, e);
    }
    let mut done = HashSet::new();
    for o in p.objects() {
        object_fn(&mut out, o, &mut done);
    }
    let _ = write!(
        out,
        "
/** 0 (`ok`), 1 (`unknown-type`) or -1 (ask the parser) for a JSON.parse value. */
function acceptEnvelope(v) {{
  if (!isObject(v) || v.gm !== {version}) return -1;
  const seq = v.seq;
  const ts = v.ts;
  if (!(Number.isSafeInteger(seq) && seq >= 0 && Number.isSafeInteger(ts) && ts >= 0)) return -1;
  // runId: a string without lone surrogates or U+0000 (graphmind-v1 §5.9).
  const runId = v.runId;
  if (typeof runId !== 'string' || !runId.isWellFormed() || runId.indexOf('\\u0000') !== -1) return -1;
  const type = v.type;
  if (typeof type !== 'string') return -1;
  switch (type) {{
",
        version = graphmind::PROTOCOL_VERSION
    );
    for m in p.messages {
        let _ = writeln!(out, "    case {}:\n      return o{}(v.payload) ? 0 : -1;", quote(m.wire), m.payload.name);
    }
    out.push_str(
        "    default:
      // A type outside MESSAGE_TYPES: the payload is opaque, and may be absent.
      return 1;
  }
}

module.exports = { acceptEnvelope };
",
    );
    out
}
