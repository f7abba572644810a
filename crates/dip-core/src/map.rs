//! The board: provinces, their regions (coasts), unit types and adjacency.
//!
//! A [`Map`] is built once from a [`MapBuilder`] and validated there, so that
//! the resolver can trust it: every id it hands out is in range.

pub use crate::border_rule::{BorderRule, OrderClass, Years};
use crate::ids::{BitSet, PowerId, PowerSet, ProvinceId, RegionId, UnitTypeId, MAX_POWERS, MAX_UNIT_TYPES};
use crate::state::Phase;

/// What a province is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Terrain {
    Land,
    Coast,
    Sea,
    Impassable,
}

impl Terrain {
    pub const ALL: [Terrain; 4] = [Terrain::Land, Terrain::Coast, Terrain::Sea, Terrain::Impassable];
    pub fn bit(self) -> u8 {
        1 << self as u8
    }
    pub fn name(self) -> &'static str {
        match self {
            Terrain::Land => "land",
            Terrain::Coast => "coast",
            Terrain::Sea => "sea",
            Terrain::Impassable => "impassable",
        }
    }
}

/// A set of terrains as a bit mask.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TerrainSet(pub u8);

impl TerrainSet {
    pub fn of(ts: &[Terrain]) -> Self {
        TerrainSet(ts.iter().fold(0, |m, t| m | t.bit()))
    }
    pub fn contains(self, t: Terrain) -> bool {
        self.0 & t.bit() != 0
    }
}

/// Special properties of one border for one unit type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EdgeFlags(pub u8);

impl EdgeFlags {
    /// A move across counts one support less (Realpolitik `mx`, Loeb9).
    pub const WEAK_MOVE: EdgeFlags = EdgeFlags(1);
    /// Closed to retreats (Realpolitik `/hx`).
    pub const NO_RETREAT: EdgeFlags = EdgeFlags(2);
    /// A canal: units may move across but not support or convoy across.
    pub const CANAL: EdgeFlags = EdgeFlags(4);
    pub fn has(self, f: EdgeFlags) -> bool {
        self.0 & f.0 != 0
    }
    pub fn with(self, f: EdgeFlags) -> EdgeFlags {
        EdgeFlags(self.0 | f.0)
    }
}

/// One border as seen from a region, for one unit type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    pub to: RegionId,
    pub flags: EdgeFlags,
}

/// A power (nation) of the variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Power {
    /// Short form as written in orders, e.g. `ENG`.
    pub abbr: String,
    /// Full name, e.g. `England`.
    pub name: String,
    /// Adjective, e.g. `English`.
    pub adjective: String,
}

/// A unit type: armies and fleets are data, not code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitType {
    /// Letter used in orders: `A`, `F`, `W`.
    pub letter: char,
    pub name: String,
    /// Strength in attack, defence and support (`St=` in DipWork).
    pub strength: u8,
    /// Supply centres needed to keep it (`Costs=`).
    pub cost: u8,
    /// Can be carried by a convoy.
    pub convoyable: bool,
    /// Can convoy others.
    pub can_convoy: bool,
    /// Terrains it may stand on.
    pub stands_on: TerrainSet,
    /// Terrains it may be built on.
    pub builds_on: TerrainSet,
    /// Moves between coasts (fleets) rather than whole provinces (armies).
    pub uses_coasts: bool,
}

impl UnitType {
    /// A unit type of strength 1 and cost 1 that stands nowhere, is built
    /// nowhere, is not convoyed and convoys nothing: the readers of
    /// variant files set the rest from the file.
    pub fn named(letter: char, name: &str) -> Self {
        UnitType {
            letter,
            name: name.into(),
            strength: 1,
            cost: 1,
            convoyable: false,
            can_convoy: false,
            stands_on: TerrainSet::default(),
            builds_on: TerrainSet::default(),
            uses_coasts: false,
        }
    }
    pub fn army() -> Self {
        UnitType {
            convoyable: true,
            stands_on: TerrainSet::of(&[Terrain::Land, Terrain::Coast]),
            builds_on: TerrainSet::of(&[Terrain::Land, Terrain::Coast]),
            ..UnitType::named('A', "Army")
        }
    }
    pub fn fleet() -> Self {
        UnitType {
            can_convoy: true,
            stands_on: TerrainSet::of(&[Terrain::Sea, Terrain::Coast]),
            builds_on: TerrainSet::of(&[Terrain::Coast]),
            uses_coasts: true,
            ..UnitType::named('F', "Fleet")
        }
    }
    /// The wing of jDip's and Realpolitik's air variants: stands anywhere,
    /// moves to every touching province, is built on land.
    pub fn wing() -> Self {
        UnitType {
            stands_on: TerrainSet::of(&[Terrain::Land, Terrain::Coast, Terrain::Sea]),
            builds_on: TerrainSet::of(&[Terrain::Land, Terrain::Coast]),
            ..UnitType::named('W', "Wing")
        }
    }
}

/// One space of the board.
#[derive(Clone, Debug, PartialEq)]
pub struct Province {
    pub abbr: String,
    pub name: String,
    pub terrain: Terrain,
    pub supply_center: bool,
    /// Powers for which this is a home centre.
    pub homes: PowerSet,
    /// Home centre of every power ("All").
    pub home_of_all: bool,
    /// Other names accepted in orders.
    pub aliases: Vec<String>,
    /// The province's own region (index 0) and then its coasts.
    pub regions: Vec<RegionId>,
    /// Where a unit is drawn; also orders neighbours clockwise.
    pub pos: Option<(f32, f32)>,
}

/// Where one unit stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Region {
    pub province: ProvinceId,
    /// Coast name (`nc`, `sc`, ...) for a coast region.
    pub coast: Option<String>,
    /// The coast's own name in the variant, when it has one (DipWork's
    /// subfields `PeS`, `SpN`): read in orders and printed in reports.
    pub name: Option<String>,
    /// Unit types that may stand here.
    pub allows: u16,
    pub pos: Option<(f32, f32)>,
    /// Where a fleet (a type that uses coasts) is drawn instead of `pos`:
    /// Realpolitik's special fleet position of a space with one coast.
    pub fleet_pos: Option<(f32, f32)>,
}

/// How builds are placed (DipWork/Realpolitik build rules).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BuildRule {
    /// Vacant owned home centre.
    #[default]
    Standard,
    /// Any vacant owned centre while at least one home centre is held.
    Aberration,
    /// Any vacant owned centre.
    Chaos,
}

/// A validated board with dense ids and adjacency bit sets.
#[derive(Clone, Debug)]
pub struct Map {
    pub name: String,
    powers: Vec<Power>,
    unit_types: Vec<UnitType>,
    provinces: Vec<Province>,
    regions: Vec<Region>,
    /// `adj[ut][region]`: edges sorted by target.
    adj: Vec<Vec<Vec<Edge>>>,
    /// `adj_bits[ut]`: one row of `region_words` words per region.
    adj_bits: Vec<Vec<u64>>,
    region_words: usize,
    /// `reach[ut]`: one row of `province_words` words per region: provinces
    /// a unit there can support into (no canal edges).
    reach: Vec<Vec<u64>>,
    province_words: usize,
    /// Province-level convoy steps.
    convoy_adj: Vec<BitSet>,
    /// Provinces a convoying unit may stand in.
    convoy_through: BitSet,
    /// Neighbouring provinces in clockwise order.
    clockwise: Vec<Vec<ProvinceId>>,
    supply_centers: Vec<ProvinceId>,
    pub build_rule: BuildRule,
    /// Centres needed to win; 0 = more than half of all centres.
    pub victory: u16,
    /// Some border carries a flag (`mx`, `hx`, canal): lookups are needed.
    flagged: bool,
    /// Borders that close or weaken by season, phase, year, unit or order.
    border_rules: Vec<BorderRule>,
}

impl Map {
    /// The border rules (most maps have none).
    pub fn border_rules(&self) -> &[BorderRule] {
        &self.border_rules
    }
    /// Does a border rule of province `p` refuse this order now? `from`:
    /// where a move into `p` comes from; `None` for the other looks at `p`
    /// (the unit's own province, a supported or convoyed unit's, a
    /// destination of a support, convoy or retreat).
    pub fn closed(
        &self,
        p: ProvinceId,
        from: Option<ProvinceId>,
        ut: UnitTypeId,
        class: OrderClass,
        phase: Phase,
    ) -> bool {
        self.border_rules
            .iter()
            .any(|r| r.province == p && r.refuses(from, ut, class, phase))
    }
    /// The strength change of a move from `from` into `into` over their
    /// border: the first rule of `into` that gives one (0: none).
    pub fn strength_change(&self, into: ProvinceId, from: ProvinceId) -> i32 {
        self.border_rules
            .iter()
            .filter(|r| r.province == into)
            .map(|r| r.change_from(from) as i32)
            .find(|&c| c != 0)
            .unwrap_or(0)
    }
    /// Does any border carry a flag? (Most maps have none: then no lookup.)
    pub fn has_edge_flags(&self) -> bool {
        self.flagged
    }
    /// Centres a power needs to win.
    pub fn victory_centers(&self) -> usize {
        if self.victory == 0 {
            self.supply_centers.len() / 2 + 1
        } else {
            self.victory as usize
        }
    }
    pub fn powers(&self) -> &[Power] {
        &self.powers
    }
    pub fn power(&self, p: PowerId) -> &Power {
        &self.powers[p.index()]
    }
    pub fn power_ids(&self) -> impl Iterator<Item = PowerId> {
        (0..self.powers.len() as u8).map(PowerId)
    }
    pub fn unit_types(&self) -> &[UnitType] {
        &self.unit_types
    }
    pub fn unit_type(&self, u: UnitTypeId) -> &UnitType {
        &self.unit_types[u.index()]
    }
    pub fn unit_type_ids(&self) -> impl Iterator<Item = UnitTypeId> {
        (0..self.unit_types.len() as u8).map(UnitTypeId)
    }
    pub fn provinces(&self) -> &[Province] {
        &self.provinces
    }
    pub fn province(&self, p: ProvinceId) -> &Province {
        &self.provinces[p.index()]
    }
    pub fn province_ids(&self) -> impl Iterator<Item = ProvinceId> {
        (0..self.provinces.len() as u16).map(ProvinceId)
    }
    pub fn num_provinces(&self) -> usize {
        self.provinces.len()
    }
    pub fn regions(&self) -> &[Region] {
        &self.regions
    }
    pub fn region(&self, r: RegionId) -> &Region {
        &self.regions[r.index()]
    }
    pub fn num_regions(&self) -> usize {
        self.regions.len()
    }
    pub fn province_of(&self, r: RegionId) -> ProvinceId {
        self.regions[r.index()].province
    }
    /// The province's own (coastless) region.
    pub fn main_region(&self, p: ProvinceId) -> RegionId {
        self.provinces[p.index()].regions[0]
    }
    /// The coast regions of a province (empty when it has no split coasts).
    pub fn coasts(&self, p: ProvinceId) -> &[RegionId] {
        &self.provinces[p.index()].regions[1..]
    }
    pub fn supply_centers(&self) -> &[ProvinceId] {
        &self.supply_centers
    }
    /// `lon`, `stp/nc`.
    pub fn region_name(&self, r: RegionId) -> String {
        let reg = &self.regions[r.index()];
        let p = &self.provinces[reg.province.index()];
        match &reg.coast {
            Some(c) => format!("{}/{}", p.abbr, c),
            None => p.abbr.clone(),
        }
    }
    pub fn is_home(&self, p: ProvinceId, power: PowerId) -> bool {
        let prov = &self.provinces[p.index()];
        prov.supply_center && (prov.home_of_all || prov.homes.contains(power))
    }
    /// May a unit of this type stand in this region?
    pub fn allows(&self, r: RegionId, ut: UnitTypeId) -> bool {
        self.regions[r.index()].allows & (1 << ut.0) != 0
    }
    /// The region of province `p` where a unit of type `ut` stands, if it is
    /// unique (not a split-coast province for fleets).
    pub fn only_region_for(&self, p: ProvinceId, ut: UnitTypeId) -> Option<RegionId> {
        let mut found = None;
        for &r in &self.provinces[p.index()].regions {
            if self.allows(r, ut) {
                if found.is_some() {
                    return None;
                }
                found = Some(r);
            }
        }
        found
    }
    /// Regions of province `p` where a unit of type `ut` may stand.
    pub fn regions_for(&self, p: ProvinceId, ut: UnitTypeId) -> impl Iterator<Item = RegionId> + '_ {
        self.provinces[p.index()]
            .regions
            .iter()
            .copied()
            .filter(move |&r| self.allows(r, ut))
    }
    pub fn edges(&self, ut: UnitTypeId, from: RegionId) -> &[Edge] {
        &self.adj[ut.index()][from.index()]
    }
    /// Can a unit of type `ut` move from region `from` to region `to`?
    pub fn adjacent(&self, ut: UnitTypeId, from: RegionId, to: RegionId) -> bool {
        let row = &self.adj_bits[ut.index()];
        let i = from.index() * self.region_words + to.index() / 64;
        row.get(i).is_some_and(|w| w & (1 << (to.index() % 64)) != 0)
    }
    /// Flags of the border `from`→`to` for `ut`, if adjacent.
    pub fn edge_flags(&self, ut: UnitTypeId, from: RegionId, to: RegionId) -> Option<EdgeFlags> {
        let edges = &self.adj[ut.index()][from.index()];
        edges.binary_search_by_key(&to, |e| e.to).ok().map(|i| edges[i].flags)
    }
    /// Can a unit of type `ut` in `from` move to some region of province `to`
    /// other than across a canal (and so support into it)?
    pub fn reaches(&self, ut: UnitTypeId, from: RegionId, to: ProvinceId) -> bool {
        let row = &self.reach[ut.index()];
        let i = from.index() * self.province_words + to.index() / 64;
        row.get(i).is_some_and(|w| w & (1 << (to.index() % 64)) != 0)
    }
    /// Regions of province `to` that a unit of type `ut` in `from` can move to.
    pub fn moves_into(&self, ut: UnitTypeId, from: RegionId, to: ProvinceId) -> impl Iterator<Item = RegionId> + '_ {
        self.adj[ut.index()][from.index()]
            .iter()
            .map(|e| e.to)
            .filter(move |&r| self.province_of(r) == to)
    }
    pub fn convoy_neighbours(&self, p: ProvinceId) -> &BitSet {
        &self.convoy_adj[p.index()]
    }
    pub fn convoy_adjacent(&self, a: ProvinceId, b: ProvinceId) -> bool {
        self.convoy_adj[a.index()].contains(b.index())
    }
    /// May a convoying unit stand in this province?
    pub fn is_convoy_space(&self, p: ProvinceId) -> bool {
        self.convoy_through.contains(p.index())
    }
    /// The provinces where a convoying unit may stand, in id order.
    pub(crate) fn convoy_spaces(&self) -> &BitSet {
        &self.convoy_through
    }
    /// Neighbouring provinces in clockwise order (for the right-hand rule).
    pub fn clockwise(&self, p: ProvinceId) -> &[ProvinceId] {
        &self.clockwise[p.index()]
    }
    /// The provinces some unit type can reach from `a` in one step, in
    /// ascending order: `b` is listed exactly when `provinces_adjacent(a, b)`
    /// (linear in `a`'s borders, where asking every pair is quadratic).
    pub fn neighbour_provinces(&self, a: ProvinceId) -> Vec<ProvinceId> {
        let mut out: Vec<ProvinceId> = self.provinces[a.index()]
            .regions
            .iter()
            .flat_map(|&r| {
                self.unit_type_ids()
                    .flat_map(move |ut| self.adj[ut.index()][r.index()].iter().map(|e| self.province_of(e.to)))
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
    /// Any unit type can get from `a` to `b` in one step.
    pub fn provinces_adjacent(&self, a: ProvinceId, b: ProvinceId) -> bool {
        self.unit_type_ids().any(|ut| {
            self.provinces[a.index()]
                .regions
                .iter()
                .any(|&r| self.reaches_any(ut, r, b))
        })
    }
    fn reaches_any(&self, ut: UnitTypeId, from: RegionId, to: ProvinceId) -> bool {
        self.adj[ut.index()][from.index()]
            .iter()
            .any(|e| self.province_of(e.to) == to)
    }
    /// Look a province up by abbreviation, full name or alias (case-insensitive).
    pub fn find_province(&self, name: &str) -> Option<ProvinceId> {
        let eq = |s: &str| s.eq_ignore_ascii_case(name);
        self.provinces
            .iter()
            .position(|p| eq(&p.abbr) || eq(&p.name) || p.aliases.iter().any(|a| eq(a)))
            .map(|i| ProvinceId(i as u16))
    }
    /// Look a coast region of `p` up by coast name (`nc`, `north coast`, ...).
    pub fn find_coast(&self, p: ProvinceId, coast: &str) -> Option<RegionId> {
        let c = normalize_coast(coast)?;
        self.coasts(p)
            .iter()
            .copied()
            .find(|&r| self.regions[r.index()].coast.as_deref() == Some(c.as_str()))
    }
    /// Look a power up by abbreviation, name or adjective.
    pub fn find_power(&self, name: &str) -> Option<PowerId> {
        let eq = |s: &str| s.eq_ignore_ascii_case(name);
        self.powers
            .iter()
            .position(|p| eq(&p.abbr) || eq(&p.name) || eq(&p.adjective))
            .map(|i| PowerId(i as u8))
    }
    pub fn find_unit_type(&self, word: &str) -> Option<UnitTypeId> {
        self.unit_types
            .iter()
            .position(|u| {
                (word.chars().count() == 1 && word.chars().next().is_some_and(|c| c.eq_ignore_ascii_case(&u.letter)))
                    || u.name.eq_ignore_ascii_case(word)
            })
            .map(|i| UnitTypeId(i as u8))
    }
}

/// `nc`, `n`, `north`, `north coast`, `(nc)` → `nc`; unknown words → `None`.
pub fn normalize_coast(s: &str) -> Option<String> {
    let t = s
        .trim()
        .trim_start_matches(['(', '/'])
        .trim_end_matches(')')
        .to_ascii_lowercase();
    let t = t.trim_end_matches(" coast").trim_end_matches("coast").trim();
    let c = match t {
        "nc" | "n" | "north" | "nk" => "nc",
        "sc" | "s" | "south" | "sk" => "sc",
        "ec" | "e" | "east" | "ek" => "ec",
        "wc" | "w" | "west" | "wk" => "wc",
        other if !other.is_empty() && other.len() <= 3 && other.chars().all(|c| c.is_ascii_alphabetic()) => other,
        _ => return None,
    };
    Some(c.to_string())
}

/// A problem found while building a map.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MapError {
    #[error("duplicate name `{0}`")]
    DuplicateName(String),
    #[error("too many {what}: at most {max}")]
    TooMany { what: &'static str, max: usize },
    #[error("no such {what} id {id}")]
    BadId { what: &'static str, id: usize },
    #[error(
        "the map is too large: its border tables would take {mib} MiB ({regions} regions × {unit_types} unit types; they grow with the square of the regions), and dip allows at most {max_mib} MiB"
    )]
    TooLarge {
        mib: u64,
        max_mib: u64,
        regions: usize,
        unit_types: usize,
    },
}

/// The most memory the dense border tables of one map may take (512 MiB:
/// 20,000 provinces with four unit types fit). Checked before anything
/// is allocated, so a variant file claiming a huge map is an error, not
/// an abort.
pub const MAX_TABLE_BYTES: u64 = 512 << 20;

/// Bytes of the tables `build` allocates for this many regions, provinces
/// and unit types: adjacency and reach bit rows per unit type, convoy rows.
fn table_bytes(regions: usize, provinces: usize, unit_types: usize) -> u64 {
    let (nr, np, nut) = (regions as u64, provinces as u64, unit_types as u64);
    let rw = nr.div_ceil(64).max(1);
    let pw = np.div_ceil(64).max(1);
    // Each region's edge list head (24 bytes) too.
    nut * nr * ((rw + pw) * 8 + 24) + np * pw * 8
}

/// Collects provinces, coasts and borders; `build` checks them once.
#[derive(Clone, Debug, Default)]
pub struct MapBuilder {
    pub name: String,
    powers: Vec<Power>,
    unit_types: Vec<UnitType>,
    provinces: Vec<Province>,
    regions: Vec<Region>,
    borders: Vec<(UnitTypeId, RegionId, RegionId, EdgeFlags)>,
    clockwise: Vec<Option<Vec<ProvinceId>>>,
    convoy_unit: Option<UnitTypeId>,
    /// Coastal provinces where fleets may convoy (jDip's convoyable coasts).
    convoy_coasts: Vec<ProvinceId>,
    border_rules: Vec<BorderRule>,
    pub build_rule: BuildRule,
    pub victory: u16,
}

impl MapBuilder {
    pub fn new(name: &str) -> Self {
        MapBuilder {
            name: name.to_string(),
            ..Default::default()
        }
    }
    pub fn add_power(&mut self, abbr: &str, name: &str, adjective: &str) -> PowerId {
        self.powers.push(Power {
            abbr: abbr.into(),
            name: name.into(),
            adjective: adjective.into(),
        });
        PowerId((self.powers.len() - 1) as u8)
    }
    pub fn add_unit_type(&mut self, ut: UnitType) -> UnitTypeId {
        self.unit_types.push(ut);
        UnitTypeId((self.unit_types.len() - 1) as u8)
    }
    /// The unit type whose borders define convoy steps (DipWork's
    /// CONVOY_RELEVANT_UNITNR). By default, the first type that can convoy.
    pub fn set_convoy_unit(&mut self, ut: UnitTypeId) {
        self.convoy_unit = Some(ut);
    }
    pub fn add_province(&mut self, abbr: &str, name: &str, terrain: Terrain, supply_center: bool) -> ProvinceId {
        let id = ProvinceId(self.provinces.len() as u16);
        let r = RegionId(self.regions.len() as u16);
        self.regions.push(Region {
            province: id,
            coast: None,
            name: None,
            allows: 0,
            pos: None,
            fleet_pos: None,
        });
        self.provinces.push(Province {
            abbr: abbr.into(),
            name: name.into(),
            terrain,
            supply_center,
            homes: PowerSet::default(),
            home_of_all: false,
            aliases: Vec::new(),
            regions: vec![r],
            pos: None,
        });
        self.clockwise.push(None);
        id
    }
    pub fn add_coast(&mut self, p: ProvinceId, coast: &str) -> RegionId {
        let r = RegionId(self.regions.len() as u16);
        self.regions.push(Region {
            province: p,
            coast: Some(normalize_coast(coast).unwrap_or_else(|| coast.to_ascii_lowercase())),
            name: None,
            allows: 0,
            pos: None,
            fleet_pos: None,
        });
        if let Some(prov) = self.provinces.get_mut(p.index()) {
            prov.regions.push(r);
        }
        r
    }
    pub fn province_mut(&mut self, p: ProvinceId) -> Option<&mut Province> {
        self.provinces.get_mut(p.index())
    }
    pub fn region_mut(&mut self, r: RegionId) -> Option<&mut Region> {
        self.regions.get_mut(r.index())
    }
    pub fn main_region(&self, p: ProvinceId) -> Option<RegionId> {
        self.provinces.get(p.index()).map(|pr| pr.regions[0])
    }
    pub fn find_province(&self, abbr: &str) -> Option<ProvinceId> {
        self.provinces
            .iter()
            .position(|p| p.abbr.eq_ignore_ascii_case(abbr))
            .map(|i| ProvinceId(i as u16))
    }
    pub fn find_region(&self, name: &str) -> Option<RegionId> {
        let (p, c) = match name.split_once(['/', '(']) {
            Some((p, c)) => (p, Some(c)),
            None => (name, None),
        };
        let p = self.find_province(p.trim())?;
        match c {
            None => self.main_region(p),
            Some(c) => {
                let c = normalize_coast(c)?;
                self.provinces[p.index()]
                    .regions
                    .iter()
                    .copied()
                    .find(|r| self.regions[r.index()].coast.as_deref() == Some(c.as_str()))
            }
        }
    }
    pub fn find_power(&self, abbr: &str) -> Option<PowerId> {
        self.powers
            .iter()
            .position(|p| p.abbr.eq_ignore_ascii_case(abbr) || p.name.eq_ignore_ascii_case(abbr))
            .map(|i| PowerId(i as u8))
    }
    pub fn find_unit_type(&self, word: &str) -> Option<UnitTypeId> {
        self.unit_types
            .iter()
            .position(|u| u.name.eq_ignore_ascii_case(word) || (word.len() == 1 && word.starts_with(u.letter)))
            .map(|i| UnitTypeId(i as u8))
    }
    pub fn powers(&self) -> &[Power] {
        &self.powers
    }
    pub fn unit_types(&self) -> &[UnitType] {
        &self.unit_types
    }
    /// A border usable by `ut` in both directions.
    pub fn add_border(&mut self, ut: UnitTypeId, a: RegionId, b: RegionId, flags: EdgeFlags) {
        self.borders.push((ut, a, b, flags));
        self.borders.push((ut, b, a, flags));
    }
    /// A border usable by `ut` from `a` to `b` only.
    pub fn add_directed_border(&mut self, ut: UnitTypeId, a: RegionId, b: RegionId, flags: EdgeFlags) {
        self.borders.push((ut, a, b, flags));
    }
    /// Neighbours in clockwise order, when the variant gives them.
    /// Lets fleets convoy in a coastal province as in a sea (jDip's
    /// `isConvoyableCoast`; DATC 4.E's convoying coasts). Seas convoy always.
    pub fn add_convoy_coast(&mut self, p: ProvinceId) {
        if p.index() < self.provinces.len() && !self.convoy_coasts.contains(&p) {
            self.convoy_coasts.push(p);
        }
    }
    /// A rule of a province's borders (see [`BorderRule`]).
    pub fn add_border_rule(&mut self, rule: BorderRule) {
        self.border_rules.push(rule);
    }
    pub fn set_clockwise(&mut self, p: ProvinceId, order: Vec<ProvinceId>) {
        if let Some(c) = self.clockwise.get_mut(p.index()) {
            *c = Some(order);
        }
    }

    pub fn build(self) -> Result<Map, MapError> {
        let MapBuilder {
            name,
            powers,
            unit_types,
            provinces,
            mut regions,
            borders,
            clockwise,
            convoy_unit,
            convoy_coasts,
            border_rules,
            build_rule,
            victory,
        } = self;
        check_limits(&powers, &unit_types, &provinces, &regions, &border_rules)?;
        allow_unit_types(&mut regions, &provinces, &unit_types);
        let mut adj = adjacency(&borders, unit_types.len(), regions.len())?;
        let rw = regions.len().div_ceil(64).max(1);
        let pw = provinces.len().div_ceil(64).max(1);
        let (adj_bits, reach) = border_bits(&mut adj, &regions, rw, pw);
        let (convoy_adj, convoy_through) =
            convoy_steps(&adj, &unit_types, &provinces, &regions, convoy_unit, &convoy_coasts);
        let clockwise = clockwise_neighbours(clockwise, &adj, &provinces, &regions);
        let flagged = adj.iter().flatten().flatten().any(|e| e.flags != EdgeFlags::default());
        let supply_centers = provinces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.supply_center)
            .map(|(i, _)| ProvinceId(i as u16))
            .collect();
        Ok(Map {
            name,
            powers,
            unit_types,
            provinces,
            regions,
            adj,
            adj_bits,
            region_words: rw,
            reach,
            province_words: pw,
            convoy_adj,
            convoy_through,
            clockwise,
            supply_centers,
            build_rule,
            victory,
            flagged,
            border_rules,
        })
    }
}

/// The limits the dense ids and tables need, before anything is built:
/// counts that fit their id types, border rules naming real provinces,
/// tables that fit in memory, and province abbreviations that are unique.
fn check_limits(
    powers: &[Power],
    unit_types: &[UnitType],
    provinces: &[Province],
    regions: &[Region],
    border_rules: &[BorderRule],
) -> Result<(), MapError> {
    if powers.len() > MAX_POWERS {
        return Err(MapError::TooMany {
            what: "powers",
            max: MAX_POWERS,
        });
    }
    if unit_types.len() > MAX_UNIT_TYPES {
        return Err(MapError::TooMany {
            what: "unit types",
            max: MAX_UNIT_TYPES,
        });
    }
    if regions.len() >= u16::MAX as usize {
        return Err(MapError::TooMany {
            what: "regions",
            max: u16::MAX as usize - 1,
        });
    }
    for r in border_rules {
        if let Some(bad) = std::iter::once(r.province)
            .chain(r.from.iter().copied())
            .find(|p| p.index() >= provinces.len())
        {
            return Err(MapError::BadId {
                what: "province",
                id: bad.index(),
            });
        }
    }
    let bytes = table_bytes(regions.len(), provinces.len(), unit_types.len());
    if bytes > MAX_TABLE_BYTES {
        return Err(MapError::TooLarge {
            mib: bytes.div_ceil(1 << 20),
            max_mib: MAX_TABLE_BYTES >> 20,
            regions: regions.len(),
            unit_types: unit_types.len(),
        });
    }
    let mut seen = std::collections::HashSet::new();
    for p in provinces {
        if !seen.insert(p.abbr.to_ascii_lowercase()) {
            return Err(MapError::DuplicateName(p.abbr.clone()));
        }
    }
    Ok(())
}

/// Which unit types may stand in which region: by terrain, and fleets
/// (types that use coasts) only on a coast region where a province has them.
fn allow_unit_types(regions: &mut [Region], provinces: &[Province], unit_types: &[UnitType]) {
    for r in regions.iter_mut() {
        let prov = &provinces[r.province.index()];
        let split = prov.regions.len() > 1;
        let mut allows = 0u16;
        for (i, ut) in unit_types.iter().enumerate() {
            if !ut.stands_on.contains(prov.terrain) {
                continue;
            }
            let ok = match (&r.coast, split, ut.uses_coasts) {
                (Some(_), _, true) => true,
                (Some(_), _, false) => false,
                (None, true, true) => false,
                (None, _, _) => true,
            };
            if ok {
                allows |= 1 << i;
            }
        }
        r.allows = allows;
    }
}

/// `adj[ut][region]`: each unit type's edges, a border given twice merged
/// into one edge with both flags.
fn adjacency(
    borders: &[(UnitTypeId, RegionId, RegionId, EdgeFlags)],
    nut: usize,
    nr: usize,
) -> Result<Vec<Vec<Vec<Edge>>>, MapError> {
    let mut adj = vec![vec![Vec::<Edge>::new(); nr]; nut];
    for &(ut, a, b, flags) in borders {
        if ut.index() >= nut {
            return Err(MapError::BadId {
                what: "unit type",
                id: ut.index(),
            });
        }
        if a.index() >= nr || b.index() >= nr {
            return Err(MapError::BadId {
                what: "region",
                id: a.index().max(b.index()),
            });
        }
        let list = &mut adj[ut.index()][a.index()];
        match list.iter_mut().find(|e| e.to == b) {
            Some(e) => e.flags = e.flags.with(flags),
            None => list.push(Edge { to: b, flags }),
        }
    }
    Ok(adj)
}

/// Sorts each edge list by target and returns the bit tables the
/// adjudicator's hot path reads: region to region (`adj_bits`), and region
/// to province without canals (`reach`), `rw` and `pw` words a row.
fn border_bits(adj: &mut [Vec<Vec<Edge>>], regions: &[Region], rw: usize, pw: usize) -> (Vec<Vec<u64>>, Vec<Vec<u64>>) {
    let nr = regions.len();
    let mut adj_bits = vec![vec![0u64; nr * rw]; adj.len()];
    let mut reach = vec![vec![0u64; nr * pw]; adj.len()];
    for (ut, lists) in adj.iter_mut().enumerate() {
        for (r, list) in lists.iter_mut().enumerate() {
            list.sort_by_key(|e| e.to);
            for e in list.iter() {
                adj_bits[ut][r * rw + e.to.index() / 64] |= 1 << (e.to.index() % 64);
                if !e.flags.has(EdgeFlags::CANAL) {
                    let p = regions[e.to.index()].province.index();
                    reach[ut][r * pw + p / 64] |= 1 << (p % 64);
                }
            }
        }
    }
    (adj_bits, reach)
}

/// Convoy steps: the convoy unit's borders collapsed to provinces, and the
/// provinces a convoying unit may stand in (seas and the coasts named).
fn convoy_steps(
    adj: &[Vec<Vec<Edge>>],
    unit_types: &[UnitType],
    provinces: &[Province],
    regions: &[Region],
    convoy_unit: Option<UnitTypeId>,
    convoy_coasts: &[ProvinceId],
) -> (Vec<BitSet>, BitSet) {
    let np = provinces.len();
    let convoy_ut = convoy_unit.or_else(|| {
        unit_types
            .iter()
            .position(|u| u.can_convoy)
            .map(|i| UnitTypeId(i as u8))
    });
    let mut convoy_adj = vec![BitSet::with_capacity(np); np];
    let mut convoy_through = BitSet::with_capacity(np);
    for (i, p) in provinces.iter().enumerate() {
        if p.terrain == Terrain::Sea {
            convoy_through.insert(i);
        }
    }
    for c in convoy_coasts {
        if c.index() < np {
            convoy_through.insert(c.index());
        }
    }
    if let Some(cu) = convoy_ut.filter(|c| c.index() < adj.len()) {
        for (r, edges) in adj[cu.index()].iter().enumerate() {
            let a = regions[r].province.index();
            for e in edges {
                if e.flags.has(EdgeFlags::CANAL) {
                    continue;
                }
                let b = regions[e.to.index()].province.index();
                convoy_adj[a].insert(b);
            }
        }
    }
    (convoy_adj, convoy_through)
}

/// Each province's neighbours in clockwise order: as given, or by angle
/// around the province's position (in border order when it has none).
fn clockwise_neighbours(
    given: Vec<Option<Vec<ProvinceId>>>,
    adj: &[Vec<Vec<Edge>>],
    provinces: &[Province],
    regions: &[Region],
) -> Vec<Vec<ProvinceId>> {
    let mut cw = Vec::with_capacity(provinces.len());
    for (i, given) in given.into_iter().enumerate() {
        let mut neighbours: Vec<usize> = Vec::new();
        for &r in &provinces[i].regions {
            for list in adj.iter() {
                for e in &list[r.index()] {
                    let q = regions[e.to.index()].province.index();
                    if q != i && !neighbours.contains(&q) {
                        neighbours.push(q);
                    }
                }
            }
        }
        let order = match given {
            Some(g) => g,
            None => {
                if let Some((x, y)) = provinces[i].pos {
                    let angle = |q: usize| provinces[q].pos.map(|(qx, qy)| (qy - y).atan2(qx - x)).unwrap_or(0.0);
                    // Screen coordinates (y down): increasing atan2 is clockwise.
                    neighbours.sort_by(|&a, &b| angle(a).total_cmp(&angle(b)));
                }
                neighbours.into_iter().map(|q| ProvinceId(q as u16)).collect()
            }
        };
        cw.push(order);
    }
    cw
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(provinces: usize, unit_types: usize) -> MapBuilder {
        let mut b = MapBuilder::new("big");
        b.add_power("A", "Alpha", "Alphan");
        b.add_unit_type(UnitType::army());
        for i in 1..unit_types {
            b.add_unit_type(UnitType {
                letter: (b'B' + i as u8) as char,
                ..UnitType::army()
            });
        }
        for i in 0..provinces {
            b.add_province(&format!("p{i}"), &format!("P{i}"), Terrain::Land, false);
        }
        b
    }

    #[test]
    fn huge_map_from_a_file_allocated_gigabytes() {
        // 59,000 provinces with 16 unit types would take over 13 GiB.
        let e = grid(59_000, 16).build().unwrap_err();
        assert!(
            matches!(
                e,
                MapError::TooLarge {
                    regions: 59_000,
                    unit_types: 16,
                    ..
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("at most 512 MiB"), "{e}");
        // The largest generated benchmark map still builds.
        assert!(table_bytes(20_000, 20_000, 4) <= MAX_TABLE_BYTES);
    }
}
