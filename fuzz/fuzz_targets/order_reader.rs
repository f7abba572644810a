//! Fuzz target for the order reader (dip-text): any bytes as an orders
//! file. Invariants: no panic; a line read as an order prints in every
//! style and reads back to the same order; a whole turn is always checked.
//! Run: `cargo +nightly fuzz run order_reader` (in this directory).
//! (`parse_order` is `parse_order_with` these words, built once here.)
#![no_main]
#![forbid(unsafe_code)]

use dip_core::{CoastSpec, OrderKind, PowerId, Ruleset};
use dip_text::{format_order, parse_order_with, read_turn, CheckOptions, Style, Vocabulary};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn variant() -> &'static dip_variants::Variant {
    static V: OnceLock<dip_variants::Variant> = OnceLock::new();
    V.get_or_init(dip_variants::standard)
}

fn vocab() -> &'static Vocabulary<'static> {
    static W: OnceLock<Vocabulary<'static>> = OnceLock::new();
    W.get_or_init(|| Vocabulary::new(&variant().map))
}

/// The words `parse_order` uses (no spelling check), built once.
fn strict() -> &'static Vocabulary<'static> {
    static W: OnceLock<Vocabulary<'static>> = OnceLock::new();
    W.get_or_init(|| Vocabulary::new(&variant().map).with_spellcheck(0))
}

fn has_unknown_coast(k: &OrderKind) -> bool {
    let units = match *k {
        OrderKind::SupportHold(a, b) => vec![a.coast, b.coast],
        OrderKind::SupportMove(a, b, d) | OrderKind::Convoy(a, b, d) => vec![a.coast, b.coast, d.coast],
        OrderKind::Move(a, d, _) | OrderKind::Retreat(a, d) => vec![a.coast, d.coast],
        OrderKind::Hold(a) | OrderKind::Disband(a) | OrderKind::Build(a) => vec![a.coast],
        OrderKind::Waive => vec![],
    };
    units.contains(&CoastSpec::Unknown)
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let v = variant();
    let map = &v.map;
    for line in text.lines().take(40) {
        if let Ok(o) = parse_order_with(strict(), line, Some(PowerId(0))) {
            if !has_unknown_coast(&o.kind) {
                for style in Style::ALL {
                    let printed = format_order(map, &o, style);
                    let back = parse_order_with(strict(), &printed, Some(o.power));
                    assert_eq!(back, Ok(o), "{line:?} printed {style:?} as {printed:?}");
                }
            }
        }
    }
    for nsu_checking_off in [false, true] {
        let opts = CheckOptions { nsu_checking_off, allow_foreign: false };
        let report = read_turn(vocab(), &v.start, &Ruleset::DATC, &opts, &text, None);
        assert!(report.lines.iter().all(|l| l.order.is_none() || l.fate != dip_text::Fate::Deleted));
    }
});
