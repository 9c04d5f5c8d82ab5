//! The contract's integration tests, one binary (as schemars does), one module per topic.
//! `bailed_memory.rs` is a binary of its own: its counting global allocator must see no other
//! test's allocations.

mod common;

mod api_truth;
mod build_frame_json;
mod create_envelope_json;
mod graphmind_conformance;
mod graphorin_conformance;
mod graphorin_write_depth;
mod limits;
mod llm;
mod properties;
mod schema_build_hygiene;
mod session_adapter_core;
mod session_cases;
mod session_properties;
mod shrink;
mod shrink_properties;
mod single_pass;
mod viewer_faults;
mod viewer_limits;
