//! A line read elsewhere (a record's order, a MILA game's, a case's line,
//! a DipWork stage file's), written down as it was read: its number, its
//! text, its nation and order by the map's names, the notes its reading
//! made and the convoy path it wrote. Its text alone is not enough: read
//! again, it would be read in dip's syntax, not in the one that read it
//! (MILA's orders name no nation, a stage file's lines keep the orders
//! file's numbers).

use crate::stored::StoredError;
use dip_core::{CoastSpec, Dest, Map, OrderKind, PowerId, ProvinceId, RegionId, UnitRef, UnitTypeId};
use dip_text::{Code, Note, ReadLine, Scanned};
use serde::{Deserialize, Serialize};

/// One line as read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredLine {
    pub line: usize,
    pub text: String,
    /// The nation the line is for: named on it, by a header, or given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<String>,
    /// The nation named on the line itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub named: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<StoredKind>,
    /// Corrections and syntax errors of the reading.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<StoredNote>,
    /// The words after the unit were no order.
    #[serde(default, skip_serializing_if = "is_false")]
    pub press: bool,
    /// Where the order's unit starts on the line.
    pub column: usize,
    /// The convoy path written in a move (provinces by abbreviation).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub path: Vec<String>,
}

/// An order as read, not yet checked: every field as given.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StoredKind {
    Hold {
        unit: StoredUnit,
    },
    Move {
        unit: StoredUnit,
        to: StoredPlace,
        #[serde(default, skip_serializing_if = "is_false")]
        via: bool,
    },
    SupportHold {
        unit: StoredUnit,
        of: StoredUnit,
    },
    SupportMove {
        unit: StoredUnit,
        of: StoredUnit,
        to: StoredPlace,
    },
    Convoy {
        unit: StoredUnit,
        of: StoredUnit,
        to: StoredPlace,
    },
    Retreat {
        unit: StoredUnit,
        to: StoredPlace,
    },
    Disband {
        unit: StoredUnit,
    },
    Build {
        unit: StoredUnit,
    },
    Waive,
}

/// A unit as an order names it: its type (by name) if written, where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredUnit {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    pub province: String,
    #[serde(default, skip_serializing_if = "StoredCoast::is_none")]
    pub coast: StoredCoast,
}

/// A destination: a province (by abbreviation) and the coast written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredPlace {
    pub province: String,
    #[serde(default, skip_serializing_if = "StoredCoast::is_none")]
    pub coast: StoredCoast,
}

/// The coast written: none, a region (`stp/sc`), or one the province
/// does not have.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StoredCoast {
    #[default]
    None,
    Region(String),
    Unknown,
}

impl StoredCoast {
    fn is_none(&self) -> bool {
        *self == StoredCoast::None
    }
}

/// A note of the reading: its number, column and message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredNote {
    pub code: u16,
    pub column: usize,
    pub message: String,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// `line` written down with `map`'s names.
pub fn write_line(map: &Map, line: &ReadLine) -> StoredLine {
    let power = |p: PowerId| map.power(p).name.clone();
    let s = &line.scanned;
    StoredLine {
        line: line.line,
        text: line.text.clone(),
        power: line.power.map(power),
        named: s.power.map(power),
        order: s.order.as_ref().map(|k| write_kind(map, k)),
        notes: s
            .notes
            .iter()
            .map(|n| StoredNote {
                code: n.code.number(),
                column: n.column,
                message: n.message.clone(),
            })
            .collect(),
        press: s.press,
        column: s.column,
        path: s.path.iter().map(|&p| map.province(p).abbr.clone()).collect(),
    }
}

fn write_kind(map: &Map, kind: &OrderKind) -> StoredKind {
    let unit = |u: &UnitRef| StoredUnit {
        kind: u.kind.map(|k| map.unit_type(k).name.clone()),
        province: map.province(u.province).abbr.clone(),
        coast: write_coast(map, u.coast),
    };
    let place = |d: &Dest| StoredPlace {
        province: map.province(d.province).abbr.clone(),
        coast: write_coast(map, d.coast),
    };
    match kind {
        OrderKind::Hold(u) => StoredKind::Hold { unit: unit(u) },
        OrderKind::Move(u, d, via) => StoredKind::Move {
            unit: unit(u),
            to: place(d),
            via: *via,
        },
        OrderKind::SupportHold(u, t) => StoredKind::SupportHold {
            unit: unit(u),
            of: unit(t),
        },
        OrderKind::SupportMove(u, t, d) => StoredKind::SupportMove {
            unit: unit(u),
            of: unit(t),
            to: place(d),
        },
        OrderKind::Convoy(u, t, d) => StoredKind::Convoy {
            unit: unit(u),
            of: unit(t),
            to: place(d),
        },
        OrderKind::Retreat(u, d) => StoredKind::Retreat {
            unit: unit(u),
            to: place(d),
        },
        OrderKind::Disband(u) => StoredKind::Disband { unit: unit(u) },
        OrderKind::Build(u) => StoredKind::Build { unit: unit(u) },
        OrderKind::Waive => StoredKind::Waive,
    }
}

fn write_coast(map: &Map, c: CoastSpec) -> StoredCoast {
    match c {
        CoastSpec::None => StoredCoast::None,
        CoastSpec::Coast(r) => StoredCoast::Region(map.region_name(r)),
        CoastSpec::Unknown => StoredCoast::Unknown,
    }
}

/// The line read back on `map`; a name the map does not have is an error
/// naming the line.
pub fn read_line(map: &Map, stored: &StoredLine) -> Result<ReadLine, StoredError> {
    let at = |e: String| StoredError(format!("line {} `{}`: {e}", stored.line, stored.text));
    let power = |name: &Option<String>| name.as_deref().map(|n| power_named(map, n)).transpose();
    let notes = stored
        .notes
        .iter()
        .map(|n| {
            let code = Code::from_number(n.code).ok_or_else(|| format!("no note number {}", n.code))?;
            Ok(Note {
                code,
                column: n.column,
                message: n.message.clone(),
            })
        })
        .collect::<Result<Vec<_>, String>>()
        .map_err(at)?;
    let path = stored
        .path
        .iter()
        .map(|p| province(map, p))
        .collect::<Result<Vec<_>, String>>()
        .map_err(at)?;
    Ok(ReadLine {
        line: stored.line,
        text: stored.text.clone(),
        power: power(&stored.power).map_err(at)?,
        scanned: Scanned {
            power: power(&stored.named).map_err(at)?,
            order: stored
                .order
                .as_ref()
                .map(|k| read_kind(map, k))
                .transpose()
                .map_err(at)?,
            notes,
            press: stored.press,
            column: stored.column,
            path,
        },
    })
}

fn read_kind(map: &Map, kind: &StoredKind) -> Result<OrderKind, String> {
    let unit = |u: &StoredUnit| -> Result<UnitRef, String> {
        Ok(UnitRef {
            kind: u.kind.as_deref().map(|k| unit_type(map, k)).transpose()?,
            province: province(map, &u.province)?,
            coast: read_coast(map, &u.coast)?,
        })
    };
    let place = |d: &StoredPlace| -> Result<Dest, String> {
        Ok(Dest {
            province: province(map, &d.province)?,
            coast: read_coast(map, &d.coast)?,
        })
    };
    Ok(match kind {
        StoredKind::Hold { unit: u } => OrderKind::Hold(unit(u)?),
        StoredKind::Move { unit: u, to, via } => OrderKind::Move(unit(u)?, place(to)?, *via),
        StoredKind::SupportHold { unit: u, of } => OrderKind::SupportHold(unit(u)?, unit(of)?),
        StoredKind::SupportMove { unit: u, of, to } => OrderKind::SupportMove(unit(u)?, unit(of)?, place(to)?),
        StoredKind::Convoy { unit: u, of, to } => OrderKind::Convoy(unit(u)?, unit(of)?, place(to)?),
        StoredKind::Retreat { unit: u, to } => OrderKind::Retreat(unit(u)?, place(to)?),
        StoredKind::Disband { unit: u } => OrderKind::Disband(unit(u)?),
        StoredKind::Build { unit: u } => OrderKind::Build(unit(u)?),
        StoredKind::Waive => OrderKind::Waive,
    })
}

fn read_coast(map: &Map, c: &StoredCoast) -> Result<CoastSpec, String> {
    Ok(match c {
        StoredCoast::None => CoastSpec::None,
        StoredCoast::Unknown => CoastSpec::Unknown,
        StoredCoast::Region(name) => CoastSpec::Coast(
            (0..map.num_regions())
                .map(|i| RegionId(i as u16))
                .find(|&r| map.region_name(r) == *name)
                .ok_or_else(|| format!("no region `{name}` in {}", map.name))?,
        ),
    })
}

/// A province by its exact abbreviation.
fn province(map: &Map, abbr: &str) -> Result<ProvinceId, String> {
    map.province_ids()
        .find(|&p| map.province(p).abbr == abbr)
        .ok_or_else(|| format!("no province `{abbr}` in {}", map.name))
}

fn unit_type(map: &Map, name: &str) -> Result<UnitTypeId, String> {
    map.unit_type_ids()
        .find(|&k| map.unit_type(k).name == name)
        .ok_or_else(|| format!("no unit type `{name}` in {}", map.name))
}

/// A power by its exact name first (the stored form writes it so).
pub fn power_named(map: &Map, name: &str) -> Result<PowerId, String> {
    map.powers()
        .iter()
        .position(|p| p.name == name)
        .map(|i| PowerId(i as u8))
        .or_else(|| map.find_power(name))
        .ok_or_else(|| format!("no power `{name}` in {}", map.name))
}
