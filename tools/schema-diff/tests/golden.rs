//! Golden outputs: every fixture pair under `tests/fixtures/` and every scenario under
//! `tests/scenarios/` (suppressions, policy mode, characters that need escaping) rendered in
//! every format, compared byte for byte with `tests/golden/<case>.<format>`.
//!
//! After an intended change of an output, rewrite the files and review the diff:
//! `UPDATE_GOLDEN=1 cargo test -p wirecontract-schema-diff --test golden`.

use std::collections::BTreeSet;
use std::path::Path;

use quick_xml::events::Event;
use quick_xml::Reader;
use wirecontract_schema_diff::{diff_text, Format, Labels, Options, Review, Rule, Suppressions};

/// One rendering input.
struct Case {
    /// The golden file stem.
    name: String,
    /// The directory holding `old.json` and `new.json`, relative to the crate.
    dir: String,
    /// The suppression file, relative to the crate.
    suppressions: Option<String>,
    /// Policy mode.
    policy: bool,
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn cases() -> Vec<Case> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("tests/fixtures"))
        .expect("fixtures dir")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut cases: Vec<Case> = names.into_iter().map(|n| Case { dir: format!("tests/fixtures/{n}"), name: n, suppressions: None, policy: false }).collect();
    let scenario = |name: &str, dir: &str, suppressions: bool, policy: bool| Case {
        name: name.to_owned(),
        dir: dir.to_owned(),
        suppressions: suppressions.then(|| format!("{dir}/suppressions.toml")),
        policy,
    };
    cases.extend([
        scenario("accepted", "tests/scenarios/accepted", true, false),
        scenario("accepted-policy", "tests/scenarios/accepted", true, true),
        scenario("all-accepted", "tests/scenarios/all-accepted", true, false),
        scenario("all-accepted-policy", "tests/scenarios/all-accepted", true, true),
        scenario("escaping", "tests/scenarios/escaping", true, false),
        scenario("policy-version-bumped", "tests/fixtures/protocol-version-changed", false, true),
        scenario("policy-refused", "tests/fixtures/enum-value-removed", false, true),
    ]);
    cases
}

fn review(case: &Case) -> Review {
    let (old, new) = (format!("{}/old.json", case.dir), format!("{}/new.json", case.dir));
    let d = diff_text(&read(&old), &read(&new), &old, &new, &Options::assuming_same_protocol()).unwrap_or_else(|e| panic!("{}: {e}", case.name));
    let suppressions = case.suppressions.as_ref().map(|s| Suppressions::parse(&read(s), s).unwrap_or_else(|e| panic!("{}: {e}", case.name)));
    let labels = Labels { old, file: Some(new.clone()), new };
    Review::new(d, labels, suppressions.as_ref(), case.policy)
}

#[test]
fn every_format_matches_its_golden_file() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1");
    let dir = root().join("tests/golden");
    std::fs::create_dir_all(&dir).expect("golden dir");
    let mut expected_files = BTreeSet::new();
    let mut failures = Vec::new();
    for case in cases() {
        let r = review(&case);
        for format in Format::ALL {
            let file = format!("{}.{}", case.name, format.name());
            let path = dir.join(&file);
            expected_files.insert(file.clone());
            let got = format.render(&r);
            if update {
                std::fs::write(&path, &got).expect("write golden file");
                continue;
            }
            match std::fs::read_to_string(&path) {
                Ok(want) if want == got => {}
                Ok(want) => failures.push(format!("tests/golden/{file} differs (first difference at line {})", first_difference(&want, &got))),
                Err(e) => failures.push(format!("tests/golden/{file}: {e}")),
            }
        }
    }
    for entry in std::fs::read_dir(&dir).expect("golden dir") {
        let name = entry.expect("dir entry").file_name();
        let name = name.to_string_lossy().into_owned();
        if !expected_files.contains(&name) {
            if update {
                std::fs::remove_file(dir.join(&name)).expect("remove stale golden file");
            } else {
                failures.push(format!("tests/golden/{name} belongs to no case"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} golden file(s) out of date:\n  {}\nIf the change is intended, rewrite them and review the diff:\n  UPDATE_GOLDEN=1 cargo test -p wirecontract-schema-diff --test golden",
        failures.len(),
        failures.join("\n  ")
    );
}

fn first_difference(a: &str, b: &str) -> usize {
    a.lines().zip(b.lines()).position(|(x, y)| x != y).unwrap_or_else(|| a.lines().count().min(b.lines().count())) + 1
}

/// Parses `xml` strictly; returns the test case names and the number of `<failure>`s.
fn parse_junit(xml: &str) -> Result<(Vec<String>, usize), String> {
    let mut reader = Reader::from_str(xml);
    reader.config_mut().check_end_names = true;
    let (mut cases, mut failures, mut depth, mut roots) = (Vec::new(), 0, 0usize, 0);
    loop {
        let event = reader.read_event().map_err(|e| format!("at byte {}: {e}", reader.buffer_position()))?;
        let start = match &event {
            Event::Start(e) | Event::Empty(e) => Some(e.clone()),
            _ => None,
        };
        if let Some(e) = start {
            if depth == 0 {
                roots += 1;
            }
            for attr in e.attributes() {
                let attr = attr.map_err(|e| e.to_string())?;
                if attr.value.contains(&b'<') {
                    return Err("< in an attribute value".to_owned());
                }
                attr.unescape_value().map_err(|e| e.to_string())?;
            }
            match e.name().as_ref() {
                b"testcase" => {
                    let name = e.try_get_attribute("name").map_err(|e| e.to_string())?.ok_or("testcase without a name")?;
                    cases.push(String::from_utf8_lossy(&name.value).into_owned());
                }
                b"failure" => failures += 1,
                _ => {}
            }
        }
        match event {
            Event::Start(_) => depth += 1,
            Event::End(_) => depth = depth.checked_sub(1).ok_or("unbalanced end tag")?,
            Event::Text(t) => {
                let text = t.decode().map_err(|e| e.to_string())?;
                if text.contains(['<', '>']) {
                    return Err(format!("unescaped markup in text: {text:?}"));
                }
            }
            Event::GeneralRef(r) => {
                let name = r.decode().map_err(|e| e.to_string())?;
                let known = ["amp", "lt", "gt", "quot", "apos"].contains(&name.as_ref());
                if !known && r.resolve_char_ref().map_err(|e| e.to_string())?.is_none() {
                    return Err(format!("unknown entity &{name};"));
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if depth != 0 || roots != 1 {
        return Err(format!("{roots} root element(s), depth {depth} at the end"));
    }
    Ok((cases, failures))
}

#[test]
fn junit_output_is_well_formed_with_a_case_per_rule_and_a_failure_per_failing_change() {
    let rules: Vec<String> = Rule::ALL.iter().map(|r| r.name()).collect();
    for case in cases() {
        let r = review(&case);
        let xml = Format::Junit.render(&r);
        let (names, failures) = parse_junit(&xml).unwrap_or_else(|e| panic!("{}: not well-formed: {e}\n{xml}", case.name));
        assert_eq!(names, rules, "{}", case.name);
        assert_eq!(failures, r.count(wirecontract_schema_diff::Status::Breaking), "{}", case.name);
    }
}

#[test]
fn the_xml_check_rejects_what_an_escaping_bug_would_produce() {
    for bad in ["<a><b></a>", "<a x=\"1\" x=\"2\"/>", "<a>&bogus;</a>", "<a>x</a><b/>", "<a x=\"<\"/>", "<a x=\"a & b\"/>", "<a>a & b</a>", "<a x=\"a\"b\"/>"] {
        assert!(parse_junit(bad).is_err(), "accepted {bad}");
    }
}

#[test]
fn github_output_is_one_command_per_line_and_a_summary() {
    for case in cases() {
        let r = review(&case);
        let text = Format::Github.render(&r);
        let lines: Vec<&str> = text.lines().collect();
        let (last, commands) = lines.split_last().expect("a summary line");
        assert!(last.starts_with("wirecontract diff: "), "{}: {last}", case.name);
        assert_eq!(commands.len(), r.diff.changes.len() + r.unused.len(), "{}", case.name);
        for line in commands {
            let ok = ["::error ", "::warning ", "::notice "].iter().any(|p| line.starts_with(p));
            assert!(ok && line.contains("title="), "{}: {line}", case.name);
            let (props, _) = line.split_once("::").map(|(_, rest)| rest).and_then(|rest| rest.split_once("::")).expect("::level props::message");
            assert!(!props.contains('\r') && !props.contains(':'), "{}: {line}", case.name);
        }
    }
}
