//! A position as plain data, before it is a [`State`]: the phase, the
//! units, the dislodged units, the standoffs and the owners, each a list
//! in the order its reader found them. Every way a position enters the
//! program (the position text, a game file, a saved game, a variant's
//! start, the Python package's `set_units`) builds one and turns it into a
//! state with [`State::from_position`], so each is checked the same way.

use crate::{Dislodged, Map, Phase, PowerId, ProvinceId, State, Unit};

/// A position as a reader finds it. Each list keeps the reader's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub phase: Phase,
    pub units: Vec<Unit>,
    pub dislodged: Vec<Dislodged>,
    pub standoffs: Vec<ProvinceId>,
    /// `None`: no owners given, so each power owns its home centres. A
    /// later entry for the same centre wins.
    pub owners: Option<Vec<(PowerId, ProvinceId)>>,
}

/// The entry of a [`Position`] a fault is about: its place in its list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    Unit(usize),
    Dislodged(usize),
    Standoff(usize),
    Owner(usize),
}

/// One entry the map cannot hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionFault {
    pub entry: Entry,
    pub message: String,
}

/// Every entry of a position the map cannot hold, in the order of the
/// position's lists (units, dislodged units, standoffs, owners).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionErrors(pub Vec<PositionFault>);

impl std::fmt::Display for PositionErrors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, fault) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            f.write_str(&fault.message)?;
        }
        Ok(())
    }
}

impl std::error::Error for PositionErrors {}

impl Position {
    /// An empty board in `phase`, its owners not given.
    pub fn new(phase: Phase) -> Self {
        Position {
            phase,
            units: Vec::new(),
            dislodged: Vec::new(),
            standoffs: Vec::new(),
            owners: None,
        }
    }

    /// The position `state` holds, lists in province order and every
    /// owner given: [`State::from_position`] builds `state` back.
    pub fn of(state: &State) -> Self {
        Position {
            phase: state.phase,
            units: state.units().map(|(_, u)| u).collect(),
            dislodged: state.all_dislodged().map(|(_, d)| d).collect(),
            standoffs: state.standoffs.iter().map(|i| ProvinceId(i as u16)).collect(),
            owners: Some(
                (0..state.num_provinces())
                    .filter_map(|i| {
                        let p = ProvinceId(i as u16);
                        state.owner(p).map(|o| (o, p))
                    })
                    .collect(),
            ),
        }
    }

    /// Whether a unit stands in province `p`.
    pub fn occupied(&self, map: &Map, p: ProvinceId) -> bool {
        self.units
            .iter()
            .any(|u| map.regions().get(u.region.index()).map(|r| r.province) == Some(p))
    }

    /// The state, for a reader that checked each entry as it read it: an
    /// entry [`State::from_position`] would refuse is left out (of two
    /// units in one province, the later stands). New readers use
    /// `State::from_position`, which says what it refused.
    pub fn into_state(self, map: &Map) -> State {
        build(map, &self).0
    }
}

impl State {
    /// The one way to build a state from a position: every unit of a
    /// power, unit type and region of `map` that its type may stand in,
    /// one a province; every dislodged unit the same, one a province, its
    /// attacker from a province of the map; standoffs and owned centres
    /// provinces of the map, owners its powers. Without owners, each power
    /// owns its home centres.
    pub fn from_position(map: &Map, position: &Position) -> Result<State, PositionErrors> {
        let (state, faults) = build(map, position);
        if faults.is_empty() {
            Ok(state)
        } else {
            Err(PositionErrors(faults))
        }
    }
}

/// The state of every entry the map holds, and a fault for each other.
fn build(map: &Map, position: &Position) -> (State, Vec<PositionFault>) {
    let mut st = State::empty(map, position.phase);
    let mut faults = Vec::new();
    let mut fault = |entry, message| faults.push(PositionFault { entry, message });
    let mut taken = vec![false; map.num_provinces()];
    for (i, u) in position.units.iter().enumerate() {
        match placed(map, u) {
            Err(m) => fault(Entry::Unit(i), m),
            Ok(p) => {
                if std::mem::replace(&mut taken[p.index()], true) {
                    fault(
                        Entry::Unit(i),
                        format!("a second unit in the same province: `{}`", unit_text(map, u)),
                    );
                }
                st.place(map, *u);
            }
        }
    }
    taken.fill(false);
    for (i, d) in position.dislodged.iter().enumerate() {
        match placed(map, &d.unit) {
            Err(m) => fault(Entry::Dislodged(i), m),
            Ok(_) if d.attacker_from.index() >= map.num_provinces() => fault(
                Entry::Dislodged(i),
                format!(
                    "`{}`: no province {} to be dislodged from",
                    unit_text(map, &d.unit),
                    d.attacker_from.0
                ),
            ),
            Ok(p) => {
                if std::mem::replace(&mut taken[p.index()], true) {
                    fault(
                        Entry::Dislodged(i),
                        format!(
                            "a second dislodged unit in the same province: `{}`",
                            unit_text(map, &d.unit)
                        ),
                    );
                }
                st.set_dislodged(map, *d);
            }
        }
    }
    for (i, &p) in position.standoffs.iter().enumerate() {
        if p.index() < map.num_provinces() {
            st.standoffs.insert(p.index());
        } else {
            fault(Entry::Standoff(i), format!("no province {} on the map", p.0));
        }
    }
    match &position.owners {
        None => st.own_home_centers(map),
        Some(owners) => {
            for (i, &(power, p)) in owners.iter().enumerate() {
                if p.index() >= map.num_provinces() {
                    fault(Entry::Owner(i), format!("no province {} on the map", p.0));
                } else if power.index() >= map.powers().len() {
                    fault(Entry::Owner(i), format!("no power {} on the map", power.0));
                } else {
                    st.set_owner(p, Some(power));
                }
            }
        }
    }
    (st, faults)
}

/// The province a unit stands in, if the map has its power, type and
/// region and the type may stand there.
fn placed(map: &Map, u: &Unit) -> Result<ProvinceId, String> {
    if u.power.index() >= map.powers().len() {
        return Err(format!("no power {} on the map", u.power.0));
    }
    if u.kind.index() >= map.unit_types().len() {
        return Err(format!("no unit type {} on the map", u.kind.0));
    }
    if u.region.index() >= map.num_regions() {
        return Err(format!("no region {} on the map", u.region.0));
    }
    if !map.allows(u.region, u.kind) {
        return Err(format!("`{}`: this unit type cannot stand there", unit_text(map, u)));
    }
    Ok(map.province_of(u.region))
}

/// `England: F lon`, as the position format writes a unit whose ids the
/// map has.
fn unit_text(map: &Map, u: &Unit) -> String {
    format!(
        "{}: {} {}",
        map.power(u.power).name,
        map.unit_type(u.kind).letter,
        map.region_name(u.region)
    )
}
