#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| norn::testing::fuzz::listed_moves_are_legal(data));
