//! One phase adjudicated from checked lines, with DipWork's winterer as an
//! option: a dislodged unit without a usable retreat gets the right-hand
//! rule's suggestion (reported on a line of its own), or disbands when no
//! retreat is open.

use crate::game::Played;
use dip_core::{game, retreat, CoastSpec, Dest, Map, Order, OrderKind, PhaseKind, PowerId, ProvinceId, State, UnitRef};
use dip_text::{check_turn, format_order, CheckOptions, Code, Fate, ReadLine, Style, TurnReport, Vocabulary};

/// The turn so far, for the winterer's messages: the earlier phases'
/// checks and every line of the turn's orders.
pub(crate) struct TurnSoFar<'a> {
    pub earlier: &'a [&'a TurnReport],
    pub lines: &'a [ReadLine],
}

/// Lines of this turn that were deleted and may have been meant for the
/// dislodged unit in `p` of `power`: its own retreat line that could not
/// be used, or a line of its nation whose unit could not be read
/// (`A Gxl-War`, 306), in this phase or an earlier one of the turn.
fn unusable_lines(now: &TurnReport, turn: &TurnSoFar, power: PowerId, p: ProvinceId) -> Vec<String> {
    let nation_of = |n: usize| turn.lines.iter().find(|l| l.line == n).and_then(|l| l.power);
    let this_phase = now.lines.iter().filter(|l| match l.read {
        Some(o) => o.power == power && o.unit().is_some_and(|u| u.province == p),
        None => nation_of(l.line) == Some(power),
    });
    let before = turn
        .earlier
        .iter()
        .flat_map(|c| c.lines.iter())
        .filter(|l| l.read.is_none() && nation_of(l.line) == Some(power));
    this_phase
        .chain(before)
        .filter(|l| l.line > 0 && l.order.is_none() && !l.press)
        .map(|l| {
            let why = l.worst().map(|c| format!(" [{}]", c.number())).unwrap_or_default();
            format!("line {} `{}`{why}", l.line, l.text)
        })
        .collect()
}

/// Why a dislodged unit has no retreat of its own: none received, or the
/// lines received could not be used.
fn no_retreat_why(unusable: &[String]) -> String {
    if unusable.is_empty() {
        "no retreat received".into()
    } else {
        format!("no usable retreat received ({} unusable)", unusable.join(", "))
    }
}

/// Checks `lines` against `state` and adjudicates; with `suggest`, the
/// winterer's retreats for dislodged units nobody ordered.
pub(crate) fn play_phase(
    vocab: &Vocabulary,
    rules: &dip_core::Ruleset,
    opts: &CheckOptions,
    suggest: bool,
    state: &State,
    lines: &[ReadLine],
    turn: &TurnSoFar,
) -> Played {
    let map = vocab.map();
    let check = check_turn(vocab, state, rules, opts, lines);
    let mut orders = check.orders();
    let mut suggested = Vec::new();
    let mut automatic = Vec::new();
    if suggest && state.phase.kind == PhaseKind::Retreat {
        // The parser disbands units without orders; the winterer suggests
        // a retreat for them instead.
        orders = check
            .lines
            .iter()
            .filter(|l| l.fate != Fate::Inserted)
            .filter_map(|l| l.order)
            .collect();
        for (p, d) in state.all_dislodged() {
            if orders.iter().any(|o| o.unit().is_some_and(|u| u.province == p)) {
                continue;
            }
            let why = no_retreat_why(&unusable_lines(&check, turn, d.unit.power, p));
            let (o, line, note) = winterer_order(map, rules, state, p, &d, &why);
            suggested.push(line);
            automatic.push((o, Code::NoRetreat, note));
            orders.push(o);
        }
    }
    let outcome = game::adjudicate(map, state, &orders, rules);
    let next = game::advance(map, state, &outcome);
    let winner = game::winner(map, &next);
    Played {
        state: state.clone(),
        submissions: Vec::new(),
        continues_turn: false,
        check,
        outcome,
        next,
        suggested,
        automatic,
        messages: Vec::new(),
        winner,
    }
}

/// The winterer's order for a dislodged unit nobody ordered: the
/// right-hand rule's retreat, or a disband when none is open; with the
/// screen line and the report's note.
fn winterer_order(
    map: &Map,
    rules: &dip_core::Ruleset,
    state: &State,
    p: ProvinceId,
    d: &dip_core::Dislodged,
    why: &str,
) -> (Order, String, String) {
    let unit = UnitRef::new(Some(d.unit.kind), p);
    let unit_text = format_order(map, &Order::new(d.unit.power, OrderKind::Hold(unit)), Style::Report);
    let unit_text = unit_text.trim_end_matches(" H");
    let nation = &map.power(d.unit.power).name;
    let number = Code::NoRetreat.number();
    match retreat::suggested_retreat(map, state, rules, d) {
        Some(r) => {
            let to = map.province_of(r);
            let dest = if map.region(r).coast.is_some() {
                Dest::coast(to, r)
            } else {
                Dest::new(to)
            };
            let o = Order::new(d.unit.power, OrderKind::Retreat(unit, dest));
            let line = format!(
                "{nation}: {unit_text}: {why} ({number}); suggested by the right-hand rule: {}",
                format_order(map, &o, Style::Report)
            );
            (o, line, format!("{why}: suggested by the right-hand rule"))
        }
        None => {
            // Nowhere to go: disbanded, on a line of its own.
            let coast = if map.region(d.unit.region).coast.is_some() {
                CoastSpec::Coast(d.unit.region)
            } else {
                CoastSpec::None
            };
            let o = Order::new(d.unit.power, OrderKind::Disband(unit.with_coast(coast)));
            let line = format!("{nation}: {unit_text}: {why} ({number}); no retreat is open: disbanded");
            (o, line, format!("{why}; no retreat open: disbanded"))
        }
    }
}
