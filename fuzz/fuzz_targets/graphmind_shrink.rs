//! See wirecontract_fuzz::graphmind_shrink for the invariants checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| wirecontract_fuzz::graphmind_shrink(data));
