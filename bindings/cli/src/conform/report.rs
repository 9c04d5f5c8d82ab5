//! `conform`'s outputs: the human report, JSON and JUnit XML, and the per-scenario
//! recordings.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use serde_json::{json, Value};

use super::judge::{Check, Status, GUARANTEES};
use super::kit::{Dir, Kit};
use super::scenarios::Scenario;

/// One scenario's result.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The scenario.
    pub scenario: Scenario,
    /// Its checks.
    pub checks: Vec<Check>,
    /// How the app process ended (`None` when it connected on its own).
    pub exit: Option<String>,
    /// The checks expected to fail (`--expect`).
    pub expected_failures: Vec<String>,
}

impl Outcome {
    /// Check ids that failed.
    pub fn failures(&self) -> Vec<String> {
        self.checks.iter().filter(|c| c.status == Status::Fail).map(|c| c.id.to_owned()).collect()
    }

    /// Whether the outcome is as expected (no failures, or exactly the expected ones).
    pub fn as_expected(&self) -> bool {
        let mut got = self.failures();
        got.sort();
        got.dedup();
        let mut want = self.expected_failures.clone();
        want.sort();
        want.dedup();
        got == want
    }
}

/// The human report.
pub fn text(adapter: &str, outcomes: &[Outcome]) -> String {
    let mut out = String::new();
    let failed = outcomes.iter().filter(|o| !o.failures().is_empty()).count();
    let unexpected = outcomes.iter().filter(|o| !o.as_expected()).count();
    let _ = writeln!(
        out,
        "wirecontract conform: {adapter}: {} scenario(s), {} without failures, {failed} with failures, {unexpected} not as expected",
        outcomes.len(),
        outcomes.len() - failed
    );
    let _ = writeln!(out, "\nGuarantees (docs/session.md) over all scenarios:");
    for (id, title) in GUARANTEES {
        let (mut pass, mut fail) = (Vec::new(), Vec::new());
        for o in outcomes {
            for c in o.checks.iter().filter(|c| c.id == *id) {
                match c.status {
                    Status::Pass => pass.push(o.scenario.name),
                    Status::Fail => fail.push(o.scenario.name),
                    Status::NotObserved => {}
                }
            }
        }
        let verdict = if fail.is_empty() { "PASS" } else { "FAIL" };
        let _ = writeln!(
            out,
            "  {id} {title}: {verdict} ({} scenario(s) pass{})",
            pass.len(),
            if fail.is_empty() { String::new() } else { format!(", fails in {}", fail.join(", ")) }
        );
    }
    for o in outcomes {
        let verdict = match (o.failures().is_empty(), o.as_expected()) {
            (true, _) => "PASS",
            (false, true) => "FAIL (as expected)",
            (false, false) => "FAIL",
        };
        let _ = writeln!(out, "\n== {}: {verdict} — {}", o.scenario.name, o.scenario.about);
        if let Some(exit) = &o.exit {
            let _ = writeln!(out, "   app: {exit}");
        }
        for c in &o.checks {
            let status = match c.status {
                Status::Pass => "pass",
                Status::Fail => "FAIL",
                Status::NotObserved => "n/a ",
            };
            let _ = writeln!(out, "   {status} {:<9} {}\n        {}", c.id, c.title, c.detail);
        }
    }
    out
}

/// The JSON report.
pub fn json(adapter: &str, outcomes: &[Outcome]) -> Value {
    let mut summary = BTreeMap::new();
    for (id, title) in GUARANTEES {
        let count = |s: Status| outcomes.iter().flat_map(|o| &o.checks).filter(|c| c.id == *id && c.status == s).count();
        let failing: Vec<&str> =
            outcomes.iter().filter(|o| o.checks.iter().any(|c| c.id == *id && c.status == Status::Fail)).map(|o| o.scenario.name).collect();
        summary.insert(*id, json!({"title": title, "pass": count(Status::Pass), "fail": count(Status::Fail), "notObserved": count(Status::NotObserved), "failingScenarios": failing}));
    }
    let scenarios: Vec<Value> = outcomes
        .iter()
        .map(|o| {
            json!({
                "name": o.scenario.name,
                "about": o.scenario.about,
                "passed": o.failures().is_empty(),
                "asExpected": o.as_expected(),
                "app": o.exit,
                "checks": o.checks,
            })
        })
        .collect();
    json!({"adapter": adapter, "guarantees": summary, "scenarios": scenarios, "asExpected": outcomes.iter().all(Outcome::as_expected)})
}

/// JUnit XML: one test case per scenario and check.
pub fn junit(adapter: &str, outcomes: &[Outcome]) -> String {
    let cases: Vec<(&Outcome, &Check)> = outcomes.iter().flat_map(|o| o.checks.iter().map(move |c| (o, c))).collect();
    let failures = cases.iter().filter(|(_, c)| c.status == Status::Fail).count();
    let skipped = cases.iter().filter(|(_, c)| c.status == Status::NotObserved).count();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ =
        writeln!(out, "<testsuite name=\"wirecontract conform: {}\" tests=\"{}\" failures=\"{failures}\" skipped=\"{skipped}\">", xml(adapter), cases.len());
    for (o, c) in cases {
        let _ = write!(out, "  <testcase classname=\"conform.{}\" name=\"{} {}\"", xml(o.scenario.name), c.id, xml(&c.title));
        match c.status {
            Status::Pass => out.push_str("/>\n"),
            Status::Fail => {
                let expected = if o.expected_failures.iter().any(|e| e == c.id) { " (expected)" } else { "" };
                let _ = writeln!(out, ">\n    <failure message=\"{}{expected}\">{}</failure>\n  </testcase>", xml(&c.detail), xml(&c.detail));
            }
            Status::NotObserved => {
                let _ = writeln!(out, ">\n    <skipped message=\"{}\"/>\n  </testcase>", xml(&c.detail));
            }
        }
    }
    out.push_str("</testsuite>\n");
    out
}

fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if u32::from(c) < 0x20 && c != '\n' && c != '\t' => {
                let _ = write!(out, "&#x{:x};", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

/// Writes the scenario's recording: one JSON object per frame, plus the connections.
pub fn write_recording(kit: &Kit, path: &Path) -> std::io::Result<()> {
    let mut f = std::io::BufWriter::new(std::fs::File::create(path)?);
    for r in &kit.rec {
        let row = json!({"n": r.n, "t": (r.t * 100.0).round() / 100.0, "dir": if r.dir == Dir::App { "app->viewer" } else { "viewer->app" }, "conn": r.conn, "binary": r.binary, "expect": r.verdict, "frame": r.text});
        writeln!(f, "{row}")?;
    }
    for (conn, life) in &kit.conns {
        let row = json!({"conn": conn, "opened": life.opened, "closed": life.closed.as_ref().map(|(t, how)| json!({"t": t, "how": how, "byKit": life.closed_by_kit}))});
        writeln!(f, "{row}")?;
    }
    f.flush()
}
