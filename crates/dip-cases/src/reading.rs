//! jDip's order-reading suite: no game, no adjudication. A case's order is
//! read in its position as a game master's reader would, written in jDip's
//! notation and compared with the suite's expected result.

use crate::run::setup;
use crate::{Case, Line, ReadCheck};
use dip_core::{CoastSpec, Map, Order, OrderKind, ProvinceId, State, Unit, UnitRef};
use dip_text::{scan_line, ScanState, Vocabulary};
use dip_variants::Variant;

/// A case of jDip's order-reading suite: the order is read in the position
/// (with the spelling check, preferring provinces where units stand) and
/// written in jDip's notation, then compared with the expected result.
pub(crate) fn read_check(
    variant: &Variant,
    case: &Case,
    check: &ReadCheck,
    failures: &mut Vec<String>,
) -> Result<(), String> {
    let map = &variant.map;
    let plain = Vocabulary::new(map).with_spellcheck(0);
    let loc = |l: &Line| format!("{}:{}", case.file, l.number);
    let state = setup(&plain, case).map_err(|(l, e)| format!("{}: {e}", loc(&l)))?;
    let vocab = Vocabulary::new(map).with_position(&state);
    let expected = check.expected.text.trim();
    let want = if expected.eq_ignore_ascii_case("fail") {
        "FAIL".to_string()
    } else {
        canonical_notation(&plain, expected)
            .ok_or_else(|| format!("{}: cannot read the expected result `{expected}`", loc(&check.expected)))?
    };
    let got = match read_in_position(&vocab, &state, &check.order.text) {
        Some(o) => jdip_notation(map, &state, &o),
        None => "FAIL".to_string(),
    };
    if want != got {
        failures.push(format!(
            "{}: `{}`: expected {want}, read {got}",
            loc(&check.order),
            check.order.text
        ));
    }
    Ok(())
}

/// Reads one order as a game master would: corrections allowed, the power
/// from the line or else from the unit that stands there.
fn read_in_position(vocab: &Vocabulary, state: &State, text: &str) -> Option<Order> {
    let s = scan_line(vocab, text, &mut ScanState::default())?;
    if s.press || s.notes.iter().any(|n| !n.code.is_correction()) {
        return None;
    }
    let mut kind = s.order?;
    // jDip takes a written path for a move by convoy.
    if let OrderKind::Move(u, d, false) = kind {
        if !s.path.is_empty() {
            kind = OrderKind::Move(u, d, true);
        }
    }
    let power = s.power.or_else(|| {
        let u = kind.unit()?;
        unit_at(state, u.province).map(|u| u.power)
    })?;
    Some(Order::new(power, kind))
}

fn unit_at(state: &State, p: ProvinceId) -> Option<Unit> {
    state.unit(p).or_else(|| state.dislodged(p).map(|d| d.unit))
}

/// An order in jDip's notation, with dip's abbreviations:
/// `move(england, lvp/mv, army, edi, false)`. The unit's type and coast
/// come from the order, else from the position; `mv` is an army's place,
/// `xc` a fleet's when the province has one coast.
pub fn jdip_notation(map: &Map, state: &State, order: &Order) -> String {
    let power = map.power(order.power).name.to_lowercase();
    let kind_of = |u: &UnitRef| u.kind.or_else(|| unit_at(state, u.province).map(|x| x.kind));
    let type_name = |u: &UnitRef| match kind_of(u) {
        Some(k) => map.unit_type(k).name.to_lowercase(),
        None => "?".into(),
    };
    let place = |u: &UnitRef| {
        let abbr = &map.province(u.province).abbr;
        let coast = match u.coast {
            CoastSpec::Coast(r) => map.region(r).coast.clone(),
            _ => unit_at(state, u.province).and_then(|x| map.region(x.region).coast.clone()),
        };
        let is_army = kind_of(u).is_some_and(|k| map.unit_type(k).name.eq_ignore_ascii_case("army"));
        match coast {
            Some(c) => format!("{abbr}/{c}"),
            None if is_army => format!("{abbr}/mv"),
            None => format!("{abbr}/xc"),
        }
    };
    let dest = |d: &dip_core::Dest| {
        let abbr = &map.province(d.province).abbr;
        match d.coast {
            CoastSpec::Coast(r) => match &map.region(r).coast {
                Some(c) => format!("{abbr}/{c}"),
                None => abbr.clone(),
            },
            _ => abbr.clone(),
        }
    };
    let text = match &order.kind {
        OrderKind::Hold(u) => format!("hold({power}, {}, {})", place(u), type_name(u)),
        OrderKind::Move(u, d, via) => format!("move({power}, {}, {}, {}, {via})", place(u), type_name(u), dest(d)),
        OrderKind::SupportHold(u, t) => format!(
            "support({power}, {}, {}, {}, {}, {})",
            place(u),
            type_name(u),
            map.province(t.province).abbr,
            type_name(t),
            map.province(t.province).abbr
        ),
        OrderKind::SupportMove(u, t, d) | OrderKind::Convoy(u, t, d) => {
            let word = if matches!(order.kind, OrderKind::Convoy(..)) {
                "convoy"
            } else {
                "support"
            };
            format!(
                "{word}({power}, {}, {}, {}, {}, {})",
                place(u),
                type_name(u),
                map.province(t.province).abbr,
                type_name(t),
                dest(d)
            )
        }
        OrderKind::Retreat(u, d) => format!("retreat({power}, {}, {}, {})", place(u), type_name(u), dest(d)),
        OrderKind::Disband(u) => format!("remove({power}, {}, {})", place(u), type_name(u)),
        OrderKind::Build(u) => format!("build({power}, {}, {})", place(u), type_name(u)),
        OrderKind::Waive => format!("waive({power})"),
    };
    text
}

/// jDip's notation as written in `RES:` lines, with jDip's province names
/// replaced by dip's abbreviations, power names by dip's, in lower case.
/// `disband` is written `remove` (one order in dip).
fn canonical_notation(vocab: &Vocabulary, text: &str) -> Option<String> {
    let map = vocab.map();
    let (name, args) = text.split_once('(')?;
    let args = args.trim().strip_suffix(')')?;
    let name = match name.trim().to_lowercase().as_str() {
        "disband" => "remove".to_string(),
        other => other.to_string(),
    };
    let mut out = Vec::new();
    for (i, a) in args.split(',').map(str::trim).enumerate() {
        let lower = a.to_lowercase();
        let (base, coast) = match lower.split_once('/') {
            Some((b, c)) => (b.to_string(), Some(c.to_string())),
            None => (lower.clone(), None),
        };
        let word = if i == 0 {
            match vocab.nation(&base) {
                Some(p) => map.power(p).name.to_lowercase(),
                None => lower.clone(),
            }
        } else if matches!(base.as_str(), "army" | "fleet" | "true" | "false") {
            lower.clone()
        } else {
            match vocab.place(&base) {
                Some(p) => {
                    let abbr = map.province(p.province).abbr.clone();
                    match coast {
                        Some(c) => format!("{abbr}/{c}"),
                        None => abbr,
                    }
                }
                None => lower.clone(),
            }
        };
        out.push(word);
    }
    Some(format!("{name}({})", out.join(", ")))
}
