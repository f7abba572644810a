//! Names as DipWork's files and reports print them: the variant's own. A
//! province is its abbreviation with a capital first letter (`Lvp`, and a
//! DipWork variant's `Lpl`, `MID` as its FIELDS.TXT writes them); a coast
//! is its own name where the variant has one (DipWork's subfields `PeS`,
//! `SpN`), else the province and the coast (`Stp/sc`).

use dip_core::{Map, ProvinceId, RegionId};

/// `Lvp`, `MID`.
pub fn province(map: &Map, p: ProvinceId) -> String {
    let a = &map.province(p).abbr;
    let mut c = a.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// `PeS` (the coast's own name), `Stp/sc`, `Lvp`.
pub fn region(map: &Map, r: RegionId) -> String {
    let reg = map.region(r);
    if let Some(n) = &reg.name {
        return n.clone();
    }
    let base = province(map, reg.province);
    match &reg.coast {
        Some(c) => format!("{base}/{c}"),
        None => base,
    }
}
