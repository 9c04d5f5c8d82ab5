//! See wirecontract_fuzz::graphorin_parse for the invariants checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| wirecontract_fuzz::graphorin_parse(data));
