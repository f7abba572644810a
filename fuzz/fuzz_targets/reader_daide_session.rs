//! Fuzz target: dip_fuzz::daide_session (see crates/dip-fuzz): any bytes, never a panic.
//!
//!     cargo +nightly fuzz run reader_daide_session
#![no_main]
#![forbid(unsafe_code)]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| dip_fuzz::daide_session(data));
