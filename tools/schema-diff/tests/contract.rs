//! Realistic cases built from the contract itself: copies of the GraphMind and Graphorin v1
//! schemas (as the contract exports them) with one change each, and the verdicts they must
//! get. These are the changes a contributor would actually make.

use serde_json::{json, Value};
use wirecontract::{graphmind, graphorin};
use wirecontract_schema_diff::{diff, Change, Diff, Options, Policy, Rule, Side, Verdict};

fn graphmind_v1() -> Value {
    graphmind::export_json_schema()
}

fn graphorin_v1() -> Value {
    graphorin::export_json_schema()
}

fn run(old: &Value, new: &Value) -> Diff {
    diff(old, new, &Options::assuming_same_protocol()).expect("both are schemas")
}

fn only_change(d: &Diff) -> &Change {
    assert_eq!(d.changes.len(), 1, "expected exactly one change, got {:#?}", d.changes);
    &d.changes[0]
}

#[test]
fn the_contract_schemas_do_not_differ_from_themselves() {
    for schema in [graphmind_v1(), graphorin_v1()] {
        let d = run(&schema, &schema);
        assert!(d.changes.is_empty(), "{:#?}", d.changes);
        assert_eq!(d.policy(), Policy::Unchanged);
    }
}

#[test]
fn graphmind_version_is_gm_1_and_graphorin_version_is_v_1() {
    let d = run(&graphmind_v1(), &graphmind_v1());
    assert_eq!(d.version_field.as_deref(), Some("gm"));
    assert_eq!(d.new_version, Some(json!(1)));
    let d = run(&graphorin_v1(), &graphorin_v1());
    assert_eq!(d.version_field.as_deref(), Some("v"));
    assert_eq!(d.new_version, Some(json!("1")));
}

#[test]
fn removing_a_node_kind_breaks_old_senders_only() {
    let old = graphmind_v1();
    let mut new = old.clone();
    let kinds = new["$defs"]["NodeKind"]["enum"].as_array_mut().expect("NodeKind is an enum");
    kinds.retain(|k| k != "custom");
    let d = run(&old, &new);
    let c = only_change(&d);
    assert_eq!(c.rule, Rule::EnumValueRemoved);
    assert_eq!(c.path, "/$defs/NodeKind/enum");
    assert_eq!((c.old_receivers, c.old_senders), (Verdict::Safe, Verdict::Breaking));
    assert!(c.change.contains("\"custom\""), "{}", c.change);
    // Reported once, at the shared definition, with every message type that carries a kind.
    for m in ["graph.hint", "node.started", "breakpoint.set", "breakpoint.clear", "hello.ack"] {
        assert!(c.messages.iter().any(|x| x == m), "{m} missing from {:?}", c.messages);
    }
    assert_eq!(d.policy(), Policy::BreakingWithoutVersionBump);
}

#[test]
fn adding_a_node_kind_breaks_old_receivers_because_enums_are_closed() {
    let old = graphmind_v1();
    let mut new = old.clone();
    new["$defs"]["NodeKind"]["enum"].as_array_mut().unwrap().push(json!("planner"));
    let c = only_change(&run(&old, &new)).clone();
    assert_eq!(c.rule, Rule::EnumValueAdded);
    assert_eq!((c.old_receivers, c.old_senders), (Verdict::Breaking, Verdict::Safe));
}

#[test]
fn making_an_optional_field_required_breaks_old_senders_only() {
    let old = graphmind_v1();
    let mut new = old.clone();
    new["$defs"]["NodeStarted"]["required"].as_array_mut().unwrap().push(json!("parentId"));
    let d = run(&old, &new);
    let c = only_change(&d);
    assert_eq!(c.rule, Rule::PropertyBecameRequired);
    assert_eq!(c.path, "/$defs/NodeStarted/properties/parentId");
    assert_eq!((c.old_receivers, c.old_senders), (Verdict::Safe, Verdict::Breaking));
    assert_eq!(c.messages, ["node.started"]);
    assert_eq!(d.policy(), Policy::BreakingWithoutVersionBump);
}

#[test]
fn adding_an_optional_field_to_an_open_graphmind_payload_is_additive() {
    let old = graphmind_v1();
    let mut new = old.clone();
    new["$defs"]["NodeStarted"]["properties"]["groupId"] = json!({"type": "string"});
    let d = run(&old, &new);
    let c = only_change(&d);
    assert_eq!(c.rule, Rule::PropertyAdded);
    assert_eq!((c.old_receivers, c.old_senders), (Verdict::Safe, Verdict::Safe));
    assert_eq!(d.policy(), Policy::Additive);
}

#[test]
fn adding_a_graphmind_message_type_is_additive_through_the_unknown_type_branch() {
    let old = graphmind_v1();
    let mut new = old.clone();
    let mut env = new["$defs"]["envelope.mode.set"].clone();
    env["properties"]["type"] = json!({"const": "run.renamed"});
    env["properties"]["payload"] = json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]});
    new["$defs"]["envelope.run.renamed"] = env;
    new["anyOf"].as_array_mut().unwrap().insert(16, json!({"$ref": "#/$defs/envelope.run.renamed"}));
    new["$defs"]["envelope.unknown"]["properties"]["type"]["not"]["enum"].as_array_mut().unwrap().push(json!("run.renamed"));
    let d = run(&old, &new);
    let c = only_change(&d);
    assert_eq!(c.rule, Rule::MessageTypeAdded);
    assert_eq!(c.messages, ["run.renamed"]);
    assert_eq!((c.old_receivers, c.old_senders), (Verdict::Safe, Verdict::Safe));
    assert_eq!(d.policy(), Policy::Additive);
}

#[test]
fn removing_a_graphmind_message_type_breaks_old_senders() {
    let old = graphmind_v1();
    let mut new = old.clone();
    new["anyOf"].as_array_mut().unwrap().retain(|b| b["$ref"] != "#/$defs/envelope.exec.refused");
    let d = run(&old, &new);
    let c = only_change(&d);
    assert_eq!(c.rule, Rule::MessageTypeRemoved);
    assert_eq!(c.side, Side::Old);
    assert_eq!((c.old_receivers, c.old_senders), (Verdict::Safe, Verdict::Breaking));
}

#[test]
fn a_gm_bump_makes_breaking_changes_allowed() {
    let old = graphmind_v1();
    let mut new = old.clone();
    new["$defs"]["NodeKind"]["enum"].as_array_mut().unwrap().retain(|k| k != "custom");
    for (name, def) in new["$defs"].as_object_mut().unwrap() {
        if name.starts_with("envelope.") {
            def["properties"]["gm"] = json!({"const": 2});
        }
    }
    let d = run(&old, &new);
    assert_eq!(d.changes.len(), 2, "{:#?}", d.changes);
    assert_eq!(d.changes[0].rule, Rule::ProtocolVersionChanged);
    assert_eq!(d.changes[0].messages.len(), wirecontract::graphmind::MESSAGE_TYPES.len() + 1, "every message type, the catch-all too");
    assert_eq!(d.changes[1].rule, Rule::EnumValueRemoved);
    assert_eq!((d.old_version.clone(), d.new_version.clone()), (Some(json!(1)), Some(json!(2))));
    assert_eq!(d.policy(), Policy::VersionBumped);
    assert!(d.policy().allowed());
}

/// A major version as a team would make it: `gm: 2`, a field renamed, an optional field made
/// required, a message type removed and an enum value removed, all at once. Each is reported
/// once, by its own rule and with its own direction, and none hides another.
#[test]
fn a_graphmind_v2_reports_every_breaking_change_by_rule_and_direction() {
    let old = graphmind_v1();
    let mut new = old.clone();
    let started = &mut new["$defs"]["NodeStarted"];
    let name = started["properties"].as_object_mut().unwrap().remove("name").expect("node.started has a name");
    started["properties"]["label"] = name;
    let required = started["required"].as_array_mut().unwrap();
    required.retain(|r| r != "name");
    required.extend([json!("label"), json!("parentId")]);
    new["anyOf"].as_array_mut().unwrap().retain(|b| b["$ref"] != "#/$defs/envelope.node.token");
    new["$defs"].as_object_mut().unwrap().remove("envelope.node.token");
    new["$defs"]["NodeKind"]["enum"].as_array_mut().unwrap().retain(|k| k != "custom");
    for (name, def) in new["$defs"].as_object_mut().unwrap() {
        if name.starts_with("envelope.") {
            def["properties"]["gm"] = json!({"const": 2});
        }
    }
    let d = run(&old, &new);
    let got: Vec<(Rule, &str, Verdict, Verdict)> = d.changes.iter().map(|c| (c.rule, c.path.as_str(), c.old_receivers, c.old_senders)).collect();
    let (b, s) = (Verdict::Breaking, Verdict::Safe);
    assert_eq!(
        got,
        [
            (Rule::ProtocolVersionChanged, "/$defs/envelope.run.started/properties/gm", b, b),
            (Rule::EnumValueRemoved, "/$defs/NodeKind/enum", s, b),
            (Rule::PropertyBecameRequired, "/$defs/NodeStarted/properties/parentId", s, b),
            (Rule::PropertyRenamed, "/$defs/NodeStarted/properties/label", b, b),
            (Rule::MessageTypeRemoved, "/$defs/envelope.node.token", s, b),
        ],
        "{:#?}",
        d.changes
    );
    assert_eq!((d.old_version.clone(), d.new_version.clone()), (Some(json!(1)), Some(json!(2))));
    assert_eq!(d.policy(), Policy::VersionBumped);
}

#[test]
fn adding_an_optional_param_to_strict_graphorin_breaks_old_receivers() {
    let old = graphorin_v1();
    let mut new = old.clone();
    new["$defs"]["SubscribeParams"]["properties"]["limit"] = json!({"type": "integer", "minimum": 1});
    let d = run(&old, &new);
    let c = only_change(&d);
    assert_eq!(c.rule, Rule::PropertyAdded);
    assert_eq!(c.path, "/$defs/SubscribeParams/properties/limit");
    assert_eq!((c.old_receivers, c.old_senders), (Verdict::Breaking, Verdict::Safe));
    assert_eq!(c.messages, ["ClientMessage: subscription.subscribe"]);
    assert_eq!(d.policy(), Policy::BreakingWithoutVersionBump);
}

#[test]
fn adding_a_graphorin_frame_kind_breaks_old_receivers_since_nothing_catches_unknown_kinds() {
    let old = graphorin_v1();
    let mut new = old.clone();
    let mut frame = new["$defs"]["ServerPongFrame"].clone();
    frame["properties"]["kind"] = json!({"const": "heartbeat"});
    new["$defs"]["ServerHeartbeatFrame"] = frame;
    new["$defs"]["ServerMessage"]["oneOf"].as_array_mut().unwrap().push(json!({"$ref": "#/$defs/ServerHeartbeatFrame"}));
    let d = run(&old, &new);
    let c = only_change(&d);
    assert_eq!(c.rule, Rule::MessageTypeAdded);
    assert_eq!(c.messages, ["ServerMessage: heartbeat"]);
    assert_eq!((c.old_receivers, c.old_senders), (Verdict::Breaking, Verdict::Safe));
}

#[test]
fn removing_a_graphorin_lifecycle_status_breaks_old_senders() {
    let old = graphorin_v1();
    let mut new = old.clone();
    new["$defs"]["LifecycleStatus"]["oneOf"].as_array_mut().unwrap().retain(|b| b["const"] != "failed");
    let c = only_change(&run(&old, &new)).clone();
    assert_eq!(c.rule, Rule::EnumValueRemoved);
    assert_eq!(c.path, "/$defs/LifecycleStatus/oneOf");
    assert_eq!((c.old_receivers, c.old_senders), (Verdict::Safe, Verdict::Breaking));
}

#[test]
fn the_json_report_names_inputs_policy_counts_and_changes() {
    let old = graphmind_v1();
    let mut new = old.clone();
    new["$defs"]["NodeKind"]["enum"].as_array_mut().unwrap().retain(|k| k != "custom");
    let d = run(&old, &new);
    let v: Value = serde_json::from_str(&d.to_json("a.json", "b.json")).expect("JSON");
    assert_eq!(v["old"], "a.json");
    assert_eq!(v["version_field"], "gm");
    assert_eq!(v["breaking"], true);
    assert_eq!(v["policy"], "breaking-without-version-bump");
    assert_eq!(v["summary"], json!({"changes": 1, "breaking": 1, "breaking_for_old_receivers": 0, "breaking_for_old_senders": 1}));
    assert_eq!(v["changes"][0]["rule"], "enum-value-removed");
    assert_eq!(v["changes"][0]["old_senders"], "breaking");
    let table = d.to_table("a.json", "b.json");
    assert!(table.contains("OLD RECEIVERS  OLD SENDERS  RULE"), "{table}");
    assert!(table.contains("/$defs/NodeKind/enum"), "{table}");
    let loud = d.policy_text("graphmind");
    assert!(loud.contains("BREAKING CHANGE(S) WITHOUT A PROTOCOL VERSION BUMP"), "{loud}");
}

/// A contract against every form of catch-all document: the verdicts follow what each side
/// accepts, one change for the whole document, and no protocol-version bump is invented
/// from the version the catch-all does not state.
#[test]
fn a_catch_all_schema_is_compared_as_the_values_it_accepts() {
    let contract = graphmind_v1();
    let everything = [json!(true), json!({}), json!({"foo": 1}), json!({"title": "anything", "x-note": "placeholder"})];
    for any in &everything {
        // Tightening: everything was accepted, now only the contract's frames are.
        let d = run(any, &contract);
        let c = only_change(&d);
        assert_eq!((c.rule, c.path.as_str()), (Rule::SchemaChanged, ""), "{any} -> contract: {c:#?}");
        assert_eq!((c.old_receivers, c.old_senders), (Verdict::Safe, Verdict::Breaking), "{any} -> contract");
        assert!(c.change.contains("accepted every value") && c.change.contains("new receivers reject"), "{}", c.change);
        assert!(c.messages.contains(&"hello".to_owned()), "{:?}", c.messages);
        assert!(!d.version_bumped(), "{any}: no version on the old side is no bump");
        assert_eq!(d.policy(), Policy::BreakingWithoutVersionBump, "{any} -> contract");
        // Loosening: old receivers break, old senders do not.
        let d = run(&contract, any);
        let c = only_change(&d);
        assert_eq!((c.old_receivers, c.old_senders), (Verdict::Breaking, Verdict::Safe), "contract -> {any}");
        assert!(c.change.contains("now accepts every value") && c.change.contains("old receivers reject"), "{}", c.change);
        assert_eq!(d.policy(), Policy::BreakingWithoutVersionBump, "contract -> {any}: replacing the contract is no version bump");
        let loud = d.policy_text("graphmind");
        assert!(loud.contains("WITHOUT A PROTOCOL VERSION BUMP (the new schema states no gm)"), "{loud}");
        assert!(loud.contains("!!!   schema-changed \"\": the whole schema"), "{loud}");
        // Two catch-alls accept the same values.
        for other in &everything {
            assert!(run(any, other).changes.is_empty(), "{any} -> {other}");
        }
        // Everything -> nothing narrows; nothing -> everything widens.
        let c = run(any, &json!(false)).changes;
        assert_eq!((c.len(), c[0].old_receivers, c[0].old_senders), (1, Verdict::Safe, Verdict::Breaking), "{any} -> false");
        let c = run(&json!(false), any).changes;
        assert_eq!((c.len(), c[0].old_receivers, c[0].old_senders), (1, Verdict::Breaking, Verdict::Safe), "false -> {any}");
    }
    // `false` accepts nothing: a contract that replaces it widens, and the other way narrows.
    let c = run(&json!(false), &contract).changes;
    assert_eq!((c.len(), c[0].old_receivers, c[0].old_senders), (1, Verdict::Breaking, Verdict::Safe));
    let c = run(&contract, &json!(false)).changes;
    assert_eq!((c.len(), c[0].old_receivers, c[0].old_senders), (1, Verdict::Safe, Verdict::Breaking));
    assert!(c[0].change.contains("now accepts no value (false)"), "{}", c[0].change);
}

#[test]
fn a_version_that_only_one_side_states_is_no_bump() {
    // gm dropped from every message type: reported, breaking both ways, and not the bump
    // that would make breaking changes allowed.
    let old = json!({"anyOf": [{"type": "object", "properties": {"gm": {"const": 1}, "type": {"const": "a"}}, "required": ["gm", "type"]}]});
    let new = json!({"anyOf": [{"type": "object", "properties": {"type": {"const": "a"}}, "required": ["type"]}]});
    let d = run(&old, &new);
    assert_eq!(d.changes[0].rule, Rule::ProtocolVersionChanged);
    assert!(!d.version_bumped());
    assert_eq!(d.policy(), Policy::BreakingWithoutVersionBump);
}
