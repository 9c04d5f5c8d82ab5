//! See wirecontract_fuzz::graphmind_build for the invariants checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|input: wirecontract_fuzz::BuildInput| wirecontract_fuzz::graphmind_build(&input));
