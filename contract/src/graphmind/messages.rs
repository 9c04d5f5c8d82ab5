//! The GraphMind v1 message table (spec graphmind-v1 §1): one row per message type, its
//! payload type (declared in `types.rs`), its direction group and which side sends it. This row
//! is the whole declaration of a message type: the `Message` enum, `MESSAGE_TYPES`,
//! `EVENT_TYPES`/`CONTROL_TYPES`/`HANDSHAKE_TYPES`, the schema's branches and every binding's
//! union come from it through the registry.

#[allow(clippy::wildcard_imports)] // the rows name every payload type: that is the point
use super::types::*;
use super::{MessageGroup, PROTOCOL};
use crate::wire::{Ctx, Path, Reflect, WireValue};
use wirecontract_json::cursor::Cursor;
use wirecontract_json::RawJson;
use wirecontract_json::Val;

messages! {
    /// `run.started`
    RunStarted(RunStarted) = "run.started", Event, ClientToServer;
    /// `run.finished`
    RunFinished(RunFinished) = "run.finished", Event, ClientToServer;
    /// `graph.hint`
    GraphHint(GraphHint) = "graph.hint", Event, ClientToServer;
    /// `node.started`
    NodeStarted(NodeStarted) = "node.started", Event, ClientToServer;
    /// `node.token`
    NodeToken(NodeToken) = "node.token", Event, ClientToServer;
    /// `node.finished`
    NodeFinished(NodeFinished) = "node.finished", Event, ClientToServer;
    /// `node.error`
    NodeError(NodeError) = "node.error", Event, ClientToServer;
    /// `exec.paused`
    ExecPaused(ExecPaused) = "exec.paused", Event, ClientToServer;
    /// `exec.refused`
    ExecRefused(ExecRefused) = "exec.refused", Event, ClientToServer;
    /// `exec.resumed`
    ExecResumed(ExecResumed) = "exec.resumed", Event, ClientToServer;
    /// `exec.resume`
    ExecResume(ExecResume) = "exec.resume", Control, ServerToClient;
    /// `breakpoint.set`
    BreakpointSet(BreakpointSet) = "breakpoint.set", Control, ServerToClient;
    /// `breakpoint.clear`
    BreakpointClear(BreakpointClear) = "breakpoint.clear", Control, ServerToClient;
    /// `mode.set`
    ModeSet(ModeSet) = "mode.set", Control, ServerToClient;
    /// `hello`
    Hello(Hello) = "hello", Handshake, ClientToServer;
    /// `hello.ack`
    HelloAck(HelloAck) = "hello.ack", Handshake, ServerToClient;
}
