//! See wirecontract_fuzz::graphmind_parse for the invariants checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| wirecontract_fuzz::graphmind_parse(data));
