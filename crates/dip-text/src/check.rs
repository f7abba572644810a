//! DipWork's parser: the orders of one turn checked against the position,
//! in DipWork's order of steps, each change numbered (docs/orders.md).
//!
//! The legality of single orders is dip-core's (`movement::order_problem`,
//! `retreat::retreat_options`, `legal::adjustment_orders`): this module
//! only normalises, numbers and reports, so what it accepts the
//! adjudicator accepts.

use crate::code::{Code, Note};
use crate::scan::Scanned;
use crate::vocab::Vocabulary;
use dip_core::rules::Duplicates;
use dip_core::{CoastSpec, Dest, Illegal, Map, Order, OrderKind, PhaseKind, PowerId, Ruleset, State, Unit, UnitRef};
use std::borrow::Cow;

/// Switches of the parser (DipWork's game parameters and dip's own).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckOptions {
    /// `NSU_CHECKING_OFF`: no missing orders (12) and no NSU (209); an
    /// order for a unit not on the board places that unit, for testing.
    pub nsu_checking_off: bool,
    /// Orders for another nation's units are accepted (else refused, 400).
    /// The ruleset's `proxy-orders` also allows them.
    pub allow_foreign: bool,
}

/// What became of a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fate {
    /// Read and accepted as written.
    Accepted,
    /// Accepted with changes (corrected, or turned into a hold).
    Changed,
    /// Deleted: it gives no order.
    Deleted,
    /// Not on any line: a hold inserted for a unit without an order (12).
    Inserted,
}

/// One line of the orders with what became of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineResult {
    /// 1-based line number in the input; 0 for an inserted order.
    pub line: usize,
    /// The line as written (trimmed).
    pub text: String,
    /// The order as read, before the checks.
    pub read: Option<Order>,
    /// The standard order after the checks; `None` when deleted.
    pub order: Option<Order>,
    pub fate: Fate,
    /// Every correction and error, in the order they were made.
    pub notes: Vec<Note>,
    /// The words after the unit were no order (press): it holds.
    pub press: bool,
}

impl LineResult {
    /// The highest number noted (what DipWork's `ERROR_NR_OUTPUT` shows).
    pub fn worst(&self) -> Option<Code> {
        self.notes.iter().map(|n| n.code).max_by_key(|c| c.number())
    }
}

/// A line of input as handed to the checker.
#[derive(Clone, Debug)]
pub struct ReadLine {
    pub line: usize,
    pub text: String,
    /// The nation: named on the line, or by a `NATION` header, or given.
    pub power: Option<PowerId>,
    pub scanned: Scanned,
}

/// The result of reading and checking one turn's orders.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnReport {
    /// One entry per order line, in input order, then the inserted holds.
    pub lines: Vec<LineResult>,
}

impl TurnReport {
    /// The standard orders to adjudicate.
    pub fn orders(&self) -> Vec<Order> {
        self.lines.iter().filter_map(|l| l.order).collect()
    }
    /// DipWork's `ERRORS.TXT`: every changed or deleted order, with its
    /// full original text.
    pub fn errors(&self) -> impl Iterator<Item = &LineResult> {
        self.lines
            .iter()
            .filter(|l| matches!(l.fate, Fate::Changed | Fate::Deleted))
    }
    /// Was any order changed, deleted or inserted (a missing order, 12)?
    pub fn any_changed(&self) -> bool {
        self.lines.iter().any(|l| l.fate != Fate::Accepted)
    }
    /// `ERRORS.TXT` as text: one block per changed or deleted order.
    pub fn errors_text(&self, vocab: &Vocabulary, style: crate::Style) -> String {
        let mut out = String::new();
        for l in self.errors() {
            let now = match &l.order {
                Some(o) => crate::print::format_order_with(vocab, o, style),
                None => "(deleted)".into(),
            };
            out.push_str(&format!("line {}: {}\n  => {now}\n", l.line, l.text));
            for n in &l.notes {
                out.push_str(&format!("  {n}\n"));
            }
        }
        out
    }
}

struct Work {
    power: Option<PowerId>,
    kind: Option<OrderKind>,
    notes: Vec<Note>,
    deleted: bool,
}

impl Work {
    fn delete(&mut self, code: Code, detail: impl Into<String>) {
        self.notes.push(Note::new(code, 0, detail));
        self.deleted = true;
    }
    fn hold(&mut self, code: Code, detail: impl Into<String>) {
        self.notes.push(Note::new(code, 0, detail));
        if let Some(u) = self.kind.as_ref().and_then(k_unit) {
            self.kind = Some(OrderKind::Hold(u));
        }
    }
    fn live(&self) -> Option<&OrderKind> {
        if self.deleted {
            None
        } else {
            self.kind.as_ref()
        }
    }
}

fn k_unit(k: &OrderKind) -> Option<UnitRef> {
    Order::new(PowerId(0), *k).unit()
}

/// The canonical reference to a unit on the board: its type, and its coast
/// when it stands on one.
fn canonical(map: &Map, p: dip_core::ProvinceId, u: &Unit) -> UnitRef {
    let coast = if map.region(u.region).coast.is_some() {
        CoastSpec::Coast(u.region)
    } else {
        CoastSpec::None
    };
    UnitRef::new(Some(u.kind), p).with_coast(coast)
}

fn coast_name(map: &Map, c: CoastSpec) -> String {
    match c {
        CoastSpec::Coast(r) => map.region_name(r),
        CoastSpec::Unknown => "an unknown coast".into(),
        CoastSpec::None => "no coast".into(),
    }
}

/// Checks one turn's lines against the position (DipWork's parser).
pub fn check_turn(
    vocab: &Vocabulary,
    state: &State,
    rules: &Ruleset,
    opts: &CheckOptions,
    lines: &[ReadLine],
) -> TurnReport {
    let map = vocab.map();
    let rules = &Ruleset {
        proxy_orders: rules.proxy_orders || opts.allow_foreign,
        ..*rules
    };
    let mut work: Vec<Work> = lines
        .iter()
        .map(|l| Work {
            power: l.power,
            kind: l.scanned.order,
            notes: l.scanned.notes.clone(),
            deleted: l.scanned.order.is_none(),
        })
        .collect();
    let mut inserted: Vec<(Order, Note)> = Vec::new();
    match state.phase.kind {
        PhaseKind::Movement => movement(map, state, rules, opts, &mut work, &mut inserted),
        PhaseKind::Retreat => retreat(map, state, rules, opts, &mut work, &mut inserted),
        PhaseKind::Adjustment => adjustment(map, state, rules, opts, &mut work),
    }
    let mut out = Vec::with_capacity(lines.len() + inserted.len());
    for (l, w) in lines.iter().zip(work) {
        let read = match (l.scanned.order, l.power) {
            (Some(k), Some(p)) => Some(Order::new(p, k)),
            (Some(k), None) => w.power.map(|p| Order::new(p, k)),
            _ => None,
        };
        let order = match (w.deleted, w.kind, w.power) {
            (false, Some(k), Some(p)) => Some(Order::new(p, k)),
            _ => None,
        };
        let mut notes = w.notes;
        for n in &mut notes {
            if n.column == 0 {
                n.column = l.scanned.column;
            }
        }
        let fate = if order.is_none() {
            Fate::Deleted
        } else if notes.is_empty() {
            // Filling in the unit type or the coast a unit stands on is
            // standardising, not changing.
            Fate::Accepted
        } else {
            Fate::Changed
        };
        out.push(LineResult {
            line: l.line,
            text: l.text.clone(),
            read,
            order,
            fate,
            notes,
            press: l.scanned.press,
        });
    }
    for (o, n) in inserted {
        out.push(LineResult {
            line: 0,
            text: String::new(),
            read: None,
            order: Some(o),
            fate: Fate::Inserted,
            notes: vec![n],
            press: false,
        });
    }
    TurnReport { lines: out }
}

/// Finds the unit an order is for and settles its nation, type and coast
/// (DipWork's "Fromfield-Normierung", NSU, foreign units).
fn settle_unit(map: &Map, rules: &Ruleset, opts: &CheckOptions, w: &mut Work, unit: Option<Unit>) -> Option<Unit> {
    let kind = w.kind?;
    let u = k_unit(&kind)?;
    let Some(unit) = unit else {
        w.delete(
            Code::NoSuchUnit,
            format!("no unit in {}", map.province(u.province).name),
        );
        return None;
    };
    let power = *w.power.get_or_insert(unit.power);
    if power != unit.power && !(opts.allow_foreign || rules.proxy_orders) {
        w.delete(
            Code::ForeignUnit,
            format!(
                "the unit in {} is {}, the order is {}'s",
                map.province(u.province).name,
                map.power(unit.power).adjective,
                map.power(power).name
            ),
        );
        return None;
    }
    let canon = canonical(map, u.province, &unit);
    if let Some(k) = u.kind {
        if k != unit.kind {
            if rules.wrong_unit_type_valid {
                w.notes.push(Note::new(
                    Code::UnitType,
                    0,
                    format!(
                        "the unit in {} is {} {}",
                        map.province(u.province).name,
                        article(&map.unit_type(unit.kind).name),
                        map.unit_type(unit.kind).name.to_lowercase()
                    ),
                ));
            } else {
                w.hold(Code::VoidByRules, "wrong unit type (rule wrong-unit-type=invalid)");
                set_unit(w, canon);
                return Some(unit);
            }
        }
    } else if !rules.missing_unit_type_valid {
        w.hold(Code::UnitTypeExpected, "no unit type (rule missing-unit-type=invalid)");
        set_unit(w, canon);
        return Some(unit);
    } else {
        // DipWork's 300: the order names no unit type; dip reads it with
        // the unit that stands there, and says so.
        w.notes.push(Note::new(
            Code::UnitTypeExpected,
            0,
            format!(
                "no unit type written: read as the {} in {}",
                map.unit_type(unit.kind).name.to_lowercase(),
                map.province(u.province).name
            ),
        ));
    }
    if u.coast != CoastSpec::None && u.coast != canon.coast {
        let fails = match u.coast {
            CoastSpec::Unknown => rules.unknown_coast_fails,
            _ => rules.wrong_unit_coast_fails && map.unit_type(unit.kind).uses_coasts,
        };
        if fails {
            w.hold(Code::VoidByRules, "the unit is not on that coast");
            set_unit(w, canon);
            return Some(unit);
        }
        w.notes.push(Note::new(
            Code::UnitCoast,
            0,
            format!("the unit stands on {}", coast_name(map, canon.coast)),
        ));
    }
    set_unit(w, canon);
    Some(unit)
}

fn article(word: &str) -> &'static str {
    match word.chars().next().map(|c| c.to_ascii_lowercase()) {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

/// Replaces the ordered unit's reference in the order.
fn set_unit(w: &mut Work, u: UnitRef) {
    if let Some(k) = &mut w.kind {
        match k {
            OrderKind::Hold(me)
            | OrderKind::Move(me, ..)
            | OrderKind::SupportHold(me, _)
            | OrderKind::SupportMove(me, ..)
            | OrderKind::Convoy(me, ..)
            | OrderKind::Retreat(me, _)
            | OrderKind::Disband(me)
            | OrderKind::Build(me) => *me = u,
            OrderKind::Waive => {}
        }
    }
}

fn is_move(k: &OrderKind) -> bool {
    matches!(k, OrderKind::Move(..))
}

/// 200, 111/203, 113/206: identical and several orders for one unit.
/// `hold`: what a unit does without a valid order in this phase (hold,
/// disband); `None` in an adjustment phase, where the first order counts.
fn several(
    rules: &Ruleset,
    work: &mut [Work],
    n_provinces: usize,
    hold_kind: Option<fn(UnitRef) -> OrderKind>,
    key: impl Fn(&OrderKind) -> Option<usize>,
) {
    let mut groups: Vec<Vec<usize>> = vec![Vec::new(); n_provinces];
    for (i, w) in work.iter().enumerate() {
        if let Some(p) = w.live().and_then(&key) {
            if let Some(g) = groups.get_mut(p) {
                g.push(i);
            }
        }
    }
    for g in groups.into_iter().filter(|g| g.len() > 1) {
        // Identical orders: the later ones are deleted.
        let mut distinct: Vec<usize> = Vec::new();
        for &i in &g {
            let same = distinct
                .iter()
                .any(|&j| work[j].kind == work[i].kind && work[j].power == work[i].power);
            if same {
                work[i].delete(Code::Identical, "the same order is given above");
            } else {
                distinct.push(i);
            }
        }
        if distinct.len() < 2 {
            continue;
        }
        let with_move = distinct.iter().any(|&i| {
            work[i]
                .kind
                .as_ref()
                .is_some_and(|k| is_move(k) || matches!(k, OrderKind::Retreat(..)))
        });
        let (hold, del) = if with_move {
            (Code::SeveralWithMoveHold, Code::SeveralWithMoveDeleted)
        } else {
            (Code::SeveralHold, Code::SeveralDeleted)
        };
        let n = distinct.len();
        let rule = if hold_kind.is_none() && rules.duplicates == Duplicates::Hold {
            Duplicates::First
        } else {
            rules.duplicates
        };
        match rule {
            Duplicates::Hold => {
                let w = &mut work[distinct[0]];
                w.notes
                    .push(Note::new(hold, 0, format!("{n} different orders for this unit")));
                if let (Some(u), Some(f)) = (w.kind.as_ref().and_then(k_unit), hold_kind) {
                    w.kind = Some(f(u));
                }
                for &i in &distinct[1..] {
                    work[i].delete(del, format!("{n} different orders for this unit"));
                }
            }
            Duplicates::First => {
                for &i in &distinct[1..] {
                    work[i].delete(del, "an earlier order for this unit counts");
                }
            }
            Duplicates::Last => {
                for &i in &distinct[..n - 1] {
                    work[i].delete(del, "a later order for this unit counts");
                }
            }
        }
    }
}

fn movement(
    map: &Map,
    state: &State,
    rules: &Ruleset,
    opts: &CheckOptions,
    work: &mut [Work],
    inserted: &mut Vec<(Order, Note)>,
) {
    let board = settle_units(map, state, rules, opts, work);
    settle_coasts(map, rules, &board, work);
    // Identical and several orders.
    several(rules, work, map.num_provinces(), Some(OrderKind::Hold), |k| {
        k_unit(k).map(|u| u.province.index())
    });
    single_orders(map, &board, rules, work);
    missing_orders(map, &board, opts, work, inserted);
    // NSO: convoys, then supports, against the final orders.
    let mut final_order: Vec<Option<OrderKind>> = vec![None; map.num_provinces()];
    for w in work.iter() {
        if let Some(k) = w.live() {
            if let Some(u) = k_unit(k) {
                final_order[u.province.index()] = Some(*k);
            }
        }
    }
    unmatched_convoys(map, work, &mut final_order);
    unmatched_supports(map, &board, work, &final_order);
}

/// Fromfield normalisation, NSU, foreign units: each order's unit settled
/// against the board. Returns the board: the position, plus the units
/// NSU_CHECKING_OFF places.
fn settle_units<'a>(
    map: &Map,
    state: &'a State,
    rules: &Ruleset,
    opts: &CheckOptions,
    work: &mut [Work],
) -> Cow<'a, State> {
    let mut board = Cow::Borrowed(state);
    for w in work.iter_mut() {
        let Some(kind) = w.live().copied() else { continue };
        let Some(u) = k_unit(&kind) else {
            w.delete(Code::WrongPhase, "a waive is an adjustment order");
            continue;
        };
        if matches!(
            kind,
            OrderKind::Retreat(..) | OrderKind::Disband(_) | OrderKind::Build(_)
        ) {
            w.delete(
                Code::WrongPhase,
                "retreats, disbands and builds are not orders of a movement phase",
            );
            continue;
        }
        let mut unit = board.unit(u.province);
        if unit.is_none() && opts.nsu_checking_off {
            if let Some(placed) = place_virtual(map, w.power, &u) {
                board.to_mut().place(map, placed);
                unit = Some(placed);
            }
        }
        settle_unit(map, rules, opts, w, unit);
    }
    board
}

/// Subfield normalisation: coasts of destinations and of named units.
fn settle_coasts(map: &Map, rules: &Ruleset, board: &State, work: &mut [Work]) {
    // Subfield normalisation: coasts of destinations and of named units.
    for w in work.iter_mut() {
        let Some(kind) = w.live().copied() else { continue };
        match kind {
            OrderKind::Move(me, d, via) => {
                let Some(unit) = board.unit(me.province) else { continue };
                if let Some(d2) = settle_dest(map, rules, &unit, d, w, Code::MoveCoast) {
                    w.kind = Some(OrderKind::Move(me, d2, via));
                }
            }
            OrderKind::SupportHold(me, t) => {
                let t2 = settle_target(map, board, t, w);
                w.kind = Some(OrderKind::SupportHold(me, t2));
            }
            OrderKind::SupportMove(me, t, d) => {
                let t2 = settle_target(map, board, t, w);
                w.kind = Some(OrderKind::SupportMove(me, t2, d));
            }
            OrderKind::Convoy(me, t, d) => {
                let t2 = settle_target(map, board, t, w);
                w.kind = Some(OrderKind::Convoy(me, t2, Dest::new(d.province)));
            }
            _ => {}
        }
    }
}

/// Single orders: convoys, moves, supports (dip-core's checks).
fn single_orders(map: &Map, board: &State, rules: &Ruleset, work: &mut [Work]) {
    // Single orders: convoys, moves, supports (dip-core's checks).
    for pass in 0..3 {
        for w in work.iter_mut() {
            let Some(kind) = w.live().copied() else { continue };
            let this_pass = match kind {
                OrderKind::Convoy(..) => 0,
                OrderKind::Move(..) => 1,
                OrderKind::SupportHold(..) | OrderKind::SupportMove(..) => 2,
                _ => 3,
            };
            if this_pass != pass {
                continue;
            }
            let Some(power) = w.power else { continue };
            if let Err(e) = dip_core::movement::order_problem(map, board, rules, &Order::new(power, kind)) {
                let (code, detail) = illegal_code(map, board, &kind, e);
                match code {
                    Code::NoSuchUnit | Code::ForeignUnit | Code::WrongPhase => w.delete(code, detail),
                    _ => w.hold(code, detail),
                }
            }
        }
    }
}

/// Missing orders: a hold for every unit without one.
fn missing_orders(map: &Map, board: &State, opts: &CheckOptions, work: &[Work], inserted: &mut Vec<(Order, Note)>) {
    // Missing orders: a hold for every unit without one.
    let mut ordered = vec![false; map.num_provinces()];
    for w in work.iter() {
        if let Some(u) = w.live().and_then(k_unit) {
            ordered[u.province.index()] = true;
        }
    }
    if !opts.nsu_checking_off {
        for (p, unit) in board.units() {
            if !ordered[p.index()] {
                let o = Order::new(unit.power, OrderKind::Hold(canonical(map, p, &unit)));
                inserted.push((o, Note::new(Code::MissingOrder, 0, "")));
            }
        }
    }
}

/// A convoy of a unit not ordered along it holds (and so counts as a hold
/// for the supports checked after it).
fn unmatched_convoys(map: &Map, work: &mut [Work], final_order: &mut [Option<OrderKind>]) {
    for w in work.iter_mut() {
        let Some(OrderKind::Convoy(me, t, d)) = w.live().copied() else {
            continue;
        };
        let moves =
            matches!(final_order[t.province.index()], Some(OrderKind::Move(_, td, _)) if td.province == d.province);
        if !moves {
            w.hold(
                Code::NoSuchConvoyed,
                format!(
                    "{} is not ordered to {}",
                    map.province(t.province).name,
                    map.province(d.province).name
                ),
            );
            final_order[me.province.index()] = Some(OrderKind::Hold(me));
        }
    }
}

/// A support of an order not given holds; a supported move's coast is the
/// mover's.
fn unmatched_supports(map: &Map, board: &State, work: &mut [Work], final_order: &[Option<OrderKind>]) {
    for w in work.iter_mut() {
        let Some(kind) = w.live().copied() else { continue };
        match kind {
            OrderKind::SupportHold(_, t) => {
                if let Some(OrderKind::Move(_, td, _)) = final_order[t.province.index()] {
                    w.hold(
                        Code::NoSuchSupported,
                        format!(
                            "{} is ordered to move to {}, not to hold",
                            map.province(t.province).name,
                            map.province(td.province).name
                        ),
                    );
                }
            }
            OrderKind::SupportMove(me, t, d) => match final_order[t.province.index()] {
                Some(OrderKind::Move(_, td, _)) if td.province == d.province => {
                    // The supported move's coast is the mover's (3).
                    if let (CoastSpec::Coast(c), true) = (td.coast, td.coast != d.coast) {
                        w.notes.push(Note::new(
                            Code::SupportedCoast,
                            0,
                            format!("{} is ordered to {}", map.province(t.province).name, map.region_name(c)),
                        ));
                        w.kind = Some(OrderKind::SupportMove(me, t, Dest::coast(d.province, c)));
                    }
                }
                _ => {
                    let ambiguous = d.coast == CoastSpec::None
                        && board.unit(t.province).is_some_and(|u| {
                            map.unit_type(u.kind).uses_coasts
                                && map.moves_into(u.kind, u.region, d.province).count() > 1
                        });
                    if ambiguous {
                        w.hold(
                            Code::SupportedAmbiguousCoast,
                            format!(
                                "{} has two coasts the supported unit can reach",
                                map.province(d.province).name
                            ),
                        );
                    } else {
                        w.hold(
                            Code::NoSuchSupported,
                            format!(
                                "{} is not ordered to {}",
                                map.province(t.province).name,
                                map.province(d.province).name
                            ),
                        );
                    }
                }
            },
            _ => {}
        }
    }
}

/// A unit for an order naming an empty province (`NSU_CHECKING_OFF`).
fn place_virtual(map: &Map, power: Option<PowerId>, u: &UnitRef) -> Option<Unit> {
    let power = power?;
    let kind = match u.kind {
        Some(k) => k,
        None => map
            .unit_type_ids()
            .find(|&k| map.regions_for(u.province, k).next().is_some())?,
    };
    let region = match u.coast {
        CoastSpec::Coast(r) if map.allows(r, kind) => r,
        _ => map.only_region_for(u.province, kind)?,
    };
    Some(Unit { power, kind, region })
}

/// The destination of a move by the coast rules; notes 6 or 154.
fn settle_dest(map: &Map, rules: &Ruleset, unit: &Unit, d: Dest, w: &mut Work, code: Code) -> Option<Dest> {
    let ut = map.unit_type(unit.kind);
    if !ut.uses_coasts {
        if d.coast != CoastSpec::None && !rules.unknown_coast_fails {
            w.notes.push(Note::new(
                code,
                0,
                format!("{} moves to the province, coasts are for fleets", ut.name),
            ));
            return Some(Dest::new(d.province));
        }
        return None;
    }
    if map.coasts(d.province).is_empty() {
        if d.coast != CoastSpec::None && !rules.unknown_coast_fails {
            w.notes.push(Note::new(
                code,
                0,
                format!("{} has no coasts to choose", map.province(d.province).name),
            ));
            return Some(Dest::new(d.province));
        }
        return None;
    }
    let reach: Vec<_> = map.moves_into(unit.kind, unit.region, d.province).collect();
    match d.coast {
        CoastSpec::Coast(c) if reach.contains(&c) => None,
        CoastSpec::Coast(c) => {
            if reach.len() == 1 && rules.impossible_coast_ignored {
                w.notes.push(Note::new(
                    code,
                    0,
                    format!(
                        "{} cannot be reached; {} can",
                        map.region_name(c),
                        map.region_name(reach[0])
                    ),
                ));
                Some(Dest::coast(d.province, reach[0]))
            } else {
                None
            }
        }
        CoastSpec::Unknown if rules.unknown_coast_fails => None,
        CoastSpec::None | CoastSpec::Unknown => match reach.as_slice() {
            [only] if !rules.missing_coast_fails => {
                w.notes.push(Note::new(
                    code,
                    0,
                    format!("the only coast it can reach is {}", map.region_name(*only)),
                ));
                Some(Dest::coast(d.province, *only))
            }
            [_, _, ..] => {
                w.hold(
                    Code::AmbiguousCoast,
                    format!("it can reach more than one coast of {}", map.province(d.province).name),
                );
                None
            }
            _ => None,
        },
    }
}

/// The supported or convoyed unit: type filled in, coast corrected (9).
fn settle_target(map: &Map, board: &State, t: UnitRef, w: &mut Work) -> UnitRef {
    let Some(unit) = board.unit(t.province) else { return t };
    let canon = canonical(map, t.province, &unit);
    if t.coast != CoastSpec::None && t.coast != canon.coast {
        w.notes.push(Note::new(
            Code::SupportedUnitCoast,
            0,
            format!(
                "the unit in {} stands on {}",
                map.province(t.province).name,
                coast_name(map, canon.coast)
            ),
        ));
    }
    canon
}

/// dip-core's reason for refusing an order, as a DipWork number.
fn illegal_code(map: &Map, board: &State, kind: &OrderKind, e: Illegal) -> (Code, String) {
    let detail = e.describe().to_string();
    let code = match e {
        Illegal::NoSuchUnit => Code::NoSuchUnit,
        Illegal::ForeignUnit => Code::ForeignUnit,
        Illegal::WrongPhase => Code::WrongPhase,
        Illegal::MoveToSelf | Illegal::ImpossibleCoast => Code::ImpossibleMove,
        Illegal::Unreachable => match (kind, k_unit(kind).and_then(|u| board.unit(u.province))) {
            (OrderKind::Move(me, d, _), Some(u))
                if map.unit_type(u.kind).convoyable
                    && map.allows(map.main_region(d.province), u.kind)
                    && !map.convoy_neighbours(me.province).is_empty()
                    && !map.convoy_neighbours(d.province).is_empty() =>
            {
                Code::ImpossibleConvoyedMove
            }
            _ => Code::ImpossibleMove,
        },
        Illegal::AmbiguousCoast | Illegal::MissingCoast => Code::AmbiguousCoast,
        Illegal::SelfReference | Illegal::CannotSupport | Illegal::ImpossibleSupportedMove => Code::ImpossibleSupport,
        Illegal::NoUnitToSupport => match kind {
            OrderKind::Convoy(..) => Code::NoSuchConvoyed,
            _ => Code::NoSuchSupported,
        },
        Illegal::CannotConvoy => match k_unit(kind).and_then(|u| board.unit(u.province)) {
            Some(u) if !map.unit_type(u.kind).can_convoy => Code::CannotConvoy,
            _ => Code::NotAtSea,
        },
        Illegal::NotConvoyable | Illegal::NotOnRoute => Code::NoSuchConvoyed,
        _ => Code::VoidByRules,
    };
    (code, detail)
}

fn retreat(
    map: &Map,
    state: &State,
    rules: &Ruleset,
    opts: &CheckOptions,
    work: &mut [Work],
    inserted: &mut Vec<(Order, Note)>,
) {
    retreat_units(map, state, rules, opts, work);
    several(rules, work, map.num_provinces(), Some(OrderKind::Disband), |k| {
        k_unit(k).map(|u| u.province.index())
    });
    for w in work.iter_mut() {
        let Some(u) = w.live().and_then(k_unit) else { continue };
        let Some(dis) = state.dislodged(u.province) else {
            continue;
        };
        if let Some(OrderKind::Retreat(me, to)) = w.kind {
            settle_retreat(map, state, rules, w, &dis, me, to);
        }
    }
    // Missing orders: a disband for every dislodged unit without one.
    let mut ordered = vec![false; map.num_provinces()];
    for w in work.iter() {
        if let Some(u) = w.live().and_then(k_unit) {
            ordered[u.province.index()] = true;
        }
    }
    if !opts.nsu_checking_off {
        for (p, d) in state.all_dislodged() {
            if !ordered[p.index()] {
                let o = Order::new(d.unit.power, OrderKind::Disband(canonical(map, p, &d.unit)));
                inserted.push((o, Note::new(Code::NoRetreat, 0, "disbanded")));
            }
        }
    }
}

/// Each order's dislodged unit settled; a move read as a retreat, other
/// orders of another phase deleted.
fn retreat_units(map: &Map, state: &State, rules: &Ruleset, opts: &CheckOptions, work: &mut [Work]) {
    for w in work.iter_mut() {
        let Some(kind) = w.live().copied() else { continue };
        let Some(u) = k_unit(&kind) else {
            w.delete(Code::WrongPhase, "a waive is an adjustment order");
            continue;
        };
        // `A tri - alb` is how many write a retreat.
        if let OrderKind::Move(me, to, _) = kind {
            w.kind = Some(OrderKind::Retreat(me, to));
        } else if matches!(kind, OrderKind::Hold(_)) && w.notes.iter().any(|n| n.code.number() >= 100) {
            // The scanner could not read the order (`A Gal-Xyz`, 115) and
            // left a hold: its error says why the line gives no retreat.
            w.deleted = true;
            continue;
        } else if !matches!(kind, OrderKind::Retreat(..) | OrderKind::Disband(_)) {
            w.delete(
                Code::WrongPhase,
                "only retreats and disbands are orders of a retreat phase",
            );
            continue;
        }
        let d = state.dislodged(u.province);
        settle_unit(map, rules, opts, w, d.map(|d| d.unit));
    }
}

/// A retreat settled against the unit's open retreats: its coast made the
/// one that is open, or a disband when none (or two coasts) are.
fn settle_retreat(
    map: &Map,
    state: &State,
    rules: &Ruleset,
    w: &mut Work,
    dis: &dip_core::Dislodged,
    me: UnitRef,
    to: Dest,
) {
    let unit = dis.unit;
    let options = dip_core::retreat::retreat_options(map, state, rules, dis);
    let fits: Vec<_> = options
        .iter()
        .copied()
        .filter(|&r| {
            map.province_of(r) == to.province
                && match to.coast {
                    CoastSpec::Coast(c) => c == r,
                    _ => true,
                }
        })
        .collect();
    match fits.as_slice() {
        [r] => {
            let coast = if map.region(*r).coast.is_some() {
                CoastSpec::Coast(*r)
            } else {
                CoastSpec::None
            };
            if coast != to.coast && map.unit_type(unit.kind).uses_coasts {
                w.notes.push(Note::new(
                    Code::MoveCoast,
                    0,
                    format!("retreats to {}", map.region_name(*r)),
                ));
            }
            let dest = Dest {
                province: to.province,
                coast: if map.unit_type(unit.kind).uses_coasts {
                    coast
                } else {
                    CoastSpec::None
                },
            };
            w.kind = Some(OrderKind::Retreat(me, dest));
        }
        [] => {
            w.notes.push(retreat_refused(map, state, rules, dis, to.province));
            w.kind = Some(OrderKind::Disband(me));
        }
        _ => {
            w.notes
                .push(Note::new(Code::AmbiguousCoast, 0, "two coasts are open: disbanded"));
            w.kind = Some(OrderKind::Disband(me));
        }
    }
}

/// Why a retreat to `to` is refused (139): no border, or, where there is
/// one, the reason the province is closed to this unit.
fn retreat_refused(
    map: &Map,
    state: &State,
    rules: &Ruleset,
    d: &dip_core::Dislodged,
    to: dip_core::ProvinceId,
) -> Note {
    let name = &map.province(to).name;
    let borders = map
        .edges(d.unit.kind, d.unit.region)
        .iter()
        .any(|e| map.province_of(e.to) == to);
    let why = if !borders {
        return Note::new(
            Code::ImpossibleMove,
            0,
            format!("{name} does not border the unit's province: disbanded"),
        );
    } else if to == d.attacker_from && !(d.by_convoy && rules.retreat_to_convoy_origin) {
        format!("{name} is where the attack came from")
    } else if state.unit(to).is_some() {
        format!("{name} is occupied")
    } else if state.standoffs.contains(to.index()) {
        format!("{name} was left empty by a standoff")
    } else {
        format!("the border to {name} is closed to retreats")
    };
    Note {
        code: Code::ImpossibleMove,
        column: 0,
        message: format!("impossible retreat: {why}: disbanded"),
    }
}

fn adjustment(map: &Map, state: &State, rules: &Ruleset, opts: &CheckOptions, work: &mut [Work]) {
    for w in work.iter_mut() {
        let Some(kind) = w.live().copied() else { continue };
        match kind {
            OrderKind::Waive => {
                if w.power.is_none() {
                    w.delete(Code::NoNation, "whose build is waived?");
                }
            }
            OrderKind::Build(u) => {
                let Some(power) = w.power else {
                    w.delete(Code::NoNation, "whose build is it?");
                    continue;
                };
                let legal = dip_core::legal::adjustment_orders(map, state, power);
                let fits: Vec<UnitRef> = legal
                    .iter()
                    .filter_map(|o| match o.kind {
                        OrderKind::Build(b) => Some(b),
                        _ => None,
                    })
                    .filter(|b| {
                        b.province == u.province
                            && u.kind.is_none_or(|k| Some(k) == b.kind)
                            && match u.coast {
                                CoastSpec::Coast(c) => b.coast == CoastSpec::Coast(c),
                                _ => true,
                            }
                    })
                    .collect();
                match fits.as_slice() {
                    [b] => {
                        if b.coast != u.coast && u.kind.is_some() {
                            w.notes
                                .push(Note::new(Code::MoveCoast, 0, "the only coast to build on"));
                        }
                        if u.kind.is_some() {
                            w.kind = Some(OrderKind::Build(*b));
                        }
                    }
                    [] => w.delete(
                        Code::VoidByRules,
                        format!(
                            "{} cannot build in {} now",
                            map.power(power).name,
                            map.province(u.province).name
                        ),
                    ),
                    _ if u.kind.is_some() => w.delete(
                        Code::AmbiguousCoast,
                        format!("{} has more than one coast to build on", map.province(u.province).name),
                    ),
                    _ => {}
                }
            }
            OrderKind::Disband(u) => {
                let unit = state.unit(u.province);
                if settle_unit(map, rules, opts, w, unit).is_none() {
                    continue;
                }
                if let Some(p) = w.power {
                    if dip_core::adjustment::balance(map, state, p) >= 0 {
                        w.delete(
                            Code::VoidByRules,
                            format!("{} has no units to remove", map.power(p).name),
                        );
                    }
                }
            }
            _ => w.delete(
                Code::WrongPhase,
                "only builds, disbands and waives are orders of an adjustment phase",
            ),
        }
    }
    several(rules, work, map.num_provinces(), None, |k| match k {
        OrderKind::Waive => None,
        _ => k_unit(k).map(|u| u.province.index()),
    });
}
