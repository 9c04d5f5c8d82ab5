//! End-to-end tests of `wirecontract diff`: exit codes (0 no breaking change, 1 breaking,
//! 2 usage error), the table and `--json` outputs, `--format`, the suppression file,
//! `--policy`, and `--git` revisions read from a scratch repository. The outputs themselves
//! are pinned by the golden files of `tools/schema-diff/tests/golden.rs`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_wirecontract");

fn fixture(case: &str, side: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/schema-diff/tests/fixtures").join(case).join(side);
    assert!(p.is_file(), "missing fixture {}", p.display());
    p.display().to_string()
}

fn wirecontract(args: &[&str], cwd: Option<&Path>) -> Output {
    let mut cmd = Command::new(BIN);
    cmd.args(args);
    if let Some(dir) = cwd {
        cmd.current_dir(dir);
    }
    cmd.output().expect("run wirecontract")
}

fn code(out: &Output) -> i32 {
    out.status.code().expect("exit code")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 stdout")
}

/// A fresh empty directory under the system temp dir.
fn scratch_dir(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!("wirecontract-diff-{name}-{}-{}", std::process::id(), N.fetch_add(1, Ordering::SeqCst)));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

#[test]
fn identical_schemas_exit_0_with_no_changes() {
    let f = fixture("enum-value-added", "old.json");
    let out = wirecontract(&["diff", "--same-protocol", &f, &f], None);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout(&out).contains("no changes"), "{}", stdout(&out));
}

#[test]
fn schemas_of_different_protocols_are_refused_with_exit_2() {
    let schema = |name: &str| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../generated/schema").join(name).display().to_string();
    let out = wirecontract(&["diff", &schema("graphmind.v1.schema.json"), &schema("graphorin.v1.schema.json")], None);
    assert_eq!(code(&out), 2, "{}", stdout(&out));
    assert!(stdout(&out).is_empty(), "nothing compared, nothing printed: {}", stdout(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("different protocols") && err.contains("graphmind.dev") && err.contains("graphorin.dev"), "{err}");
}

#[test]
fn an_additive_change_exits_0_and_is_listed() {
    let out = wirecontract(&["diff", "--same-protocol", &fixture("message-type-added", "old.json"), &fixture("message-type-added", "new.json")], None);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    assert!(text.contains("message-type-added"), "{text}");
    assert!(text.contains("1 change: 0 breaking"), "{text}");
}

#[test]
fn a_breaking_change_exits_1_with_its_pointer_and_both_verdicts() {
    let out = wirecontract(&["diff", "--same-protocol", &fixture("enum-value-added", "old.json"), &fixture("enum-value-added", "new.json")], None);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    let row = text.lines().find(|l| l.starts_with("1  ")).unwrap_or_else(|| panic!("{text}"));
    assert!(row.contains("/$defs/Kind/enum"), "{row}");
    assert!(row.starts_with("1  BREAKING       safe"), "{row}");
}

#[test]
fn json_output_is_machine_readable() {
    let out = wirecontract(
        &["diff", "--same-protocol", "--json", &fixture("property-became-required", "old.json"), &fixture("property-became-required", "new.json")],
        None,
    );
    assert_eq!(code(&out), 1);
    let v: Value = serde_json::from_str(&stdout(&out)).expect("stdout is JSON");
    assert_eq!(v["breaking"], true);
    assert_eq!(v["changes"][0]["rule"], "property-became-required");
    assert_eq!(v["changes"][0]["path"], "/$defs/Ping/properties/count");
    assert_eq!(v["changes"][0]["old_receivers"], "safe");
    assert_eq!(v["changes"][0]["old_senders"], "breaking");
}

#[test]
fn policy_fails_only_without_a_version_bump() {
    let breaking = ["enum-value-removed", "protocol-version-changed"];
    let out = wirecontract(&["diff", "--same-protocol", "--policy", &fixture(breaking[0], "old.json"), &fixture(breaking[0], "new.json")], None);
    assert_eq!(code(&out), 1);
    assert!(stdout(&out).contains("WITHOUT A PROTOCOL VERSION BUMP (gm is still 1)"), "{}", stdout(&out));
    let out = wirecontract(&["diff", "--same-protocol", "--policy", &fixture(breaking[1], "old.json"), &fixture(breaking[1], "new.json")], None);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert!(stdout(&out).contains("protocol version bumped (gm 1 -> 2)"), "{}", stdout(&out));
    // Without --policy the same diff is breaking.
    let out = wirecontract(&["diff", "--same-protocol", &fixture(breaking[1], "old.json"), &fixture(breaking[1], "new.json")], None);
    assert_eq!(code(&out), 1);
}

#[test]
fn usage_errors_exit_2() {
    let f = fixture("enum-value-added", "old.json");
    let not_json = scratch_dir("notjson").join("x.json");
    std::fs::write(&not_json, "{ not json").unwrap();
    let not_schema = scratch_dir("notschema").join("x.json");
    std::fs::write(&not_schema, "[1, 2]").unwrap();
    let cases: Vec<Vec<String>> = vec![
        vec!["diff".into()],
        vec!["diff".into(), "--same-protocol".into(), f.clone()],
        vec!["diff".into(), "--same-protocol".into(), f.clone(), "/no/such/schema.json".into()],
        vec!["diff".into(), "--same-protocol".into(), f.clone(), not_json.display().to_string()],
        vec!["diff".into(), "--same-protocol".into(), f.clone(), not_schema.display().to_string()],
        vec!["diff".into(), "--same-protocol".into(), "--schema".into(), "x.json".into(), f.clone(), f.clone()],
        vec!["diff".into(), "--same-protocol".into(), "--bogus".into(), f.clone(), f.clone()],
    ];
    for args in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = wirecontract(&args, None);
        assert_eq!(code(&out), 2, "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// Exit 2 either way, but only a wrong command line gets the `--help` hint: help text does
/// not fix a missing file, bad JSON, a schema that is not one, an unknown revision or a
/// refused suppression file.
#[test]
fn only_usage_errors_point_to_help() {
    let f = fixture("enum-value-added", "old.json");
    let dir = scratch_dir("hint");
    let not_json = dir.join("x.json");
    std::fs::write(&not_json, "{ not json").unwrap();
    let not_schema = dir.join("y.json");
    std::fs::write(&not_schema, "[1, 2]").unwrap();
    let refused = dir.join("s.toml");
    std::fs::write(&refused, "[[accept]]\nrule = \"no-such-rule\"\npointer = \"/a\"\nreason = \"r\"\n").unwrap();
    let (not_json, not_schema, refused) = (not_json.display().to_string(), not_schema.display().to_string(), refused.display().to_string());
    let repo = scratch_dir("hint-git");
    git(&repo, &["init", "-q"]);
    std::fs::create_dir_all(repo.join("generated/schema")).unwrap();
    std::fs::copy(&f, repo.join("generated/schema/graphmind.v1.schema.json")).unwrap();
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "v1"]);

    let not_usage: Vec<(Vec<&str>, &str)> = vec![
        (vec!["diff", "--same-protocol", &f, "/no/such/schema.json"], "no such file: /no/such/schema.json"),
        (vec!["diff", "--same-protocol", &f, &not_json], "is not valid JSON"),
        (vec!["diff", "--same-protocol", &f, &not_schema], "is not a JSON Schema"),
        (vec!["diff", "--same-protocol", "--suppressions", &refused, &f, &f], "unknown rule"),
        (vec!["diff", "--same-protocol", "--suppressions", "/no/such/file.toml", &f, &f], "no such file"),
        (vec!["diff", "--same-protocol", "--git", "no-such-rev", "HEAD"], "no-such-rev"),
        (vec!["diff", "--same-protocol", "--git", "--schema", "missing.json", "HEAD", "HEAD"], "missing.json"),
    ];
    for (args, want) in not_usage {
        let out = wirecontract(&args, Some(&repo));
        let err = stderr(&out);
        assert_eq!(code(&out), 2, "{args:?}: {err}");
        assert!(err.starts_with("error: ") && err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("--help"), "{args:?} is not a usage error, yet: {err}");
    }
    let usage: Vec<Vec<&str>> = vec![
        vec!["diff"],
        vec!["diff", "--same-protocol", &f],
        vec!["diff", "--same-protocol", "--bogus", &f, &f],
        vec!["diff", "--same-protocol", "--schema", "x.json", &f, &f],
        vec!["diff", "--same-protocol", "--format", "yaml", &f, &f],
        vec!["diff", "--same-protocol", "--git", "--", "-x", "HEAD"],
    ];
    for args in usage {
        let out = wirecontract(&args, Some(&repo));
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(stderr(&out).contains("--help"), "{args:?} is a usage error: {}", stderr(&out));
    }
    let _ = std::fs::remove_dir_all(&repo);
    let _ = std::fs::remove_dir_all(&dir);
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run git");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn git_mode_reads_the_schema_at_each_revision() {
    let repo = scratch_dir("git");
    git(&repo, &["init", "-q"]);
    let schema_dir = repo.join("generated/schema");
    std::fs::create_dir_all(&schema_dir).unwrap();
    let path = schema_dir.join("graphmind.v1.schema.json");
    std::fs::copy(fixture("enum-value-removed", "old.json"), &path).unwrap();
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "v1"]);
    std::fs::copy(fixture("enum-value-removed", "new.json"), &path).unwrap();
    git(&repo, &["commit", "-q", "-am", "remove a kind"]);

    // The default --schema is generated/schema/graphmind.v1.schema.json.
    let out = wirecontract(&["diff", "--same-protocol", "--git", "HEAD~1", "HEAD"], Some(&repo));
    assert_eq!(code(&out), 1, "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    assert!(text.contains("old: HEAD~1:generated/schema/graphmind.v1.schema.json"), "{text}");
    assert!(text.contains("enum-value-removed"), "{text}");

    let out = wirecontract(&["diff", "--same-protocol", "--git", "--schema", "generated/schema/graphmind.v1.schema.json", "HEAD", "HEAD"], Some(&repo));
    assert_eq!(code(&out), 0);

    // One revision: compared with the working tree's file.
    std::fs::copy(fixture("enum-value-removed", "old.json"), &path).unwrap();
    let out = wirecontract(&["diff", "--same-protocol", "--git", "HEAD~1"], Some(&repo));
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let out = wirecontract(&["diff", "--same-protocol", "--git", "HEAD", "--json"], Some(&repo));
    assert_eq!(code(&out), 1, "putting the value back is adding an enum value: breaking");
    let v: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(v["changes"][0]["rule"], "enum-value-added");
    assert_eq!(v["new"], "generated/schema/graphmind.v1.schema.json");

    // An absolute --schema path inside the repository works too.
    let abs = path.display().to_string();
    let out = wirecontract(&["diff", "--same-protocol", "--git", "--schema", &abs, "HEAD~1", "HEAD"], Some(&repo));
    assert_eq!(code(&out), 1, "{}", String::from_utf8_lossy(&out.stderr));

    // Unknown revision or path: usage error.
    let out = wirecontract(&["diff", "--same-protocol", "--git", "no-such-rev", "HEAD"], Some(&repo));
    assert_eq!(code(&out), 2);
    let out = wirecontract(&["diff", "--same-protocol", "--git", "--schema", "missing.json", "HEAD~1", "HEAD"], Some(&repo));
    assert_eq!(code(&out), 2);
    let _ = std::fs::remove_dir_all(&repo);
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn format_picks_the_output_and_json_is_an_alias_of_format_json() {
    let (old, new) = (fixture("enum-value-added", "old.json"), fixture("enum-value-added", "new.json"));
    let run = |extra: &[&str]| {
        let mut args = vec!["diff", "--same-protocol"];
        args.extend_from_slice(extra);
        args.extend([old.as_str(), new.as_str()]);
        wirecontract(&args, None)
    };
    let table = run(&[]);
    assert_eq!(code(&table), 1);
    assert_eq!(stdout(&run(&["--format", "text"])), stdout(&table));
    assert_eq!(stdout(&run(&["--format", "json"])), stdout(&run(&["--json"])));
    let github = run(&["--format", "github"]);
    assert_eq!(code(&github), 1);
    assert!(stdout(&github).starts_with("::error file="), "{}", stdout(&github));
    assert!(stdout(&github).contains("title=enum-value-added::/$defs/Kind/enum: "));
    let junit = run(&["--format", "junit"]);
    assert_eq!(code(&junit), 1);
    assert!(stdout(&junit).contains("<failure message=\"/$defs/Kind/enum: "));
    let markdown = run(&["--format", "markdown"]);
    assert_eq!(code(&markdown), 1);
    assert!(stdout(&markdown).contains("### Breaking\n\n- **enum-value-added** `/$defs/Kind/enum`"));
    for bad in [&["--format", "yaml"][..], &["--json", "--format", "text"][..]] {
        let out = run(bad);
        assert_eq!(code(&out), 2, "{bad:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{bad:?}");
    }
}

/// Writes a suppression file into a fresh directory and returns its path.
fn suppression_file(name: &str, text: &str) -> String {
    let path = scratch_dir(name).join("suppressions.toml");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

const ACCEPT_KIND_C: &str = "[[accept]]\nrule = \"enum-value-added\"\npointer = \"/$defs/Kind/enum\"\nreason = \"receivers were upgraded first\"\n";

#[test]
fn a_suppressed_change_passes_and_an_unsuppressed_one_still_fails() {
    let file = suppression_file("accept", ACCEPT_KIND_C);
    for policy in [&[][..], &["--policy"][..]] {
        let mut args = vec!["diff", "--same-protocol", "--suppressions", &file];
        args.extend_from_slice(policy);
        let (old, new) = (fixture("enum-value-added", "old.json"), fixture("enum-value-added", "new.json"));
        args.extend([old.as_str(), new.as_str()]);
        let out = wirecontract(&args, None);
        assert_eq!(code(&out), 0, "{policy:?}: {}{}", stdout(&out), stderr(&out));
        let text = stdout(&out);
        assert!(text.contains("accepted in "), "{text}");
        assert!(text.contains("receivers were upgraded first"), "{text}");
    }
    let out = wirecontract(
        &["diff", "--same-protocol", "--suppressions", &file, "--json", &fixture("enum-value-removed", "old.json"), &fixture("enum-value-removed", "new.json")],
        None,
    );
    assert_eq!(code(&out), 1, "the entry accepts an addition, not a removal");
    let v: Value = serde_json::from_str(&stdout(&out)).expect("stdout stays JSON");
    assert_eq!(v["unused_suppressions"][0]["why"], "no-match");
    assert!(stderr(&out).contains("warning: ") && stderr(&out).contains("unused suppression"), "{}", stderr(&out));
}

#[test]
fn a_suppression_without_reason_or_with_an_unknown_rule_is_refused_with_exit_2() {
    let (old, new) = (fixture("enum-value-added", "old.json"), fixture("enum-value-added", "new.json"));
    for (text, want) in [
        ("[[accept]]\nrule = \"enum-value-added\"\npointer = \"/$defs/Kind/enum\"\n", "has no reason"),
        ("[[accept]]\nrule = \"enum-value-added\"\npointer = \"/$defs/Kind/enum\"\nreason = \"\"\n", "has no reason"),
        ("[[accept]]\nrule = \"enum-added-value\"\npointer = \"/$defs/Kind/enum\"\nreason = \"r\"\n", "unknown rule"),
    ] {
        let file = suppression_file("refused", text);
        let out = wirecontract(&["diff", "--same-protocol", "--suppressions", &file, &old, &new], None);
        assert_eq!(code(&out), 2, "{text}");
        assert!(out.stdout.is_empty(), "{text}");
        assert!(stderr(&out).contains(want), "{text}: {}", stderr(&out));
    }
    let out = wirecontract(&["diff", "--same-protocol", "--suppressions", "/no/such/file.toml", &old, &new], None);
    assert_eq!(code(&out), 2);
}

#[test]
fn with_every_breaking_change_accepted_the_json_verdict_is_not_breaking() {
    let file = suppression_file("accept-all", ACCEPT_KIND_C);
    let (old, new) = (fixture("enum-value-added", "old.json"), fixture("enum-value-added", "new.json"));
    let out = wirecontract(&["diff", "--same-protocol", "--json", "--suppressions", &file, &old, &new], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(v["breaking"], false, "{v:#}");
    assert_eq!(v["summary"]["breaking"], 0);
    assert_eq!(v["summary"]["accepted"], 1);
    assert_eq!(v["changes"][0]["status"], "accepted");
    assert_eq!(v["changes"][0]["accepted"]["reason"], "receivers were upgraded first");
    let out = wirecontract(&["diff", "--same-protocol", "--suppressions", &file, &old, &new], None);
    let text = stdout(&out);
    assert!(!text.contains("BREAKING") && text.contains("0 breaking") && text.contains("1 accepted"), "{text}");
}

/// A fixture schema with an absolute `$id`, as every generated schema states one: the recipe
/// of docs/evolution.md runs as written, without `--same-protocol`.
fn copy_with_id(fixture: &str, dst: &Path) {
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(fixture).unwrap()).unwrap();
    v["$id"] = Value::String("https://example.dev/wire/v1/fixture.schema.json".to_owned());
    std::fs::write(dst, serde_json::to_string_pretty(&v).unwrap()).unwrap();
}

/// The CI recipe of docs/evolution.md ("In CI"), run as written in a checkout whose
/// `origin/main` is the target branch: a breaking change fails with an `::error` annotation
/// on the schema file; accepted in the suppression file, it passes with a `::warning`; with a
/// version bump it passes under `--policy`. The job's per-schema loop and its Markdown summary
/// run too.
#[test]
fn the_documented_ci_recipe_works_against_origin_main() {
    let docs = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/evolution.md")).expect("docs/evolution.md");
    let recipe = "wirecontract diff --git origin/main HEAD --policy --format github";
    assert!(docs.contains(&format!("\n{recipe}\n")), "docs/evolution.md no longer shows the recipe {recipe:?}");
    let args: Vec<&str> = recipe.split(' ').skip(1).collect();

    let dir = scratch_dir("ci");
    let origin = dir.join("origin.git");
    std::fs::create_dir_all(&origin).unwrap();
    git(&origin, &["init", "-q", "--bare"]);
    let repo = dir.join("work");
    std::fs::create_dir_all(repo.join("generated/schema")).unwrap();
    git(&repo, &["init", "-q"]);
    let schema = repo.join("generated/schema/graphmind.v1.schema.json");
    copy_with_id(&fixture("enum-value-removed", "old.json"), &schema);
    copy_with_id(&fixture("enum-value-removed", "old.json"), &repo.join("generated/schema/graphorin.v1.schema.json"));
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "released"]);
    git(&repo, &["remote", "add", "origin", &origin.display().to_string()]);
    git(&repo, &["push", "-q", "origin", "HEAD:refs/heads/main"]);
    git(&repo, &["fetch", "-q", "origin"]);
    copy_with_id(&fixture("enum-value-removed", "new.json"), &schema);
    git(&repo, &["commit", "-q", "-am", "drop a kind"]);

    let out = wirecontract(&args, Some(&repo));
    assert_eq!(code(&out), 1, "{}{}", stdout(&out), stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("::error file=generated/schema/graphmind.v1.schema.json,title=enum-value-removed::/$defs/Kind/enum: "), "{text}");
    assert!(text.trim_end().ends_with("policy: breaking-without-version-bump"), "{text}");

    // The workflow's loop over both schemas: the untouched one passes, the changed one fails.
    for (file, want) in [("generated/schema/graphorin.v1.schema.json", 0), ("generated/schema/graphmind.v1.schema.json", 1)] {
        let out = wirecontract(&["diff", "--same-protocol", "--git", "origin/main", "HEAD", "--schema", file, "--policy", "--format", "github"], Some(&repo));
        assert_eq!(code(&out), want, "{file}: {}{}", stdout(&out), stderr(&out));
    }
    // The job summary step.
    let out = wirecontract(&["diff", "--same-protocol", "--git", "origin/main", "HEAD", "--format", "markdown"], Some(&repo));
    assert!(stdout(&out).contains("### Breaking\n\n- **enum-value-removed** `/$defs/Kind/enum`"), "{}", stdout(&out));

    // Accepted in the suppression file at the repository root: passes, reported as a warning.
    std::fs::write(
        repo.join(".wirecontract-evolution.toml"),
        "[[accept]]\nrule = \"enum-value-removed\"\npointer = \"/$defs/Kind/enum\"\nreason = \"no sender ever wrote it\"\n",
    )
    .unwrap();
    let out = wirecontract(&args, Some(&repo));
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert!(stdout(&out).starts_with("::warning file=generated/schema/graphmind.v1.schema.json,title=enum-value-removed (accepted)::"), "{}", stdout(&out));
    std::fs::remove_file(repo.join(".wirecontract-evolution.toml")).unwrap();

    // A version bump makes the break allowed under --policy.
    let mut bumped: Value = serde_json::from_str(&std::fs::read_to_string(&schema).unwrap()).unwrap();
    for def in ["envelope.ping", "envelope.note", "envelope.unknown"] {
        bumped["$defs"][def]["properties"]["gm"]["const"] = 2.into();
    }
    std::fs::write(&schema, serde_json::to_string_pretty(&bumped).unwrap()).unwrap();
    git(&repo, &["commit", "-q", "-am", "gm 2"]);
    let out = wirecontract(&args, Some(&repo));
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert!(stdout(&out).contains("title=protocol-version-changed (allowed by version bump)::"), "{}", stdout(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_default_suppression_file_is_read_at_the_repository_root() {
    let repo = scratch_dir("suppress-git");
    git(&repo, &["init", "-q"]);
    let schema_dir = repo.join("generated/schema");
    std::fs::create_dir_all(&schema_dir).unwrap();
    let path = schema_dir.join("graphmind.v1.schema.json");
    std::fs::copy(fixture("enum-value-added", "old.json"), &path).unwrap();
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "v1"]);
    std::fs::copy(fixture("enum-value-added", "new.json"), &path).unwrap();
    git(&repo, &["commit", "-q", "-am", "add kind c"]);

    let out = wirecontract(&["diff", "--same-protocol", "--git", "HEAD~1", "HEAD"], Some(&repo));
    assert_eq!(code(&out), 1, "no suppression file yet");
    std::fs::write(repo.join(".wirecontract-evolution.toml"), ACCEPT_KIND_C).unwrap();
    // From a subdirectory too: the file is looked for at the repository root.
    let out =
        wirecontract(&["diff", "--same-protocol", "--git", "--schema", "graphmind.v1.schema.json", "--format", "github", "HEAD~1", "HEAD"], Some(&schema_dir));
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("::warning file=generated/schema/graphmind.v1.schema.json,title=enum-value-added (accepted)::"), "{text}");
    assert!(text.contains("accepted (.wirecontract-evolution.toml:1): receivers were upgraded first"), "{text}");
    let _ = std::fs::remove_dir_all(&repo);
}

#[test]
fn schemas_without_id_are_refused_unless_same_protocol_is_given() {
    let (old, new) = (fixture("enum-value-added", "old.json"), fixture("enum-value-added", "new.json"));
    let out = wirecontract(&["diff", &old, &new], None);
    assert_eq!(code(&out), 2, "{}", stdout(&out));
    assert!(stdout(&out).is_empty(), "nothing compared, nothing printed: {}", stdout(&out));
    let err = stderr(&out);
    assert!(err.contains("old and new schemas state no absolute `$id`") && err.contains("--same-protocol"), "{err}");
    assert!(!err.contains("--help"), "not a usage error: {err}");
    // One side with a $id, the other without: refused too.
    let generated = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../generated/schema/graphmind.v1.schema.json").display().to_string();
    let out = wirecontract(&["diff", &generated, &old], None);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("the new schema states no absolute `$id`"), "{}", stderr(&out));
    // The caller vouches: compared.
    assert_eq!(code(&wirecontract(&["diff", "--same-protocol", &old, &new], None)), 1);
}

#[test]
fn id_hosts_compare_case_insensitively() {
    let generated = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../generated/schema/graphmind.v1.schema.json");
    let mut schema: Value = serde_json::from_str(&std::fs::read_to_string(&generated).unwrap()).unwrap();
    let id = schema["$id"].as_str().expect("the generated schema states a $id").to_owned();
    let (proto, rest) = id.split_once("://").unwrap();
    let (host, path) = rest.split_once('/').unwrap();
    assert_ne!(host, host.to_uppercase(), "the host has letters to change");
    schema["$id"] = Value::String(format!("{proto}://{}/{path}", host.to_uppercase()));
    let upper = scratch_dir("case").join("upper.json");
    std::fs::write(&upper, serde_json::to_string(&schema).unwrap()).unwrap();
    let out = wirecontract(&["diff", &generated.display().to_string(), &upper.display().to_string()], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("no changes"), "{}", stdout(&out));
}
