//! See wirecontract_fuzz::json_reader for the invariants checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| wirecontract_fuzz::json_reader(data));
