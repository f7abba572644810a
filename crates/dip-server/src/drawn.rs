//! Orders as the page draws them (`assets/draw.js`): which region the
//! ordered unit stands in, which unit it supports or convoys and where it
//! goes, by region name (`par`, `stp/sc`), the names the map's geometry
//! uses. The legal orders, the reading of a player's lines and a phase's
//! results all carry this form.

use dip_core::{CoastSpec, Dest, Map, Order, OrderKind, PhaseKind, RegionId, State, UnitRef};
use serde_json::{json, Value as Json};

/// The region where the unit an order names stands: the dislodged unit in
/// a retreat phase, else the unit in the province, else what the order
/// wrote (a build's coast).
fn unit_region(map: &Map, state: &State, u: &UnitRef) -> RegionId {
    if state.phase.kind == PhaseKind::Retreat {
        if let Some(d) = state.dislodged(u.province) {
            return d.unit.region;
        }
    }
    if let Some(unit) = state.unit(u.province) {
        return unit.region;
    }
    match u.coast {
        CoastSpec::Coast(r) => r,
        _ => map.main_region(u.province),
    }
}

fn dest(map: &Map, d: &Dest) -> String {
    match d.coast {
        CoastSpec::Coast(r) => map.region_name(r),
        _ => map.province(d.province).abbr.clone(),
    }
}

/// The letter of the ordered unit's type, where known.
fn unit_letter(map: &Map, state: &State, u: &UnitRef) -> Option<String> {
    let standing = if state.phase.kind == PhaseKind::Retreat {
        state.dislodged(u.province).map(|d| d.unit.kind)
    } else {
        state.unit(u.province).map(|u| u.kind)
    };
    standing
        .or(u.kind)
        .map(|k| map.unit_type(k).letter.to_ascii_uppercase().to_string())
}

/// One order to draw: `{power, kind, unit, at, target_at, dest, via}`;
/// `dest` is null for a hold, a support to hold, a disband, a build.
pub fn order(map: &Map, state: &State, o: &Order) -> Json {
    let at = |u: &UnitRef| map.region_name(unit_region(map, state, u));
    let (kind, unit, target, to, via) = match &o.kind {
        OrderKind::Hold(u) => ("hold", Some(u), None, None, false),
        OrderKind::Move(u, d, via) => ("move", Some(u), None, Some(d), *via),
        OrderKind::SupportHold(u, t) => ("support", Some(u), Some(t), None, false),
        OrderKind::SupportMove(u, t, d) => ("support", Some(u), Some(t), Some(d), false),
        OrderKind::Convoy(u, t, d) => ("convoy", Some(u), Some(t), Some(d), false),
        OrderKind::Retreat(u, d) => ("retreat", Some(u), None, Some(d), false),
        OrderKind::Disband(u) => ("disband", Some(u), None, None, false),
        OrderKind::Build(u) => ("build", Some(u), None, None, false),
        OrderKind::Waive => ("waive", None, None, None, false),
    };
    json!({
        "power": map.power(o.power).name,
        "kind": kind,
        "unit": unit.and_then(|u| unit_letter(map, state, u)),
        "at": unit.map(at),
        "target_at": target.map(at),
        "dest": to.map(|d| dest(map, d)),
        "via": via,
    })
}
