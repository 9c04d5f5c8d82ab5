//! The run tree `wirecontract listen` prints: one entry per node instance, nested, with its
//! status, duration, held time, token deltas and the pauses it went through.
//!
//! It is built only from frames the session accepted (first-seen by `(runId, seq)`), so a
//! replayed frame is never counted twice. Nesting: a node's `parentId` when it names an open
//! node of the run; otherwise the innermost node still open in the run (the reference Python
//! client sends no `parentId` for nested spans and tools, and sequential code nests that way).
//!
//! Bounded: node and pause ids are kept as hashes, labels and errors escaped and cut, at most
//! [`MAX_NODES_PER_RUN`] nodes a run and [`MAX_NODES`] in all (further nodes are counted, not
//! drawn), and the host drops the trees of runs its session no longer retains ([`Runs::prune`]).

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};

use wirecontract::graphmind::{Envelope, Message, RunStatus};
use wirecontract::wire::NonNegativeF64;

use super::log::one_line;

/// Nodes drawn per run.
pub const MAX_NODES_PER_RUN: usize = 10_000;
/// Nodes drawn over all retained runs.
pub const MAX_NODES: usize = 200_000;

/// Characters of a name, kind or error kept for drawing.
const LABEL_CHARS: usize = 120;

/// A peer-chosen id as a key: its hash, so a huge id costs no memory here.
fn key(id: &str) -> u64 {
    let mut h = DefaultHasher::new();
    id.hash(&mut h);
    h.finish()
}

/// One node instance.
#[derive(Debug, Default)]
struct Node {
    /// `nodeId`, hashed.
    id: u64,
    /// `kind` and `name`, as `name (kind)`, escaped.
    label: String,
    /// `instanceId`, hashed.
    instance: u64,
    /// Final status; `None` while running.
    status: Option<RunStatus>,
    /// `durationMs` and `heldMs` of `node.finished`.
    duration_ms: Option<f64>,
    held_ms: Option<f64>,
    /// `node.token` deltas seen and the characters they carried.
    deltas: usize,
    chars: usize,
    /// `usage` of `node.finished`: input and output tokens.
    usage: Option<(u64, u64)>,
    /// `node.error` text.
    error: Option<String>,
    /// Pauses in order: point, then the action once `exec.resumed` names it.
    pauses: Vec<(String, Option<String>)>,
    children: Vec<usize>,
}

/// One run.
#[derive(Debug, Default)]
struct Run {
    status: Option<RunStatus>,
    nodes: Vec<Node>,
    roots: Vec<usize>,
    /// Open node instances, innermost last.
    open: Vec<usize>,
    /// Pause id (hashed) → (node, index in its `pauses`).
    pauses: HashMap<u64, (usize, usize)>,
    /// Accepted frames of this run.
    frames: usize,
    /// Nodes not drawn: past [`MAX_NODES_PER_RUN`] or [`MAX_NODES`].
    hidden: usize,
}

impl Run {
    /// The newest open instance of `node_id`.
    fn open_node(&self, node_id: &str) -> Option<usize> {
        let id = key(node_id);
        self.open.iter().rev().copied().find(|&i| self.nodes[i].id == id)
    }

    /// Adds an accepted frame; `room` says whether a new node may be drawn. Returns the
    /// nodes added (0 or 1).
    fn add(&mut self, env: &Envelope, room: bool) -> usize {
        self.frames += 1;
        match &env.message {
            Message::NodeStarted(p) => {
                if !room || self.nodes.len() >= MAX_NODES_PER_RUN {
                    self.hidden += 1;
                    return 0;
                }
                let parent = p.parent_id.as_deref().and_then(|id| self.open_node(id)).or_else(|| self.open.last().copied());
                let i = self.nodes.len();
                let label = format!("{} ({})", one_line(&p.name, LABEL_CHARS), p.kind);
                self.nodes.push(Node { id: key(&p.node_id), label, instance: key(&p.instance_id), ..Node::default() });
                match parent {
                    Some(parent) => self.nodes[parent].children.push(i),
                    None => self.roots.push(i),
                }
                self.open.push(i);
                return 1;
            }
            Message::NodeToken(p) => {
                if let Some(i) = self.open_node(&p.node_id) {
                    self.nodes[i].deltas += p.deltas.len();
                    self.nodes[i].chars += p.deltas.iter().map(|d| d.v.chars().count()).sum::<usize>();
                }
            }
            Message::NodeError(p) => {
                if let Some(i) = self.find(&p.node_id, p.instance_id.as_deref()) {
                    self.nodes[i].error = Some(one_line(&format!("{}: {}", p.error.name, p.error.message), 80));
                }
            }
            Message::NodeFinished(p) => {
                if let Some(i) = self.find(&p.node_id, p.instance_id.as_deref()) {
                    let n = &mut self.nodes[i];
                    n.status = Some(p.status);
                    n.duration_ms = Some(p.duration_ms.get());
                    n.held_ms = p.held_ms.map(NonNegativeF64::get);
                    n.usage = p.usage.as_ref().map(|u| (u.input_tokens.get(), u.output_tokens.get()));
                    self.open.retain(|&o| o != i);
                }
            }
            Message::ExecPaused(p) => {
                if let Some(i) = self.open_node(&p.node_id) {
                    self.nodes[i].pauses.push((p.point.to_string(), None));
                    self.pauses.insert(key(&p.pause_id), (i, self.nodes[i].pauses.len() - 1));
                }
            }
            Message::ExecResumed(p) => {
                if let Some(&(i, k)) = self.pauses.get(&key(&p.pause_id)) {
                    self.nodes[i].pauses[k].1 = Some(p.action.to_string());
                }
            }
            Message::RunFinished(p) => self.status = Some(p.status),
            _ => {}
        }
        0
    }

    /// The instance a `node.finished`/`node.error` names: by `instanceId` when given, else
    /// the newest open instance of the node.
    fn find(&self, node_id: &str, instance_id: Option<&str>) -> Option<usize> {
        let node = key(node_id);
        instance_id.and_then(|id| self.nodes.iter().rposition(|n| n.instance == key(id) && n.id == node)).or_else(|| self.open_node(node_id))
    }

    fn render_node(&self, i: usize, prefix: &str, last: bool, out: &mut String) {
        let n = &self.nodes[i];
        let _ = write!(out, "{prefix}{}{} ", if last { "└─ " } else { "├─ " }, n.label);
        match n.status {
            Some(s) => out.push_str(s.as_str()),
            None => out.push_str("running"),
        }
        if let Some(ms) = n.duration_ms {
            let _ = write!(out, " {ms:.2} ms");
        }
        if let Some(ms) = n.held_ms.filter(|ms| *ms > 0.0) {
            let _ = write!(out, ", held {ms:.2} ms");
        }
        if n.deltas > 0 {
            let _ = write!(out, ", {} token deltas ({} chars)", n.deltas, n.chars);
        }
        if let Some((i, o)) = n.usage {
            let _ = write!(out, ", usage {i} in / {o} out");
        }
        for (point, action) in &n.pauses {
            let _ = write!(out, ", paused {point} → {}", action.as_deref().unwrap_or("(open)"));
        }
        if let Some(e) = &n.error {
            let _ = write!(out, ", error {e}");
        }
        out.push('\n');
        let child_prefix = format!("{prefix}{}", if last { "   " } else { "│  " });
        for (k, &c) in n.children.iter().enumerate() {
            self.render_node(c, &child_prefix, k + 1 == n.children.len(), out);
        }
    }
}

/// Every retained run, in order of first appearance.
#[derive(Debug, Default)]
pub struct Runs {
    /// Run id → (order of first appearance, tree).
    by_id: HashMap<String, (u64, Run)>,
    next: u64,
    /// Nodes drawn over all runs.
    nodes: usize,
    /// Bytes of the run ids held as keys.
    key_bytes: usize,
}

impl Runs {
    /// Adds an accepted frame; returns `true` when it was the run's `run.finished`.
    pub fn add(&mut self, env: &Envelope) -> bool {
        let room = self.nodes < MAX_NODES;
        if !self.by_id.contains_key(&env.run_id) {
            self.next += 1;
            self.key_bytes += env.run_id.len();
            self.by_id.insert(env.run_id.clone(), (self.next, Run::default()));
        }
        if let Some((_, run)) = self.by_id.get_mut(&env.run_id) {
            self.nodes += run.add(env, room);
        }
        matches!(env.message, Message::RunFinished(_))
    }

    /// How many runs are held, and the bytes of their ids.
    pub fn size(&self) -> (usize, usize) {
        (self.by_id.len(), self.key_bytes)
    }

    /// Keeps only the runs `keep` accepts (the ones the session still retains).
    pub fn prune(&mut self, keep: impl Fn(&str) -> bool) {
        let (mut nodes, mut key_bytes) = (0, 0);
        self.by_id.retain(|id, (_, run)| {
            let kept = keep(id);
            if kept {
                nodes += run.nodes.len();
                key_bytes += id.len();
            }
            kept
        });
        (self.nodes, self.key_bytes) = (nodes, key_bytes);
    }

    /// The tree of one run as text, one line per node instance.
    pub fn render(&self, run_id: &str) -> String {
        let Some((_, run)) = self.by_id.get(run_id) else { return String::new() };
        let status = run.status.map_or("unfinished", RunStatus::as_str);
        let mut out = format!("run {} {status} ({} frames)\n", one_line(run_id, 200), run.frames);
        for (k, &r) in run.roots.iter().enumerate() {
            run.render_node(r, "", k + 1 == run.roots.len(), &mut out);
        }
        if run.hidden > 0 {
            let _ = writeln!(out, "({} more node(s) not drawn: over {MAX_NODES_PER_RUN} a run or {MAX_NODES} in all)", run.hidden);
        }
        out
    }

    /// Runs without `run.finished`, in order of appearance.
    pub fn unfinished(&self) -> Vec<&str> {
        let mut v: Vec<(u64, &str)> = self.by_id.iter().filter(|(_, (_, run))| run.status.is_none()).map(|(id, (n, _))| (*n, id.as_str())).collect();
        v.sort_unstable();
        v.into_iter().map(|(_, id)| id).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wirecontract::graphmind::{parse, ParseOptions, ParseOutcome};

    fn env(seq: u64, ty: &str, payload: &str) -> Envelope {
        let text = format!(r#"{{"gm":1,"seq":{seq},"ts":1,"runId":"r","type":"{ty}","payload":{payload}}}"#);
        match parse(&text, &ParseOptions::default()) {
            ParseOutcome::Ok(e) => e,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn nests_by_open_nodes_and_shows_pauses_and_tokens() {
        let mut runs = Runs::default();
        let frames = [
            env(1, "run.started", r#"{"app":"a","sdk":{"name":"python","version":"1"}}"#),
            env(2, "node.started", r#"{"nodeId":"agent:x","kind":"agent","name":"x","instanceId":"r"}"#),
            env(3, "node.started", r#"{"nodeId":"llm:step","kind":"llm","name":"step","instanceId":"s1","parentId":"agent:x"}"#),
            env(4, "node.token", r#"{"nodeId":"llm:step","deltas":[{"t":"text","v":"héllo"},{"t":"text","v":"!"}]}"#),
            env(5, "node.finished", r#"{"nodeId":"llm:step","instanceId":"s1","durationMs":2,"status":"ok","usage":{"inputTokens":3,"outputTokens":4}}"#),
            env(6, "node.started", r#"{"nodeId":"tool:t","kind":"tool","name":"t","instanceId":"c1"}"#),
            env(7, "exec.paused", r#"{"pauseId":"p1","nodeId":"tool:t","point":"before"}"#),
            env(8, "exec.resumed", r#"{"pauseId":"p1","action":"inject"}"#),
            env(9, "node.finished", r#"{"nodeId":"tool:t","instanceId":"c1","durationMs":1.5,"status":"ok","heldMs":0.75}"#),
            env(10, "node.finished", r#"{"nodeId":"agent:x","instanceId":"r","durationMs":9,"status":"ok"}"#),
        ];
        for f in &frames {
            assert!(!runs.add(f));
        }
        assert_eq!(runs.unfinished(), ["r"]);
        assert!(runs.add(&env(11, "run.finished", r#"{"status":"ok"}"#)));
        assert_eq!(
            runs.render("r"),
            "run r ok (11 frames)\n\
             └─ x (agent) ok 9.00 ms\n   \
                ├─ step (llm) ok 2.00 ms, 2 token deltas (6 chars), usage 3 in / 4 out\n   \
                └─ t (tool) ok 1.50 ms, held 0.75 ms, paused before → inject\n"
        );
        assert!(runs.unfinished().is_empty());
    }
}
