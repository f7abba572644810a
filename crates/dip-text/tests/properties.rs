//! Properties of reading and printing: print then parse gives the same
//! order in every style; no input makes the reader panic.

use dip_core::{CoastSpec, Dest, Map, Order, OrderKind, PowerId, ProvinceId, Ruleset, UnitRef, UnitTypeId};
use dip_text::{
    format_order, format_order_with, parse_order, parse_order_with, read_turn, CheckOptions, Style, Vocabulary,
};
use proptest::prelude::*;
use std::sync::OnceLock;

fn variant() -> &'static dip_variants::Variant {
    static V: OnceLock<dip_variants::Variant> = OnceLock::new();
    V.get_or_init(dip_variants::standard)
}

/// dip's default words, built once.
fn default_words() -> &'static Vocabulary<'static> {
    static W: OnceLock<Vocabulary<'static>> = OnceLock::new();
    W.get_or_init(|| Vocabulary::new(&variant().map))
}

/// Words with DIP's renamed provinces (`fixnames.dat`), built once.
fn renamed() -> &'static Vocabulary<'static> {
    static W: OnceLock<Vocabulary<'static>> = OnceLock::new();
    W.get_or_init(|| {
        let mut v = Vocabulary::new(&variant().map).with_spellcheck(0);
        v.apply_fixnames(&["ion,IOS", "nao,NAT", "mao,MID", "stp,StP"]).unwrap();
        v
    })
}

/// The words `parse_order` reads with (no spelling check), built once.
fn strict() -> &'static Vocabulary<'static> {
    static W: OnceLock<Vocabulary<'static>> = OnceLock::new();
    W.get_or_init(|| Vocabulary::new(&variant().map).with_spellcheck(0))
}

/// Picks from the numbers proptest drew: a unit reference on the map.
fn unit(map: &Map, kind: u8, province: u16, coast: u8, typed: bool) -> UnitRef {
    let p = ProvinceId(province % map.num_provinces() as u16);
    let k = UnitTypeId(kind % map.unit_types().len() as u8);
    UnitRef::new(typed.then_some(k), p).with_coast(coast_of(map, p, coast))
}

fn coast_of(map: &Map, p: ProvinceId, coast: u8) -> CoastSpec {
    let cs = map.coasts(p);
    if cs.is_empty() || coast.is_multiple_of(3) {
        CoastSpec::None
    } else {
        CoastSpec::Coast(cs[coast as usize % cs.len()])
    }
}

fn dest(map: &Map, province: u16, coast: u8) -> Dest {
    let p = ProvinceId(province % map.num_provinces() as u16);
    Dest {
        province: p,
        coast: coast_of(map, p, coast),
    }
}

type Raw = (u8, u8, (u8, u16, u8, bool), (u8, u16, u8, bool), (u16, u8), bool);

fn order(map: &Map, raw: Raw) -> Order {
    let (power, kind, a, b, d, via) = raw;
    let me = unit(map, a.0, a.1, a.2, a.3);
    let them = unit(map, b.0, b.1, b.2, b.3);
    let to = dest(map, d.0, d.1);
    let kind = match kind % 9 {
        0 => OrderKind::Hold(me),
        1 => OrderKind::Move(me, to, via),
        2 => OrderKind::SupportHold(me, them),
        3 => OrderKind::SupportMove(me, them, to),
        4 => OrderKind::Convoy(me, them, to),
        5 => OrderKind::Retreat(me, to),
        6 => OrderKind::Disband(me),
        7 => OrderKind::Build(me),
        _ => OrderKind::Waive,
    };
    Order::new(PowerId(power % map.powers().len() as u8), kind)
}

fn raw() -> impl Strategy<Value = Raw> {
    (
        any::<u8>(),
        any::<u8>(),
        (any::<u8>(), any::<u16>(), any::<u8>(), any::<bool>()),
        (any::<u8>(), any::<u16>(), any::<u8>(), any::<bool>()),
        (any::<u16>(), any::<u8>()),
        any::<bool>(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Every order printed in every style reads back to the same order.
    #[test]
    fn print_then_parse_gives_the_same_order(r in raw()) {
        let map = &variant().map;
        let o = order(map, r);
        for style in Style::ALL {
            let text = format_order(map, &o, style);
            let back = parse_order_with(strict(), &text, Some(o.power));
            prop_assert_eq!(back.as_ref(), Ok(&o), "style {:?}: `{}`", style, text);
        }
        // `parse_order` itself, which builds the same words on each call
        // (slow without optimisation): every tenth case.
        if r.0 % 10 == 0 {
            let style = Style::ALL[usize::from(r.1) % Style::ALL.len()];
            let text = format_order(map, &o, style);
            prop_assert_eq!(parse_order(map, &text, Some(o.power)), Ok(o), "style {:?}: `{}`", style, text);
        }
    }

    /// The same with DIP's renamed provinces (`fixnames.dat`).
    #[test]
    fn print_then_parse_with_renamed_provinces(r in raw()) {
        let map = &variant().map;
        let v = renamed();
        let o = order(map, r);
        for style in Style::ALL {
            let text = format_order_with(v, &o, style);
            let back = parse_order_with(v, &text, Some(o.power));
            prop_assert_eq!(back.as_ref(), Ok(&o), "style {:?}: `{}`", style, text);
        }
    }

}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any text: the reader never panics, a parsed order names only the
    /// map's ids, and a whole turn is always checked.
    #[test]
    fn any_text_never_panics(text in "\\PC{0,60}") {
        if let Ok(o) = parse_order_with(strict(), &text, Some(PowerId(0))) {
            if let Some(u) = o.unit() {
                prop_assert!(u.province.index() < variant().map.num_provinces());
            }
        }
        let report = read_turn(default_words(), &variant().start, &Ruleset::DATC, &CheckOptions::default(), &text, None);
        prop_assert!(report.lines.len() >= 22);
    }

    /// Order-like text made of the map's words: never panics either.
    #[test]
    fn wordy_text_never_panics(words in proptest::collection::vec(
        prop_oneof![
            Just("A"), Just("F"), Just("S"), Just("C"), Just("-"), Just("->"), Just("("), Just(")"),
            Just("/"), Just("sc"), Just("nc"), Just("\""), Just("H"), Just("xxx"), Just("via"),
            Just("Austria"), Just("En"), Just("ENG"), Just("stp"), Just("spa"), Just("bul"),
            Just("North"), Just("Sea"), Just("Mid-Atlantic"), Just("build"), Just("disband"),
            Just("R"), Just("waive"), Just("lon"), Just("nth"), Just("nwy"), Just(":"), Just("coast"),
        ],
        0..12,
    ), nsu_off in any::<bool>()) {
        let text = words.join(" ");
        let _ = parse_order_with(strict(), &text, None);
        let opts = CheckOptions { nsu_checking_off: nsu_off, allow_foreign: false };
        let text = format!("{text}\n{}", words.join(""));
        let _ = read_turn(default_words(), &variant().start, &Ruleset::DATC, &opts, &text, Some(PowerId(1)));
    }
}
