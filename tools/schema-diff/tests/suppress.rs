//! The suppression file: what it accepts, what it refuses (with a message naming the file
//! and line), and how entries match changes.

use serde_json::json;
use wirecontract_schema_diff::{diff, Change, Format, Labels, Options, Policy, Review, Rule, Status, Suppressions, UnusedReason};

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
    let d = diff(old, new, &Options::assuming_same_protocol()).expect("schemas");
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

/// Renders `format` for the kind-schema pair with `text` as the suppression file.
fn render(format: Format, old: &serde_json::Value, new: &serde_json::Value, text: &str, policy: bool) -> String {
    format.render(&review(old, new, text, policy))
}

#[test]
fn when_every_breaking_change_is_accepted_no_output_calls_the_diff_breaking() {
    let (old, new) = (kind_schema(&["a"], 1), kind_schema(&["a", "b"], 1));
    for policy in [false, true] {
        let v: serde_json::Value = serde_json::from_str(&render(Format::Json, &old, &new, ACCEPT_ADDED, policy)).expect("JSON");
        assert_eq!(v["breaking"], false, "policy {policy}: {v:#}");
        assert_eq!(v["policy"], "breaking-accepted");
        assert_eq!(v["summary"], json!({"changes": 1, "breaking": 0, "breaking_for_old_receivers": 0, "breaking_for_old_senders": 0, "accepted": 1}));
        let change = &v["changes"][0];
        assert_eq!(change["status"], "accepted", "{change:#}");
        assert_eq!(change["accepted"]["reason"], "receivers upgraded first");
        // The change itself still says which direction it breaks: that is what was accepted.
        assert_eq!(change["old_receivers"], "breaking");

        let text = render(Format::Text, &old, &new, ACCEPT_ADDED, policy);
        assert!(!text.contains("BREAKING"), "policy {policy}:\n{text}");
        assert!(text.contains("1 change: 0 breaking (for old receivers: 0, for old senders: 0), 1 accepted, 0 safe"), "{text}");
        assert!(text.contains("receivers upgraded first"), "{text}");
        let row = text.lines().find(|l| l.starts_with("1  ")).unwrap_or_else(|| panic!("{text}"));
        assert!(row.starts_with("1  accepted       safe"), "{row}");

        let github = render(Format::Github, &old, &new, ACCEPT_ADDED, policy);
        assert!(github.lines().last().is_some_and(|l| l.contains(": 0 breaking") && l.contains("1 accepted")), "{github}");
        let junit = render(Format::Junit, &old, &new, ACCEPT_ADDED, policy);
        assert!(junit.contains("value=\"1 change: 0 breaking"), "{junit}");
    }
    // One accepted, one not: the verdict stays breaking, and counts only the one left.
    let (old, new) = (kind_schema(&["a", "c"], 1), kind_schema(&["a", "b"], 1));
    let v: serde_json::Value = serde_json::from_str(&render(Format::Json, &old, &new, ACCEPT_ADDED, false)).expect("JSON");
    assert_eq!(v["breaking"], true);
    assert_eq!(v["summary"]["breaking"], 1);
    assert_eq!(v["summary"]["accepted"], 1);
    let statuses: Vec<&str> = v["changes"].as_array().unwrap().iter().map(|c| c["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["accepted", "breaking"]);
}

#[test]
fn the_protocol_is_named_from_the_schema_and_the_file_name_is_only_a_fallback() {
    let mut old = kind_schema(&["a", "b"], 1);
    old["title"] = json!("Demo wire frame (protocol v1)");
    let mut new = kind_schema(&["a"], 1);
    new["title"] = json!("Demo wire frame (protocol v1)");
    let labels = Labels { old: "base/graphmind.v1.schema.json".into(), new: "HEAD:generated/schema/graphmind.v1.schema.json".into(), file: None };
    let r = Review::new(diff(&old, &new, &Options::assuming_same_protocol()).unwrap(), labels.clone(), None, false);
    let md = Format::Markdown.render(&r);
    assert!(md.starts_with("## Wire contract changes: Demo wire frame (protocol v1)\n"), "{md}");
    let xml = Format::Junit.render(&r);
    assert!(xml.contains("<testsuite name=\"Demo wire frame (protocol v1)\""), "{xml}");
    assert!(xml.contains("classname=\"evolution.demo-wire-frame-protocol-v1\""), "{xml}");
    assert!(!xml.contains("evolution.graphmind"), "{xml}");
    let text = Format::Text.render(&Review::new(r.diff.clone(), labels.clone(), None, true));
    assert!(text.contains("evolution: Demo wire frame (protocol v1): "), "{text}");

    // No title: the $id names it.
    let (mut old, mut new) = (old, new);
    for v in [&mut old, &mut new] {
        v.as_object_mut().unwrap().remove("title");
        v["$id"] = json!("https://demo.example/wire/v1/frame.schema.json");
    }
    let r = Review::new(diff(&old, &new, &Options::assuming_same_protocol()).unwrap(), labels.clone(), None, false);
    assert!(Format::Markdown.render(&r).starts_with("## Wire contract changes: https://demo.example/wire/v1/frame.schema.json\n"));
    assert!(Format::Junit.render(&r).contains("classname=\"evolution.demo-example-wire-v1-frame-schema-json\""));

    // Neither: the new schema's file name.
    for v in [&mut old, &mut new] {
        v.as_object_mut().unwrap().remove("$id");
    }
    let r = Review::new(diff(&old, &new, &Options::assuming_same_protocol()).unwrap(), labels, None, false);
    assert!(Format::Markdown.render(&r).starts_with("## Wire contract changes: graphmind\n"));
    assert!(Format::Junit.render(&r).contains("classname=\"evolution.graphmind\""));
}
