//! `wirecontract conform`: an adapter conformance kit. It acts as the viewer, launches the
//! app command once per scenario (or waits for an app that connects on its own), tells it
//! which scenario to play (`WIRECONTRACT_CONFORM_SCENARIO`, and the run name
//! `conform-<scenario>`), drives it, records every frame, and judges each app guarantee of
//! docs/session.md pass or fail citing the frames. The workload contract is docs/conform.md.
//!
//! ```text
//! scenario ─► kit::Kit (ViewerSession + listen's socket tasks + faults + recording)
//!               ▲ scenarios::drive (answers, controls, malformed frames, drops)
//!               ▼
//!           judge::judge (the recording) ─► report (text, JSON, JUnit)
//! ```

mod judge;
mod kit;
mod report;
mod scenarios;

use std::collections::BTreeMap;
use std::fs::File;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use clap::Args;
use futures_util::{stream, StreamExt};
use wirecontract::graphmind::session::ViewerConfig;
use wirecontract::graphmind::{BreakpointMatcher, NodeKind, PausePoint, RunMode};

use self::kit::Kit;
use self::report::Outcome;
use self::scenarios::{Scenario, SCENARIOS};
use super::Failure;

/// Arguments of `wirecontract conform`.
#[derive(Debug, Args)]
#[command(after_help = concat!(
    "The app command runs once per scenario with GRAPHMIND_URL (the kit's ws://HOST:PORT/ingest), WIRECONTRACT_CONFORM_SCENARIO ",
    "and WIRECONTRACT_CONFORM_RUN (the run name to use) set, every other GRAPHMIND_* variable removed, and for some scenarios ",
    "WIRECONTRACT_CONFORM_RING_FRAMES or WIRECONTRACT_CONFORM_PAUSE_TIMEOUT_MS; docs/conform.md is the workload contract. ",
    "Without a command the kit prints each scenario's URL and name on standard error and waits for an app to play it.\n\n",
    "Exit codes: 0 when every scenario passed (with --expect: when exactly the expected checks failed), 1 otherwise or on I/O errors, 2 on usage errors."
))]
pub struct ConformArgs {
    /// The app command and its arguments (after `--`).
    #[arg(trailing_var_arg = true, value_name = "COMMAND")]
    command: Vec<String>,
    /// Address the kit listens on; port 0 picks a free port per scenario.
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:0")]
    listen: String,
    /// Play only this scenario (repeatable); `--list` names them.
    #[arg(long = "scenario", value_name = "NAME")]
    only: Vec<String>,
    /// List the scenarios and exit.
    #[arg(long)]
    list: bool,
    /// The adapter's name in the reports.
    #[arg(long, value_name = "NAME", default_value = "adapter")]
    name: String,
    /// Write the human report here instead of standard output.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Write the JSON report here.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write a JUnit XML report here.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Keep each scenario's recording (`<scenario>.ndjson`) and app output (`<scenario>.log`) here.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Expected failures, a JSON object `{"scenario": ["G4", "behaviour"], …}`: the exit code is 0 when exactly these fail.
    #[arg(long, value_name = "FILE")]
    expect: Option<PathBuf>,
    /// How many scenarios run at once (each with its own listener and app process).
    #[arg(long, value_name = "N", default_value_t = 1)]
    jobs: usize,
    /// Longest time one scenario may take, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 120)]
    timeout: u64,
}

/// Runs the kit.
pub fn run(args: &ConformArgs) -> Result<bool, Failure> {
    if args.list {
        for sc in SCENARIOS {
            println!("{:<15} {}", sc.name, sc.about);
        }
        return Ok(true);
    }
    let chosen: Vec<Scenario> = if args.only.is_empty() {
        SCENARIOS.to_vec()
    } else {
        let mut v = Vec::new();
        for name in &args.only {
            let sc = SCENARIOS.iter().find(|s| s.name == name).ok_or_else(|| Failure::Usage(format!("no scenario {name:?} (--list names them)")))?;
            v.push(*sc);
        }
        v
    };
    let expected: BTreeMap<String, Vec<String>> = match &args.expect {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| Failure::Io(format!("cannot read {}: {e}", path.display())))?;
            serde_json::from_str(&text).map_err(|e| Failure::Usage(format!("{} is not a JSON object of string lists: {e}", path.display())))?
        }
        None => BTreeMap::new(),
    };
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).map_err(|e| Failure::Io(format!("cannot create {}: {e}", dir.display())))?;
    }
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| Failure::Io(format!("cannot start the runtime: {e}")))?;
    // Scenarios mostly wait (on the app, on timers): `--jobs` of them run at once, each with
    // its own listener and app process; the reports keep the scenarios' order.
    let results: Vec<Result<Outcome, Failure>> = rt.block_on(stream::iter(chosen.iter().map(|sc| play(args, sc))).buffered(args.jobs.max(1)).collect());
    let mut outcomes = Vec::new();
    for (sc, result) in chosen.iter().zip(results) {
        let mut outcome = result?;
        outcome.expected_failures = expected.get(sc.name).cloned().unwrap_or_default();
        let verdict = match (outcome.failures().is_empty(), outcome.as_expected()) {
            (true, _) => "pass".to_owned(),
            (false, true) => format!("FAIL {:?} (as expected)", outcome.failures()),
            (false, false) => format!("FAIL {:?}", outcome.failures()),
        };
        eprintln!("conform: {} {verdict}", sc.name);
        outcomes.push(outcome);
    }
    let text = report::text(&args.name, &outcomes);
    match &args.report {
        Some(path) => std::fs::write(path, &text).map_err(|e| Failure::Io(format!("cannot write {}: {e}", path.display())))?,
        None => print!("{text}"),
    }
    if let Some(path) = &args.json {
        let json = serde_json::to_string_pretty(&report::json(&args.name, &outcomes)).unwrap_or_default();
        std::fs::write(path, json + "\n").map_err(|e| Failure::Io(format!("cannot write {}: {e}", path.display())))?;
    }
    if let Some(path) = &args.junit {
        std::fs::write(path, report::junit(&args.name, &outcomes)).map_err(|e| Failure::Io(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(outcomes.iter().all(Outcome::as_expected))
}

fn config(sc: &Scenario) -> ViewerConfig {
    let breakpoints = sc
        .breakpoints
        .iter()
        .map(|(kind, point)| {
            let kind = kind.map(|k| if k == "llm" { NodeKind::Llm } else { NodeKind::Tool });
            let point = point.map(|p| match p {
                "after" => PausePoint::After,
                "error" => PausePoint::Error,
                _ => PausePoint::Before,
            });
            BreakpointMatcher::new(kind, None, point)
        })
        .collect();
    ViewerConfig {
        viewer_version: concat!("wirecontract-conform/", env!("CARGO_PKG_VERSION")).to_owned(),
        breakpoints,
        mode: if sc.step { RunMode::Step } else { RunMode::Run },
        token_prefix: format!("tok_conform_{}_", std::process::id()),
        ..ViewerConfig::default()
    }
}

/// Plays one scenario.
async fn play(args: &ConformArgs, sc: &Scenario) -> Result<Outcome, Failure> {
    let mut kit = Kit::bind(&args.listen, config(sc)).await.map_err(|e| Failure::Io(format!("cannot listen on {}: {e}", args.listen)))?;
    kit.plan_acks(sc.acks.iter().map(|a| a.fault()));
    let run_name = format!("conform-{}", sc.name);
    let log = args.out.as_ref().map(|d| d.join(format!("{}.log", sc.name)));
    if let Some(program) = args.command.first() {
        let mut cmd = Command::new(program);
        cmd.args(&args.command[1..]).stdin(Stdio::null());
        for (name, _) in std::env::vars_os() {
            if name.to_string_lossy().starts_with("GRAPHMIND") {
                cmd.env_remove(name);
            }
        }
        cmd.env("GRAPHMIND_URL", kit.url()).env("WIRECONTRACT_CONFORM_SCENARIO", sc.name).env("WIRECONTRACT_CONFORM_RUN", &run_name);
        for (k, v) in sc.env {
            cmd.env(k, v);
        }
        match &log {
            Some(path) => {
                let f = File::create(path).map_err(|e| Failure::Io(format!("cannot create {}: {e}", path.display())))?;
                let g = f.try_clone().map_err(|e| Failure::Io(e.to_string()))?;
                cmd.stdout(f).stderr(g);
            }
            None => {
                cmd.stdout(Stdio::null()).stderr(Stdio::null());
            }
        }
        kit.child = Some(cmd.spawn().map_err(|e| Failure::Io(format!("cannot start {program}: {e}")))?);
    } else {
        let extra: Vec<String> = sc.env.iter().map(|(k, v)| format!("{k}={v}")).collect();
        eprintln!(
            "conform: play scenario {} now: GRAPHMIND_URL={} WIRECONTRACT_CONFORM_SCENARIO={} WIRECONTRACT_CONFORM_RUN={run_name} {}",
            sc.name,
            kit.url(),
            sc.name,
            extra.join(" ")
        );
    }
    let budget = Duration::from_secs(args.timeout);
    let mut notes = tokio::time::timeout(budget, scenarios::drive(&mut kit, sc))
        .await
        .unwrap_or_else(|_| vec![format!("the scenario took longer than {} s", args.timeout)]);
    let launched = !args.command.is_empty();
    if launched {
        if !kit.wait(Duration::from_secs(15), |k| k.exit.is_some()).await {
            notes.push("the app did not exit within 15 s of the scenario's end; killed".to_owned());
            if let Some(child) = kit.child.as_mut() {
                let _ = child.kill();
                let _ = child.wait();
            }
            kit.child = None;
        }
    } else {
        let runs = sc.runs;
        kit.wait(Duration::from_secs(15), |k| k.runs_finished() >= runs && k.open_conns().is_empty()).await;
    }
    kit.idle(Duration::from_millis(100)).await;
    kit.finish().await;
    if let Some(dir) = &args.out {
        let path = dir.join(format!("{}.ndjson", sc.name));
        report::write_recording(&kit, &path).map_err(|e| Failure::Io(format!("cannot write {}: {e}", path.display())))?;
    }
    let name_ok = kit.rec.iter().filter(|r| r.ty() == "run.started").all(|r| r.payload()["meta"]["name"] == run_name.as_str());
    if !name_ok {
        notes.push(format!("a run.started does not name the run {run_name:?} (meta.name)"));
    }
    let exit = kit.exit.map(|s| s.to_string());
    if let Some(status) = kit.exit.filter(|s| !s.success()) {
        notes.push(format!("the app {status} (the workload exits 0 whatever the run's outcome)"));
    }
    let checks = judge::judge(sc, &kit, &notes);
    Ok(Outcome { scenario: *sc, checks, exit, expected_failures: Vec::new() })
}
