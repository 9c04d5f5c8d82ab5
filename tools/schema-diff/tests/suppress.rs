//! The suppression file: what it accepts, what it refuses (with a message naming the file
//! and line), and how entries match changes.

use serde_json::json;
use wirecontract_schema_diff::{diff, Change, Labels, Options, Policy, Review, Rule, Status, Suppressions, UnusedReason};

const FILE: &str = ".wirecontract-evolution.toml";

fn refused(text: &str) -> String {
    match Suppressions::parse(text, FILE) {
        Ok(s) => panic!("accepted {text:?}: {s:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_complete_entry_is_read_with_its_line() {
    let s = Suppressions::parse(
        "# why\n\n[[accept]]\nrule = \"enum-value-removed\"\npointer = \"/$defs/Kind/enum\"\nreason = \" no sender used it \"\nuntil_version = 2\n",
        FILE,
    )
    .expect("valid");
    assert_eq!(s.entries.len(), 1);
    let e = &s.entries[0];
    assert_eq!(e.rule, Rule::EnumValueRemoved);
    assert_eq!(e.pointer, "/$defs/Kind/enum");
    assert_eq!(e.reason, "no sender used it");
    assert_eq!(e.until_version, Some(json!(2)));
    assert_eq!(e.line, 3);
    assert!(Suppressions::parse("", FILE).expect("empty").entries.is_empty());
}

#[test]
fn an_entry_without_a_reason_is_refused() {
    let msg = refused("[[accept]]\nrule = \"enum-value-added\"\npointer = \"/a\"\n");
    assert!(msg.contains(".wirecontract-evolution.toml:1:"), "{msg}");
    assert!(msg.contains("has no reason"), "{msg}");
    let msg = refused("[[accept]]\nrule = \"enum-value-added\"\npointer = \"/a\"\nreason = \"  \"\n");
    assert!(msg.contains("has no reason"), "{msg}");
}

#[test]
fn unknown_rules_bad_pointers_unknown_keys_and_bad_toml_are_refused() {
    let msg = refused("[[accept]]\nrule = \"enum-valu-added\"\npointer = \"/a\"\nreason = \"r\"\n");
    assert!(msg.contains("unknown rule \"enum-valu-added\""), "{msg}");
    let msg = refused("[[accept]]\nrule = \"enum-value-added\"\npointer = \"a\"\nreason = \"r\"\n");
    assert!(msg.contains("not a JSON Pointer"), "{msg}");
    let msg = refused("[[accept]]\nrule = \"enum-value-added\"\npointer = \"/a~2\"\nreason = \"r\"\n");
    assert!(msg.contains("not a JSON Pointer"), "{msg}");
    let msg = refused("[[accept]]\nrule = \"enum-value-added\"\npath = \"/a\"\nreason = \"r\"\n");
    assert!(msg.contains("not a valid suppression file"), "{msg}");
    let msg = refused("[[acept]]\nrule = \"enum-value-added\"\n");
    assert!(msg.contains("not a valid suppression file"), "{msg}");
    let msg = refused("[[accept]]\nrule = \"enum-value-added\"\npointer = \"/a\"\nreason = \"r\"\nuntil_version = 1.5\n");
    assert!(msg.contains("until_version"), "{msg}");
    // Every problem is listed, not only the first.
    let msg = refused("[[accept]]\nrule = \"x\"\npointer = \"/a\"\nreason = \"r\"\n\n[[accept]]\nrule = \"y\"\npointer = \"/b\"\nreason = \"r\"\n");
    assert!(msg.contains(":1:") && msg.contains(":6:"), "{msg}");
}

fn kind_schema(values: &[&str], gm: u32) -> serde_json::Value {
    json!({
        "type": "object",
        "properties": {"gm": {"const": gm}, "kind": {"enum": values}},
        "required": ["gm", "kind"]
    })
}

fn review(old: &serde_json::Value, new: &serde_json::Value, text: &str, policy: bool) -> Review {
    let d = diff(old, new, &Options::default()).expect("schemas");
    let s = Suppressions::parse(text, FILE).expect("valid");
    Review::new(d, Labels::default(), Some(&s), policy)
}

const ACCEPT_ADDED: &str =
    "[[accept]]\nrule = \"enum-value-added\"\npointer = \"/properties/kind/enum\"\nreason = \"receivers upgraded first\"\nuntil_version = 2\n";

#[test]
fn a_matching_entry_accepts_the_breaking_change_and_the_check_passes() {
    let r = review(&kind_schema(&["a"], 1), &kind_schema(&["a", "b"], 1), ACCEPT_ADDED, false);
    assert_eq!(r.status(0), Status::Accepted);
    assert!(!r.fails());
    assert!(r.unused.is_empty());
    assert_eq!(r.policy(), Policy::BreakingAccepted);
    assert_eq!(r.diff.policy(), Policy::BreakingWithoutVersionBump);
}

#[test]
fn an_entry_for_another_change_accepts_nothing_and_is_reported_unused() {
    // The removal is not the addition the entry accepts: it still fails.
    let r = review(&kind_schema(&["a", "b"], 1), &kind_schema(&["a"], 1), ACCEPT_ADDED, false);
    assert_eq!(r.status(0), Status::Breaking);
    assert!(r.fails());
    assert_eq!(r.unused.len(), 1);
    assert_eq!(r.unused[0].reason, UnusedReason::NoMatch);
    assert!(r.unused_lines()[0].contains(".wirecontract-evolution.toml:1: unused suppression"));
}

#[test]
fn an_entry_stops_applying_at_its_until_version() {
    let r = review(&kind_schema(&["a"], 2), &kind_schema(&["a", "b"], 2), ACCEPT_ADDED, false);
    assert_eq!(r.status(0), Status::Breaking);
    assert_eq!(r.unused[0].reason, UnusedReason::Expired);
    assert!(r.unused_lines()[0].contains("expired"), "{:?}", r.unused_lines());
}

#[test]
fn a_version_bump_allows_breaking_changes_in_policy_mode_only() {
    let old = kind_schema(&["a", "b"], 1);
    let new = kind_schema(&["a"], 2);
    let r = review(&old, &new, "", true);
    assert!(r.diff.changes.iter().all(Change::is_breaking));
    assert_eq!(r.count(Status::AllowedByBump), r.diff.changes.len());
    assert!(!r.fails());
    let r = review(&old, &new, "", false);
    assert!(r.fails());
}
