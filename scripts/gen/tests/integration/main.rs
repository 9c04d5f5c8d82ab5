//! The generator's integration tests, one binary, one module per topic: the committed
//! artifacts against snapshots (`generated_artifacts`), the protocol reference pages (`docs`),
//! the Python stubs (`stubs`), the typify round trip (`typify_round_trip`) and the
//! registry invariant of Node's large-frame path (`node_large_frame`).

#[path = "../../../../contract/tests/integration/common/mod.rs"]
mod common;

mod docs;
mod generated_artifacts;
mod node_large_frame;
mod stubs;
mod typify_round_trip;
