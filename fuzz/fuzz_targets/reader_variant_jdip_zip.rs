//! Fuzz target: dip_fuzz::variant_jdip_zip (see crates/dip-fuzz): any bytes, never a panic.
//!
//!     cargo +nightly fuzz run reader_variant_jdip_zip
#![no_main]
#![forbid(unsafe_code)]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| dip_fuzz::variant_jdip_zip(data));
