//! The generator's integration tests, one binary, one module per topic: the committed
//! artifacts against snapshots (`generated_artifacts`), the protocol reference pages (`docs`),
//! the Python stubs (`stubs`) and the typify round trip (`typify_round_trip`).

#[path = "../../../../contract/tests/integration/common/mod.rs"]
mod common;

mod docs;
mod generated_artifacts;
mod stubs;
mod typify_round_trip;
