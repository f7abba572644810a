//! Where things go: a region's and a province's point, a unit's point and
//! the place beside it for a dislodged unit.

use super::*;

impl<'a> Picture<'a> {
    pub fn map(&self) -> &Map {
        &self.variant.map
    }

    /// Width and height of the whole picture at scale 1.
    pub fn size(&self, opts: &Options) -> (f32, f32) {
        let w = self.shapes.width as f32 + if opts.panel { PANEL_W } else { 0.0 };
        (w, self.shapes.height as f32 + TITLE_H)
    }

    /// Where a unit in this region is drawn.
    pub fn region_point(&self, r: RegionId) -> (f32, f32) {
        self.region_points.get(r.index()).copied().unwrap_or((0.0, 0.0))
    }

    /// Where `unit` is drawn: its region's point, or the region's own
    /// place for fleets (types that use coasts) where the map gives one.
    pub fn unit_at(&self, unit: &Unit) -> (f32, f32) {
        let fleet = self
            .map()
            .unit_types()
            .get(unit.kind.index())
            .is_some_and(|t| t.uses_coasts);
        match self.fleet_points.get(unit.region.index()).copied().flatten() {
            Some(at) if fleet => at,
            _ => self.region_point(unit.region),
        }
    }

    /// Where a dislodged `unit` is drawn: beside the unit that took its
    /// place, on the first side of [`ASIDE`] where its icon covers no unit
    /// of another province, else where it comes nearest to that.
    pub fn aside(&self, unit: &Unit) -> (f32, f32) {
        let map = self.map();
        let own = map.province_of(unit.region);
        let (x, y) = self.unit_at(unit);
        // Where the units of the other provinces stand (armies and fleets).
        let others: Vec<(f32, f32)> = map
            .regions()
            .iter()
            .enumerate()
            .filter(|(_, r)| r.province != own)
            .flat_map(|(k, _)| {
                [
                    Some(self.region_point(RegionId(k as u16))),
                    self.fleet_points.get(k).copied().flatten(),
                ]
            })
            .flatten()
            .collect();
        // How far an icon at `c` is from covering another's: >= 0 when clear.
        let clearance = |(cx, cy): (f32, f32)| {
            others
                .iter()
                .map(|&(ox, oy)| ((cx - ox).abs() - ICON.0).max((cy - oy).abs() - ICON.1))
                .fold(f32::INFINITY, f32::min)
        };
        let mut best = (f32::NEG_INFINITY, (x + ASIDE[0].0, y + ASIDE[0].1));
        for (dx, dy) in ASIDE {
            let at = (x + dx, y + dy);
            let c = clearance(at);
            if c >= 0.0 {
                return at;
            }
            if c > best.0 {
                best = (c, at);
            }
        }
        best.1
    }

    pub fn province_point(&self, p: ProvinceId) -> (f32, f32) {
        self.points.get(p.index()).copied().unwrap_or((0.0, 0.0))
    }
}

/// Where a dislodged unit may be drawn, from the unit that took its place,
/// in the order tried: far enough that both icons (28 × 22 units) are
/// in sight and can be clicked, below and to the right first.
pub const ASIDE: [(f32, f32); 6] = [
    (25.0, 12.0),
    (-25.0, 12.0),
    (25.0, -12.0),
    (-25.0, -12.0),
    (0.0, 24.0),
    (0.0, -24.0),
];

/// A unit icon's width and height: two icons whose centres are closer
/// than this on both axes overlap.
pub const ICON: (f32, f32) = (28.0, 22.0);
