//! The `border-rule` line of the native format (docs/variant-format.md): a
//! rule of a province's borders by names, read and written. The rule itself
//! is dip-core's [`BorderRule`]; jDip's `BORDER`s become these.

use dip_core::border_rule::{phase_bit, season_bit, BorderRule, OrderClass, Years};
use dip_core::{Map, PhaseKind, Season};

use crate::model::Src;

/// A border rule by names (see [`BorderRule`] for what it means).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MBorderRule {
    pub province: String,
    pub from: Vec<String>,
    /// Unit type letters; empty: every type.
    pub units: Vec<char>,
    /// Empty: every order.
    pub orders: Vec<OrderClass>,
    /// Empty: every season.
    pub seasons: Vec<Season>,
    /// Empty: every phase.
    pub phases: Vec<PhaseKind>,
    pub years: Years,
    pub strength: i8,
    pub src: Src,
}

/// The options the `border-rule` line takes.
pub(crate) const OPTIONS: &[&str] = &["from", "units", "orders", "seasons", "phases", "years", "strength"];

pub(crate) fn season_name(s: Season) -> &'static str {
    match s {
        Season::Spring => "spring",
        Season::Fall => "fall",
    }
}

pub(crate) fn phase_name(k: PhaseKind) -> &'static str {
    match k {
        PhaseKind::Movement => "movement",
        PhaseKind::Retreat => "retreat",
        PhaseKind::Adjustment => "adjustment",
    }
}

/// `1914..9999`, `1914`, `odd`, `even`; `None` for every year.
pub(crate) fn years_text(y: Years) -> Option<String> {
    match y {
        Years::Any => None,
        Years::Between(a, b) if a == b => Some(a.to_string()),
        Years::Between(a, b) => Some(format!("{a}..{b}")),
        Years::Odd => Some("odd".into()),
        Years::Even => Some("even".into()),
    }
}

impl MBorderRule {
    /// The line of the native format.
    pub fn to_line(&self) -> String {
        let mut t = format!("border-rule {}", self.province);
        let mut opt = |k: &str, v: Vec<String>| {
            if !v.is_empty() {
                t.push_str(&format!(" {k}={}", v.join(",")));
            }
        };
        opt("from", self.from.clone());
        opt("units", self.units.iter().map(|c| c.to_string()).collect());
        opt("orders", self.orders.iter().map(|o| o.name().to_string()).collect());
        opt(
            "seasons",
            self.seasons.iter().map(|s| season_name(*s).to_string()).collect(),
        );
        opt(
            "phases",
            self.phases.iter().map(|k| phase_name(*k).to_string()).collect(),
        );
        opt("years", years_text(self.years).into_iter().collect());
        if self.strength != 0 {
            t.push_str(&format!(" strength={}", self.strength));
        }
        t
    }

    /// A map's rule by names.
    pub fn from_rule(map: &Map, r: &BorderRule) -> MBorderRule {
        let abbr = |p: dip_core::ProvinceId| map.province(p).abbr.clone();
        MBorderRule {
            province: abbr(r.province),
            from: r.from.iter().map(|&p| abbr(p)).collect(),
            units: map
                .unit_type_ids()
                .filter(|u| r.unit_types & (1 << u.0) != 0)
                .map(|u| map.unit_type(u).letter)
                .collect(),
            orders: OrderClass::ALL
                .into_iter()
                .filter(|o| r.orders & o.bit() != 0)
                .collect(),
            seasons: [Season::Spring, Season::Fall]
                .into_iter()
                .filter(|s| r.seasons & season_bit(*s) != 0)
                .collect(),
            phases: [PhaseKind::Movement, PhaseKind::Retreat, PhaseKind::Adjustment]
                .into_iter()
                .filter(|k| r.phases & phase_bit(*k) != 0)
                .collect(),
            years: r.years,
            strength: r.strength,
            src: (0, 0),
        }
    }
}

/// `spring,fall` as season bits.
pub(crate) fn parse_seasons(v: &str) -> Result<u8, String> {
    let mut bits = 0;
    for w in v.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        bits |= match w.to_ascii_lowercase().as_str() {
            "spring" => season_bit(Season::Spring),
            "fall" | "autumn" => season_bit(Season::Fall),
            _ => return Err(format!("unknown season `{w}` in `seasons=` (expected spring or fall)")),
        };
    }
    Ok(bits)
}

/// `movement,retreat` as phase bits.
pub(crate) fn parse_phases(v: &str) -> Result<u8, String> {
    let mut bits = 0;
    for w in v.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        bits |= match w.to_ascii_lowercase().as_str() {
            "movement" => phase_bit(PhaseKind::Movement),
            "retreat" => phase_bit(PhaseKind::Retreat),
            "adjustment" => phase_bit(PhaseKind::Adjustment),
            _ => {
                return Err(format!(
                    "unknown phase `{w}` in `phases=` (expected movement, retreat or adjustment)"
                ))
            }
        };
    }
    Ok(bits)
}

/// `move,support` as order class bits.
pub(crate) fn parse_orders(v: &str) -> Result<u8, String> {
    let mut bits = 0;
    for w in v.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        let c = OrderClass::parse(w).ok_or_else(|| {
            format!("unknown order `{w}` in `orders=` (expected hold, move, support, convoy, retreat or build)")
        })?;
        bits |= c.bit();
    }
    Ok(bits)
}

/// `1914..9999`, `1914`, `odd`, `even`.
pub(crate) fn parse_years(v: &str) -> Result<Years, String> {
    let bad = || format!("expected `years=FIRST..LAST`, `years=YEAR`, `years=odd` or `years=even`, found `{v}`");
    let t = v.trim().to_ascii_lowercase();
    match t.as_str() {
        "odd" => return Ok(Years::Odd),
        "even" => return Ok(Years::Even),
        _ => {}
    }
    let (a, b) = match t.split_once("..") {
        Some((a, b)) => (a.trim(), b.trim()),
        None => (t.as_str(), t.as_str()),
    };
    let a: i32 = a.parse().map_err(|_| bad())?;
    let b: i32 = b.parse().map_err(|_| bad())?;
    if a > b {
        return Err(format!("`years={v}`: the first year is after the last"));
    }
    Ok(Years::Between(a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn years_read_back() {
        for y in [
            Years::Odd,
            Years::Even,
            Years::Between(1914, 1914),
            Years::Between(-9999, 1914),
        ] {
            assert_eq!(parse_years(&years_text(y).unwrap()), Ok(y));
        }
        assert!(parse_years("1920..1910").is_err());
        assert!(parse_years("soon").is_err());
    }
}
