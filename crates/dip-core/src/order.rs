//! Orders as given by players: ids only, but not yet checked against a position.

use crate::ids::{PowerId, ProvinceId, RegionId, UnitTypeId};
use crate::map::Map;

/// A coast as written in an order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CoastSpec {
    /// No coast written.
    #[default]
    None,
    /// A coast of the province.
    Coast(RegionId),
    /// A coast the province does not have ("Spain west coast").
    Unknown,
}

/// A unit as named in an order: `F stp/sc`, `A ber`, `ber`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnitRef {
    /// The unit type written, if any.
    pub kind: Option<UnitTypeId>,
    pub province: ProvinceId,
    pub coast: CoastSpec,
}

impl UnitRef {
    pub fn new(kind: Option<UnitTypeId>, province: ProvinceId) -> Self {
        UnitRef {
            kind,
            province,
            coast: CoastSpec::None,
        }
    }
    pub fn with_coast(mut self, coast: CoastSpec) -> Self {
        self.coast = coast;
        self
    }
}

/// A destination: a province and maybe a coast.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dest {
    pub province: ProvinceId,
    pub coast: CoastSpec,
}

impl Dest {
    pub fn new(province: ProvinceId) -> Self {
        Dest {
            province,
            coast: CoastSpec::None,
        }
    }
    pub fn coast(province: ProvinceId, coast: RegionId) -> Self {
        Dest {
            province,
            coast: CoastSpec::Coast(coast),
        }
    }
}

/// What a power orders. One enum for all phases: the phase decides what is legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OrderKind {
    Hold(UnitRef),
    /// `via_convoy`: the player asked for the convoy route.
    Move(UnitRef, Dest, bool),
    SupportHold(UnitRef, UnitRef),
    SupportMove(UnitRef, UnitRef, Dest),
    Convoy(UnitRef, UnitRef, Dest),
    Retreat(UnitRef, Dest),
    Disband(UnitRef),
    Build(UnitRef),
    Waive,
}

impl OrderKind {
    /// The unit the order is given to (for a build: the unit to build), a
    /// waive none; known before the order has a power.
    pub fn unit(&self) -> Option<UnitRef> {
        match *self {
            OrderKind::Hold(u)
            | OrderKind::Move(u, ..)
            | OrderKind::SupportHold(u, _)
            | OrderKind::SupportMove(u, ..)
            | OrderKind::Convoy(u, ..)
            | OrderKind::Retreat(u, _)
            | OrderKind::Disband(u)
            | OrderKind::Build(u) => Some(u),
            OrderKind::Waive => None,
        }
    }
}

/// An order of one power.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Order {
    pub power: PowerId,
    pub kind: OrderKind,
}

impl Order {
    pub fn new(power: PowerId, kind: OrderKind) -> Self {
        Order { power, kind }
    }
    /// The unit the order is given to (for a build: the unit to build).
    pub fn unit(&self) -> Option<UnitRef> {
        self.kind.unit()
    }
    /// Short DATC-style text with map abbreviations, e.g. `A ber - sil`.
    pub fn to_short_string(&self, map: &Map) -> String {
        let unit = |u: &UnitRef| {
            let mut s = String::new();
            if let Some(k) = u.kind {
                s.push(map.unit_type(k).letter);
                s.push(' ');
            }
            s.push_str(&place(map, u.province, u.coast));
            s
        };
        let dest = |d: &Dest| place(map, d.province, d.coast);
        match &self.kind {
            OrderKind::Hold(u) => format!("{} H", unit(u)),
            OrderKind::Move(u, d, via) => {
                format!("{} - {}{}", unit(u), dest(d), if *via { " via convoy" } else { "" })
            }
            OrderKind::SupportHold(u, t) => format!("{} S {}", unit(u), unit(t)),
            OrderKind::SupportMove(u, t, d) => format!("{} S {} - {}", unit(u), unit(t), dest(d)),
            OrderKind::Convoy(u, t, d) => format!("{} C {} - {}", unit(u), unit(t), dest(d)),
            OrderKind::Retreat(u, d) => format!("{} R {}", unit(u), dest(d)),
            OrderKind::Disband(u) => format!("{} D", unit(u)),
            OrderKind::Build(u) => format!("build {}", unit(u)),
            OrderKind::Waive => "waive".into(),
        }
    }
}

fn place(map: &Map, p: ProvinceId, c: CoastSpec) -> String {
    match c {
        CoastSpec::None => map.province(p).abbr.clone(),
        CoastSpec::Coast(r) => map.region_name(r),
        CoastSpec::Unknown => format!("{}/?", map.province(p).abbr),
    }
}
