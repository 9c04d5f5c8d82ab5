//! See wirecontract_fuzz::json_unescape for the invariants checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| wirecontract_fuzz::json_unescape(data));
