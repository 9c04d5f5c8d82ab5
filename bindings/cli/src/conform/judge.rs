//! Judging one scenario's recording: each app guarantee of docs/session.md (1–7), and the
//! scenario's own behaviour (spec §3.7 and the case it plays), pass or fail, citing frames.
//!
//! The judge reads only the recording (what crossed the wire, in order, and when each
//! connection closed); it restates no rule of the session cores, it checks their effects.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

use serde_json::Value;

use super::kit::{Dir, Kit, Rec};
use super::scenarios::{inject_value, Drive, Scenario};

/// A check's outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Holds.
    Pass,
    /// Broken; the detail cites the frames.
    Fail,
    /// The scenario gave nothing to judge it on.
    NotObserved,
}

/// One judged item.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Check {
    /// `G1`…`G7` (docs/session.md's guarantees) or `behaviour`.
    pub id: &'static str,
    /// What is checked.
    pub title: String,
    /// The outcome.
    pub status: Status,
    /// The frames it rests on, or what went wrong.
    pub detail: String,
}

/// The guarantees' titles (docs/session.md, "The app").
pub const GUARANTEES: &[(&str, &str)] = &[
    ("G1", "One sequence"),
    ("G2", "Handshake first"),
    ("G3", "The ack arms, a detach disarms"),
    ("G4", "Nothing is lost silently"),
    ("G5", "Gates fail open"),
    ("G6", "Every release is answered"),
    ("G7", "heldMs is honest"),
];

struct Judge<'a> {
    sc: &'a Scenario,
    kit: &'a Kit,
    app: Vec<&'a Rec>,
    checks: Vec<Check>,
}

/// Every check of one scenario.
pub fn judge(sc: &Scenario, kit: &Kit, notes: &[String]) -> Vec<Check> {
    let app = kit.rec.iter().filter(|r| r.dir == Dir::App).collect();
    let mut j = Judge { sc, kit, app, checks: Vec::new() };
    j.g1();
    j.g2();
    j.g3();
    j.g4();
    j.g5();
    j.g6();
    j.g7();
    j.behaviour(notes);
    j.checks
}

impl Judge<'_> {
    fn add(&mut self, id: &'static str, title: impl Into<String>, problems: &[String], evidence: impl Into<String>) {
        let status = if problems.is_empty() { Status::Pass } else { Status::Fail };
        let detail = if problems.is_empty() { evidence.into() } else { problems.join("; ") };
        self.checks.push(Check { id, title: title.into(), status, detail });
    }

    fn not_observed(&mut self, id: &'static str, title: impl Into<String>, why: impl Into<String>) {
        self.checks.push(Check { id, title: title.into(), status: Status::NotObserved, detail: why.into() });
    }

    /// First sightings of each app seq (runId "*" frames included: one counter).
    fn first_seen(&self) -> BTreeMap<u64, &Rec> {
        let mut seen = BTreeMap::new();
        for r in &self.app {
            if let Some(s) = r.seq() {
                seen.entry(s).or_insert(*r);
            }
        }
        seen
    }

    /// The hello seq of each connection.
    fn hello_seqs(&self) -> BTreeMap<u64, u64> {
        let mut m = BTreeMap::new();
        for r in &self.app {
            if r.ty() == "hello" {
                if let Some(s) = r.seq() {
                    m.entry(r.conn).or_insert(s);
                }
            }
        }
        m
    }

    /// App frames that arrived as a replay (seq below their connection's hello seq).
    fn replayed(&self, r: &Rec) -> bool {
        self.hello_seqs().get(&r.conn).zip(r.seq()).is_some_and(|(h, s)| s < *h)
    }

    fn kind_of(&self, node_id: &str) -> String {
        self.app
            .iter()
            .find(|r| r.ty() == "node.started" && r.field("nodeId") == Some(node_id))
            .and_then(|r| r.field("kind"))
            .map_or_else(|| node_id.split(':').next().unwrap_or("").to_owned(), ToOwned::to_owned)
    }

    fn g1(&mut self) {
        let mut problems = Vec::new();
        if self.app.is_empty() {
            problems.push("no app frame arrived: nothing shows one sequence".to_owned());
        }
        for r in &self.app {
            if r.verdict != "ok" {
                problems.push(format!("{} is {} (`{}`)", r.cite(), r.verdict, clip(&r.text)));
            }
        }
        let mut by_seq: HashMap<u64, &Rec> = HashMap::new();
        for r in &self.app {
            let Some(s) = r.seq() else { continue };
            match by_seq.get(&s) {
                Some(first) if first.text != r.text => problems.push(format!("seq {s} names two frames: {} and {}", first.cite(), r.cite())),
                Some(_) => {}
                None => {
                    by_seq.insert(s, r);
                }
            }
        }
        // Per connection, everything but the hello and gap markers (which take fresh seqs
        // ahead of the replay, spec §5.3) comes in seq order: the ring oldest first (frames
        // emitted while the ack was pending included), then live frames.
        let hellos = self.hello_seqs();
        for conn in hellos.keys() {
            let mut last: Option<u64> = None;
            for r in self.app.iter().filter(|r| r.conn == *conn && r.ty() != "hello" && !(r.ty() == "graph.hint" && r.payload()["gap"].is_object())) {
                if let Some(s) = r.seq() {
                    if let Some(l) = last.filter(|l| s <= *l) {
                        problems.push(format!("{} after seq {l} on the same connection", r.cite()));
                    }
                    last = Some(last.map_or(s, |l| l.max(s)));
                }
            }
        }
        let evidence = format!(
            "{} app frames, {} distinct seqs over {} connection(s), every frame valid and each seq one frame",
            self.app.len(),
            by_seq.len(),
            hellos.len()
        );
        self.add("G1", "every app frame is valid; one seq counter: a seq names one frame; per connection, events come in seq order", &problems, evidence);
    }

    fn g2(&mut self) {
        let mut problems = Vec::new();
        let mut detail = Vec::new();
        let mut tokens: Vec<String> = Vec::new();
        let mut opened = 0;
        for conn in self.kit.conns.keys() {
            let frames: Vec<&Rec> = self.kit.rec.iter().filter(|r| r.conn == *conn).collect();
            let Some(first) = frames.iter().find(|r| r.dir == Dir::App) else { continue };
            opened += 1;
            if first.ty() != "hello" || first.run_id() != "*" || first.payload()["versions"]["protocol"] != 1 {
                problems.push(format!("{} opens the connection, not a hello with runId \"*\" and protocol 1", first.cite()));
                continue;
            }
            let expected_token = tokens.last().cloned();
            let sent_token = first.field("resumeToken").map(ToOwned::to_owned);
            if expected_token.is_some() && sent_token != expected_token {
                problems.push(format!("{} carries resumeToken {sent_token:?}, the last ack handed out {expected_token:?}", first.cite()));
            }
            let ack = frames.iter().find(|r| r.dir == Dir::Viewer && r.ty() == "hello.ack");
            let good = ack.filter(|a| a.verdict == "ok" && a.payload()["versions"]["protocol"] == 1);
            for r in frames.iter().filter(|r| r.dir == Dir::App && r.n > first.n) {
                if good.is_none_or(|a| r.n < a.n) {
                    problems.push(format!("{} went out before a valid hello.ack", r.cite()));
                }
            }
            match (ack, good) {
                (Some(a), None) => {
                    let life = &self.kit.conns[conn];
                    match &life.closed {
                        Some((_, how)) if !life.closed_by_kit => detail.push(format!("{} ({}) refused: the app closed [c{conn}] ({how})", a.cite(), a.verdict)),
                        _ => problems.push(format!("after the bad ack {} the app did not close [c{conn}]", a.cite())),
                    }
                }
                (_, Some(a)) => {
                    if let Some(t) = a.field("sessionToken") {
                        tokens.push(t.to_owned());
                    }
                }
                (None, None) => {}
            }
        }
        if opened == 0 {
            problems.push("no connection carried an app frame: no handshake to check".to_owned());
        }
        // gm ≠ 1 while attached ends the connection (graphmind-session §4 D6, Decision 1).
        if let Some(bad) = self.kit.rec.iter().find(|r| r.dir == Dir::Viewer && r.verdict == "version-mismatch" && r.ty() != "hello.ack") {
            let life = &self.kit.conns[&bad.conn];
            match &life.closed {
                Some((t, how)) if !life.closed_by_kit && *t - bad.t < 3000.0 => detail.push(format!("{} closed [c{}] ({how})", bad.cite(), bad.conn)),
                _ => problems.push(format!("{} (gm 2) did not end [c{}] within 3 s", bad.cite(), bad.conn)),
            }
        }
        let evidence = format!(
            "every connection opens with a hello and sends nothing else before a valid ack; {}",
            if detail.is_empty() { "no bad ack or gm 2 frame in this scenario".to_owned() } else { detail.join("; ") }
        );
        self.add(
            "G2",
            "hello first (runId \"*\", protocol 1, the last resumeToken); nothing before a valid ack; a bad ack or gm ≠ 1 ends the connection",
            &problems,
            evidence,
        );
    }

    fn g3(&mut self) {
        let Some(want) = self.sc.pauses else {
            return self.g3_step();
        };
        let got: Vec<(String, String)> = self.kit.pauses.iter().map(|p| (self.kind_of(&p.node_id), p.point.clone())).collect();
        let want: Vec<(String, String)> = want.iter().map(|(k, p)| ((*k).to_owned(), (*p).to_owned())).collect();
        let mut problems = Vec::new();
        if got != want {
            problems.push(format!("live pauses {} (kind@point), armed for {}", show(&got), show(&want)));
        }
        let mut evidence = format!("live pauses {}", show(&got));
        let title = match self.sc.name {
            "controls" => "breakpoint.set/clear and mode.set apply in arrival order (a duplicate set is one breakpoint); a second ack changes nothing",
            "reconnect" | "gm-mismatch" | "overflow" => "the ack arms; the gate released by the detach does not pause again",
            "rearm" => "a detach disarms: controls of a dropped connection do not survive into the next, whose ack arms exactly what it carries",
            _ => "the ack arms exactly the breakpoints it carries",
        };
        if self.sc.drive == Drive::Rearm {
            match self.detach_disarms() {
                Ok((mut more, seen)) => {
                    problems.append(&mut more);
                    evidence = format!("{seen}; {evidence}");
                }
                Err(why) if problems.is_empty() => return self.not_observed("G3", title, why),
                Err(why) => problems.push(why),
            }
        }
        self.add("G3", title, &problems, evidence);
    }

    /// `rearm`: the kit's `breakpoint.set {kind:llm}` and `mode.set step` on a connection it
    /// then dropped, the next connection's valid ack (which carries neither), and an LLM node
    /// started live after that ack: it must not pause (a stale breakpoint or step mode would
    /// pause it). `Err` says why the recording cannot show it.
    fn detach_disarms(&self) -> Result<(Vec<String>, String), String> {
        let rec = &self.kit.rec;
        let kit_frame = |ty: &str| rec.iter().find(|r| r.dir == Dir::Viewer && r.ty() == ty && r.verdict == "ok");
        let (Some(set), Some(mode)) = (kit_frame("breakpoint.set"), kit_frame("mode.set")) else {
            return Err("the kit sent no breakpoint.set and mode.set before the drop".to_owned());
        };
        let dropped = set.conn;
        if !self.kit.conns.get(&dropped).is_some_and(|c| c.closed_by_kit) {
            return Err(format!("[c{dropped}] was not dropped by the kit"));
        }
        let Some(ack) = rec.iter().find(|r| r.dir == Dir::Viewer && r.conn > dropped && r.ty() == "hello.ack" && r.verdict == "ok") else {
            return Err(format!("no connection after [c{dropped}] was acked (the app did not re-attach)"));
        };
        let armed = &ack.payload()["breakpoints"];
        let llm_armed = armed.as_array().is_none_or(|bs| bs.iter().any(|b| b.get("kind").is_none_or(|k| k == "llm")));
        if llm_armed || ack.field("mode") != Some("run") {
            return Err(format!("{} still arms the LLM or step mode ({armed}, mode {:?}): the kit's clear went out live", ack.cite(), ack.field("mode")));
        }
        let hellos = self.hello_seqs();
        let live_after = |r: &&&Rec| r.n > ack.n && hellos.get(&r.conn).zip(r.seq()).is_some_and(|(h, s)| s >= *h);
        let started: Vec<&&Rec> = self.app.iter().filter(|r| r.ty() == "node.started" && r.field("kind") == Some("llm")).filter(live_after).collect();
        let Some(first) = started.first() else {
            return Err(format!("no LLM node started live after {} (the workload plays its run twice in rearm)", ack.cite()));
        };
        let mut problems = Vec::new();
        for p in self.app.iter().filter(|r| r.ty() == "exec.paused").filter(live_after) {
            let node = p.field("nodeId").unwrap_or("");
            if self.kind_of(node) == "llm" || p.field("reason") == Some("step") {
                problems.push(format!(
                    "{} pauses {node} at {}: {} or {} of [c{dropped}] survived the detach ({} arms {armed}, mode run)",
                    p.cite(),
                    p.field("point").unwrap_or("?"),
                    set.cite(),
                    mode.cite(),
                    ack.cite()
                ));
            }
        }
        let seen = format!(
            "{} and {} armed the LLM and step mode on [c{dropped}], which the kit dropped; {} arms {armed} in mode run and {} ran under it unpaused",
            set.cite(),
            mode.cite(),
            ack.cite(),
            first.cite()
        );
        Ok((problems, seen))
    }

    fn g3_step(&mut self) {
        if !self.sc.step {
            return self.not_observed("G3", "the ack arms", "no breakpoint is judged in this scenario");
        }
        let got: Vec<(String, String)> = self.kit.pauses.iter().map(|p| (self.kind_of(&p.node_id), p.point.clone())).collect();
        let mut problems = Vec::new();
        for (k, p) in &got {
            if p == "after" {
                problems.push(format!("step mode paused {k} at after"));
            }
        }
        let started: BTreeSet<String> = self.app.iter().filter(|r| r.ty() == "node.started").filter_map(|r| r.field("nodeId").map(ToOwned::to_owned)).collect();
        for node in &started {
            let kind = self.kind_of(node);
            if kind == "agent" {
                continue; // a run's root node has no gates of its own in every adapter
            }
            if !self.kit.pauses.iter().any(|p| &p.node_id == node && p.point == "before") {
                problems.push(format!("step mode did not pause {node} at before"));
            }
        }
        self.add("G3", "step mode from the ack pauses every node before (and on error), never after", &problems, format!("live pauses {}", show(&got)));
    }

    fn g4(&mut self) {
        let seen = self.first_seen();
        let Some(max) = seen.keys().next_back().copied() else {
            return self.not_observed("G4", "nothing is lost silently", "no app frame");
        };
        let mut gaps: Vec<(u64, u64, &Rec)> = Vec::new();
        let mut problems = Vec::new();
        for r in &self.app {
            let gap = &r.payload()["gap"];
            if r.ty() == "graph.hint" && gap.is_object() {
                if r.payload()["nodes"].as_array().is_none_or(|n| !n.is_empty()) {
                    problems.push(format!("gap marker {} carries nodes", r.cite()));
                }
                if let (Some(from), Some(to)) = (gap["fromSeq"].as_u64(), gap["toSeq"].as_u64()) {
                    gaps.push((from, to, r));
                }
            }
        }
        let mut holes = Vec::new();
        for s in 0..=max {
            if !seen.contains_key(&s) && !gaps.iter().any(|(f, t, _)| (*f..=*t).contains(&s)) {
                holes.push(s);
            }
        }
        if !holes.is_empty() {
            problems.push(format!("seqs {} never arrived and no gap marker covers them", ranges(&holes)));
        }
        // Each connection's replay: gap markers first, then the ring oldest first.
        let hellos = self.hello_seqs();
        let mut replays = 0;
        for (conn, h) in &hellos {
            let replay: Vec<&&Rec> = self.app.iter().filter(|r| r.conn == *conn && r.seq().is_some_and(|s| s < *h)).collect();
            if replay.is_empty() {
                continue;
            }
            replays += 1;
            let seqs: Vec<u64> = replay.iter().filter_map(|r| r.seq()).collect();
            if seqs.windows(2).any(|w| w[0] >= w[1]) {
                problems.push(format!("[c{conn}] replays seqs out of order: {}", ranges(&seqs)));
            }
            let first = replay[0];
            for (_, _, g) in gaps.iter().filter(|(.., g)| g.conn == *conn) {
                if g.n > first.n {
                    problems.push(format!("gap marker {} comes after the replay began ({})", g.cite(), first.cite()));
                }
            }
            // Frames delivered on earlier connections and still in the ring are replayed
            // too: everything earlier at or after the first replayed seq.
            let from = seqs[0];
            let earlier: BTreeSet<u64> =
                self.app.iter().filter(|r| r.conn < *conn && r.ty() != "hello").filter_map(|r| r.seq()).filter(|s| *s >= from && s < h).collect();
            let missing: Vec<u64> = earlier.iter().filter(|s| !seqs.contains(s)).copied().collect();
            if !missing.is_empty() {
                problems.push(format!("[c{conn}] replay from seq {from} leaves out earlier frames {}", ranges(&missing)));
            }
        }
        let evidence = format!(
            "seqs 0..={max} all arrived or are covered by {} gap marker(s){}; {} replay(s), each oldest first and byte-identical (G1)",
            gaps.len(),
            gaps.iter().fold(String::new(), |mut o, (f, t, g)| {
                let _ = write!(o, " {} {f}..={t}", g.cite());
                o
            }),
            replays
        );
        self.add("G4", "every seq arrives or is announced by a gap marker (before the replay); replays are whole and oldest first", &problems, evidence);
    }

    fn g5(&mut self) {
        let mut problems = Vec::new();
        for r in self.app.iter().filter(|r| r.ty() == "exec.paused") {
            if self.replayed(r) && self.first_seen().get(&r.seq().unwrap_or(u64::MAX)).is_some_and(|f| f.n == r.n) {
                problems.push(format!("{} was first seen in a replay: a gate held while detached", r.cite()));
            }
        }
        // A resume sent right after exec.paused finds the gate (it was sent before the wait).
        let mut answered = 0;
        for (pause_id, _, t) in &self.kit.resumes {
            let dropped = self
                .kit
                .pauses
                .iter()
                .find(|p| &p.pause_id == pause_id)
                .and_then(|p| self.kit.conns.get(&p.conn))
                .and_then(|c| c.closed.as_ref())
                .is_some_and(|(ct, _)| ct < &(t + 2000.0));
            let got = self.app.iter().any(|r| r.ty() == "exec.resumed" && r.field("pauseId") == Some(pause_id.as_str()) && r.t >= *t);
            if got {
                answered += 1;
            } else if !dropped {
                problems.push(format!("the resume of {pause_id} at {t:.0} ms was never answered"));
            }
        }
        let title = "no gate holds while detached; a resume sent at once finds its gate";
        if self.kit.pauses.is_empty() && self.kit.resumes.is_empty() {
            let evidence = "no exec.paused arrived in a replay (no pause in this scenario)";
            return self.add("G5", title, &problems, evidence);
        }
        self.add("G5", title, &problems, format!("no exec.paused first seen in a replay; {answered} resume(s) answered"));
    }

    fn g6(&mut self) {
        let mut problems = Vec::new();
        let mut evidence = Vec::new();
        let resumed: Vec<&&Rec> = self.app.iter().filter(|r| r.ty() == "exec.resumed").collect();
        let mut first_by_pause: BTreeMap<&str, Vec<&Rec>> = BTreeMap::new();
        for r in &resumed {
            let Some(id) = r.field("pauseId") else { continue };
            let list = first_by_pause.entry(id).or_default();
            if !list.iter().any(|f| f.seq() == r.seq()) {
                list.push(r);
            }
        }
        let paused: Vec<&&Rec> = self.app.iter().filter(|r| r.ty() == "exec.paused").collect();
        let mut pause_ids = BTreeSet::new();
        for p in &paused {
            let Some(id) = p.field("pauseId") else { continue };
            if !pause_ids.insert(id) {
                continue;
            }
            match first_by_pause.get(id).map(Vec::as_slice) {
                None | Some([]) => {
                    // An answer evicted from a full ring before it was sent is announced by a gap
                    // marker (G4) instead.
                    let after = p.seq().unwrap_or(0);
                    let marker = self
                        .app
                        .iter()
                        .find(|g| g.ty() == "graph.hint" && g.run_id() == p.run_id() && g.payload()["gap"]["toSeq"].as_u64().is_some_and(|to| to > after));
                    match marker {
                        Some(g) => evidence.push(format!("{} → lost in the ring, announced by {}", p.cite(), g.cite())),
                        None => problems.push(format!("{} ({id}) was never answered by exec.resumed", p.cite())),
                    }
                }
                Some([one]) => {
                    let sent = self.kit.resumes.iter().find(|(pid, ..)| pid == id);
                    let action = one.field("action").unwrap_or("");
                    match sent {
                        Some((_, a, _)) if a.to_string() != action => problems.push(format!("{} answers {id} with {action}, the kit sent {a}", one.cite())),
                        _ => {}
                    }
                    // Before anything the resumed code emits: no later frame of the node with
                    // a lower seq than the answer.
                    let node = p.field("nodeId");
                    let (from, to) = (p.seq().unwrap_or(0), one.seq().unwrap_or(0));
                    for r in self.app.iter().filter(|r| r.field("nodeId") == node && r.run_id() == p.run_id() && r.ty() != "node.token") {
                        if r.seq().is_some_and(|s| s > from && s < to) {
                            problems.push(format!("{} (seq below the answer {}) precedes the release of {id}", r.cite(), one.cite()));
                            break;
                        }
                    }
                    evidence.push(format!("{} → {}", p.cite(), one.cite()));
                }
                Some(many) => {
                    problems.push(format!("{id} was answered {} times: {}", many.len(), many.iter().map(|r| r.cite()).collect::<Vec<_>>().join(", ")));
                }
            }
        }
        for (id, list) in &first_by_pause {
            if !pause_ids.contains(id) {
                problems.push(format!("{} answers {id}, which no exec.paused opened (an unknown pause is ignored)", list[0].cite()));
            }
        }
        if paused.is_empty() {
            return self.add(
                "G6",
                "every release is answered by one exec.resumed",
                &problems,
                "no pause in this scenario, and no exec.resumed for an unknown pause",
            );
        }
        self.add(
            "G6",
            "every release is answered by one exec.resumed before the resumed code emits; unknown or settled pauses get no answer",
            &problems,
            evidence.join(", "),
        );
    }

    fn g7(&mut self) {
        let mut problems = Vec::new();
        let mut evidence = Vec::new();
        let mut judged = 0;
        // Held nodes by run: a node id recurs in every run the workload plays (`rearm`).
        let held: BTreeSet<(&str, &str)> = self
            .kit
            .pauses
            .iter()
            .filter_map(|p| self.app.iter().find(|r| r.ty() == "exec.paused" && r.field("pauseId") == Some(p.pause_id.as_str())))
            .filter_map(|r| Some((r.run_id(), r.field("nodeId")?)))
            .collect();
        for r in self.app.iter().filter(|r| r.ty() == "node.finished" || r.ty() == "node.error") {
            let Some(node) = r.field("nodeId") else { continue };
            let held_ms = &r.payload()["heldMs"];
            if let Some(v) = held_ms.as_f64() {
                if v < 0.0 || ((v * 100.0).round() - v * 100.0).abs() > 1e-6 {
                    problems.push(format!("{} heldMs {v} is not a non-negative number of two decimals", r.cite()));
                }
                if v > self.kit.elapsed() + 1.0 {
                    problems.push(format!("{} heldMs {v} is longer than the whole scenario", r.cite()));
                }
            }
            if r.ty() == "node.finished" && held.contains(&(r.run_id(), node)) {
                judged += 1;
                match held_ms.as_f64() {
                    Some(v) if v > 0.0 => evidence.push(format!("{} heldMs {v}", r.cite())),
                    _ => problems.push(format!("{} finishes a held node without a positive heldMs ({held_ms})", r.cite())),
                }
            }
        }
        if judged == 0 {
            return self.not_observed("G7", "heldMs on a held node's node.finished", "no held node finished in this scenario");
        }
        if self.sc.name == "pause-timeout" {
            let ok = self
                .app
                .iter()
                .filter(|r| r.ty() == "node.finished" && r.field("nodeId").is_some_and(|n| held.contains(&(r.run_id(), n))))
                .any(|r| r.payload()["heldMs"].as_f64().is_some_and(|v| v >= 450.0));
            if !ok {
                problems.push("a 500 ms pause timeout, but no held node reports heldMs ≥ 450".to_owned());
            }
        }
        self.add("G7", "node.finished of a held node carries heldMs > 0, two decimals, within the time the hold could take", &problems, evidence.join(", "));
    }

    #[allow(clippy::too_many_lines)] // one arm per scenario
    fn behaviour(&mut self, notes: &[String]) {
        let mut problems: Vec<String> = notes.to_vec();
        let mut evidence = Vec::new();
        let finished: Vec<&&Rec> = self.app.iter().filter(|r| r.ty() == "run.finished").collect();
        let status = finished.first().and_then(|r| r.field("status")).unwrap_or("");
        if !self.sc.status.is_empty() {
            match finished.first() {
                None => problems.push("no run.finished arrived".to_owned()),
                Some(r) if status != self.sc.status => problems.push(format!("{} status {status}, expected {}", r.cite(), self.sc.status)),
                Some(r) => evidence.push(format!("{} status {status}", r.cite())),
            }
        }
        if self.sc.runs > 1 {
            let mut runs: Vec<&&Rec> = Vec::new();
            for r in &finished {
                if !runs.iter().any(|o| o.run_id() == r.run_id()) {
                    runs.push(r);
                }
            }
            if runs.len() < self.sc.runs {
                problems.push(format!("{} run(s) finished, the workload plays {} in this scenario", runs.len(), self.sc.runs));
            }
            for r in runs.iter().skip(1).filter(|r| !self.sc.status.is_empty() && r.field("status") != Some(self.sc.status)) {
                problems.push(format!("{} status {:?}, expected {}", r.cite(), r.field("status"), self.sc.status));
            }
        }
        let tool_finished = self.app.iter().find(|r| r.ty() == "node.finished" && self.kind_of(r.field("nodeId").unwrap_or("")) == "tool");
        let tool_started = self.app.iter().filter(|r| r.ty() == "node.started" && r.field("kind") == Some("tool")).count();
        let errors = self.app.iter().filter(|r| r.ty() == "node.error").count();
        let name = self.sc.name;
        let title = match name {
            n if n.starts_with("inject") => "inject: the node finishes ok with the injected output and injected: true; exec.resumed carries no output (§3.7)",
            n if n.starts_with("retry") => "retry re-runs the node: no new node.started, the same instance (§3.7)",
            n if n.starts_with("abort") => "abort: the run and the node end aborted (§3.7)",
            "continue-error" => "continue at error: the original error goes on (§3.7)",
            "continue" => "continue releases each gate; the tool's real output goes out (§3.7)",
            "malformed" => "malformed and unknown controls are ignored, the gate stays held until a valid resume (§4 D7, case 24-25)",
            "gm-mismatch" => "gm ≠ 1 while attached: close, fail open, reconnect, exec.resumed in the replay (§4 D6, case 27)",
            "reconnect" => "disconnect while held: the gate continues, the app reconnects with its token and replays (cases 12, 34)",
            "rearm" => "disconnect while held after controls: the gate continues, exec.resumed in the replay; both runs end ok (cases 12, 21)",
            "late-attach" => "frames emitted before the ack are delivered after it, none lost (case 3)",
            "overflow" => "unsent frames evicted from the ring are announced by gap markers before the replay (§2.4, case 15)",
            "pause-timeout" => "pause timeout: exec.resumed continue goes out live; a late resume is ignored (case 33)",
            "dispose" => "dispose while held: exec.resumed continue goes out live, then close 1000 (§2.5, case 35)",
            "ack-protocol" => "an ack with protocol 2 or gm 2 ends the attempt; the next hello takes a new seq (cases 4, 5, 11)",
            "controls" => "controls while attached (case 21); a second ack is ignored (case 10)",
            "step" => "step mode (case 20)",
            _ => "the scenario's behaviour",
        };
        let resumed_outputs = self.app.iter().filter(|r| r.ty() == "exec.resumed" && !r.payload()["output"].is_null()).map(|r| r.cite()).collect::<Vec<_>>();
        if !resumed_outputs.is_empty() {
            problems.push(format!("exec.resumed echoes an output: {}", resumed_outputs.join(", ")));
        }
        match name {
            n if n.starts_with("inject") => match tool_finished {
                Some(r) if r.payload()["output"] == inject_value() && r.payload()["injected"] == Value::Bool(true) && r.field("status") == Some("ok") => {
                    evidence.push(format!("{} output {}", r.cite(), inject_value()));
                }
                Some(r) => problems.push(format!(
                    "{} output {}, injected {}, status {:?}",
                    r.cite(),
                    r.payload()["output"],
                    r.payload()["injected"],
                    r.field("status")
                )),
                None => problems.push("the tool never finished".to_owned()),
            },
            n if n.starts_with("retry") => {
                if tool_started != 1 {
                    problems.push(format!("{tool_started} tool node.started (a retry emits none)"));
                }
                if name == "retry-error" && errors != 1 {
                    problems.push(format!("{errors} node.error (the first attempt fails, the retry succeeds)"));
                }
                match tool_finished {
                    Some(r) if r.field("status") == Some("ok") => evidence.push(format!("{} ok after the retry", r.cite())),
                    Some(r) => problems.push(format!("{} status {:?}", r.cite(), r.field("status"))),
                    None => problems.push("the tool never finished".to_owned()),
                }
            }
            n if n.starts_with("abort") => {
                if let Some(r) = tool_finished.filter(|r| r.field("status") != Some("aborted")) {
                    problems.push(format!("{} ends the aborted tool with status {:?}", r.cite(), r.field("status")));
                }
            }
            "continue-error" if errors == 0 => problems.push("no node.error".to_owned()),
            "malformed" => {
                if let (Some(p), Some((_, _, t))) = (self.kit.pauses.first(), self.kit.resumes.first()) {
                    let early: Vec<String> = self
                        .app
                        .iter()
                        .filter(|r| r.ty() == "exec.resumed" && r.field("pauseId") == Some(p.pause_id.as_str()) && r.t < *t)
                        .map(|r| r.cite())
                        .collect();
                    if !early.is_empty() {
                        problems.push(format!("released before the valid resume: {}", early.join(", ")));
                    }
                    if self.kit.conns.get(&p.conn).and_then(|c| c.closed.as_ref()).is_some_and(|(ct, _)| ct < t) {
                        problems.push(format!("[c{}] closed before the valid resume", p.conn));
                    }
                    evidence.push("the gate stayed held through every bad frame".to_owned());
                }
            }
            "gm-mismatch" | "reconnect" | "rearm" => {
                if let Some(p) = self.kit.pauses.first() {
                    let answer = self.app.iter().find(|r| r.ty() == "exec.resumed" && r.field("pauseId") == Some(p.pause_id.as_str()));
                    match answer {
                        Some(r) if r.conn != p.conn && self.replayed(r) && r.field("action") == Some("continue") => {
                            evidence.push(format!("{} (continue) in the replay", r.cite()));
                        }
                        Some(r) => problems.push(format!("{} answers the pause on [c{}], not as continue in the next connection's replay", r.cite(), r.conn)),
                        None => problems.push("no exec.resumed for the released pause".to_owned()),
                    }
                    if self.kit.conns.len() < 2 {
                        problems.push("the app did not reconnect".to_owned());
                    }
                }
            }
            "late-attach" => {
                // Frames the app stamped (`ts`, its wall clock) well before the kit sent the
                // delayed ack (the kit's wall clock) were emitted while it waited for the ack;
                // G2 says none went out before it, G4 that none was lost.
                let ack = self.kit.rec.iter().find(|r| r.dir == Dir::Viewer && r.ty() == "hello.ack");
                let sent_at = ack.map_or(0.0, |a| self.kit.epoch_at(a.t));
                let early: Vec<&&Rec> = self
                    .app
                    .iter()
                    .filter(|r| r.ty() != "hello" && r.json.as_ref().and_then(|j| j["ts"].as_f64()).is_some_and(|ts| ts + 50.0 < sent_at))
                    .collect();
                match (ack, early.first()) {
                    (Some(a), Some(first)) => {
                        evidence.push(format!("{} frame(s) emitted before the ack {} arrived after it, first {}", early.len(), a.cite(), first.cite()));
                    }
                    _ => problems.push("no frame was emitted while the ack was pending (the workload must not wait for the viewer in late-attach)".to_owned()),
                }
            }
            "overflow" => {
                let markers: Vec<String> = self.app.iter().filter(|r| r.ty() == "graph.hint" && r.payload()["gap"].is_object()).map(|r| r.cite()).collect();
                if markers.is_empty() {
                    problems.push("no gap marker".to_owned());
                } else {
                    evidence.push(format!("gap marker(s) {}", markers.join(", ")));
                }
            }
            "pause-timeout" => {
                if let Some(p) = self.kit.pauses.first() {
                    let paused_t = self.app.iter().find(|r| r.ty() == "exec.paused").map_or(0.0, |r| r.t);
                    match self.app.iter().find(|r| r.ty() == "exec.resumed" && r.field("pauseId") == Some(p.pause_id.as_str())) {
                        Some(r)
                            if r.conn == p.conn
                                && !self.replayed(r)
                                && r.field("action") == Some("continue")
                                && (300.0..3000.0).contains(&(r.t - paused_t)) =>
                        {
                            evidence.push(format!("{} live, {:.0} ms after the pause", r.cite(), r.t - paused_t));
                        }
                        Some(r) => problems.push(format!("{} is not a live continue about 500 ms after the pause ({:.0} ms)", r.cite(), r.t - paused_t)),
                        None => problems.push("the pause timed out without exec.resumed".to_owned()),
                    }
                }
            }
            "dispose" => {
                if let Some(p) = self.kit.pauses.first() {
                    let life = self.kit.conns.get(&p.conn);
                    let closed_t = life.and_then(|c| c.closed.as_ref()).map_or(f64::MAX, |(t, _)| *t);
                    match self.app.iter().find(|r| r.ty() == "exec.resumed" && r.field("pauseId") == Some(p.pause_id.as_str())) {
                        Some(r) if r.conn == p.conn && r.t <= closed_t && r.field("action") == Some("continue") => {
                            evidence.push(format!("{} live before the close", r.cite()));
                        }
                        Some(r) => problems.push(format!("{} is not a live continue before the close", r.cite())),
                        None => problems.push("no exec.resumed before the close".to_owned()),
                    }
                    match life.and_then(|c| c.closed.as_ref()) {
                        Some((_, how)) if how.contains("1000") => evidence.push(format!("[c{}] {how}", p.conn)),
                        Some((_, how)) => problems.push(format!("[c{}] {how}, not a close 1000", p.conn)),
                        None => problems.push(format!("[c{}] was not closed", p.conn)),
                    }
                }
            }
            "ack-protocol" => {
                let hellos: Vec<(u64, u64)> = self.hello_seqs().into_iter().collect();
                if hellos.len() < 3 {
                    problems.push(format!("{} connection(s); expected the app to retry after each of the two bad acks", hellos.len()));
                }
                if hellos.windows(2).any(|w| w[0].1 >= w[1].1) {
                    problems.push(format!("hello seqs do not increase: {hellos:?}"));
                }
                evidence.push(format!("hello seqs by connection {hellos:?}"));
            }
            _ => {}
        }
        self.add("behaviour", title, &problems, evidence.join(", "));
    }
}

fn show(v: &[(String, String)]) -> String {
    format!("[{}]", v.iter().map(|(k, p)| format!("{k}@{p}")).collect::<Vec<_>>().join(", "))
}

fn clip(text: &str) -> String {
    let t: String = text.chars().take(120).collect();
    if t.len() < text.len() {
        format!("{t}…")
    } else {
        t
    }
}

/// `1, 2, 3, 7` as `1..=3, 7`.
fn ranges(v: &[u64]) -> String {
    let mut out = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j + 1 < v.len() && v[j + 1] == v[j] + 1 {
            j += 1;
        }
        out.push(if i == j { v[i].to_string() } else { format!("{}..={}", v[i], v[j]) });
        i = j + 1;
    }
    out.join(", ")
}
