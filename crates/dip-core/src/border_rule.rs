//! Border rules: a province's borders that close in some seasons, phases or
//! years, to some unit types or some orders (ice in the fall, DATC 2.4
//! section 8; jDip's `BORDER`), and borders that change the strength of a
//! move across them (the difficult passable borders of section 10).
//!
//! A rule is data of the [`Map`](crate::Map); the engine asks
//! [`Map::closed`](crate::Map::closed) and
//! [`Map::strength_change`](crate::Map::strength_change) and never names a
//! variant.

use crate::ids::{ProvinceId, UnitTypeId};
use crate::state::{Phase, PhaseKind, Season};

/// What an order does, as border rules tell orders apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OrderClass {
    Hold,
    Move,
    Support,
    Convoy,
    Retreat,
    Build,
}

impl OrderClass {
    pub const ALL: [OrderClass; 6] = [
        OrderClass::Hold,
        OrderClass::Move,
        OrderClass::Support,
        OrderClass::Convoy,
        OrderClass::Retreat,
        OrderClass::Build,
    ];
    pub fn bit(self) -> u8 {
        1 << self as u8
    }
    /// The word of variant files: `move`, `support`, ...
    pub fn name(self) -> &'static str {
        match self {
            OrderClass::Hold => "hold",
            OrderClass::Move => "move",
            OrderClass::Support => "support",
            OrderClass::Convoy => "convoy",
            OrderClass::Retreat => "retreat",
            OrderClass::Build => "build",
        }
    }
    pub fn parse(word: &str) -> Option<OrderClass> {
        OrderClass::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(word.trim()))
    }
}

/// The bit of a season in [`BorderRule::seasons`].
pub fn season_bit(s: Season) -> u8 {
    1 << s as u8
}

/// The bit of a phase kind in [`BorderRule::phases`].
pub fn phase_bit(k: PhaseKind) -> u8 {
    1 << k as u8
}

/// The years a rule holds in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Years {
    #[default]
    Any,
    /// From the first to the last year, both included.
    Between(i32, i32),
    Odd,
    Even,
}

impl Years {
    fn contains(self, year: i32) -> bool {
        match self {
            Years::Any => true,
            Years::Between(a, b) => a <= year && year <= b,
            Years::Odd => year.rem_euclid(2) == 1,
            Years::Even => year.rem_euclid(2) == 0,
        }
    }
}

/// One rule of one province's borders.
///
/// When every condition it gives holds (unit type, order, season, phase,
/// year), orders that cross the province's borders are refused: moves and
/// retreats into and out of it, supports and convoys by a unit there, of a
/// unit there, or into it. With `from`, the rule is about moves into the
/// province from those provinces only. A rule that gives no condition
/// refuses nothing. `strength` changes the strength of a move into the
/// province over the border from `from` (every border when empty); when it
/// is negative, support into the province from there cannot be given.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BorderRule {
    pub province: ProvinceId,
    pub from: Vec<ProvinceId>,
    /// Unit types it holds for, one bit per type; 0: every type.
    pub unit_types: u16,
    /// [`OrderClass`] bits; 0: every order.
    pub orders: u8,
    /// [`season_bit`]s; 0: every season.
    pub seasons: u8,
    /// [`phase_bit`]s; 0: every phase.
    pub phases: u8,
    pub years: Years,
    /// Added to the strength of a move over the border (never below 0).
    pub strength: i8,
}

impl BorderRule {
    /// Does the rule give any condition (and so close the border sometimes)?
    pub fn closes(&self) -> bool {
        self.unit_types != 0 || self.orders != 0 || self.seasons != 0 || self.phases != 0 || self.years != Years::Any
    }

    /// Does the rule refuse this order? `from`: where a move into the
    /// province comes from; `None` for every other look at the province.
    pub fn refuses(&self, from: Option<ProvinceId>, ut: UnitTypeId, class: OrderClass, phase: Phase) -> bool {
        if !self.from.is_empty() && !from.is_some_and(|f| self.from.contains(&f)) {
            return false;
        }
        self.closes()
            && (self.unit_types == 0 || self.unit_types & (1 << ut.0) != 0)
            && (self.orders == 0 || self.orders & class.bit() != 0)
            && (self.seasons == 0 || self.seasons & season_bit(phase.season) != 0)
            && (self.phases == 0 || self.phases & phase_bit(phase.kind) != 0)
            && self.years.contains(phase.year)
    }

    /// The strength change of a move from `from` into the province.
    pub fn change_from(&self, from: ProvinceId) -> i8 {
        if self.from.is_empty() || self.from.contains(&from) {
            self.strength
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn phase(year: i32, season: Season, kind: PhaseKind) -> Phase {
        Phase::new(year, season, kind)
    }

    #[test]
    fn a_rule_without_conditions_refuses_nothing() {
        let r = BorderRule {
            from: vec![ProvinceId(3)],
            strength: -1,
            ..Default::default()
        };
        let p = phase(1901, Season::Fall, PhaseKind::Movement);
        assert!(!r.refuses(Some(ProvinceId(3)), UnitTypeId(0), OrderClass::Move, p));
        assert_eq!(r.change_from(ProvinceId(3)), -1);
        assert_eq!(r.change_from(ProvinceId(4)), 0);
    }

    #[test]
    fn every_condition_must_hold() {
        let r = BorderRule {
            seasons: season_bit(Season::Fall),
            phases: phase_bit(PhaseKind::Movement),
            years: Years::Even,
            ..Default::default()
        };
        let ut = UnitTypeId(1);
        assert!(r.refuses(
            None,
            ut,
            OrderClass::Move,
            phase(1900, Season::Fall, PhaseKind::Movement)
        ));
        assert!(!r.refuses(
            None,
            ut,
            OrderClass::Move,
            phase(1901, Season::Fall, PhaseKind::Movement)
        ));
        assert!(!r.refuses(
            None,
            ut,
            OrderClass::Move,
            phase(1900, Season::Spring, PhaseKind::Movement)
        ));
        assert!(!r.refuses(
            None,
            ut,
            OrderClass::Retreat,
            phase(1900, Season::Fall, PhaseKind::Retreat)
        ));
    }

    #[test]
    fn from_limits_the_rule_to_moves_from_there() {
        let r = BorderRule {
            from: vec![ProvinceId(7)],
            seasons: season_bit(Season::Spring),
            ..Default::default()
        };
        let p = phase(1900, Season::Spring, PhaseKind::Movement);
        assert!(r.refuses(Some(ProvinceId(7)), UnitTypeId(0), OrderClass::Move, p));
        assert!(!r.refuses(Some(ProvinceId(8)), UnitTypeId(0), OrderClass::Move, p));
        assert!(!r.refuses(None, UnitTypeId(0), OrderClass::Support, p));
    }

    #[test]
    fn years_before_christ_are_odd_and_even_too() {
        assert!(Years::Odd.contains(-501));
        assert!(Years::Even.contains(-500));
        assert!(Years::Between(-9999, 1914).contains(1000));
        assert!(!Years::Between(1914, 9999).contains(1000));
    }
}
