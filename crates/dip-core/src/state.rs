//! The position: season, units, dislodged units, centre owners, standoffs.

use crate::ids::{BitSet, PowerId, ProvinceId, RegionId, UnitTypeId};
use crate::map::Map;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Season {
    Spring,
    Fall,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PhaseKind {
    Movement,
    Retreat,
    Adjustment,
}

/// The largest year any file may name: a game can go on for a long time,
/// and one more year always fits (no file's year overflows an `i32`).
pub const MAX_YEAR: i32 = 1_000_000;

/// A year as written in a variant or game file (`1901`, `-50` before
/// Christ, as jDip's ancient variants have), or why it is none: not a
/// number, or beyond ±[`MAX_YEAR`] (every reader checks the same range).
pub fn parse_year(text: &str) -> Result<i32, String> {
    let t = text.trim();
    let digits = t.strip_prefix('-').unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("expected a year, found `{t}`"));
    }
    // Too many digits for an i64 is out of range too.
    match t.parse::<i64>() {
        Ok(y) if (-(MAX_YEAR as i64)..=MAX_YEAR as i64).contains(&y) => Ok(y as i32),
        _ => Err(format!(
            "the year {t} is out of range (years from -{MAX_YEAR} to {MAX_YEAR})"
        )),
    }
}

/// Where the game stands in time.
///
/// The one dialect of phase names: [`Display`](std::fmt::Display) writes
/// the short form (`S1901M`, `F1901R`, `W1901A`; the year as it is: `S1M`,
/// `S-50M`), and [`FromStr`](std::str::FromStr) reads it back in any case
/// with the year in any number of digits (`S0001M` is `S1M`), as well as
/// the long forms files write (`spring 1901 movement`, `Fall 1901,
/// Retreat`, `winter 1901`, MILA's `WINTER 1901 ADJUSTMENTS`). Years are
/// [`parse_year`]'s: within ±[`MAX_YEAR`]. [`Phase::long`] writes the long
/// form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Phase {
    pub year: i32,
    pub season: Season,
    pub kind: PhaseKind,
}

impl Phase {
    pub fn new(year: i32, season: Season, kind: PhaseKind) -> Self {
        Phase { year, season, kind }
    }
    /// `S1901M`, `F1901R`, `W1901A` (the common short form; the same as
    /// `to_string()`).
    pub fn short(&self) -> String {
        self.to_string()
    }
    /// `Spring 1901 movement`: the long form, for people.
    pub fn long(&self) -> LongPhase {
        LongPhase(*self)
    }
    /// `S1901M` → a phase: `S`, `F` or `W`, the year, `M`, `R` or `A`, in
    /// any case (`W` goes only with `A`). `None` for anything else.
    pub fn parse_short(text: &str) -> Option<Phase> {
        Phase::parse_short_as(text, PhaseCase::Any)
    }
    /// [`Phase::parse_short`] with a rule for letters and spaces: MILA's
    /// games name phases in capitals only ([`PhaseCase::Upper`]).
    pub fn parse_short_as(text: &str, case: PhaseCase) -> Option<Phase> {
        let t = match case {
            PhaseCase::Any => text.trim(),
            PhaseCase::Upper => text,
        };
        let b = t.as_bytes();
        if b.len() < 3 || !b[0].is_ascii_alphabetic() || !b[b.len() - 1].is_ascii_alphabetic() {
            return None;
        }
        let digits = t.get(1..t.len() - 1)?;
        if case == PhaseCase::Upper && digits.bytes().any(|c| c.is_ascii_whitespace()) {
            return None;
        }
        let year = parse_year(digits).ok()?;
        let (first, last) = match case {
            PhaseCase::Any => (b[0].to_ascii_uppercase(), b[b.len() - 1].to_ascii_uppercase()),
            PhaseCase::Upper => (b[0], b[b.len() - 1]),
        };
        let (season, kind) = match (first, last) {
            (b'S', b'M') => (Season::Spring, PhaseKind::Movement),
            (b'S', b'R') => (Season::Spring, PhaseKind::Retreat),
            (b'F', b'M') => (Season::Fall, PhaseKind::Movement),
            (b'F', b'R') => (Season::Fall, PhaseKind::Retreat),
            (b'W', b'A') => (Season::Fall, PhaseKind::Adjustment),
            _ => return None,
        };
        Some(Phase::new(year, season, kind))
    }
    /// `spring 1901 movement`, `Fall 1901, Retreat`, `winter 1901`: words
    /// in any order and case, `movement` when no kind is named (`winter`
    /// alone is the adjustment phase). A phase the short form cannot
    /// write is none: adjustments come in winter (or fall), and winter
    /// has no movement or retreat.
    pub fn parse_long(text: &str) -> Result<Phase, String> {
        let mut season = None;
        let mut winter = false;
        let mut year = None;
        let mut kind = None;
        for w in text.split(|c: char| c.is_whitespace() || c == ',') {
            match w.to_ascii_lowercase().as_str() {
                "" => {}
                "spring" => season = Some(Season::Spring),
                "fall" | "autumn" => season = Some(Season::Fall),
                "winter" => {
                    season = Some(Season::Fall);
                    winter = true;
                }
                "movement" | "moves" => kind = Some(PhaseKind::Movement),
                "retreat" | "retreats" => kind = Some(PhaseKind::Retreat),
                "adjustment" | "adjustments" | "builds" | "build" => kind = Some(PhaseKind::Adjustment),
                // Every reader's range: a variant may start before year 0.
                other if other.trim_start_matches('-').chars().all(|c| c.is_ascii_digit()) && other != "-" => {
                    year = Some(parse_year(other)?)
                }
                _ => {
                    // What could still come, in the order files write it.
                    let wanted: Vec<&str> = [
                        (year.is_none(), "a year"),
                        (season.is_none(), "a season (spring, fall or winter)"),
                        (kind.is_none(), "a kind (movement, retreat or adjustment)"),
                    ]
                    .into_iter()
                    .filter_map(|(w, what)| w.then_some(what))
                    .collect();
                    let wanted = match wanted.split_last() {
                        Some((last, [])) => last.to_string(),
                        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
                        None => "nothing more".to_string(),
                    };
                    return Err(format!(
                        "expected {wanted} in the phase, found `{w}` (e.g. `spring 1901 movement`)"
                    ));
                }
            }
        }
        let year = year.ok_or("no year in the phase")?;
        let season = season.ok_or("no season (spring, fall or winter) in the phase")?;
        let kind = match (winter, season, kind) {
            (true, _, None | Some(PhaseKind::Adjustment)) => PhaseKind::Adjustment,
            (true, _, Some(_)) => return Err("winter has only the adjustment phase".into()),
            (false, Season::Spring, Some(PhaseKind::Adjustment)) => {
                return Err("adjustments come in winter, not spring".into())
            }
            (false, _, k) => k.unwrap_or(PhaseKind::Movement),
        };
        Ok(Phase::new(year, season, kind))
    }
}

/// How [`Phase::parse_short_as`] takes letters: in any case, around
/// spaces (dip's files, the command line), or in capitals and exactly as
/// written (MILA's `S1901M`; `s1901m` is no phase there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhaseCase {
    Any,
    Upper,
}

/// `S1901M`.
impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = match (self.season, self.kind) {
            (_, PhaseKind::Adjustment) => 'W',
            (Season::Spring, _) => 'S',
            (Season::Fall, _) => 'F',
        };
        let k = match self.kind {
            PhaseKind::Movement => 'M',
            PhaseKind::Retreat => 'R',
            PhaseKind::Adjustment => 'A',
        };
        write!(f, "{s}{}{k}", self.year)
    }
}

/// The short form (`S1901M`, any case) or a long one (`spring 1901
/// movement`).
impl std::str::FromStr for Phase {
    type Err = String;
    fn from_str(text: &str) -> Result<Phase, String> {
        match Phase::parse_short(text) {
            Some(p) => Ok(p),
            None => Phase::parse_long(text),
        }
    }
}

/// A phase's long form, `Spring 1901 movement` ([`Phase::long`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LongPhase(pub Phase);

impl std::fmt::Display for LongPhase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = match self.0.season {
            Season::Spring => "Spring",
            Season::Fall => "Fall",
        };
        let k = match self.0.kind {
            PhaseKind::Movement => "movement",
            PhaseKind::Retreat => "retreat",
            PhaseKind::Adjustment => "adjustment",
        };
        write!(f, "{s} {} {k}", self.0.year)
    }
}

/// A unit on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    pub power: PowerId,
    pub kind: UnitTypeId,
    pub region: RegionId,
}

/// A unit dislodged in the movement phase, waiting to retreat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dislodged {
    pub unit: Unit,
    /// The province the attacker came from.
    pub attacker_from: ProvinceId,
    /// The attacker came by convoy.
    pub by_convoy: bool,
}

/// A complete position. Units are indexed by province: one unit a province.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub phase: Phase,
    units: Vec<Option<Unit>>,
    dislodged: Vec<Option<Dislodged>>,
    owners: Vec<Option<PowerId>>,
    /// Provinces left empty by a standoff: closed to retreats.
    pub standoffs: BitSet,
}

impl State {
    /// An empty board for `map`.
    pub fn empty(map: &Map, phase: Phase) -> Self {
        let n = map.num_provinces();
        State {
            phase,
            units: vec![None; n],
            dislodged: vec![None; n],
            owners: vec![None; n],
            standoffs: BitSet::with_capacity(n),
        }
    }
    pub fn num_provinces(&self) -> usize {
        self.units.len()
    }
    pub fn unit(&self, p: ProvinceId) -> Option<Unit> {
        self.units.get(p.index()).copied().flatten()
    }
    /// Places a unit; the province is taken from its region.
    pub fn place(&mut self, map: &Map, unit: Unit) {
        let p = map.province_of(unit.region);
        if let Some(slot) = self.units.get_mut(p.index()) {
            *slot = Some(unit);
        }
    }
    pub fn remove(&mut self, p: ProvinceId) -> Option<Unit> {
        self.units.get_mut(p.index()).and_then(Option::take)
    }
    /// The units, one entry per province (`None`: empty), for passes over
    /// the whole board that need no province ids.
    pub(crate) fn unit_entries(&self) -> &[Option<Unit>] {
        &self.units
    }
    pub fn units(&self) -> impl Iterator<Item = (ProvinceId, Unit)> + '_ {
        self.units
            .iter()
            .enumerate()
            .filter_map(|(i, u)| u.map(|u| (ProvinceId(i as u16), u)))
    }
    pub fn dislodged(&self, p: ProvinceId) -> Option<Dislodged> {
        self.dislodged.get(p.index()).copied().flatten()
    }
    pub fn set_dislodged(&mut self, map: &Map, d: Dislodged) {
        let p = map.province_of(d.unit.region);
        if let Some(slot) = self.dislodged.get_mut(p.index()) {
            *slot = Some(d);
        }
    }
    pub fn take_dislodged(&mut self, p: ProvinceId) -> Option<Dislodged> {
        self.dislodged.get_mut(p.index()).and_then(Option::take)
    }
    pub fn all_dislodged(&self) -> impl Iterator<Item = (ProvinceId, Dislodged)> + '_ {
        self.dislodged
            .iter()
            .enumerate()
            .filter_map(|(i, d)| d.map(|d| (ProvinceId(i as u16), d)))
    }
    pub fn clear_dislodged(&mut self) {
        self.dislodged.iter_mut().for_each(|d| *d = None);
        self.standoffs.clear();
    }
    pub fn owner(&self, p: ProvinceId) -> Option<PowerId> {
        self.owners.get(p.index()).copied().flatten()
    }
    pub fn set_owner(&mut self, p: ProvinceId, owner: Option<PowerId>) {
        if let Some(slot) = self.owners.get_mut(p.index()) {
            *slot = owner;
        }
    }
    /// Supply centres owned by `power`.
    pub fn centers_of<'a>(&'a self, map: &'a Map, power: PowerId) -> impl Iterator<Item = ProvinceId> + 'a {
        map.supply_centers()
            .iter()
            .copied()
            .filter(move |&p| self.owner(p) == Some(power))
    }
    pub fn center_count(&self, map: &Map, power: PowerId) -> usize {
        self.centers_of(map, power).count()
    }
    /// Upkeep of `power`'s units (each unit type's cost).
    pub fn upkeep(&self, map: &Map, power: PowerId) -> usize {
        self.units()
            .filter(|(_, u)| u.power == power)
            .map(|(_, u)| map.unit_type(u.kind).cost as usize)
            .sum()
    }
    /// Every home centre owned by its home power.
    pub fn own_home_centers(&mut self, map: &Map) {
        for &sc in map.supply_centers() {
            let prov = map.province(sc);
            let mut homes = prov.homes.iter();
            if let (Some(h), None) = (homes.next(), homes.next()) {
                self.set_owner(sc, Some(h));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn years_beyond_the_range_are_refused_not_wrapped() {
        assert_eq!(parse_year("1901"), Ok(1901));
        assert_eq!(parse_year("-50"), Ok(-50));
        assert_eq!(parse_year(" 1000000 "), Ok(MAX_YEAR));
        for bad in ["2147483647", "99999999999", "-2147483648", "1000001"] {
            assert!(parse_year(bad).unwrap_err().contains("out of range"), "{bad}");
        }
        for bad in ["", "-", "19o1", "+1901"] {
            assert!(parse_year(bad).unwrap_err().contains("expected a year"), "{bad}");
        }
    }

    #[test]
    fn phase_names_read_back_in_every_form() {
        for year in [1, 12, 1901, -50, MAX_YEAR, -MAX_YEAR] {
            for (season, kind) in [
                (Season::Spring, PhaseKind::Movement),
                (Season::Spring, PhaseKind::Retreat),
                (Season::Fall, PhaseKind::Movement),
                (Season::Fall, PhaseKind::Retreat),
                (Season::Fall, PhaseKind::Adjustment),
            ] {
                let p = Phase::new(year, season, kind);
                assert_eq!(p.to_string().parse::<Phase>(), Ok(p));
                assert_eq!(p.to_string().to_ascii_lowercase().parse::<Phase>(), Ok(p));
                assert_eq!(p.long().to_string().parse::<Phase>(), Ok(p));
            }
        }
        assert_eq!("S0001M".parse::<Phase>(), "S1M".parse::<Phase>());
        assert_eq!(
            "WINTER 1901 ADJUSTMENTS".parse::<Phase>().unwrap().to_string(),
            "W1901A"
        );
        for bad in [
            "",
            "S",
            "SM",
            "S-M",
            "SXM",
            "S1X",
            "X1M",
            "W1901M",
            "S1901A",
            "S2147483647M",
        ] {
            assert!(bad.parse::<Phase>().is_err(), "{bad}");
        }
    }

    #[test]
    fn spring_adjustments_and_winter_movement_are_no_phase() {
        // Read before as phases `Display` cannot write back: spring
        // adjustments printed `W1901A`, which reads as fall's, and
        // `winter 1901 movement` was fall's movement.
        for bad in [
            "spring 1901 adjustment",
            "Spring 1901 builds",
            "winter 1901 movement",
            "winter 1901 retreat",
            "retreat winter 1901",
        ] {
            assert!(bad.parse::<Phase>().is_err(), "{bad}");
        }
        for (ok, short) in [
            ("winter 1901", "W1901A"),
            ("winter 1901 adjustment", "W1901A"),
            ("adjustments, winter, 1901", "W1901A"),
            ("fall 1901 adjustments", "W1901A"),
            ("1901 fall retreat", "F1901R"),
            ("1901 autumn", "F1901M"),
        ] {
            assert_eq!(ok.parse::<Phase>().map(|p| p.to_string()).as_deref(), Ok(short), "{ok}");
        }
        // The error says what could still come and what came instead.
        for (bad, says) in [
            ("1901 Summer", "expected a season (spring, fall or winter) or a kind"),
            ("MCM spring", "expected a year, a season"),
            (
                "spring 1901 movement again",
                "expected nothing more in the phase, found `again`",
            ),
        ] {
            let e = bad.parse::<Phase>().unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn capitals_only_reads_what_any_case_reads_in_capitals_and_nothing_else() {
        for year in [1, 12, 1901, -50, MAX_YEAR] {
            for kind in [PhaseKind::Movement, PhaseKind::Retreat, PhaseKind::Adjustment] {
                let p = Phase::new(year, Season::Fall, kind);
                let upper = p.to_string();
                assert_eq!(Phase::parse_short_as(&upper, PhaseCase::Upper), Some(p));
                // MILA's four digits.
                let mila = format!("{}{:04}{}", &upper[..1], year, &upper[upper.len() - 1..]);
                assert_eq!(Phase::parse_short_as(&mila, PhaseCase::Upper), Some(p), "{mila}");
                for other in [upper.to_ascii_lowercase(), format!(" {upper}"), format!("{upper} ")] {
                    assert_eq!(Phase::parse_short_as(&other, PhaseCase::Upper), None, "{other:?}");
                    assert_eq!(Phase::parse_short_as(&other, PhaseCase::Any), Some(p), "{other:?}");
                }
            }
        }
        for bad in ["S 1901M", "f1901M", "F1901m", "S+1901M", "W1901M", "S1901A"] {
            assert_eq!(Phase::parse_short_as(bad, PhaseCase::Upper), None, "{bad}");
        }
    }
}
