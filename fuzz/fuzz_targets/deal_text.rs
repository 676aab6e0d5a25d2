#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| norn::testing::fuzz::deal_text(data));
