//! Gates: the decision at `gate()`, holding, settling and every release's `exec.resumed`
//! (graphmind-session §3.1, §3.4–§3.8).

use super::action::{Action, Decision, GateNode, GateOutcome, ReleaseCause};
use super::app::{AppSession, ConnState};
use super::clock::Millis;
use super::gate::HeldGate;
use crate::graphmind::{ExecPaused, ExecRefused, ExecResumed, PausePoint, PauseReason, RefusalCode};

impl AppSession {
    /// T20, §3.1: decides whether the adapter may proceed at `point` of `node` in `run`
    /// (`None`: the implicit run). Continues when disabled, disposed or not attached
    /// (fail-open); otherwise holds on a loop hit (at `before`), in step mode, or on a
    /// matching breakpoint. A hold emits `exec.paused` before returning (§3.5), arms the
    /// pause timeout and opens the held-ledger hold. Starts the connection on first use.
    ///
    /// A run id (given or implicit) with U+0000 cannot be framed, and `"*"` belongs to no run:
    /// the gate continues with a `bad-run-id` warning.
    pub fn gate(&mut self, point: PausePoint, node: &GateNode, run: Option<&str>, now: Millis) -> GateOutcome {
        if !self.config.enabled || self.disposed {
            return GateOutcome::Continue;
        }
        if self.unusable_run(run) {
            self.warn("bad-run-id", "gate runId contains U+0000 or is \"*\"; continuing");
            return GateOutcome::Continue;
        }
        self.ensure_started(now);
        let run_id = self.resolve_run(run, now);
        let attached = self.conn == ConnState::Attached;
        let mut loop_info = None;
        if point == PausePoint::Before {
            if let Some((info, pause)) = self.loop_guard.check(&run_id, node.kind, &node.node_id, &node.name) {
                if pause && attached {
                    loop_info = Some(info);
                } else {
                    self.warn("loop-detected", format!("{} repeated {} times identically", node.node_id, info.repeats));
                }
            }
        }
        if !attached {
            return GateOutcome::Continue;
        }
        let reason = if loop_info.is_some() { Some(PauseReason::Loop) } else { self.gates.reason(node.kind, &node.name, point) };
        let Some(reason) = reason else {
            return GateOutcome::Continue;
        };
        // §3.5, one atomic step: mint, register, open the ledger hold, emit exec.paused.
        let pause_id = self.gates.mint();
        self.next_hold += 1;
        let hold = self.next_hold;
        let deadline = self.config.pause_timeout_ms.map(|t| now.plus(t));
        self.gates.insert(HeldGate { pause_id: pause_id.clone(), run_id: run_id.clone(), deadline, hold });
        self.ledger.open_hold(hold, &run_id, &node.node_id, point, node.instance_id.as_deref(), now);
        let paused = ExecPaused {
            reason: Some(reason),
            loop_info,
            instance_id: node.instance_id.clone(),
            ..ExecPaused::from_required(pause_id.clone(), node.node_id.clone(), point)
        };
        self.emit_internal(paused.into(), &run_id, now);
        GateOutcome::Held(pause_id)
    }

    /// §3.8, §4 D16: the host's waiter for `pause_id` went away (cancelled task, process
    /// exit). Settles it with `continue` and `exec.resumed`, like a resume; returns `false`
    /// when the pause is not held.
    pub fn cancel(&mut self, pause_id: &str, now: Millis) -> bool {
        let Some(gate) = self.gates.take(pause_id) else {
            return false;
        };
        self.settle(gate, Decision::Continue, ReleaseCause::Cancel, None, now);
        true
    }

    /// §3.6 settle order: (1) the gate is already removed, (2) close the ledger hold,
    /// (3) `exec.resumed{pauseId, action, requestId?}`, then `AbortRun` for an abort (§3.7),
    /// (4) `Release`.
    pub(super) fn settle(&mut self, gate: HeldGate, decision: Decision, cause: ReleaseCause, request_id: Option<String>, now: Millis) {
        self.ledger.close_hold(gate.hold, now);
        let resumed = ExecResumed { request_id, ..ExecResumed::from_required(gate.pause_id.clone(), decision.action()) };
        self.emit_internal(resumed.into(), &gate.run_id, now);
        if decision == Decision::Abort {
            self.note_aborted(&gate.run_id);
            self.actions.push_back(Action::AbortRun { run_id: gate.run_id.clone() });
        }
        self.actions.push_back(Action::Release { pause_id: gate.pause_id, decision, cause });
    }

    /// Every held gate in insertion order settles with `continue` (T16(c), §2.5 step 2).
    pub(super) fn release_all(&mut self, cause: ReleaseCause, now: Millis) {
        for gate in self.gates.take_all() {
            self.settle(gate, Decision::Continue, cause, None, now);
        }
    }

    /// §3.6 inject guard / edit-input refusal: `exec.refused`; the gate stays held with the
    /// same pause id, timer and held interval.
    pub(super) fn refuse(&mut self, pause_id: &str, code: RefusalCode, message: &str, request_id: Option<String>, now: Millis) {
        let run_id = self.gates.run_of(pause_id).unwrap_or_default();
        let refused = ExecRefused { message: Some(message.to_owned()), request_id, ..ExecRefused::from_required(pause_id.to_owned(), code) };
        self.emit_internal(refused.into(), &run_id, now);
    }
}
