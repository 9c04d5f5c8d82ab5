//! The scenarios `conform` plays, and how the kit drives each (docs/conform.md lists them
//! with the workload contract).

use std::time::Duration;

use serde_json::{json, Value};
use wirecontract::graphmind::{BreakpointMatcher, NodeKind, PausePoint, ResumeAction, RunMode};

use wirecontract::graphmind::session::AckFault;

use super::kit::Kit;

/// The value every inject sends; the workload's node must finish with it as its output.
pub fn inject_value() -> Value {
    json!({"conform": "injected", "n": 1})
}

/// How the kit answers pauses in an answering scenario, by pause order (the last repeats).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// `continue`.
    Continue,
    /// `retry`.
    Retry,
    /// `inject` with [`inject_value`].
    Inject,
    /// `abort`.
    Abort,
}

/// What the kit does during a scenario beyond answering pauses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Drive {
    /// Answers each pause in turn.
    Answer(&'static [Answer]),
    /// At the first pause: `breakpoint.set`/`clear` (one duplicated, one never set),
    /// `mode.set`, and a second `hello.ack` that must change nothing.
    Controls,
    /// At the first pause: non-JSON text, a binary frame, an unknown type, resumes that are
    /// malformed, out of the enum, for an unknown pause and with seq −1; then a valid resume.
    Malformed,
    /// At the first pause: an `exec.resume` with `gm` 2.
    GmMismatch,
    /// At the first pause: the kit drops the connection.
    Drop,
    /// At the first pause: `breakpoint.set {kind:llm}` and `mode.set step`, then the kit drops
    /// the connection and, while the app is detached, clears both, so the next connection's
    /// ack arms only what the scenario's ack did (a detach disarms: nothing of the first
    /// connection's controls may survive into the next).
    Rearm,
    /// Never answers.
    Hold,
}

/// One scenario.
#[derive(Debug, Clone, Copy)]
pub struct Scenario {
    /// Its name (`WIRECONTRACT_CONFORM_SCENARIO`; the run is named `conform-<name>`).
    pub name: &'static str,
    /// One line on what it exercises.
    pub about: &'static str,
    /// Breakpoints in the ack: `(kind, point)`.
    pub breakpoints: &'static [(Option<&'static str>, Option<&'static str>)],
    /// Step mode in the ack.
    pub step: bool,
    /// What the kit does.
    pub drive: Drive,
    /// Faults for the acks, by hello order.
    pub acks: &'static [Ack],
    /// Extra workload settings (environment variables).
    pub env: &'static [(&'static str, &'static str)],
    /// The pauses expected, as `(kind, point)` in order; `None`: not judged.
    pub pauses: Option<&'static [(&'static str, &'static str)]>,
    /// The `run.finished` status expected (of each run).
    pub status: &'static str,
    /// How many runs the workload plays (docs/conform.md: two in `rearm`).
    pub runs: usize,
}

/// An ack fault, as data.
#[derive(Debug, Clone, Copy)]
pub enum Ack {
    /// As is.
    Send,
    /// This many milliseconds later.
    DelayMs(u64),
    /// `versions.protocol` 2.
    Protocol2,
    /// Envelope `gm` 2.
    Gm2,
}

impl Ack {
    /// The session's fault.
    pub fn fault(self) -> AckFault {
        match self {
            Ack::Send => AckFault::Send,
            Ack::DelayMs(ms) => AckFault::Delay(ms),
            Ack::Protocol2 => AckFault::Edit(|ack| edit(ack, |v| v["payload"]["versions"]["protocol"] = json!(2))),
            Ack::Gm2 => AckFault::Edit(|ack| edit(ack, |v| v["gm"] = json!(2))),
        }
    }
}

/// `ack` with `change` made to it as JSON (as is when it is not JSON).
fn edit(ack: &str, change: impl FnOnce(&mut Value)) -> String {
    match serde_json::from_str::<Value>(ack) {
        Ok(mut v) => {
            change(&mut v);
            v.to_string()
        }
        Err(_) => ack.to_owned(),
    }
}

const TOOL: (Option<&str>, Option<&str>) = (Some("tool"), None);
const C: Answer = Answer::Continue;

const fn s(
    name: &'static str,
    about: &'static str,
    breakpoints: &'static [(Option<&'static str>, Option<&'static str>)],
    drive: Drive,
    pauses: Option<&'static [(&'static str, &'static str)]>,
    status: &'static str,
) -> Scenario {
    Scenario { name, about, breakpoints, step: false, drive, acks: &[], env: &[], pauses, status, runs: 1 }
}

impl Scenario {
    /// The same scenario with the workload playing its run twice.
    const fn twice(self) -> Scenario {
        Scenario { runs: 2, ..self }
    }
}

/// Every scenario, in the order they run.
pub const SCENARIOS: &[Scenario] = &[
    s(
        "continue",
        "breakpoints on the LLM and the tool (before and after), each answered continue",
        &[(Some("llm"), None), TOOL, (Some("tool"), Some("after"))],
        Drive::Answer(&[C]),
        Some(&[("tool", "before"), ("tool", "after"), ("llm", "before")]),
        "ok",
    ),
    s(
        "continue-error",
        "the tool fails; its error gate answered continue: the original error goes on",
        &[(None, Some("error"))],
        Drive::Answer(&[C]),
        Some(&[("tool", "error")]),
        "error",
    ),
    s(
        "retry-after",
        "retry at the tool's after gate re-runs it (no new node.started), then continue",
        &[(Some("tool"), Some("after"))],
        Drive::Answer(&[Answer::Retry, C]),
        Some(&[("tool", "after"), ("tool", "after")]),
        "ok",
    ),
    s(
        "retry-error",
        "the tool fails once; retry at its error gate runs it again, which succeeds",
        &[(None, Some("error"))],
        Drive::Answer(&[Answer::Retry, C]),
        Some(&[("tool", "error")]),
        "ok",
    ),
    s(
        "inject-before",
        "inject at the tool's before gate: the body is skipped, the output is the injected value",
        &[TOOL],
        Drive::Answer(&[Answer::Inject]),
        Some(&[("tool", "before")]),
        "ok",
    ),
    s(
        "inject-after",
        "inject at the tool's after gate: the result is replaced",
        &[(Some("tool"), Some("after"))],
        Drive::Answer(&[Answer::Inject]),
        Some(&[("tool", "after")]),
        "ok",
    ),
    s(
        "inject-error",
        "the tool fails; inject at its error gate recovers it",
        &[(None, Some("error"))],
        Drive::Answer(&[Answer::Inject]),
        Some(&[("tool", "error")]),
        "ok",
    ),
    s(
        "abort-before",
        "abort at the tool's before gate: the run ends aborted",
        &[TOOL],
        Drive::Answer(&[Answer::Abort]),
        Some(&[("tool", "before")]),
        "aborted",
    ),
    s(
        "abort-after",
        "abort at the tool's after gate",
        &[(Some("tool"), Some("after"))],
        Drive::Answer(&[Answer::Abort]),
        Some(&[("tool", "after")]),
        "aborted",
    ),
    s(
        "abort-error",
        "the tool fails; abort at its error gate",
        &[(None, Some("error"))],
        Drive::Answer(&[Answer::Abort]),
        Some(&[("tool", "error")]),
        "aborted",
    ),
    Scenario {
        name: "step",
        about: "step mode from the ack: every node pauses before, none after",
        breakpoints: &[],
        step: true,
        drive: Drive::Answer(&[C]),
        acks: &[],
        env: &[],
        pauses: None,
        status: "ok",
        runs: 1,
    },
    s(
        "controls",
        "breakpoint.set (twice), breakpoint.clear (also of one never set) and mode.set while attached; a second hello.ack changes nothing",
        &[TOOL],
        Drive::Controls,
        Some(&[("tool", "before"), ("llm", "before")]),
        "ok",
    ),
    s(
        "malformed",
        "while paused: non-JSON, binary, unknown-type, malformed, bogus-action, unknown-pause and seq -1 frames are ignored; the gate stays held",
        &[TOOL],
        Drive::Malformed,
        Some(&[("tool", "before")]),
        "ok",
    ),
    s(
        "gm-mismatch",
        "an exec.resume with gm 2 while paused: the app closes, fails open and reconnects",
        &[TOOL],
        Drive::GmMismatch,
        Some(&[("tool", "before")]),
        "ok",
    ),
    Scenario {
        name: "ack-protocol",
        about: "the first ack announces protocol 2, the second has gm 2: the app closes each and retries with a new hello",
        breakpoints: &[TOOL],
        step: false,
        drive: Drive::Answer(&[C]),
        acks: &[Ack::Protocol2, Ack::Gm2],
        env: &[],
        pauses: Some(&[("tool", "before")]),
        status: "ok",
        runs: 1,
    },
    s(
        "reconnect",
        "the kit drops the connection while the tool is paused: fail-open, reconnect with the token, full replay",
        &[TOOL],
        Drive::Drop,
        Some(&[("tool", "before")]),
        "ok",
    ),
    s(
        "rearm",
        "breakpoint.set llm and mode.set step at the tool's pause, then a drop; cleared while detached: the next ack arms only the tool, and the second run pauses only there",
        &[TOOL],
        Drive::Rearm,
        Some(&[("tool", "before"), ("tool", "before")]),
        "ok",
    )
    .twice(),
    Scenario {
        name: "late-attach",
        about: "the ack comes 500 ms late: gates before it fail open, frames emitted before it are replayed after it",
        breakpoints: &[],
        step: false,
        drive: Drive::Answer(&[C]),
        acks: &[Ack::DelayMs(500)],
        env: &[],
        pauses: None,
        status: "ok",
        runs: 1,
    },
    Scenario {
        name: "overflow",
        about: "a 4-frame ring; the kit drops the connection at the tool's pause and acks the reconnect 900 ms late: gap markers, then the replay",
        breakpoints: &[TOOL],
        step: false,
        drive: Drive::Drop,
        acks: &[Ack::Send, Ack::DelayMs(900)],
        env: &[("WIRECONTRACT_CONFORM_RING_FRAMES", "4")],
        pauses: Some(&[("tool", "before")]),
        status: "ok",
        runs: 1,
    },
    Scenario {
        name: "pause-timeout",
        about: "a 500 ms pause timeout and no answer: exec.resumed continue goes out live; a late resume is ignored",
        breakpoints: &[TOOL],
        step: false,
        drive: Drive::Hold,
        acks: &[],
        env: &[("WIRECONTRACT_CONFORM_PAUSE_TIMEOUT_MS", "500")],
        pauses: Some(&[("tool", "before")]),
        status: "ok",
        runs: 1,
    },
    s(
        "dispose",
        "the app disposes its session while the tool is paused: exec.resumed continue goes out before the close",
        &[TOOL],
        Drive::Hold,
        Some(&[("tool", "before")]),
        "",
    ),
];

/// How long the kit waits for one step of a scenario (the first includes the app's start: a
/// JVM on a loaded 2-core machine was measured taking 19 s to its first frame).
pub const STEP: Duration = Duration::from_secs(30);

/// Plays the kit's side of `sc`; returns notes on what did not happen as planned.
pub async fn drive(kit: &mut Kit, sc: &Scenario) -> Vec<String> {
    let mut notes = Vec::new();
    match sc.drive {
        Drive::Answer(answers) => answer_all(kit, sc, answers, 0).await,
        Drive::Hold => {
            if kit.next_pause(STEP).await.is_none() {
                notes.push("no pause came".to_owned());
            }
            let late = sc.name == "pause-timeout";
            if late {
                let p = kit.pauses.first().cloned();
                if let Some(p) = p {
                    let id = p.pause_id.clone();
                    let answered = kit.wait(STEP, |k| k.rec.iter().any(|r| r.ty() == "exec.resumed" && r.field("pauseId") == Some(id.as_str()))).await;
                    if answered {
                        // A resume after the timeout released the pause: the app must not answer it.
                        let run = kit.rec.iter().find(|r| r.ty() == "exec.paused").map(|r| r.run_id().to_owned()).unwrap_or_default();
                        kit.send_envelope(p.conn, 1, &run, "exec.resume", &json!({"pauseId": p.pause_id, "action": "continue"}));
                        kit.idle(Duration::from_millis(400)).await;
                    }
                }
            }
        }
        Drive::Drop => match kit.next_pause(STEP).await {
            Some(p) => {
                kit.close(p.conn, 1001, "wirecontract conform: dropped");
                answer_all(kit, sc, &[Answer::Continue], 0).await;
            }
            None => notes.push("no pause came".to_owned()),
        },
        Drive::Rearm => rearm(kit, sc, &mut notes).await,
        Drive::GmMismatch => match kit.next_pause(STEP).await {
            Some(p) => {
                let run = run_of(kit, &p.pause_id);
                kit.send_envelope(p.conn, 2, &run, "exec.resume", &json!({"pauseId": p.pause_id, "action": "continue"}));
                let conn = p.conn;
                if !kit.wait(Duration::from_secs(3), |k| k.closed(conn)).await {
                    notes.push(format!("[c{conn}] still open 3 s after the gm 2 frame; resumed the pause to finish the run"));
                    kit.resume(&p.pause_id, ResumeAction::Continue, None);
                }
                answer_all(kit, sc, &[Answer::Continue], 0).await;
            }
            None => notes.push("no pause came".to_owned()),
        },
        Drive::Controls => match kit.next_pause(STEP).await {
            Some(p) => {
                let c = p.conn;
                kit.set_breakpoint(BreakpointMatcher::new(Some(NodeKind::Llm), None, None));
                kit.send_envelope(c, 1, "*", "breakpoint.set", &json!({"matcher": {"kind": "llm"}}));
                kit.set_breakpoint(BreakpointMatcher::new(Some(NodeKind::Llm), None, Some(PausePoint::After)));
                kit.clear_breakpoint(&BreakpointMatcher::new(Some(NodeKind::Llm), None, Some(PausePoint::After)));
                kit.send_envelope(c, 1, "*", "breakpoint.clear", &json!({"matcher": {"kind": "chain", "name": "never-set"}}));
                kit.clear_breakpoint(&BreakpointMatcher::new(Some(NodeKind::Tool), None, None));
                kit.set_mode(RunMode::Step);
                kit.set_mode(RunMode::Run);
                let ack = json!({"versions": {"protocol": 1, "viewer": "conform"}, "capabilities": [], "breakpoints": [{"point": "after"}], "mode": "run"});
                kit.send_envelope(c, 1, "*", "hello.ack", &ack);
                kit.resume(&p.pause_id, ResumeAction::Continue, None);
                answer_all(kit, sc, &[Answer::Continue], 0).await;
            }
            None => notes.push("no pause came".to_owned()),
        },
        Drive::Malformed => match kit.next_pause(STEP).await {
            Some(p) => {
                let (c, id) = (p.conn, p.pause_id.clone());
                let run = run_of(kit, &id);
                kit.send_raw(c, "this is not JSON");
                kit.send_binary(c, b"\x00\x01\xfe binary");
                kit.send_envelope(c, 1, &run, "conform.unknown-type", &json!({"x": 1}));
                kit.send_envelope(c, 1, &run, "exec.resume", &json!({"pauseId": id}));
                kit.send_envelope(c, 1, &run, "exec.resume", &json!({"pauseId": id, "action": "bogus"}));
                kit.send_envelope(c, 1, &run, "exec.resume", &json!({"pauseId": "pause_conform_unknown", "action": "continue"}));
                let seq_minus_one = json!({"gm": 1, "seq": -1, "ts": 1, "runId": run, "type": "exec.resume", "payload": {"pauseId": id, "action": "continue"}});
                kit.send_raw(c, &seq_minus_one.to_string());
                kit.idle(Duration::from_millis(500)).await;
                if !kit.resume(&id, ResumeAction::Continue, None) {
                    notes.push(format!("the pause {id} was no longer open after the malformed frames"));
                }
                answer_all(kit, sc, &[Answer::Continue], 1).await;
            }
            None => notes.push("no pause came".to_owned()),
        },
    }
    notes
}

/// `rearm`: at the first pause, arms the LLM and step mode, drops the connection, and puts
/// both back once the app is gone; then answers every pause of both runs.
async fn rearm(kit: &mut Kit, sc: &Scenario, notes: &mut Vec<String>) {
    let Some(p) = kit.next_pause(STEP).await else {
        return notes.push("no pause came".to_owned());
    };
    let (llm, conn) = (BreakpointMatcher::new(Some(NodeKind::Llm), None, None), p.conn);
    kit.set_breakpoint(llm.clone());
    kit.set_mode(RunMode::Step);
    kit.close(conn, 1001, "wirecontract conform: dropped");
    // Back to the scenario's ack once the app is gone: with no connection attached nothing is
    // broadcast, so only the next ack tells the app what is armed.
    if !kit.wait(Duration::from_secs(3), |k| k.closed(conn)).await {
        notes.push(format!("[c{conn}] not closed 3 s after the kit's close"));
    }
    if !kit.open_conns().is_empty() {
        notes.push(format!("the app reconnected before [c{conn}]'s close was seen; the clear went out live"));
    }
    kit.clear_breakpoint(&llm);
    kit.set_mode(RunMode::Run);
    answer_all(kit, sc, &[Answer::Continue], 0).await;
}

/// The run of the `exec.paused` that opened `pause_id`.
fn run_of(kit: &Kit, pause_id: &str) -> String {
    kit.rec.iter().find(|r| r.ty() == "exec.paused" && r.field("pauseId") == Some(pause_id)).map(|r| r.run_id().to_owned()).unwrap_or_default()
}

/// Answers every further pause (the `answered`-th onward, by `answers`, the last repeating)
/// until the scenario's runs finish or the app exits.
async fn answer_all(kit: &mut Kit, sc: &Scenario, answers: &[Answer], answered: usize) {
    let mut n = answered;
    let runs = sc.runs;
    loop {
        let taken = kit.taken_pauses();
        // While the app runs, waiting goes on (the scenario's budget bounds it).
        while !kit.wait(STEP, |k| k.pauses.len() > taken || k.runs_finished() >= runs || k.exit.is_some()).await {
            if kit.child.is_none() {
                return;
            }
        }
        let Some(p) = kit.take_pause() else { return };
        let answer = answers.get(n).or(answers.last()).copied().unwrap_or(Answer::Continue);
        n += 1;
        let value = inject_value();
        let (action, output) = match answer {
            Answer::Continue => (ResumeAction::Continue, None),
            Answer::Retry => (ResumeAction::Retry, None),
            Answer::Abort => (ResumeAction::Abort, None),
            Answer::Inject => (ResumeAction::Inject, Some(&value)),
        };
        kit.resume(&p.pause_id, action, output);
    }
}
