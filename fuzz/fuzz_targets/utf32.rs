//! See wirecontract_fuzz::utf32 for the invariants checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| wirecontract_fuzz::utf32(data));
