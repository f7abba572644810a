//! Between dip's game and DAIDE's language: positions (NOW, SCO, MDF),
//! orders read from SUB with their THX note, dip's order text for storage,
//! and results (ORD, MIS).

use super::message::{Msg, Node, B};
use super::token::*;
use dip_core::{
    adjustment, retreat, CoastSpec, Dest, Map, Order, OrderKind, Phase, PhaseKind, PhaseOutcome, PowerId, ProvinceId,
    Reason, RegionId, Ruleset, Season, State, Terrain, Unit, UnitRef, UnitTypeId, Verdict,
};

/// Season and year of a phase.
pub fn turn(phase: &Phase) -> Node {
    let s = match (phase.season, phase.kind) {
        (_, PhaseKind::Adjustment) => WIN,
        (Season::Spring, PhaseKind::Movement) => SPR,
        (Season::Spring, PhaseKind::Retreat) => SUM,
        (Season::Fall, PhaseKind::Movement) => FAL,
        (Season::Fall, PhaseKind::Retreat) => AUT,
    };
    B::default().t(s).i(phase.year).node()
}

/// A turn read back.
pub fn phase_of(n: &Node) -> Option<Phase> {
    let l = n.list()?;
    if l.len() != 2 {
        return None;
    }
    let year = l[1].tok()?.as_int()?;
    let (season, kind) = match l[0].tok()? {
        x if x == SPR => (Season::Spring, PhaseKind::Movement),
        x if x == SUM => (Season::Spring, PhaseKind::Retreat),
        x if x == FAL => (Season::Fall, PhaseKind::Movement),
        x if x == AUT => (Season::Fall, PhaseKind::Retreat),
        x if x == WIN => (Season::Fall, PhaseKind::Adjustment),
        _ => return None,
    };
    Some(Phase::new(year, season, kind))
}

pub fn army(map: &Map) -> Option<UnitTypeId> {
    map.unit_type_ids().find(|&u| map.unit_type(u).letter == 'A')
}
pub fn fleet(map: &Map) -> Option<UnitTypeId> {
    map.unit_type_ids().find(|&u| map.unit_type(u).letter == 'F')
}

fn unit_type_token(map: &Map, k: UnitTypeId) -> Token {
    if map.unit_type(k).letter == 'F' {
        FLT
    } else {
        AMY
    }
}

/// A place: `LON` or `(STP SCS)`.
pub fn place(map: &Map, repr: &Repr, r: RegionId) -> Node {
    let p = map.province_of(r);
    let pt = repr.province(p).unwrap_or(Token(0x5000));
    match repr.coast(map, r) {
        Some(c) => B::default().t(pt).t(c).node(),
        None => Node::Tok(pt),
    }
}

/// The tokens of a unit: `ENG FLT LON` (without brackets).
pub fn unit_tokens(map: &Map, repr: &Repr, u: &Unit) -> B {
    B::default()
        .t(repr.power(u.power))
        .t(unit_type_token(map, u.kind))
        .n(place(map, repr, u.region))
}

pub fn unit_node(map: &Map, repr: &Repr, u: &Unit) -> Node {
    unit_tokens(map, repr, u).node()
}

/// `NOW (turn) (unit) …`, dislodged units with `MRT (places)`.
pub fn now(map: &Map, repr: &Repr, rules: &Ruleset, state: &State) -> Msg {
    let mut b = B::new(NOW).n(turn(&state.phase));
    for (_, u) in state.units() {
        b = b.n(unit_node(map, repr, &u));
    }
    for (_, d) in state.all_dislodged() {
        let opts: Vec<Node> = retreat::retreat_options(map, state, rules, &d)
            .into_iter()
            .map(|r| place(map, repr, r))
            .collect();
        b = b.l(unit_tokens(map, repr, &d.unit).t(MRT).ls(opts));
    }
    b.msg()
}

/// `SCO (power centre …) … (UNO centre …)`: every power and UNO, also
/// those without centres.
pub fn sco(map: &Map, repr: &Repr, state: &State) -> Msg {
    let mut b = B::new(SCO);
    // Every power, also those without centres (`(GER)`), as MILA does.
    for p in map.power_ids() {
        let mut cs: Vec<(String, Token)> = state
            .centers_of(map, p)
            .filter_map(|c| repr.province(c))
            .map(|t| (repr.name(t).unwrap_or_default(), t))
            .collect();
        cs.sort();
        let mut l = B::default().t(repr.power(p));
        for (_, t) in cs {
            l = l.t(t);
        }
        b = b.l(l);
    }
    let mut free: Vec<Token> = map
        .supply_centers()
        .iter()
        .filter(|&&c| state.owner(c).is_none())
        .filter_map(|&c| repr.province(c))
        .collect();
    free.sort_by_key(|&t| repr.name(t));
    // `(UNO)` also when every centre is owned, like the powers without
    // centres (MILA's server does the same; clients take either).
    let mut l = B::default().t(UNO);
    for t in free {
        l = l.t(t);
    }
    b.l(l).msg()
}

/// `MDF (powers) (provinces) (adjacencies)`.
pub fn mdf(map: &Map, repr: &Repr) -> Msg {
    let mut powers = B::default();
    for p in map.power_ids() {
        powers = powers.t(repr.power(p));
    }
    // Supply centres by home power (several homes: a power list; none: UNO).
    let mut groups: Vec<(Vec<PowerId>, Vec<Token>)> = Vec::new();
    for &c in map.supply_centers() {
        let Some(t) = repr.province(c) else { continue };
        let homes: Vec<PowerId> = map.power_ids().filter(|&p| map.is_home(c, p)).collect();
        match groups.iter_mut().find(|(h, _)| *h == homes) {
            Some((_, cs)) => cs.push(t),
            None => groups.push((homes, vec![t])),
        }
    }
    groups.sort_by_key(|(h, _)| {
        if h.is_empty() {
            usize::MAX
        } else {
            h[0].index() * 1000 + h.len()
        }
    });
    let mut scs = B::default();
    for p in map.power_ids() {
        if !groups.iter().any(|(h, _)| h.len() == 1 && h[0] == p) {
            scs = scs.l(B::default().t(repr.power(p)));
        }
    }
    for (homes, cs) in groups {
        let mut l = match homes.len() {
            0 => B::default().t(UNO),
            1 => B::default().t(repr.power(homes[0])),
            _ => {
                let mut hp = B::default();
                for h in homes {
                    hp = hp.t(repr.power(h));
                }
                B::default().l(hp)
            }
        };
        for c in cs {
            l = l.t(c);
        }
        scs = scs.l(l);
    }
    let mut non = B::default();
    for p in map.province_ids() {
        if !map.province(p).supply_center {
            if let Some(t) = repr.province(p) {
                non = non.t(t);
            }
        }
    }
    let mut adj = B::default();
    for p in map.province_ids() {
        let Some(pt) = repr.province(p) else { continue };
        let mut l = B::default().t(pt);
        for ut in map.unit_type_ids() {
            let tt = unit_type_token(map, ut);
            let regions: Vec<RegionId> = map.regions_for(p, ut).collect();
            for r in regions {
                let head = match repr.coast(map, r) {
                    Some(c) => Node::List(vec![Node::Tok(tt), Node::Tok(c)]),
                    None => Node::Tok(tt),
                };
                let mut e = B::default().n(head);
                for edge in map.edges(ut, r) {
                    if repr.province(map.province_of(edge.to)).is_some() {
                        e = e.n(place(map, repr, edge.to));
                    }
                }
                l = l.l(e);
            }
        }
        adj = adj.l(l);
    }
    B::new(MDF).l(powers).l(B::default().l(scs).l(non)).l(adj).msg()
}

/// A location named in an order: province and coast, if given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loc {
    pub province: ProvinceId,
    /// The coast named: `NO_SUCH_COAST` when the province has no such
    /// coast (NSP), which is never a region of the map.
    pub coast: Option<RegionId>,
}

/// A coast an order names that its province does not have.
pub const NO_SUCH_COAST: RegionId = RegionId(u16::MAX);

impl Loc {
    /// The coast as a region of the map, if it is one.
    fn region(&self) -> Option<RegionId> {
        self.coast.filter(|&c| c != NO_SUCH_COAST)
    }
}

/// A unit as an order names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DUnit {
    pub power: PowerId,
    pub kind: UnitTypeId,
    pub at: Loc,
}

/// An order as read from SUB.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DOrder {
    Hold(DUnit),
    Move(DUnit, Loc),
    SupHold(DUnit, DUnit),
    SupMove(DUnit, DUnit, ProvinceId),
    Convoy(DUnit, DUnit, ProvinceId),
    ViaConvoy(DUnit, ProvinceId, Vec<ProvinceId>),
    Retreat(DUnit, Loc),
    Disband(DUnit),
    Build(DUnit),
    Remove(DUnit),
    Waive(PowerId),
}

impl DOrder {
    /// The unit ordered (none for a waive).
    pub fn unit(&self) -> Option<DUnit> {
        match self {
            DOrder::Hold(u)
            | DOrder::Move(u, _)
            | DOrder::SupHold(u, _)
            | DOrder::SupMove(u, _, _)
            | DOrder::Convoy(u, _, _)
            | DOrder::ViaConvoy(u, _, _)
            | DOrder::Retreat(u, _)
            | DOrder::Disband(u)
            | DOrder::Build(u)
            | DOrder::Remove(u) => Some(*u),
            DOrder::Waive(_) => None,
        }
    }
    pub fn power(&self) -> PowerId {
        match self {
            DOrder::Waive(p) => *p,
            o => o.unit().map(|u| u.power).unwrap_or(PowerId(0)),
        }
    }
    /// The phase kind the order belongs to.
    pub fn kind(&self) -> PhaseKind {
        match self {
            DOrder::Retreat(..) | DOrder::Disband(_) => PhaseKind::Retreat,
            DOrder::Build(_) | DOrder::Remove(_) | DOrder::Waive(_) => PhaseKind::Adjustment,
            _ => PhaseKind::Movement,
        }
    }
}

/// Reads orders and units: errors give the flat index of the bad token.
pub struct Reader<'a> {
    pub map: &'a Map,
    pub repr: &'a Repr,
}

type R<T> = Result<T, usize>;

impl Reader<'_> {
    fn province(&self, n: &Node, at: usize) -> R<ProvinceId> {
        n.tok().and_then(|t| self.repr.province_of(t)).ok_or(at)
    }
    fn power(&self, n: &Node, at: usize) -> R<PowerId> {
        n.tok().and_then(|t| self.repr.power_of(t)).ok_or(at)
    }
    /// `PRO` or `(PRO CST)`.
    pub fn loc(&self, n: &Node, at: usize) -> R<Loc> {
        match n {
            Node::Tok(_) => Ok(Loc {
                province: self.province(n, at)?,
                coast: None,
            }),
            Node::List(l) => {
                if l.len() != 2 {
                    return Err(at + 1 + l.first().map(Node::width).unwrap_or(0).min(l.len()));
                }
                let p = self.province(&l[0], at + 1)?;
                let c = l[1].tok().and_then(coast_name).ok_or(at + 2)?;
                // A coast the province does not have: NSP is for the THX.
                let r = self.map.find_coast(p, c);
                Ok(Loc {
                    province: p,
                    coast: r.or(Some(NO_SUCH_COAST)),
                })
            }
        }
    }
    /// `(power type place)`.
    pub fn unit(&self, n: &Node, at: usize) -> R<DUnit> {
        let l = n.list().ok_or(at)?;
        if l.len() != 3 {
            return Err(at
                + 1
                + l.iter()
                    .take(3)
                    .map(Node::width)
                    .sum::<usize>()
                    .min(l.iter().map(Node::width).sum()));
        }
        let power = self.power(&l[0], at + 1)?;
        let kind = match l[1].tok() {
            Some(t) if t == AMY => army(self.map),
            Some(t) if t == FLT => fleet(self.map),
            _ => None,
        }
        .ok_or(at + 2)?;
        let loc = self.loc(&l[2], at + 3)?;
        Ok(DUnit { power, kind, at: loc })
    }
    /// One order: the list inside SUB's brackets, at flat index `at` (its
    /// opening bracket).
    pub fn order(&self, n: &Node, at: usize) -> R<DOrder> {
        let l = n.list().ok_or(at)?;
        let mut pos = Vec::with_capacity(l.len());
        let mut p = at + 1;
        for x in l {
            pos.push(p);
            p += x.width();
        }
        let end = p;
        let tok = |i: usize| l.get(i).and_then(Node::tok);
        let at_i = |i: usize| pos.get(i).copied().unwrap_or(end);
        let done = |i: usize, o: DOrder| if l.len() == i { Ok(o) } else { Err(at_i(i)) };
        if l.len() == 2 && tok(1) == Some(WVE) {
            return done(2, DOrder::Waive(self.power(&l[0], at_i(0))?));
        }
        let u = self.unit(l.first().ok_or(at_i(0))?, at_i(0))?;
        let verb = tok(1).ok_or(at_i(1))?;
        match verb {
            v if v == HLD => done(2, DOrder::Hold(u)),
            v if v == DSB => done(2, DOrder::Disband(u)),
            v if v == BLD => done(2, DOrder::Build(u)),
            v if v == REM => done(2, DOrder::Remove(u)),
            v if v == MTO => done(3, DOrder::Move(u, self.loc(l.get(2).ok_or(at_i(2))?, at_i(2))?)),
            v if v == RTO => done(3, DOrder::Retreat(u, self.loc(l.get(2).ok_or(at_i(2))?, at_i(2))?)),
            v if v == SUP => {
                let t = self.unit(l.get(2).ok_or(at_i(2))?, at_i(2))?;
                match tok(3) {
                    None if l.len() == 3 => Ok(DOrder::SupHold(u, t)),
                    Some(m) if m == MTO => {
                        let dest = self.province(l.get(4).ok_or(at_i(4))?, at_i(4))?;
                        done(5, DOrder::SupMove(u, t, dest))
                    }
                    _ => Err(at_i(3)),
                }
            }
            v if v == CVY => {
                let t = self.unit(l.get(2).ok_or(at_i(2))?, at_i(2))?;
                if tok(3) != Some(CTO) {
                    return Err(at_i(3));
                }
                let dest = self.province(l.get(4).ok_or(at_i(4))?, at_i(4))?;
                done(5, DOrder::Convoy(u, t, dest))
            }
            v if v == CTO => {
                let dest = self.province(l.get(2).ok_or(at_i(2))?, at_i(2))?;
                if l.len() == 3 {
                    return Ok(DOrder::ViaConvoy(u, dest, Vec::new()));
                }
                if tok(3) != Some(VIA) {
                    return Err(at_i(3));
                }
                let via = l.get(4).and_then(Node::list).ok_or(at_i(4))?;
                let mut seas = Vec::new();
                for (i, s) in via.iter().enumerate() {
                    seas.push(self.province(s, at_i(4) + 1 + i)?);
                }
                done(5, DOrder::ViaConvoy(u, dest, seas))
            }
            _ => Err(at_i(1)),
        }
    }
}

/// Orders as given (the node a SUB named each by), with what they say.
pub type Given = Vec<(Node, DOrder)>;

/// A SUB's orders taken into the orders a power has given this phase:
/// each gets its THX note, in order, and each the rules take (MBV; any
/// that reads with AOA) replaces the order given before for its unit.
/// Returns the orders now given, and the notes.
pub fn submit(
    map: &Map,
    rules: &Ruleset,
    state: &State,
    me: PowerId,
    any_orders_accepted: bool,
    given: &[(Node, DOrder)],
    sub: Vec<(Node, DOrder)>,
) -> (Given, Vec<(Node, Token)>) {
    let mut orders = given.to_vec();
    let mut notes = Vec::with_capacity(sub.len());
    let province = |o: &DOrder| o.unit().map(|u| u.at.province);
    for (n, o) in sub {
        // The orders the new one is judged beside: not the one it would
        // replace, but a build already ordered in the same place (ESC).
        let others: Vec<DOrder> = orders
            .iter()
            .map(|(_, x)| x)
            .filter(|x| {
                province(x).is_none()
                    || province(x) != province(&o)
                    || matches!((x, &o), (DOrder::Build(_), DOrder::Build(_)))
            })
            .cloned()
            .collect();
        let note = if any_orders_accepted {
            MBV
        } else {
            self::note(map, rules, state, me, &o, &others)
        };
        if note == MBV {
            if let Some(p) = province(&o) {
                orders.retain(|(_, x)| province(x) != Some(p));
            }
            orders.push((n.clone(), o));
        }
        notes.push((n, note));
    }
    (orders, notes)
}

/// The unit an order names, if it is on the board as named (type, power,
/// coast where one is given).
fn on_board(map: &Map, state: &State, u: &DUnit) -> Option<Unit> {
    let have = state.unit(u.at.province)?;
    let coast_ok = match u.at.coast {
        None => true,
        Some(r) => r == have.region,
    };
    (have.kind == u.kind && have.power == u.power && coast_ok && map.province_of(have.region) == u.at.province)
        .then_some(have)
}

/// The region a move goes to, if the unit can go there.
fn move_region(map: &Map, from: &Unit, to: Loc) -> Option<RegionId> {
    let mut into = map.moves_into(from.kind, from.region, to.province);
    match to.coast {
        Some(c) => into.find(|&r| r == c),
        None => into.next(),
    }
}

/// The THX note of an order given by `me` in the position (MBV: accepted).
pub fn note(map: &Map, rules: &Ruleset, state: &State, me: PowerId, o: &DOrder, already: &[DOrder]) -> Token {
    if o.kind() != state.phase.kind {
        return NRS;
    }
    if o.power() != me {
        return NYU;
    }
    match o {
        DOrder::Hold(u)
        | DOrder::Move(u, _)
        | DOrder::SupHold(u, _)
        | DOrder::SupMove(u, _, _)
        | DOrder::Convoy(u, _, _)
        | DOrder::ViaConvoy(u, _, _) => match on_board(map, state, u) {
            Some(unit) => movement_note(map, state, o, u, &unit),
            None => NSU,
        },
        DOrder::Retreat(u, _) | DOrder::Disband(u) => retreat_note(map, rules, state, o, u),
        DOrder::Build(u) => build_note(map, state, me, u, already),
        DOrder::Remove(u) => {
            if on_board(map, state, u).is_none() {
                return NSU;
            }
            let used = already.iter().filter(|x| matches!(x, DOrder::Remove(_))).count() as i32;
            if -adjustment::balance(map, state, me) <= used {
                return NMR;
            }
            MBV
        }
        DOrder::Waive(_) => {
            if adjustment::balance(map, state, me) <= builds_used(already) {
                return NMB;
            }
            MBV
        }
    }
}

/// A coast the province does not have.
fn bad_coast(l: &Loc) -> bool {
    l.coast == Some(NO_SUCH_COAST)
}

/// Builds and waives already ordered: each uses one of the builds allowed.
fn builds_used(already: &[DOrder]) -> i32 {
    already
        .iter()
        .filter(|x| matches!(x, DOrder::Build(_) | DOrder::Waive(_)))
        .count() as i32
}

/// The note of a movement-phase order of `unit` (the unit `u` names, on
/// the board).
fn movement_note(map: &Map, state: &State, o: &DOrder, u: &DUnit, unit: &Unit) -> Token {
    match o {
        DOrder::Move(_, to) => {
            if bad_coast(to) {
                return NSP;
            }
            if move_region(map, unit, *to).is_none() {
                return FAR;
            }
        }
        DOrder::SupHold(_, t) => {
            if state
                .unit(t.at.province)
                .is_none_or(|x| x.kind != t.kind || x.power != t.power)
            {
                return NSU;
            }
            if !map.reaches(unit.kind, unit.region, t.at.province) {
                return FAR;
            }
        }
        DOrder::SupMove(_, t, dest) => {
            let Some(other) = state
                .unit(t.at.province)
                .filter(|x| x.kind == t.kind && x.power == t.power)
            else {
                return NSU;
            };
            if !map.reaches(unit.kind, unit.region, *dest) || *dest == u.at.province {
                return FAR;
            }
            let convoyable = map.unit_type(other.kind).convoyable;
            if !convoyable && map.moves_into(other.kind, other.region, *dest).next().is_none() {
                return FAR;
            }
        }
        DOrder::Convoy(_, t, dest) => return convoy_note(map, state, u, unit, t, *dest),
        DOrder::ViaConvoy(_, dest, via) => return via_convoy_note(map, state, u, unit, *dest, via),
        _ => {}
    }
    MBV
}

/// A fleet's CVY of army `t` to `dest`.
fn convoy_note(map: &Map, state: &State, u: &DUnit, unit: &Unit, t: &DUnit, dest: ProvinceId) -> Token {
    if !map.unit_type(unit.kind).can_convoy {
        return NSF;
    }
    if !map.is_convoy_space(u.at.province) {
        return NAS;
    }
    match state.unit(t.at.province) {
        Some(x) if x.kind == t.kind && x.power == t.power && map.unit_type(x.kind).convoyable => {}
        _ => return NSA,
    }
    if map.province(dest).terrain == Terrain::Sea {
        return FAR;
    }
    MBV
}

/// An army's CTO `dest` VIA the fleets in `via`.
fn via_convoy_note(map: &Map, state: &State, u: &DUnit, unit: &Unit, dest: ProvinceId, via: &[ProvinceId]) -> Token {
    if !map.unit_type(unit.kind).convoyable {
        return NSA;
    }
    for &s in via {
        match state.unit(s) {
            Some(x) if map.unit_type(x.kind).can_convoy => {}
            _ => return NSF,
        }
        if !map.is_convoy_space(s) {
            return NAS;
        }
    }
    if map.province(dest).terrain == Terrain::Sea || dest == u.at.province {
        return FAR;
    }
    MBV
}

/// A retreat or disband: the unit must be dislodged, and retreat to one
/// of its retreat options.
fn retreat_note(map: &Map, rules: &Ruleset, state: &State, o: &DOrder, u: &DUnit) -> Token {
    let Some(d) = state
        .dislodged(u.at.province)
        .filter(|d| d.unit.kind == u.kind && d.unit.power == u.power)
    else {
        return NRN;
    };
    if let DOrder::Retreat(_, to) = o {
        if bad_coast(to) {
            return NSP;
        }
        let opts = retreat::retreat_options(map, state, rules, &d);
        let ok = opts
            .iter()
            .any(|&r| map.province_of(r) == to.province && to.coast.is_none_or(|c| c == r));
        if !ok {
            return NVR;
        }
    }
    MBV
}

/// A build: in an own, free home centre, on a coast the unit can use,
/// within the builds allowed.
fn build_note(map: &Map, state: &State, me: PowerId, u: &DUnit, already: &[DOrder]) -> Token {
    let p = u.at.province;
    let prov = map.province(p);
    if !prov.supply_center {
        return NSC;
    }
    if state.owner(p) != Some(me) {
        return YSC;
    }
    // ESC before HSC: an occupied centre is refused as occupied,
    // home or not, and so is one with a build already ordered.
    if !adjustment::can_build_in(map, state, me, p) {
        return if state.unit(p).is_some() { ESC } else { HSC };
    }
    if already
        .iter()
        .any(|x| matches!(x, DOrder::Build(b) if b.at.province == p))
    {
        return ESC;
    }
    if bad_coast(&u.at) {
        return CST;
    }
    let ut = map.unit_type(u.kind);
    let region = match u.at.coast {
        Some(r) => Some(r),
        None if ut.uses_coasts && map.coasts(p).len() > 1 => return CST,
        None => map.only_region_for(p, u.kind),
    };
    if region.is_none_or(|r| !map.allows(r, u.kind)) || !ut.builds_on.contains(prov.terrain) {
        return CST;
    }
    if adjustment::balance(map, state, me) <= builds_used(already) {
        return NMB;
    }
    MBV
}

// A coast the province does not have is left out: an order that names
// one reaches dip only with AOA, and dip's checks then judge it.
fn uref(u: &DUnit) -> UnitRef {
    let r = UnitRef::new(Some(u.kind), u.at.province);
    match u.at.region() {
        Some(c) => r.with_coast(CoastSpec::Coast(c)),
        None => r,
    }
}

fn dest(l: &Loc) -> Dest {
    match l.region() {
        Some(c) => Dest::coast(l.province, c),
        None => Dest::new(l.province),
    }
}

/// The dip order of an accepted DAIDE order.
pub fn to_dip(o: &DOrder) -> Order {
    let kind = match o {
        DOrder::Hold(u) => OrderKind::Hold(uref(u)),
        DOrder::Move(u, to) => OrderKind::Move(uref(u), dest(to), false),
        DOrder::SupHold(u, t) => OrderKind::SupportHold(uref(u), uref(t)),
        DOrder::SupMove(u, t, to) => OrderKind::SupportMove(uref(u), uref(t), Dest::new(*to)),
        DOrder::Convoy(u, t, to) => OrderKind::Convoy(uref(u), uref(t), Dest::new(*to)),
        DOrder::ViaConvoy(u, to, _) => OrderKind::Move(uref(u), Dest::new(*to), true),
        DOrder::Retreat(u, to) => OrderKind::Retreat(uref(u), dest(to)),
        DOrder::Disband(u) | DOrder::Remove(u) => OrderKind::Disband(uref(u)),
        DOrder::Build(u) => OrderKind::Build(uref(u)),
        DOrder::Waive(_) => OrderKind::Waive,
    };
    Order::new(o.power(), kind)
}

/// dip's order text of an accepted DAIDE order (what the API stores).
pub fn to_text(map: &Map, o: &DOrder) -> String {
    let text = dip_game::gamedir::short(map, &to_dip(o));
    // dip's short form writes a build `+F Lon`, which the order reader
    // does not take back.
    match text.strip_prefix('+') {
        Some(rest) => format!("build {rest}"),
        None => text,
    }
}

/// The unit a dip order names, as it stands (or stood, dislodged).
fn unit_of(map: &Map, state: &State, power: PowerId, u: &UnitRef, dislodged_first: bool) -> Unit {
    let found = if dislodged_first {
        state
            .dislodged(u.province)
            .map(|d| d.unit)
            .or_else(|| state.unit(u.province))
    } else {
        state
            .unit(u.province)
            .or_else(|| state.dislodged(u.province).map(|d| d.unit))
    };
    found.unwrap_or_else(|| {
        let kind = u.kind.or_else(|| army(map)).unwrap_or(UnitTypeId(0));
        let region = match u.coast {
            CoastSpec::Coast(r) => r,
            _ => map.main_region(u.province),
        };
        Unit { power, kind, region }
    })
}

fn dest_node(map: &Map, repr: &Repr, d: &Dest) -> Node {
    match d.coast {
        CoastSpec::Coast(r) => place(map, repr, r),
        _ => Node::Tok(repr.province(d.province).unwrap_or(Token(0x5000))),
    }
}

/// A dip order in DAIDE's order form (as in SUB and ORD).
pub fn order_node(map: &Map, repr: &Repr, state: &State, o: &Order) -> Node {
    let retreat = state.phase.kind == PhaseKind::Retreat;
    let u = |r: &UnitRef| unit_node(map, repr, &unit_of(map, state, o.power, r, retreat));
    let prov = |p: ProvinceId| Node::Tok(repr.province(p).unwrap_or(Token(0x5000)));
    let b = match &o.kind {
        OrderKind::Hold(x) => B::default().n(u(x)).t(HLD),
        OrderKind::Move(x, d, false) => B::default().n(u(x)).t(MTO).n(dest_node(map, repr, d)),
        OrderKind::Move(x, d, true) => B::default().n(u(x)).t(CTO).n(prov(d.province)),
        // (ORD adds the route: see `ord`.)
        OrderKind::SupportHold(x, t) => B::default().n(u(x)).t(SUP).n(u(t)),
        OrderKind::SupportMove(x, t, d) => B::default().n(u(x)).t(SUP).n(u(t)).t(MTO).n(prov(d.province)),
        OrderKind::Convoy(x, t, d) => B::default().n(u(x)).t(CVY).n(u(t)).t(CTO).n(prov(d.province)),
        OrderKind::Retreat(x, d) => B::default().n(u(x)).t(RTO).n(dest_node(map, repr, d)),
        OrderKind::Disband(x) if state.phase.kind == PhaseKind::Adjustment => B::default().n(u(x)).t(REM),
        OrderKind::Disband(x) => B::default().n(u(x)).t(DSB),
        OrderKind::Build(x) => {
            let kind = x.kind.or_else(|| army(map)).unwrap_or(UnitTypeId(0));
            let region = match x.coast {
                CoastSpec::Coast(r) => r,
                _ => map
                    .only_region_for(x.province, kind)
                    .unwrap_or_else(|| map.main_region(x.province)),
            };
            B::default()
                .n(unit_node(
                    map,
                    repr,
                    &Unit {
                        power: o.power,
                        kind,
                        region,
                    },
                ))
                .t(BLD)
        }
        OrderKind::Waive => B::default().t(repr.power(o.power)).t(WVE),
    };
    b.node()
}

/// The orders dip's checks turned into another order (a support of a
/// move nobody ordered becomes a hold), each with the order as given: ORD
/// shows those as given, not done (NSO). A correction that leaves the
/// order what it was is no change here: filling in the coast of a
/// supported move (DAIDE's support names the province only) must not
/// make a support that counted look void.
pub fn voided(lines: &[dip_text::LineResult]) -> Vec<(Order, Order)> {
    lines
        .iter()
        .filter(|l| l.fate == dip_text::Fate::Changed)
        .filter_map(|l| Some((l.order?, l.read?)))
        .filter(|(now, read)| std::mem::discriminant(&now.kind) != std::mem::discriminant(&read.kind))
        .collect()
}

/// The ORD messages of a played phase (`state` is the position before).
///
/// `changed` pairs an order the checks changed (a support of a move not
/// ordered becomes a hold) with the order as given: ORD shows the order
/// as given, not done (NSO).
pub fn ord(map: &Map, repr: &Repr, state: &State, outcome: &PhaseOutcome, changed: &[(Order, Order)]) -> Vec<Msg> {
    let t = turn(&state.phase);
    let mut out = Vec::new();
    let convoyed: Vec<ProvinceId> = outcome
        .orders()
        .iter()
        .filter_map(|r| match r.order.kind {
            OrderKind::Convoy(_, t, _) => Some(t.province),
            _ => None,
        })
        .collect();
    for r in outcome.orders() {
        if let Some((_, given)) = changed.iter().find(|(now, _)| *now == r.order) {
            let res = if r.dislodged { vec![NSO, RET] } else { vec![NSO] };
            out.push(ord_msg(&t, order_node(map, repr, state, given), &res));
            continue;
        }
        let Verdict::Done { success, reason } = r.verdict else {
            if let Verdict::Illegal(_) = r.verdict {
                // dip holds the unit: the order is reported as not done.
                let res = if r.dislodged { vec![NSO, RET] } else { vec![NSO] };
                out.push(ord_msg(&t, order_node(map, repr, state, &r.order), &res));
            }
            continue;
        };
        let holding = matches!(r.order.kind, OrderKind::Hold(_) | OrderKind::Convoy(..));
        let mut res = match reason {
            Reason::SupportCut(_) => vec![CUT],
            // A convoy not given (no army, fleet dislodged, paradox): NSO;
            // BNC is for moves only.
            Reason::SupportVoid | Reason::ConvoyVoid | Reason::ConvoyDisrupted => vec![NSO],
            Reason::ConvoyParadox if matches!(r.order.kind, OrderKind::Convoy(..)) => vec![NSO],
            Reason::NoConvoy => {
                let from = r.order.unit().map(|u| u.province);
                if from.is_some_and(|f| convoyed.contains(&f)) {
                    vec![DSR]
                } else {
                    vec![NSO]
                }
            }
            Reason::Bounced
            | Reason::BeatenHeadToHead
            | Reason::OwnUnit
            | Reason::RetreatClash
            | Reason::ConvoyParadox => {
                vec![BNC]
            }
            Reason::Dislodged(_) if holding => vec![],
            Reason::Dislodged(_) => match r.order.kind {
                OrderKind::SupportHold(..) | OrderKind::SupportMove(..) => vec![CUT],
                _ => vec![BNC],
            },
            Reason::NotExecuted => vec![NSO],
            _ if success => vec![SUC],
            _ => vec![BNC],
        };
        if holding && res == [SUC] && r.dislodged {
            res.clear();
        }
        if r.dislodged {
            res.push(RET);
        }
        if res.is_empty() {
            res.push(SUC);
        }
        let mut node = order_node(map, repr, state, &r.order);
        if let OrderKind::Move(x, d, true) = r.order.kind {
            let route = via(map, outcome, x.province, d.province);
            if let (Node::List(l), false) = (&mut node, route.is_empty()) {
                l.push(Node::Tok(VIA));
                l.push(Node::List(
                    route
                        .into_iter()
                        .filter_map(|p| repr.province(p))
                        .map(Node::Tok)
                        .collect(),
                ));
            }
        }
        out.push(ord_msg(&t, node, &res));
    }
    if let PhaseOutcome::Adjustment(a) = outcome {
        for &p in &a.civil_disorder {
            if let Some(u) = state.unit(p) {
                let node = B::default().n(unit_node(map, repr, &u)).t(REM).node();
                out.push(ord_msg(&t, node, &[SUC]));
            }
        }
    }
    out
}

/// The convoying provinces of a convoyed move, from the army onwards.
fn via(map: &Map, outcome: &PhaseOutcome, from: ProvinceId, to: ProvinceId) -> Vec<ProvinceId> {
    let mut fleets: Vec<ProvinceId> = outcome
        .orders()
        .iter()
        .filter_map(|r| match r.order.kind {
            OrderKind::Convoy(f, a, d) if a.province == from && d.province == to => Some(f.province),
            _ => None,
        })
        .collect();
    let mut route = Vec::new();
    let mut at = from;
    while !fleets.is_empty() {
        let next = fleets.iter().position(|&f| map.provinces_adjacent(at, f)).unwrap_or(0);
        at = fleets.remove(next);
        route.push(at);
    }
    route
}

fn ord_msg(t: &Node, order: Node, res: &[Token]) -> Msg {
    let mut r = B::default();
    for &x in res {
        r = r.t(x);
    }
    B::new(ORD).n(t.clone()).n(order).l(r).msg()
}

/// What a power still has to order: `MIS (unit) …`, `MIS (unit MRT (…))`,
/// `MIS (n)`; `None` when nothing is missing.
pub fn mis(map: &Map, repr: &Repr, rules: &Ruleset, state: &State, me: PowerId, orders: &[DOrder]) -> Option<Msg> {
    let ordered = |p: ProvinceId| orders.iter().any(|o| o.unit().is_some_and(|u| u.at.province == p));
    let mut b = B::new(MIS);
    let mut any = false;
    match state.phase.kind {
        PhaseKind::Movement => {
            for (p, u) in state.units() {
                if u.power == me && !ordered(p) {
                    b = b.n(unit_node(map, repr, &u));
                    any = true;
                }
            }
        }
        PhaseKind::Retreat => {
            for (p, d) in state.all_dislodged() {
                if d.unit.power == me && !ordered(p) {
                    let opts: Vec<Node> = retreat::retreat_options(map, state, rules, &d)
                        .into_iter()
                        .map(|r| place(map, repr, r))
                        .collect();
                    b = b.l(unit_tokens(map, repr, &d.unit).t(MRT).ls(opts));
                    any = true;
                }
            }
        }
        PhaseKind::Adjustment => {
            let bal = adjustment::balance(map, state, me);
            let n = if bal > 0 {
                let open = map
                    .supply_centers()
                    .iter()
                    .filter(|&&c| adjustment::can_build_in(map, state, me, c))
                    .count() as i32;
                let used = orders
                    .iter()
                    .filter(|o| matches!(o, DOrder::Build(_) | DOrder::Waive(_)))
                    .count() as i32;
                let builds_left = bal - used;
                // Builds that cannot be placed need no order.
                let placeable = open - orders.iter().filter(|o| matches!(o, DOrder::Build(_))).count() as i32;
                -(builds_left.min(placeable).max(0))
            } else {
                let used = orders.iter().filter(|o| matches!(o, DOrder::Remove(_))).count() as i32;
                (-bal - used).max(0)
            };
            if n != 0 {
                b = b.l(B::default().i(n));
                any = true;
            }
        }
    }
    any.then(|| b.msg())
}

#[cfg(test)]
mod tests {
    use super::super::message::Msg;
    use super::*;

    fn std() -> (&'static dip_variants::Variant, Repr) {
        let v: &'static dip_variants::Variant = Box::leak(Box::new(dip_variants::standard()));
        let r = Repr::of(&v.map);
        (v, r)
    }

    fn read(v: &dip_variants::Variant, r: &Repr, text: &str) -> Result<DOrder, usize> {
        let m = Msg::parse(&format!("SUB {text}"), r).unwrap();
        Reader { map: &v.map, repr: r }.order(&m.0[1], 1)
    }

    #[test]
    fn start_position_now_and_sco_match_the_syntax_document() {
        let (v, r) = std();
        let now = now(&v.map, &r, &v.rules, &v.start).to_text(&r);
        assert!(now.starts_with("NOW (SPR 1901) "), "{now}");
        assert!(now.contains("(RUS FLT (STP SCS))"), "{now}");
        assert!(now.contains("(ENG FLT LON)"), "{now}");
        assert_eq!(now.matches("(").count(), 1 + 22 + 1, "{now}");
        let sco = sco(&v.map, &r, &v.start).to_text(&r);
        assert!(
            sco.starts_with("SCO (AUS BUD TRI VIE) (ENG EDI LON LVP) (FRA BRE MAR PAR)"),
            "{sco}"
        );
        assert!(
            sco.ends_with("(UNO BEL BUL DEN GRE HOL NWY POR RUM SER SPA SWE TUN)"),
            "{sco}"
        );
        assert!(sco.contains("(UNO "), "{sco}");
    }

    #[test]
    fn mdf_lists_adjacencies_per_coast() {
        let (v, r) = std();
        let m = mdf(&v.map, &r).to_text(&r);
        assert!(m.starts_with("MDF (AUS ENG FRA GER ITA RUS TUR) (((AUS "), "{m}");
        assert!(m.contains("((FLT SCS) "), "{m}");
        assert!(m.contains("(BUL (AMY "), "{m}");
    }

    #[test]
    fn syntax_document_sub_examples_read_and_get_notes() {
        let (v, r) = std();
        let s = &v.start;
        let eng = v.map.find_power("ENG").unwrap();
        let cases = [
            ("((ENG AMY LVP) HLD)", MBV),
            ("((ENG FLT LON) MTO NTH)", MBV),
            ("((ENG FLT EDI) SUP (ENG FLT LON) MTO NTH)", MBV),
            ("((ENG FLT LON) MTO YOR)", MBV),
            ("((ENG FLT LON) MTO LVP)", FAR),
            ("((ENG AMY LON) HLD)", NSU),
            ("((FRA AMY PAR) HLD)", NYU),
            ("((ENG FLT LON) BLD)", NRS),
            ("((ENG FLT LON) CVY (ENG AMY LVP) CTO BEL)", NAS),
            ("((ENG AMY LVP) CTO NWY VIA (NTH))", NSF),
            ("((ENG AMY LVP) RTO YOR)", NRS),
            ("((ENG FLT EDI) SUP (ENG FLT LON) MTO BEL)", FAR),
        ];
        for (text, want) in cases {
            let o = read(v, &r, text).unwrap_or_else(|e| panic!("{text}: error at {e}"));
            let n = note(&v.map, &v.rules, s, eng, &o, &[]);
            assert_eq!(r.name(n), r.name(want), "{text}");
        }
        for text in [
            "((ENG FLT BAR) MTO (STP NCS))",
            "((ITA AMY TUN) CTO SYR VIA (ION EAS))",
            "((ITA FLT ION) CVY (ITA AMY TUN) CTO SYR)",
            "((ENG AMY YOR) CTO NWY VIA (NTH))",
            "((ITA FLT NAP) BLD)",
            "((RUS FLT GOB) REM)",
            "((RUS FLT NTH) RTO (STP NCS))",
            "(RUS WVE)",
            "((ENG FLT NTH) DSB)",
        ] {
            let o = read(v, &r, text).unwrap_or_else(|e| panic!("{text}: error at {e}"));
            // Shown back as given, in a phase of the order's kind (a move
            // by convoy without its route: ORD adds the route taken).
            let mut phase = s.clone();
            phase.phase = Phase::new(1901, Season::Fall, o.kind());
            let back = Msg(vec![order_node(&v.map, &r, &phase, &to_dip(&o))]).to_text(&r);
            let given = match text.split_once(" VIA") {
                Some((head, _)) => format!("{head})"),
                None => text.to_string(),
            };
            assert_eq!(back, given, "{text}");
        }
    }

    #[test]
    fn an_order_naming_a_coast_its_province_lacks_crashed_the_server_with_aoa() {
        // With AOA such an order is stored: it is turned into dip's order
        // (without the coast) instead of indexing a region that is none.
        let (v, r) = std();
        for text in [
            "((ENG AMY (LON NCS)) REM)",
            "((ENG FLT LON) MTO (NTH NCS))",
            "((RUS FLT (STP ECS)) RTO (BUL WCS))",
            "((ENG FLT (EDI SCS)) BLD)",
        ] {
            let o = read(v, &r, text).unwrap();
            assert!(!to_text(&v.map, &o).is_empty(), "{text}");
            let _ = order_node(&v.map, &r, &v.start, &to_dip(&o));
        }
    }

    #[test]
    fn bad_orders_point_at_the_bad_token() {
        let (v, r) = std();
        // SUB ( ( ENG AMY LVP ) XXX ): flat index of the verb is 7.
        assert_eq!(read(v, &r, "((ENG AMY LVP) SUP)"), Err(8));
        assert_eq!(read(v, &r, "((ENG AMY LVP) HLD HLD)"), Err(8));
        assert_eq!(read(v, &r, "((ENG ENG LVP) HLD)"), Err(4));
        assert_eq!(read(v, &r, "((ENG AMY LVP) AMY)"), Err(7));
    }

    #[test]
    fn accepted_orders_become_dip_text_the_order_reader_takes() {
        let (v, r) = std();
        let l = crate::variants::standard_for_tests();
        let eng = v.map.find_power("ENG").unwrap();
        let lines: Vec<String> = [
            "((ENG FLT LON) MTO NTH)",
            "((ENG FLT EDI) SUP (ENG FLT LON) MTO NTH)",
            "((ENG AMY LVP) HLD)",
        ]
        .iter()
        .map(|text| to_text(&v.map, &read(v, &r, text).unwrap()))
        .collect();
        let got = crate::play::read_lines(&v.map, &l, &v.start, eng, &lines);
        assert_eq!(got.len(), 3);
        for g in got {
            assert!(g["error"].is_null(), "{g}");
        }
    }
}

#[cfg(test)]
mod build_tests {
    use super::super::message::Msg;
    use super::*;

    fn check(state: &State, power: &str, texts: &[&str]) {
        let l = crate::variants::standard_for_tests();
        let map = &l.variant().map;
        let r = Repr::of(map);
        let me = map.find_power(power).unwrap();
        let reader = Reader { map, repr: &r };
        let mut lines = Vec::new();
        for t in texts {
            let m = Msg::parse(&format!("SUB {t}"), &r).unwrap();
            let o = reader.order(&m.0[1], 1).unwrap();
            assert_eq!(note(map, &l.variant().rules, state, me, &o, &[]), MBV, "{t}");
            lines.push(to_text(map, &o));
        }
        let got = crate::play::read_lines(map, &l, state, me, &lines);
        for g in &got {
            assert_eq!(g["fate"], "accepted", "{g}");
        }
        assert_eq!(got.len(), texts.len());
    }

    #[test]
    fn every_kind_of_order_is_stored_as_text_the_order_reader_accepts() {
        let l = crate::variants::standard_for_tests();
        let map = &l.variant().map;
        let mut s = l.variant().start.clone();
        check(
            &s,
            "ENG",
            &[
                "((ENG FLT LON) MTO NTH)",
                "((ENG FLT EDI) SUP (ENG FLT LON) MTO NTH)",
                "((ENG AMY LVP) HLD)",
            ],
        );
        check(
            &s,
            "RUS",
            &[
                "((RUS FLT (STP SCS)) MTO BOT)".replace("BOT", "GOB").as_str(),
                "((RUS AMY MOS) SUP (RUS AMY WAR))",
            ],
        );
        // A convoy: an English fleet in the North Sea carries the army from Yorkshire.
        let eng = map.find_power("ENG").unwrap();
        let (lon, nth, yor, lvp) = ["lon", "nth", "yor", "lvp"]
            .map(|p| map.find_province(p).unwrap())
            .into();
        let f = s.remove(lon).unwrap();
        s.place(
            map,
            Unit {
                region: map.main_region(nth),
                ..f
            },
        );
        let a = s.remove(lvp).unwrap();
        s.place(
            map,
            Unit {
                region: map.main_region(yor),
                ..a
            },
        );
        check(
            &s,
            "ENG",
            &[
                "((ENG FLT NTH) CVY (ENG AMY YOR) CTO NWY)",
                "((ENG AMY YOR) CTO NWY VIA (NTH))",
            ],
        );
        // Builds, removals and waives.
        let mut w = l.variant().start.clone();
        w.phase = Phase::new(1901, Season::Fall, PhaseKind::Adjustment);
        w.remove(lon);
        w.set_owner(map.find_province("nwy").unwrap(), Some(eng));
        w.set_owner(map.find_province("bel").unwrap(), Some(eng));
        check(&w, "ENG", &["((ENG FLT LON) BLD)", "(ENG WVE)"]);
        let mut r = l.variant().start.clone();
        r.phase = Phase::new(1901, Season::Fall, PhaseKind::Adjustment);
        r.set_owner(map.find_province("mos").unwrap(), None);
        check(&r, "RUS", &["((RUS AMY WAR) REM)"]);
        let _ = eng;
    }
}

#[cfg(test)]
mod ord_tests {
    use super::*;

    /// The ORD texts of one played phase, as the server sends them.
    fn ords(state: &State, orders: &[(&str, &str)]) -> Vec<String> {
        let l = crate::variants::standard_for_tests();
        let map = &l.variant().map;
        let r = Repr::of(map);
        let orders: Vec<(PowerId, Vec<String>)> = orders
            .iter()
            .map(|(p, t)| (map.find_power(p).unwrap(), vec![t.to_string()]))
            .collect();
        let played = crate::play::play_stored(&l, state, &orders);
        ord(map, &r, state, &played.outcome, &voided(&played.check.lines))
            .iter()
            .map(|m| m.to_text(&r))
            .collect()
    }

    /// England's fleets in Barents and Norway, Russia's on St Petersburg's
    /// south coast.
    fn north() -> State {
        let l = crate::variants::standard_for_tests();
        let map = &l.variant().map;
        let mut s = l.variant().start.clone();
        for (from, to) in [("lon", "bar"), ("edi", "nwy")] {
            let f = s.remove(map.find_province(from).unwrap()).unwrap();
            s.place(
                map,
                Unit {
                    region: map.main_region(map.find_province(to).unwrap()),
                    ..f
                },
            );
        }
        s
    }

    #[test]
    fn a_support_whose_move_names_a_coast_was_reported_void() {
        let got = ords(&north(), &[("ENG", "F Bar-Stp/nc\nF Nwy S F Bar-Stp")]);
        assert!(
            got.contains(&"ORD (SPR 1901) ((ENG FLT NWY) SUP (ENG FLT BAR) MTO STP) (SUC)".to_string()),
            "{got:#?}"
        );
        assert!(
            got.contains(&"ORD (SPR 1901) ((ENG FLT BAR) MTO (STP NCS)) (SUC)".to_string()),
            "{got:#?}"
        );
        assert!(
            got.contains(&"ORD (SPR 1901) ((RUS FLT (STP SCS)) HLD) (RET)".to_string()),
            "{got:#?}"
        );
    }

    #[test]
    fn a_support_of_a_move_not_ordered_is_reported_as_given_and_not_done() {
        let got = ords(&north(), &[("ENG", "F Bar H\nF Nwy S F Bar-Stp")]);
        assert!(
            got.contains(&"ORD (SPR 1901) ((ENG FLT NWY) SUP (ENG FLT BAR) MTO STP) (NSO)".to_string()),
            "{got:#?}"
        );
    }
}

#[cfg(test)]
mod reader_properties {
    use super::*;
    use proptest::prelude::*;

    /// Tokens orders are made of: powers, unit types, provinces, coasts,
    /// order words, a few others.
    fn order_token() -> impl Strategy<Value = Token> {
        let r = Repr::of(&dip_variants::standard().map);
        let words: Vec<Token> = [
            "ENG", "RUS", "TUR", "AMY", "FLT", "LON", "NTH", "STP", "BUL", "YOR", "NWY", "MOS", "BAR", "ECS", "NCS",
            "SCS", "HLD", "MTO", "SUP", "CVY", "CTO", "VIA", "RTO", "DSB", "BLD", "REM", "WVE", "SUB", "UNO", "MBV",
        ]
        .iter()
        .map(|w| r.by_name(w).unwrap())
        .collect();
        prop_oneof![
            8 => proptest::sample::select(words),
            1 => (-3i32..3).prop_map(Token::int),
            1 => any::<u16>().prop_map(Token),
        ]
    }

    fn order_node() -> impl Strategy<Value = Node> {
        let leaf = order_token().prop_map(Node::Tok);
        leaf.prop_recursive(3, 24, 6, |inner| {
            proptest::collection::vec(inner, 0..6).prop_map(Node::List)
        })
    }

    /// Trees shaped like orders: `((power type place) verb …)`.
    fn order_like() -> impl Strategy<Value = Node> {
        let tok = |w: &'static [&'static str]| {
            let r = Repr::of(&dip_variants::standard().map);
            proptest::sample::select(w.iter().map(|x| r.by_name(x).unwrap()).collect::<Vec<_>>()).prop_map(Node::Tok)
        };
        let place = prop_oneof![
            tok(&["LON", "NTH", "YOR", "NWY", "MOS", "BAR", "EDI", "LVP"]),
            (tok(&["STP", "BUL", "LON"]), tok(&["NCS", "SCS", "ECS"])).prop_map(|(p, c)| Node::List(vec![p, c])),
        ];
        let unit = (tok(&["ENG", "RUS", "FRA"]), tok(&["AMY", "FLT"]), place.clone())
            .prop_map(|(p, t, at)| Node::List(vec![p, t, at]));
        let verb = tok(&[
            "HLD", "MTO", "SUP", "CVY", "CTO", "VIA", "RTO", "DSB", "BLD", "REM", "WVE",
        ]);
        (
            unit.clone(),
            verb,
            proptest::collection::vec(prop_oneof![unit, place, tok(&["MTO", "CTO", "VIA"])], 0..4),
        )
            .prop_map(|(u, v, rest)| {
                let mut l = vec![u, v];
                l.extend(rest);
                Node::List(l)
            })
    }

    proptest! {
        /// Any tree of tokens where an order should be: an order, or the
        /// flat index of a token inside the message; an order read gets a
        /// note in every kind of phase and becomes dip's order and text.
        #[test]
        fn the_sub_reader_takes_any_tree_of_tokens(n in prop_oneof![order_node(), order_like()]) {
            let l = crate::variants::standard_for_tests();
            let map = &l.variant().map;
            let r = Repr::of(map);
            let reader = Reader { map, repr: &r };
            let width = 1 + n.width();
            match reader.order(&n, 1) {
                Err(at) => prop_assert!(at <= width, "error at {at} of {width}"),
                Ok(o) => {
                    let eng = map.find_power("ENG").unwrap();
                    for kind in [PhaseKind::Movement, PhaseKind::Retreat, PhaseKind::Adjustment] {
                        let mut s = l.variant().start.clone();
                        s.phase = Phase::new(1901, Season::Fall, kind);
                        let _ = note(map, &l.variant().rules, &s, eng, &o, std::slice::from_ref(&o));
                        let _ = submit(map, &l.variant().rules, &s, eng, false, &[], vec![(n.clone(), o.clone())]);
                        let _ = super::order_node(map, &r, &s, &to_dip(&o));
                    }
                    let _ = to_text(map, &o);
                }
            }
        }
    }
}
