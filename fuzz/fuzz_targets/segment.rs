#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| subagent_context_fuzz::checks::segment(data));
