//! The game behind `dip.Game`, free of Python: MILA's names and order
//! strings at the edge, dip's engine inside. The bindings (`lib.rs`) only
//! convert values.

use dip_core::{
    game, CoastSpec, Dest, Map, Order, OrderKind, Phase, PhaseKind, PhaseOutcome, PowerId, ProvinceId, RegionId,
    Ruleset, Season, State, Unit, UnitRef, UnitTypeId, Verdict,
};
use dip_text::{parse_order_with, Vocabulary};
use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

mod mila_lists;
mod phases;
mod results;

pub use phases::{long_phase, parse_long_phase, parse_phase, short_phase};

use results::{movement_tags, Results};
pub use results::{Tags, BOUNCE, CUT, DISBAND, DISLODGED, DISRUPTED, NO_CONVOY, OK, VOID};

/// FxHash: order texts and codes are short, and SipHash would cost more
/// than the lookup it serves.
#[derive(Default, Clone, Copy)]
pub struct Fx(u64);

const FX: u64 = 0x517c_c1b7_2722_0a95;

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        // The high bits of the last product are the well-mixed ones, and
        // the table picks buckets by the low bits (as rustc-hash 2 does).
        self.0.rotate_left(26)
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = self.0;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(FX);
        }
        for &b in chunks.remainder() {
            h = (h.rotate_left(5) ^ b as u64).wrapping_mul(FX);
        }
        self.0 = h;
    }
    fn write_u8(&mut self, x: u8) {
        self.write_u64(x as u64);
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(FX);
    }
    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }
}

pub type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

/// A unit, key or order text: borrowed from the variant (unit names) or
/// from its order table (listed orders), which live as long as the
/// process, so that the orders and results of a phase need no copies.
pub type Name = Cow<'static, str>;

/// Every order text a variant's legal-order lists have held, numbered
/// once per process: the same few thousand orders come back phase after
/// phase, so a phase's lists are lists of numbers, a text is written only
/// the first time, and the bindings keep one Python string per number.
#[derive(Default)]
pub struct OrderTable {
    /// What `movement_orders` lists (kind of order and the units, regions
    /// and provinces it names) → number.
    by_code: FxMap<u64, u32>,
    /// By unit type and region (`type * regions + region`): the numbers of
    /// the unit's hold and of its move along each of its borders, in the
    /// order of `Map::edges`.
    unit_orders: Vec<Option<Box<[u32]>>>,
    /// By unit type and region (as `unit_orders`): the numbers of its
    /// supports over land, set when the variant loads (see [`Supports`]):
    /// a few hundred bytes a unit, so that listing supports reads memory
    /// that stays in the cache.
    supports: Vec<Option<Supports>>,
    /// By unit type and region: its place among the units that may stand
    /// in its province (`u16::MAX`: none may stand there).
    stand_rank: Vec<u16>,
    /// By unit type and region, for each province of `VariantData::lands`:
    /// its place among the units that can move into that province over a
    /// border.
    mover_rank: Vec<Box<[u16]>>,
    /// By unit type and region: the numbers of its retreats along each of
    /// its borders (in the order of `Map::edges`), of its disband and of
    /// its build (`u32::MAX`: none).
    retreats: Vec<Option<Box<[u32]>>>,
    disbands: Vec<u32>,
    builds: Vec<u32>,
    by_text: crate::text_index::TextIndex,
    /// By number. Never dropped: the table lives as long as its variant,
    /// which is the process, and games borrow the texts.
    pub texts: Vec<&'static str>,
    /// By number: what the text reads as in MILA's syntax, without its power.
    /// Read the first time the text is given to `set_orders` (`None`:
    /// not yet), not when it is numbered: most listed orders are never given.
    kinds: Vec<Option<Option<OrderKind>>>,
}

impl OrderTable {
    /// The number of `text`, given one if it has none.
    pub fn id(&mut self, _v: &VariantData, text: &str) -> u32 {
        if let Some(id) = self.by_text.get(&self.texts, text) {
            return id;
        }
        let id = self.texts.len() as u32;
        let text: &'static str = Box::leak(text.into());
        self.texts.push(text);
        self.by_text.insert(&self.texts, id);
        self.kinds.push(None);
        id
    }

    /// The numbers of the hold and moves of a unit of type `k` in region
    /// `r` (see `unit_orders`), made the first time.
    fn unit_slot(&mut self, v: &VariantData, k: UnitTypeId, r: RegionId) -> usize {
        let map = v.map;
        let slot = k.index() * map.num_regions() + r.index();
        if self.unit_orders.len() <= slot {
            self.unit_orders
                .resize_with(map.unit_type_ids().count() * map.num_regions(), || None);
        }
        if self.unit_orders[slot].is_none() {
            let mine = &v.unit_names[k.index()][r.index()];
            let mut ids = vec![self.id(v, &format!("{mine} H"))];
            for e in map.edges(k, r) {
                let dn = if map.region(e.to).coast.is_some() {
                    &v.region_names[e.to.index()]
                } else {
                    &v.prov_names[map.province_of(e.to).index()]
                };
                ids.push(self.id(v, &format!("{mine} - {dn}")));
            }
            self.unit_orders[slot] = Some(ids.into_boxed_slice());
        }
        slot
    }

    /// The number of a movement order by its code, its text made by
    /// `text` the first time.
    fn coded(&mut self, v: &VariantData, code: u64, text: impl FnOnce() -> String) -> u32 {
        if let Some(&id) = self.by_code.get(&code) {
            return id;
        }
        let id = self.id(v, &text());
        self.by_code.insert(code, id);
        id
    }

    /// Numbers every hold, move and support over land the map allows, so
    /// that games (and the Python strings of the bindings) start with them.
    fn prefill(&mut self, v: &VariantData) {
        let map = v.map;
        if !codes_fit(map) {
            return;
        }
        // Room for the orders games will add (convoys, supports of convoyed
        // moves), so that the tables seldom grow while games are played;
        // not much more, as every order given is looked up in `by_text`,
        // which should stay in the cache.
        self.by_text.reserve(1 << 13);
        self.by_code.reserve(1 << 13);
        self.texts.reserve(1 << 14);
        let kinds: Vec<UnitTypeId> = map.unit_type_ids().collect();
        let regions = (0..map.num_regions()).map(|r| RegionId(r as u16));
        let spots: Vec<(UnitTypeId, RegionId)> = kinds
            .iter()
            .flat_map(|&k| regions.clone().map(move |r| (k, r)))
            .filter(|&(k, r)| !map.edges(k, r).is_empty())
            .collect();
        // Who may stand in each province, and who can move into it over a
        // border: the places that index the support tables.
        let slots = kinds.len() * map.num_regions();
        let slot = |k: UnitTypeId, r: RegionId| k.index() * map.num_regions() + r.index();
        let mut standers: Vec<Vec<(UnitTypeId, RegionId)>> = vec![Vec::new(); map.num_provinces()];
        let mut movers: Vec<Vec<(UnitTypeId, RegionId)>> = vec![Vec::new(); map.num_provinces()];
        self.stand_rank = vec![u16::MAX; slots];
        self.mover_rank = vec![Box::default(); slots];
        for &(k, r) in &spots {
            self.unit_slot(v, k, r);
            let p = map.province_of(r);
            self.stand_rank[slot(k, r)] = standers[p.index()].len() as u16;
            standers[p.index()].push((k, r));
            let near = &v.lands[k.index()][r.index()];
            self.mover_rank[slot(k, r)] = near
                .iter()
                .map(|d| {
                    movers[d.index()].push((k, r));
                    (movers[d.index()].len() - 1) as u16
                })
                .collect();
        }
        // Retreats, disbands and builds, and moves by convoy.
        let shore: Vec<ProvinceId> = map
            .province_ids()
            .filter(|&q| is_shore(map, q) && map.convoy_neighbours(q).iter().next().is_some())
            .collect();
        self.id(v, "WAIVE");
        self.retreats = vec![None; slots];
        self.disbands = vec![u32::MAX; slots];
        self.builds = vec![u32::MAX; slots];
        for &(k, r) in &spots {
            let mine = &v.unit_names[k.index()][r.index()];
            self.disbands[slot(k, r)] = self.id(v, &format!("{mine} D"));
            self.builds[slot(k, r)] = self.id(v, &format!("{mine} B"));
            let mut retreats = Vec::new();
            for e in map.edges(k, r) {
                let dn = if map.region(e.to).coast.is_some() {
                    &v.region_names[e.to.index()]
                } else {
                    &v.prov_names[map.province_of(e.to).index()]
                };
                retreats.push(self.id(v, &format!("{mine} R {dn}")));
            }
            self.retreats[slot(k, r)] = Some(retreats.into_boxed_slice());
            let p = map.province_of(r);
            if map.unit_type(k).convoyable && shore.contains(&p) {
                for &q in shore.iter().filter(|&&q| q != p) {
                    let dn = &v.prov_names[q.index()];
                    self.coded(v, code(3, k, r, None, q.0), || format!("{mine} - {dn} VIA"));
                }
            }
        }
        // Supports over land, in each unit's table (see `Supports`).
        self.supports = (0..slots).map(|_| None).collect();
        for &(k, r) in &spots {
            let mine = &v.unit_names[k.index()][r.index()];
            let p = map.province_of(r);
            let near = &v.lands[k.index()][r.index()];
            let mut off: Vec<u32> = Vec::with_capacity(2 * near.len());
            let mut at = 0u32;
            for &q in near.iter() {
                off.push(at);
                at += standers[q.index()].len() as u32;
            }
            for &q in near.iter() {
                off.push(at);
                at += movers[q.index()].len() as u32;
            }
            let mut ids = vec![u32::MAX; at as usize];
            for (a, &q) in near.iter().enumerate() {
                for (rank, &(k2, r2)) in standers[q.index()].iter().enumerate() {
                    let theirs = &v.unit_names[k2.index()][r2.index()];
                    ids[off[a] as usize + rank] =
                        self.coded(v, code(4, k, r, Some((k2, r2)), 0), || format!("{mine} S {theirs}"));
                }
                for (rank, &(k2, r2)) in movers[q.index()].iter().enumerate() {
                    let q2 = map.province_of(r2);
                    if q2 == p || q2 == q {
                        continue;
                    }
                    let theirs = &v.unit_names[k2.index()][r2.index()];
                    let dn = &v.prov_names[q.index()];
                    ids[off[near.len() + a] as usize + rank] =
                        self.coded(v, code(5, k, r, Some((k2, r2)), q.0), || {
                            format!("{mine} S {theirs} - {dn}")
                        });
                    for e in map.edges(k2, r2) {
                        if map.province_of(e.to) == q && map.region(e.to).coast.is_some() {
                            let cn = &v.region_names[e.to.index()];
                            self.coded(v, code(6, k, r, Some((k2, r2)), e.to.0), || {
                                format!("{mine} S {theirs} - {cn}")
                            });
                        }
                    }
                }
            }
            self.supports[slot(k, r)] = Some(Supports {
                off: off.into_boxed_slice(),
                ids: ids.into_boxed_slice(),
            });
        }
    }

    /// The number of a text already listed, what it reads as, and the
    /// table's copy of the text (one lookup; the text is read the first
    /// time it is given).
    pub fn find(&mut self, v: &VariantData, text: &str) -> Option<(u32, Option<OrderKind>, &'static str)> {
        let id = self.by_text.get(&self.texts, text)?;
        let own = self.texts[id as usize];
        let kind = *self.kinds[id as usize].get_or_insert_with(|| read_mila(v, own, PowerId(0)).map(|o| o.kind));
        Some((id, kind, own))
    }

    /// Number `id`, what it reads as, and its text (as [`find`](Self::find)).
    pub fn entry(&mut self, v: &VariantData, id: u32) -> Option<(u32, Option<OrderKind>, &'static str)> {
        let own = *self.texts.get(id as usize)?;
        let kind = *self.kinds[id as usize].get_or_insert_with(|| read_mila(v, own, PowerId(0)).map(|o| o.kind));
        Some((id, kind, own))
    }
}

/// The supports over land of a unit of one type in one region, by
/// number: for the `a`-th province of its `VariantData::lands`, the
/// support to hold of the unit standing there is at `ids[off[a] + r]`, `r`
/// its `OrderTable::stand_rank`; the support of a move there at
/// `ids[off[lands + a] + r]`, `r` the mover's `OrderTable::mover_rank`.
/// `u32::MAX` where there is no such order.
struct Supports {
    off: Box<[u32]>,
    ids: Box<[u32]>,
}

impl Supports {
    /// Part `at` of `off`: the numbers by rank.
    fn part(&self, at: usize) -> &[u32] {
        let Some(&start) = self.off.get(at) else {
            return &[];
        };
        let end = self.off.get(at + 1).map_or(self.ids.len(), |&e| e as usize);
        self.ids.get(start as usize..end).unwrap_or(&[])
    }
}

/// The code of a listed movement order: its form (`tag`), the unit, the
/// other unit it names, and its destination (a region or a province, as
/// the form says). Equal codes are equal texts on maps with fewer than
/// 16,384 regions and 31 unit types (`codes_fit`).
fn code(tag: u8, k: UnitTypeId, r: RegionId, other: Option<(UnitTypeId, RegionId)>, dest: u16) -> u64 {
    let (ok, or) = other.map_or((0, 0), |(k, r)| (k.0 as u64 + 1, r.0 as u64));
    (tag as u64) << 61 | (k.0 as u64) << 56 | (r.0 as u64) << 42 | ok << 37 | or << 23 | dest as u64
}

fn codes_fit(map: &Map) -> bool {
    map.num_regions() < 1 << 14 && map.num_provinces() < 1 << 14 && map.unit_type_ids().count() < 31
}

/// A variant loaded once per process and shared by every game.
pub struct VariantData {
    /// The name the game was created with (`standard`, `ancmed`).
    pub name: String,
    pub map: &'static Map,
    pub vocab: Vocabulary<'static>,
    pub start: State,
    pub rules: Ruleset,
    /// Power names as MILA writes them: `FRANCE`.
    pub powers: Vec<String>,
    /// Every location: provinces, then coasts (`STP/SC`), upper case.
    pub locs: Vec<String>,
    /// Upper-case province abbreviations, by province.
    pub prov_names: Vec<String>,
    /// Upper-case region names (`STP/SC`), by region.
    pub region_names: Vec<String>,
    /// `A PAR`, `F STP/SC`: by unit type, then region.
    pub unit_names: Vec<Vec<String>>,
    /// The provinces a unit can move to over its borders, each once, in
    /// the order of `Map::edges`: by unit type, then region.
    pub lands: Vec<Vec<Box<[ProvinceId]>>>,
    /// By region: its place in `locs` when it is a coast.
    pub coast_loc: Vec<Option<usize>>,
    /// By province: has it coasts of its own (`STP/NC`)?
    pub split: Vec<bool>,
    /// By province: its place among the provinces in the order of their
    /// names; and the provinces in that order.
    name_rank: Vec<u32>,
    by_name: Vec<ProvinceId>,
    /// Location name → province and, for a coast, its region.
    pub loc_index: HashMap<String, (ProvinceId, Option<RegionId>)>,
    /// The same for names of up to eight bytes, by their bytes as a
    /// number: read for every word of every order given.
    loc_codes: FxMap<u64, (ProvinceId, Option<RegionId>)>,
    /// The same for three capital letters (most names), indexed by them
    /// (`loc3_index`): the location's place in `locs` plus one, 0 for none.
    loc3: Vec<u16>,
    /// Per location (as `locs`): its province and region.
    loc_at: Vec<(ProvinceId, Option<RegionId>)>,
    /// Unit letter → unit type.
    pub letters: Vec<(char, dip_core::UnitTypeId)>,
    /// The order texts listed so far in games of this variant.
    pub orders: Mutex<OrderTable>,
}

impl VariantData {
    /// The province and, for a coast, the region of a location name as
    /// MILA writes it (`PAR`, `STP/SC`).
    pub fn loc(&self, name: &str) -> Option<(ProvinceId, Option<RegionId>)> {
        if let Some(i) = loc3_index(name.as_bytes()) {
            return match self.loc3.get(i).copied().unwrap_or(0) {
                0 => None,
                at => Some(self.loc_at[at as usize - 1]),
            };
        }
        match pack(name) {
            Some(c) => self.loc_codes.get(&c).copied(),
            None => self.loc_index.get(name).copied(),
        }
    }
}

impl VariantData {
    /// The place in `locs` of the location a listed order names first
    /// (`PAR` in `A PAR - BUR`, `STP/SC` in `F STP/SC H`), if any.
    pub fn order_loc(&self, text: &str) -> Option<usize> {
        let b = text.as_bytes();
        let rest = b.get(2..)?;
        let end = rest.iter().position(|&c| c == b' ').unwrap_or(rest.len());
        let name = &rest[..end];
        if let Some(i) = loc3_index(name) {
            return match self.loc3.get(i).copied().unwrap_or(0) {
                0 => None,
                at => Some(at as usize - 1),
            };
        }
        let (p, r) = self.loc(std::str::from_utf8(name).ok()?)?;
        match r {
            Some(r) => self.coast_loc.get(r.index()).copied().flatten(),
            None => Some(p.index()),
        }
    }
}

/// MILA map names that dip calls otherwise.
fn dip_name(mila: &str) -> &str {
    match mila {
        "standard_fleet_rome" => "fleetrome",
        other => other,
    }
}

/// MILA's maps of two powers on the standard board (webDiplomacy's
/// one-against-one games): the abbreviations of the powers played; the
/// others are left out, their home centres unowned and without a home.
fn mila_two_powers(name: &str) -> Option<[&'static str; 2]> {
    match name {
        "standard_france_austria" => Some(["AUS", "FRA"]),
        "standard_germany_italy" => Some(["GER", "ITA"]),
        _ => None,
    }
}

/// The bundled standard variant's text with only the powers `keep`.
fn standard_for_two(keep: [&str; 2]) -> String {
    let text = dip_variants::bundled()
        .iter()
        .find(|(n, _)| *n == "standard")
        .map_or("", |(_, t)| *t);
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let mut words = line.split_whitespace();
        let (first, second) = (words.next(), words.next());
        match (first, second) {
            (Some("power" | "unit-at" | "owner"), Some(p)) if !keep.contains(&p) => continue,
            (Some("province"), _) => {
                let kept: Vec<&str> = line
                    .split(' ')
                    .filter(|w| w.strip_prefix("home=").is_none_or(|p| keep.contains(&p)))
                    .collect();
                out.push_str(&kept.join(" "));
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// The variant `name` (a MILA map name, a bundled dip variant, or a path
/// to a variant file), loaded on first use.
pub fn variant(name: &str) -> Result<&'static VariantData, String> {
    static CACHE: OnceLock<Mutex<HashMap<String, &'static VariantData>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(v) = cache.get(name) {
        return Ok(v);
    }
    let var = match mila_two_powers(name) {
        Some(keep) => dip_variants::parse(&standard_for_two(keep), &format!("{name} (the standard map)")),
        None => dip_variants::load(dip_name(name)),
    }
    .map_err(|e| e.to_string())?;
    // One map per variant for the whole process: games share it.
    let words = var.word_lists();
    let map: &'static Map = Box::leak(Box::new(var.map));
    // The variant's own words (other spellings of powers, unit types and
    // order words), as dip's order reader takes them.
    let mut vocab = Vocabulary::new(map).with_spellcheck(0);
    let _ = vocab.apply_lists(&words, true);
    let upper = |s: &str| s.to_ascii_uppercase();
    let prov_names: Vec<String> = map.province_ids().map(|p| upper(&map.province(p).abbr)).collect();
    let region_names: Vec<String> = (0..map.num_regions())
        .map(|r| upper(&map.region_name(RegionId(r as u16))))
        .collect();
    let mut locs = prov_names.clone();
    for p in map.province_ids() {
        for &r in map.coasts(p) {
            if map.region(r).coast.is_some() {
                locs.push(region_names[r.index()].clone());
            }
        }
    }
    let unit_names = map
        .unit_type_ids()
        .map(|k| {
            region_names
                .iter()
                .map(|r| format!("{} {r}", map.unit_type(k).letter))
                .collect()
        })
        .collect();
    let lands = map
        .unit_type_ids()
        .map(|k| {
            (0..map.num_regions())
                .map(|r| {
                    let mut l: Vec<ProvinceId> = Vec::new();
                    for e in map.edges(k, RegionId(r as u16)) {
                        let q = map.province_of(e.to);
                        if !l.contains(&q) {
                            l.push(q);
                        }
                    }
                    l.into_boxed_slice()
                })
                .collect()
        })
        .collect();
    let coast_loc = (0..map.num_regions())
        .map(|r| {
            let r = RegionId(r as u16);
            map.region(r)
                .coast
                .as_ref()
                .and_then(|_| locs.iter().position(|l| *l == region_names[r.index()]))
        })
        .collect();
    let mut loc_index = HashMap::new();
    for p in map.province_ids() {
        loc_index.insert(prov_names[p.index()].clone(), (p, None));
        for &r in map.coasts(p) {
            if map.region(r).coast.is_some() {
                loc_index.insert(region_names[r.index()].clone(), (p, Some(r)));
            }
        }
    }
    let letters = map
        .unit_type_ids()
        .map(|k| (map.unit_type(k).letter.to_ascii_uppercase(), k))
        .collect();
    let loc_codes = loc_index
        .iter()
        .filter_map(|(name, &at)| pack(name).map(|c| (c, at)))
        .collect();
    let loc_at: Vec<(ProvinceId, Option<RegionId>)> = locs.iter().map(|l| loc_index[l]).collect();
    let mut loc3 = vec![0u16; 26 * 26 * 26];
    for (i, l) in locs.iter().enumerate() {
        if let Some(k) = loc3_index(l.as_bytes()) {
            loc3[k] = i as u16 + 1;
        }
    }
    let mut by_name: Vec<ProvinceId> = map.province_ids().collect();
    by_name.sort_by(|a, b| prov_names[a.index()].cmp(&prov_names[b.index()]));
    let data = VariantData {
        orders: Mutex::new(OrderTable::default()),
        unit_names,
        lands,
        coast_loc,
        split: map.province_ids().map(|p| !map.coasts(p).is_empty()).collect(),
        name_rank: {
            let mut rank = vec![0u32; by_name.len()];
            for (k, p) in by_name.iter().enumerate() {
                rank[p.index()] = k as u32;
            }
            rank
        },
        by_name,
        loc_index,
        loc_codes,
        loc3,
        loc_at,
        letters,
        name: name.to_string(),
        map,
        vocab,
        start: var.start,
        rules: var.rules,
        // MILA writes `BRITISHCOLUMBIA` for `British-Columbia`.
        powers: map
            .powers()
            .iter()
            .map(|p| upper(&p.name).replace(['-', ' ', '_'], ""))
            .collect(),
        locs,
        prov_names,
        region_names,
    };
    let data: &'static VariantData = Box::leak(Box::new(data));
    data.orders.lock().unwrap_or_else(|e| e.into_inner()).prefill(data);
    cache.insert(name.to_string(), data);
    Ok(data)
}

/// Convoy facts of one army, which depend only on the map, the army's
/// province, type and region, and the fleets it can reach: the provinces
/// it may be convoyed to, each (fleet, destination) convoy order that
/// dip's checks accept, and where a route goes without each fleet (the
/// fleet may support the army's move there), with the orders' numbers.
/// Searching routes is most of the cost of listing legal orders, and
/// fleets change less often than the rest.
#[derive(Debug, Default)]
struct ConvoyFacts {
    moves: Vec<ProvinceId>,
    /// The numbers of the moves by convoy to `moves` (`A LON - NWY VIA`).
    move_ids: Vec<u32>,
    /// Per fleet: the destinations it may convoy the army to.
    convoys: Vec<(ProvinceId, Vec<ProvinceId>)>,
    /// Per entry of `convoys`: the fleet's unit type and region when the
    /// facts were made, and the numbers of those convoy orders.
    convoy_ids: Vec<(UnitTypeId, RegionId, Vec<u32>)>,
    /// Per fleet in reach: the places of `moves` that a route still
    /// reaches without it (DATC 6.D.31: a fleet cannot both convoy and
    /// support).
    without: Vec<(ProvinceId, Vec<ProvinceId>)>,
}

impl ConvoyFacts {
    /// May a unit in `supporter` support the army's move by convoy to `d`?
    /// (The route must not need the supporter.)
    fn supported_to(&self, supporter: ProvinceId, d: ProvinceId) -> bool {
        match self.without.iter().find(|(f, _)| *f == supporter) {
            Some((_, reached)) => reached.contains(&d),
            None => self.moves.contains(&d),
        }
    }
}

type ConvoyMemo = (UnitTypeId, RegionId, [u64; 4], u64, Arc<ConvoyFacts>);

/// Map, rules, army province, army type and region, fleets in reach: as a
/// set of provinces when the map has at most 256 (no allocation), else listed.
type ConvoyKey = (usize, u64, u16, u8, u16, [u64; 4], Vec<u16>);
static CONVOYS: OnceLock<Mutex<FxMap<ConvoyKey, Arc<ConvoyFacts>>>> = OnceLock::new();
const CONVOYS_MAX: usize = 1 << 16;

/// One order as given to a power.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The unit (`A PAR`, `F STP/SC`), or for a build the province.
    pub key: Name,
    /// As `get_orders` gives it back.
    pub text: Name,
    pub order: Option<Order>,
    /// Refused, but kept: reported `void` (NO_CHECK, retreats, adjustments).
    pub void: bool,
}

impl Entry {
    /// Does `get_orders` list it? Not when void, nor a WAIVE.
    pub fn shown(&self) -> bool {
        !self.void && !matches!(self.order.map(|o| o.kind), Some(OrderKind::Waive))
    }
}

/// The legal orders of the current phase, computed once.
#[derive(Debug, Default)]
pub struct Possible {
    /// The orders of every location, one location after another: numbers
    /// in the variant's `OrderTable`.
    ids: Vec<u32>,
    /// Per location (as `VariantData::locs`): where its orders are in `ids`
    /// (a coast shares its province's).
    spans: Vec<(u32, u32)>,
    /// The locations each power can order, power after power, each
    /// power's by name (provinces: their index in `VariantData::locs`
    /// too); each power's span of them.
    orderable: Vec<ProvinceId>,
    orderable_span: Vec<(u32, u32)>,
}

impl Possible {
    /// The locations power `p` can order, by name.
    pub fn orderable(&self, p: PowerId) -> &[ProvinceId] {
        self.orderable_span
            .get(p.index())
            .map_or(&[], |&(a, b)| &self.orderable[a as usize..b as usize])
    }

    /// The order numbers of location `i`.
    pub fn ids(&self, i: usize) -> &[u32] {
        self.spans
            .get(i)
            .map_or(&[], |&(start, len)| &self.ids[start as usize..(start + len) as usize])
    }

    /// The orders of location `i`, as text.
    pub fn orders(&self, v: &VariantData, i: usize) -> Vec<String> {
        let table = v.orders.lock().unwrap_or_else(|e| e.into_inner());
        self.ids(i)
            .iter()
            .map(|&id| table.texts[id as usize].to_string())
            .collect()
    }
}

/// Buffers `movement_orders` fills anew for each position, kept between
/// calls so that listing legal orders allocates nothing once warm.
#[derive(Default)]
struct Scratch {
    units: Vec<(ProvinceId, Unit)>,
    /// Per unit, the provinces beyond the fleets it reaches (a span of `sea`)
    /// and those fleets (a span of `fleets`), and its convoy facts.
    sea: Vec<ProvinceId>,
    sea_span: Vec<(u32, u32)>,
    /// Per unit, the provinces of its `sea` beyond its own borders.
    beyond: Vec<ProvinceId>,
    beyond_span: Vec<(u32, u32)>,
    fleets: Vec<ProvinceId>,
    fleet_span: Vec<(u32, u32)>,
    facts: Vec<Option<Arc<ConvoyFacts>>>,
    seen: dip_core::ids::BitSet,
    shores: dip_core::ids::BitSet,
    stack: Vec<ProvinceId>,
    /// Who can move into each province (see `movement_orders`).
    start: Vec<u32>,
    fill: Vec<u32>,
    reach: Vec<(u32, u16)>,
    unit_at: Vec<u32>,
    /// The armies each fleet could convoy, by the fleet's province (see
    /// `movement_orders`).
    convoyed: Vec<u32>,
    conv_start: Vec<u32>,
    /// By province: its group of touching convoy spaces with a unit able to
    /// convoy (`u32::MAX`: none); each group's provinces, a span of `members`.
    group: Vec<u32>,
    members: Vec<ProvinceId>,
    member_span: Vec<(u32, u32)>,
    /// By group: its shores (a span of `group_shores`).
    group_shores: Vec<ProvinceId>,
    shore_span: Vec<(u32, u32)>,
    /// By province: the convoy facts of the army found there last, with
    /// its type, region, fleets in reach and the rules' hash.
    memo: Vec<Option<ConvoyMemo>>,
    /// Per unit: its province, the unit, its span of the orders listed.
    out: Vec<(ProvinceId, Unit, (u32, u32))>,
}

/// A copy of a game starts with empty buffers.
impl Clone for Scratch {
    fn clone(&self) -> Self {
        Scratch::default()
    }
}

/// What the last `process` did.
#[derive(Clone, Debug, Default)]
pub struct Processed {
    /// Units destroyed: dislodged without a retreat, or disbanded.
    pub popped: Vec<String>,
    /// The orders adjudicated: unit, order.
    pub given: Vec<(Name, Name)>,
    /// The units that had an order, power by power.
    pub ordered_units: Vec<(PowerId, Name)>,
    /// Dislodged unit → where its attacker came from.
    pub dislodged: Vec<(String, String)>,
}

/// One phase played.
#[derive(Clone, Debug)]
pub struct PhaseRecord {
    pub name: String,
    pub state: State,
    pub seq: Vec<u64>,
    /// The orders kept, power by power.
    pub orders: Vec<(PowerId, Name)>,
    pub results: Vec<(Name, Tags)>,
}

impl PhaseRecord {
    /// The orders power `p` had kept.
    pub fn orders_of(&self, p: PowerId) -> impl Iterator<Item = &Name> + '_ {
        self.orders.iter().filter(move |(q, _)| *q == p).map(|(_, o)| o)
    }
}

/// A game: a position, the orders given so far, the phases played.
#[derive(Clone)]
pub struct Game {
    pub v: &'static VariantData,
    pub rules: Ruleset,
    pub no_check: bool,
    /// MILA's `expand` of the current `set_orders` call: when off, a
    /// support keeps the coast it names, which must then be the move's.
    pub expand: bool,
    pub state: State,
    /// Order of placement per province, so that `get_units` lists units
    /// in the order they were set.
    seq: Vec<u64>,
    /// The same for centres (set by `set_centers`; else alphabetical).
    center_seq: Vec<u64>,
    next_seq: u64,
    orders: Vec<Vec<Entry>>,
    possible: Option<Arc<Possible>>,
    scratch: Scratch,
    /// Bumped on every change.
    pub generation: u64,
    /// Bumped when the position changes (legal orders with it); the
    /// bindings cache the legal orders against it.
    pub position_gen: u64,
    pub last: Processed,
    pub history: Vec<PhaseRecord>,
    /// `COMPLETED`: no more phases.
    pub done: bool,
    pub outcome: Vec<String>,
    /// Messages for orders and units refused (MILA's `game.error`).
    pub errors: Vec<String>,
    /// `Results::at` of the last phase processed, for the next.
    results_at: Vec<u32>,
}

impl Game {
    pub fn new(v: &'static VariantData) -> Game {
        let n = v.map.num_provinces();
        let mut rules = v.rules;
        // Where the DATC leaves a choice (section 4), MILA's: a support
        // names no coast it must match (4.B.4).
        let _ = rules.set("support-coast", "lenient");
        // A move to a neighbour goes by convoy only when the order says so
        // (`via`, which `convoy_intent` sets as MILA decides).
        let _ = rules.set("convoy-adjacent", "dptg");
        // Civil disorder counts the distance to home centres (4.D.8).
        let _ = rules.set("civil-disorder", "1971");
        let mut g = Game {
            v,
            rules,
            no_check: false,
            expand: true,
            state: v.start.clone(),
            seq: vec![0; n],
            center_seq: vec![0; n],
            next_seq: 1,
            orders: vec![Vec::new(); v.powers.len()],
            possible: None,
            scratch: Scratch::default(),
            generation: 0,
            position_gen: 0,
            last: Processed::default(),
            history: Vec::new(),
            done: false,
            outcome: Vec::new(),
            errors: Vec::new(),
            results_at: Vec::new(),
        };
        let provs: Vec<ProvinceId> = g.state.units().map(|(p, _)| p).collect();
        for p in provs {
            g.stamp(p);
        }
        g
    }

    fn stamp(&mut self, p: ProvinceId) {
        self.seq[p.index()] = self.next_seq;
        self.next_seq += 1;
    }

    pub fn map(&self) -> &'static Map {
        self.v.map
    }

    /// Something changed: legal orders must be computed again.
    pub fn touch(&mut self) {
        self.possible = None;
        self.generation += 1;
        self.position_gen += 1;
    }

    pub fn power(&self, name: &str) -> Result<PowerId, String> {
        // As MILA writes it (no copy to make).
        if let Some(i) = self.v.powers.iter().position(|p| same(p, name)) {
            return Ok(PowerId(i as u8));
        }
        let up = name.trim().to_ascii_uppercase();
        self.v
            .powers
            .iter()
            .position(|p| *p == up)
            .map(|i| PowerId(i as u8))
            .or_else(|| self.map().find_power(name.trim()))
            .ok_or_else(|| format!("unknown power `{name}`; this map has {}", self.v.powers.join(", ")))
    }

    pub fn phase_name(&self) -> String {
        if self.done {
            "COMPLETED".into()
        } else {
            short_phase(&self.state.phase)
        }
    }

    pub fn set_phase(&mut self, name: &str) -> Result<(), String> {
        if name.trim().eq_ignore_ascii_case("COMPLETED") {
            self.done = true;
            self.touch();
            return Ok(());
        }
        let p = parse_phase(name.trim())
            .or_else(|| parse_long_phase(name.trim()))
            .ok_or_else(|| format!("unknown phase `{name}` (expected e.g. S1901M or SPRING 1901 MOVEMENT)"))?;
        self.state.phase = p;
        self.done = false;
        self.touch();
        Ok(())
    }

    // ---- names -----------------------------------------------------------

    pub fn unit_key(&self, u: &Unit) -> String {
        self.unit_name(u).to_string()
    }

    /// `A PAR`, `F STP/SC`: the variant's own string.
    pub fn unit_name(&self, u: &Unit) -> &'static str {
        let v: &'static VariantData = self.v;
        &v.unit_names[u.kind.index()][u.region.index()]
    }

    fn unit_key_at(&self, p: ProvinceId) -> Option<Name> {
        self.state.unit(p).map(|u| Name::Borrowed(self.unit_name(&u)))
    }

    fn dislodged_key_at(&self, p: ProvinceId) -> Option<Name> {
        self.state.dislodged(p).map(|d| Name::Borrowed(self.unit_name(&d.unit)))
    }

    fn place(&self, p: ProvinceId, c: CoastSpec) -> String {
        match c {
            CoastSpec::Coast(r) => self.v.region_names[r.index()].clone(),
            _ => self.v.prov_names[p.index()].clone(),
        }
    }

    /// The unit an order names, as MILA writes it: with its actual coast.
    fn unit_ref(&self, u: &UnitRef, dislodged: bool) -> String {
        let actual = if dislodged {
            self.state.dislodged(u.province).map(|d| d.unit)
        } else {
            self.state.unit(u.province)
        };
        match actual {
            Some(a) if u.kind.is_none_or(|k| k == a.kind) => self.unit_key(&a),
            _ => {
                let letter = u.kind.map(|k| self.map().unit_type(k).letter).unwrap_or('A');
                format!("{letter} {}", self.place(u.province, u.coast))
            }
        }
    }

    /// An order in MILA's syntax: `A PAR - BUR`, `F NTH C A LON - NWY`.
    pub fn order_text(&self, o: &Order) -> String {
        let retreat = self.state.phase.kind == PhaseKind::Retreat;
        let dest = |d: &Dest| self.place(d.province, d.coast);
        match &o.kind {
            OrderKind::Hold(u) => format!("{} H", self.unit_ref(u, false)),
            OrderKind::Move(u, d, via) => format!(
                "{} - {}{}",
                self.unit_ref(u, false),
                dest(d),
                if *via { " VIA" } else { "" }
            ),
            OrderKind::SupportHold(u, t) => format!("{} S {}", self.unit_ref(u, false), self.unit_ref(t, false)),
            OrderKind::SupportMove(u, t, d) => format!(
                "{} S {} - {}",
                self.unit_ref(u, false),
                self.unit_ref(t, false),
                self.place(d.province, d.coast)
            ),
            OrderKind::Convoy(u, t, d) => format!(
                "{} C {} - {}",
                self.unit_ref(u, false),
                self.unit_ref(t, false),
                self.v.prov_names[d.province.index()]
            ),
            OrderKind::Retreat(u, d) => format!("{} R {}", self.unit_ref(u, true), dest(d)),
            OrderKind::Disband(u) => format!("{} D", self.unit_ref(u, retreat)),
            OrderKind::Build(u) => {
                let letter = u.kind.map(|k| self.map().unit_type(k).letter).unwrap_or('A');
                format!("{letter} {} B", self.place(u.province, u.coast))
            }
            OrderKind::Waive => "WAIVE".into(),
        }
    }

    /// The key an order is filed under (one order per key).
    fn key_of(&self, o: &Order, text: &str) -> Name {
        let retreat = self.state.phase.kind == PhaseKind::Retreat;
        let v: &'static VariantData = self.v;
        match o.kind {
            OrderKind::Waive => Name::Owned(format!("WAIVE {}", self.orders[o.power.index()].len())),
            OrderKind::Build(u) => Name::Borrowed(&v.prov_names[u.province.index()]),
            _ => {
                let p = o.unit().map(|u| u.province);
                let found = p.and_then(|p| {
                    if retreat {
                        self.dislodged_key_at(p)
                    } else {
                        self.unit_key_at(p)
                    }
                });
                found.unwrap_or_else(|| Name::Owned(first_two(text)))
            }
        }
    }

    // ---- units and centres -------------------------------------------------

    /// Units of a power in the order they were placed; dislodged ones with `*`.
    pub fn units(&self, power: PowerId) -> Vec<String> {
        let mut v: Vec<(u64, String)> = self
            .state
            .units()
            .filter(|(_, u)| u.power == power)
            .map(|(p, u)| (self.seq[p.index()], self.unit_key(&u)))
            .collect();
        v.sort();
        v.into_iter().map(|(_, s)| s).collect()
    }

    /// Dislodged units of a power with the places each may retreat to.
    pub fn retreats(&self, power: PowerId) -> Vec<(String, Vec<String>)> {
        self.state
            .all_dislodged()
            .filter(|(_, d)| d.unit.power == power)
            .map(|(_, d)| {
                let to = dip_core::retreat::retreat_options(self.map(), &self.state, &self.rules, &d)
                    .into_iter()
                    .map(|r| {
                        if self.map().unit_type(d.unit.kind).uses_coasts {
                            self.v.region_names[r.index()].clone()
                        } else {
                            self.v.prov_names[self.map().province_of(r).index()].clone()
                        }
                    })
                    .collect();
                (self.unit_key(&d.unit), to)
            })
            .collect()
    }

    fn parse_unit(&self, power: PowerId, text: &str) -> Result<Unit, String> {
        dip_text::position::parse_unit_of(&self.v.vocab, Some(power), text)
    }

    /// MILA's `set_units`: units replace whatever stood there; `*A GAS`
    /// is a dislodged unit; units that cannot stand there are refused.
    pub fn set_units(&mut self, power: PowerId, units: &[String], reset: bool) {
        let map = self.map();
        if reset {
            let mine: Vec<ProvinceId> = self
                .state
                .units()
                .filter(|(_, u)| u.power == power)
                .map(|(p, _)| p)
                .collect();
            for p in mine {
                self.state.remove(p);
            }
            let gone: Vec<ProvinceId> = self
                .state
                .all_dislodged()
                .filter(|(_, d)| d.unit.power == power)
                .map(|(p, _)| p)
                .collect();
            for p in gone {
                self.state.take_dislodged(p);
            }
        }
        for text in units {
            let t = text.trim();
            if t.is_empty() {
                continue;
            }
            let (dislodged, body) = match t.strip_prefix('*') {
                Some(rest) => (true, rest),
                None => (false, t),
            };
            match self.parse_unit(power, body) {
                Ok(u) => {
                    let p = map.province_of(u.region);
                    if dislodged {
                        self.state.set_dislodged(
                            map,
                            dip_core::Dislodged {
                                unit: u,
                                attacker_from: p,
                                by_convoy: false,
                            },
                        );
                    } else {
                        self.state.remove(p);
                        self.state.place(map, u);
                        self.stamp(p);
                    }
                }
                Err(e) => self.errors.push(e),
            }
        }
        if self.state.phase.kind == PhaseKind::Retreat {
            self.open_every_retreat();
        }
        self.touch();
    }

    /// MILA's `set_units` in a retreat phase lists, for every dislodged
    /// unit of every power, each unoccupied neighbour as a retreat: where
    /// attackers came from and standoffs are forgotten.
    fn open_every_retreat(&mut self) {
        let map = self.map();
        self.state.standoffs.clear();
        let all: Vec<(ProvinceId, dip_core::Dislodged)> = self.state.all_dislodged().collect();
        for (p, mut d) in all {
            d.attacker_from = p;
            d.by_convoy = false;
            self.state.set_dislodged(map, d);
        }
    }

    /// Puts back MILA's lists of where each dislodged unit may retreat
    /// (`state['retreats']`: unit → locations), which dip keeps as where
    /// each attacker came from and which provinces a standoff left empty.
    /// A neighbour the board leaves open but the list closes is a standoff
    /// when no dislodged unit may go there, else the attacker's origin.
    /// Units not listed keep every open neighbour (as `set_units` left them).
    pub fn restore_retreats(&mut self, allowed: &[(String, Vec<String>)]) {
        let map = self.map();
        self.open_every_retreat();
        let provinces = |rs: Vec<RegionId>| -> Vec<ProvinceId> {
            let mut ps: Vec<ProvinceId> = rs.into_iter().map(|r| map.province_of(r)).collect();
            ps.dedup();
            ps
        };
        // Every dislodged unit: where it stands, what the board leaves open
        // to it, what the list allows (None: not listed).
        let mut units: Vec<(ProvinceId, Vec<ProvinceId>, Option<Vec<ProvinceId>>)> = Vec::new();
        for (p, d) in self.state.all_dislodged() {
            let open = provinces(dip_core::retreat::retreat_options(map, &self.state, &self.rules, &d));
            let name = self.unit_name(&d.unit);
            let listed = allowed
                .iter()
                .find(|(u, _)| u.trim().eq_ignore_ascii_case(name))
                .map(|(_, locs)| {
                    locs.iter()
                        .filter_map(|l| self.v.loc(&l.trim().to_ascii_uppercase()).map(|(q, _)| q))
                        .collect()
                });
            units.push((p, open, listed));
        }
        // Provinces some dislodged unit may go to: no standoff there.
        let open_to_some = |q: ProvinceId| {
            units
                .iter()
                .any(|(_, open, listed)| open.contains(&q) && listed.as_ref().is_none_or(|l| l.contains(&q)))
        };
        let mut standoffs: Vec<ProvinceId> = Vec::new();
        let mut origins: Vec<(ProvinceId, ProvinceId)> = Vec::new();
        for (p, open, listed) in &units {
            let Some(listed) = listed else { continue };
            let closed: Vec<ProvinceId> = open.iter().copied().filter(|q| !listed.contains(q)).collect();
            let origin = closed
                .iter()
                .copied()
                .find(|&q| open_to_some(q))
                .or_else(|| (closed.len() == 1).then(|| closed[0]));
            if let Some(o) = origin {
                origins.push((*p, o));
            }
            standoffs.extend(closed.into_iter().filter(|&q| Some(q) != origin));
        }
        for q in standoffs {
            self.state.standoffs.insert(q.index());
        }
        for (p, from) in origins {
            if let Some(mut d) = self.state.dislodged(p) {
                d.attacker_from = from;
                self.state.set_dislodged(map, d);
            }
        }
        self.touch();
    }

    pub fn clear_units(&mut self, power: Option<PowerId>) {
        let all: Vec<ProvinceId> = self
            .state
            .units()
            .filter(|(_, u)| power.is_none_or(|p| u.power == p))
            .map(|(p, _)| p)
            .collect();
        for p in all {
            self.state.remove(p);
        }
        let gone: Vec<ProvinceId> = self
            .state
            .all_dislodged()
            .filter(|(_, d)| power.is_none_or(|p| d.unit.power == p))
            .map(|(p, _)| p)
            .collect();
        for p in gone {
            self.state.take_dislodged(p);
        }
        self.touch();
    }

    pub fn centers(&self, power: PowerId) -> Vec<String> {
        let mut v: Vec<(u64, String)> = self
            .state
            .centers_of(self.map(), power)
            .map(|p| (self.seq_center(p), self.v.prov_names[p.index()].clone()))
            .collect();
        v.sort();
        v.into_iter().map(|(_, s)| s).collect()
    }

    fn seq_center(&self, p: ProvinceId) -> u64 {
        // Centres are listed alphabetically unless set one by one.
        self.center_seq.get(p.index()).copied().unwrap_or(0)
    }

    pub fn homes(&self, power: PowerId) -> Vec<String> {
        self.map()
            .supply_centers()
            .iter()
            .filter(|&&p| self.map().is_home(p, power))
            .map(|&p| self.v.prov_names[p.index()].clone())
            .collect()
    }

    /// MILA's `set_centers`: names that are not supply centres are refused.
    pub fn set_centers(&mut self, power: PowerId, centers: &[String], reset: bool) {
        let map = self.map();
        if reset {
            let mine: Vec<ProvinceId> = self.state.centers_of(map, power).collect();
            for p in mine {
                self.state.set_owner(p, None);
            }
        }
        for c in centers {
            let c = c.trim();
            match map.find_province(c) {
                Some(p) if map.province(p).supply_center => {
                    self.state.set_owner(p, Some(power));
                    self.center_seq[p.index()] = self.next_seq;
                    self.next_seq += 1;
                }
                _ => self.errors.push(format!("`{c}` is not a supply centre")),
            }
        }
        self.touch();
    }

    pub fn clear_centers(&mut self, power: Option<PowerId>) {
        for &sc in self.map().supply_centers() {
            if power.is_none_or(|p| self.state.owner(sc) == Some(p)) {
                self.state.set_owner(sc, None);
            }
        }
        self.touch();
    }
}

/// Are two names the same? Names borrowed from the variant or its order
/// table are mostly the very same text, which is seen without reading it.
fn same(a: &str, b: &str) -> bool {
    if a.len() != b.len() {
        return false;
    }
    if a.as_ptr() == b.as_ptr() {
        return true;
    }
    // Short names differ early: compared here rather than by a call.
    a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}

fn first_two(text: &str) -> String {
    text.split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_uppercase()
}

impl Game {
    // ---- orders ------------------------------------------------------------

    /// MILA's `set_orders`: each order is read, checked and filed under its
    /// unit; `replace` says whether it replaces an earlier order of the unit.
    pub fn set_orders<S: AsRef<str>>(&mut self, power: PowerId, texts: &[S], replace: bool) {
        self.set_orders_known(power, texts, &[], replace);
    }

    /// As [`set_orders`](Self::set_orders), where `known[k]`, if there and
    /// not `u32::MAX`, is the number of `texts[k]` in the variant's table,
    /// found by the caller among the legal orders listed for this position.
    pub fn set_orders_known<S: AsRef<str>>(&mut self, power: PowerId, texts: &[S], known: &[u32], replace: bool) {
        if self.state.phase.kind != PhaseKind::Movement {
            self.set_list_orders(power, texts, known, replace);
            return;
        }
        // Listed orders are looked up in the variant's table (locked once
        // for the call; `add_order` takes nothing else that locks it).
        let v: &'static VariantData = self.v;
        let mut table = self
            .possible
            .is_some()
            .then(|| v.orders.lock().unwrap_or_else(|e| e.into_inner()));
        for (k, t) in texts.iter().enumerate() {
            let t = t.as_ref().trim();
            if !t.is_empty() {
                let found = table.as_mut().and_then(|table| match known.get(k) {
                    Some(&id) if id != u32::MAX => table.entry(v, id),
                    _ => table.find(v, t),
                });
                self.add_order(power, t, found, replace);
            }
        }
        self.generation += 1;
    }

    /// MILA's reading of the coast a support names (4.B.4): none for an
    /// army's move; a fleet supporting a fleet gets the coast the supported
    /// fleet can reach (none when it can reach several); an army keeping the
    /// coast it names, which must then be the move's.
    fn support_coast(&self, o: &mut Order) {
        let OrderKind::SupportMove(u, t, d) = o.kind else {
            return;
        };
        if !matches!(d.coast, CoastSpec::Coast(_)) {
            return;
        }
        let map = self.map();
        let (Some(me), Some(them)) = (self.state.unit(u.province), self.state.unit(t.province)) else {
            return;
        };
        let fleet = |x: &Unit| map.unit_type(x.kind).uses_coasts;
        let to = if !fleet(&them) {
            Dest::new(d.province)
        } else if fleet(&me) {
            let coasts: Vec<RegionId> = map
                .edges(them.kind, them.region)
                .iter()
                .map(|e| e.to)
                .filter(|&r| map.province_of(r) == d.province && map.region(r).coast.is_some())
                .collect();
            match coasts.as_slice() {
                [one] => Dest::coast(d.province, *one),
                _ => Dest::new(d.province),
            }
        } else {
            d
        };
        o.kind = OrderKind::SupportMove(u, t, to);
    }

    /// Files order `text`; `found` is what the variant's table knows of it
    /// (when legal orders are listed for the position).
    fn add_order(
        &mut self,
        power: PowerId,
        text: &str,
        found: Option<(u32, Option<OrderKind>, &'static str)>,
        replace: bool,
    ) {
        let kind = self.state.phase.kind;
        let read = match found {
            Some((_, k, _)) => k.map(|k| Order::new(power, k)),
            None => self.read_mila(text, power),
        };
        let mut fast = read;
        if let Some(o) = &mut fast {
            if self.expand {
                self.support_coast(o);
            }
        }
        if let (Some(o), Some((id, _, own))) = (fast.filter(|o| Some(*o) == read), found) {
            if self.listed(&o, id) {
                // One of the legal orders, written as `get_all_possible_orders`
                // writes it: nothing to check or rewrite.
                let key = self.key_of(&o, text);
                let entry = Entry {
                    key,
                    text: Name::Borrowed(own),
                    order: Some(o),
                    void: false,
                };
                self.file(power, entry, replace);
                return;
            }
        }
        let (order, legal) = match fast {
            Some(o) if kind == PhaseKind::Movement => {
                let problem = self.problem(&o);
                if let Some(e) = &problem {
                    self.errors.push(format!("order `{text}`: {e}"));
                }
                (o, problem.is_none())
            }
            _ => match parse_order_with(&self.v.vocab, text, Some(power)) {
                Ok(mut o) => {
                    if self.expand {
                        self.support_coast(&mut o);
                    }
                    let problem = self.problem(&o);
                    if let Some(e) = &problem {
                        self.errors.push(format!("order `{text}`: {e}"));
                    }
                    (o, problem.is_none())
                }
                Err(e) => {
                    self.errors.push(format!("order `{text}`: {e}"));
                    if self.no_check || kind != PhaseKind::Movement {
                        let key = Name::Owned(first_two(text));
                        self.file(
                            power,
                            Entry {
                                key,
                                text: Name::Owned(text.to_string()),
                                order: None,
                                void: true,
                            },
                            replace,
                        );
                    }
                    return;
                }
            },
        };
        if !legal && kind == PhaseKind::Movement && !self.no_check {
            return;
        }

        let shown = if self.no_check {
            text.to_string()
        } else {
            self.order_text(&order)
        };
        let key = self.key_of(&order, &shown);
        let void = !legal && kind != PhaseKind::Movement;
        self.file(
            power,
            Entry {
                key,
                text: Name::Owned(shown),
                order: Some(order),
                void,
            },
            replace,
        );
    }

    /// Is this order (numbered `id` in the variant's table) one of the
    /// cached legal orders of the order's unit (or build site), and the
    /// unit (or site) the ordering power's?
    fn listed(&self, o: &Order, id: u32) -> bool {
        let Some(possible) = &self.possible else {
            return false;
        };
        let Some(u) = o.unit() else {
            return false;
        };
        let p = u.province;
        let owner = match (self.state.phase.kind, o.kind) {
            (PhaseKind::Retreat, _) => self.state.dislodged(p).map(|d| d.unit.power),
            (PhaseKind::Adjustment, OrderKind::Build(_)) => self.state.owner(p),
            _ => self.state.unit(p).map(|x| x.power),
        };
        owner == Some(o.power) && possible.ids(p.index()).contains(&id)
    }

    /// Why the order would be refused in this phase, if it would.
    fn problem(&self, o: &Order) -> Option<String> {
        let map = self.map();
        match self.state.phase.kind {
            PhaseKind::Movement => dip_core::movement::order_problem(map, &self.state, &self.rules, o)
                .err()
                .map(|e| e.describe().to_string()),
            _ => {
                let out = game::adjudicate(map, &self.state, std::slice::from_ref(o), &self.rules);
                match out.orders().first().map(|r| r.verdict) {
                    Some(Verdict::Illegal(e)) => Some(e.describe().to_string()),
                    Some(Verdict::Duplicate) => Some("not executed".into()),
                    _ => None,
                }
            }
        }
    }

    /// Files a movement order under its unit.
    fn file(&mut self, power: PowerId, e: Entry, replace: bool) {
        let movement = self.state.phase.kind == PhaseKind::Movement;
        let list = &mut self.orders[power.index()];
        let exists = list.iter().any(|x| same(&x.key, &e.key));
        if exists {
            if replace {
                list.retain(|x| !same(&x.key, &e.key));
            } else if !(self.no_check && movement) {
                return;
            }
        }
        list.push(e);
    }

    /// Orders of a power as `get_orders` gives them (refused ones and
    /// WAIVE hidden, as MILA does).
    pub fn orders(&self, power: PowerId) -> Vec<String> {
        self.orders[power.index()]
            .iter()
            .filter(|e| e.shown())
            .map(|e| e.text.to_string())
            .collect()
    }

    /// MILA's `power.adjust` in a retreat or adjustment phase: every
    /// entry, void ones as `VOID <order>`, WAIVEs included.
    pub fn adjust_list(&self, power: PowerId) -> Vec<String> {
        self.orders[power.index()]
            .iter()
            .map(|e| {
                if e.void {
                    format!("VOID {}", e.text)
                } else {
                    e.text.to_string()
                }
            })
            .collect()
    }

    /// (key, text) of each order a power has given, refused ones hidden.
    pub fn order_entries(&self, power: PowerId) -> Vec<(String, String)> {
        self.orders[power.index()]
            .iter()
            .filter(|e| e.shown())
            .map(|e| (e.key.to_string(), e.text.to_string()))
            .collect()
    }

    pub fn clear_orders(&mut self, power: Option<PowerId>) {
        for (i, list) in self.orders.iter_mut().enumerate() {
            if power.is_none_or(|p| p.index() == i) {
                list.clear();
            }
        }
        self.generation += 1;
    }

    /// Has every unit of the power that needs an order one?
    pub fn has_orders(&self, power: PowerId) -> bool {
        !self.orders[power.index()].is_empty()
    }

    // ---- legal orders ------------------------------------------------------

    /// Every legal order of the phase, computed once until something changes.
    pub fn possible(&mut self) -> Arc<Possible> {
        self.possible_ref();
        self.possible.clone().unwrap_or_default()
    }

    /// As [`possible`](Self::possible), borrowed.
    pub fn possible_ref(&mut self) -> &Possible {
        let p = match self.possible.take() {
            Some(p) => p,
            None => Arc::new(self.compute_possible()),
        };
        self.possible.insert(p)
    }

    fn compute_possible(&mut self) -> Possible {
        let map = self.map();
        let v = self.v;
        if self.done {
            return Possible::default();
        }
        let mut ids: Vec<u32> = Vec::with_capacity(640);
        let mut spans: Vec<(u32, u32)> = vec![(0, 0); v.locs.len()];
        // (power, location) in any order; sorted below.
        let mut orderable: Vec<(PowerId, ProvinceId)> = Vec::with_capacity(64);
        let mut ranked: Vec<u32> = Vec::with_capacity(64);
        let mut guard = v.orders.lock().unwrap_or_else(|e| e.into_inner());
        let table = &mut *guard;
        // Orders of the unit in `p` (standing in region `r`) go under the
        // province and, for a coast, under the coast too (the same span).
        let give = |spans: &mut Vec<(u32, u32)>, p: ProvinceId, r: RegionId, span: (u32, u32)| {
            spans[p.index()] = span;
            if let Some(i) = v.coast_loc[r.index()] {
                spans[i] = span;
            }
        };
        match self.state.phase.kind {
            PhaseKind::Movement => {
                let mut scratch = std::mem::take(&mut self.scratch);
                self.movement_orders(table, &mut scratch, &mut ids);
                for &(p, u, span) in &scratch.out {
                    orderable.push((u.power, p));
                    give(&mut spans, p, u.region, span);
                }
                self.scratch = scratch;
            }
            PhaseKind::Retreat => {
                for (p, d) in self.state.all_dislodged() {
                    orderable.push((d.unit.power, p));
                    let start = ids.len() as u32;
                    self.retreat_orders(table, p, &d, &mut ids);
                    give(&mut spans, p, d.unit.region, (start, ids.len() as u32 - start));
                }
            }
            PhaseKind::Adjustment => {
                // (location, order) in the order found; each location's
                // orders are then gathered in that order.
                let mut by_loc: Vec<(u32, u32)> = Vec::with_capacity(64);
                let coast_slot = |r: RegionId| -> Option<usize> { v.coast_loc[r.index()] };
                let waive = table.id(v, "WAIVE");
                for power in map.power_ids() {
                    let opts = dip_core::legal::adjustment_orders(map, &self.state, power);
                    let waives = opts.iter().any(|o| matches!(o.kind, OrderKind::Waive));
                    let mut locs: Vec<ProvinceId> = Vec::new();
                    for o in &opts {
                        let Some(u) = o.unit() else { continue };
                        let region = match (o.kind, u.coast) {
                            (OrderKind::Build(_), CoastSpec::Coast(r)) => Some(r),
                            (OrderKind::Disband(_), _) => self.state.unit(u.province).map(|x| x.region),
                            _ => None,
                        };
                        let id = self.adjustment_id(table, o);
                        by_loc.push((u.province.0 as u32, id));
                        if let Some(i) = region.and_then(coast_slot) {
                            by_loc.push((i as u32, id));
                        }
                        if !locs.contains(&u.province) {
                            locs.push(u.province);
                        }
                    }
                    if waives {
                        for &p in &locs {
                            by_loc.push((p.0 as u32, waive));
                            for &r in map.coasts(p) {
                                if let Some(i) = coast_slot(r) {
                                    by_loc.push((i as u32, waive));
                                }
                            }
                        }
                    }
                    orderable.extend(locs.iter().map(|&p| (power, p)));
                }
                by_loc.sort_by_key(|&(i, _)| i);
                for (k, &(i, id)) in by_loc.iter().enumerate() {
                    if k == 0 || by_loc[k - 1].0 != i {
                        spans[i as usize] = (ids.len() as u32, 0);
                    }
                    spans[i as usize].1 += 1;
                    ids.push(id);
                }
            }
        }
        // By power, then name: one number each (the power above the name's rank).
        ranked.extend(
            orderable
                .iter()
                .map(|&(power, p)| (power.0 as u32) << 24 | v.name_rank[p.index()]),
        );
        ranked.sort_unstable();
        let mut orderable_span = vec![(0u32, 0u32); v.powers.len()];
        for (k, &key) in ranked.iter().enumerate() {
            if let Some(span) = orderable_span.get_mut((key >> 24) as usize) {
                if span.1 == span.0 {
                    *span = (k as u32, k as u32);
                }
                span.1 += 1;
            }
        }
        Possible {
            ids,
            spans,
            orderable: ranked
                .iter()
                .map(|&key| v.by_name[(key & 0xff_ffff) as usize])
                .collect(),
            orderable_span,
        }
    }

    /// The retreats and the disband of the unit dislodged from `p`, in the
    /// order of `legal::legal_orders`, by the numbers the variant gave them
    /// when it loaded (the text is written only on maps too large for codes).
    fn retreat_orders(&self, table: &mut OrderTable, p: ProvinceId, d: &dip_core::Dislodged, ids: &mut Vec<u32>) {
        let map = self.map();
        let u = d.unit;
        let open = dip_core::retreat::retreat_options(map, &self.state, &self.rules, d);
        let slot = u.kind.index() * map.num_regions() + u.region.index();
        match table.retreats.get(slot).and_then(|r| r.as_ref()) {
            Some(by_edge) => {
                for (e, &id) in map.edges(u.kind, u.region).iter().zip(by_edge.iter()) {
                    if open.contains(&e.to) {
                        ids.push(id);
                    }
                }
                ids.push(table.disbands[slot]);
            }
            None => {
                for o in dip_core::legal::legal_orders(map, &self.state, &self.rules, p) {
                    ids.push(table.id(self.v, &self.order_text(&o)));
                }
                return;
            }
        }
        debug_assert!({
            let start = ids.len() - open.len() - 1;
            dip_core::legal::legal_orders(map, &self.state, &self.rules, p)
                .iter()
                .zip(&ids[start..])
                .all(|(o, &id)| table.texts[id as usize] == self.order_text(o))
        });
    }

    /// The number of a build or disband (or waive), from the variant's
    /// tables where they have it.
    fn adjustment_id(&self, table: &mut OrderTable, o: &Order) -> u32 {
        let map = self.map();
        let slot = |k: UnitTypeId, r: RegionId| k.index() * map.num_regions() + r.index();
        let found = match o.kind {
            OrderKind::Build(u) => u.kind.and_then(|k| {
                let r = match u.coast {
                    CoastSpec::Coast(r) => r,
                    _ => map.main_region(u.province),
                };
                table.builds.get(slot(k, r)).copied()
            }),
            OrderKind::Disband(u) => self
                .state
                .unit(u.province)
                .and_then(|x| table.disbands.get(slot(x.kind, x.region)).copied()),
            _ => None,
        };
        match found {
            Some(id) if id != u32::MAX => {
                debug_assert_eq!(table.texts[id as usize], self.order_text(o));
                id
            }
            _ => table.id(self.v, &self.order_text(o)),
        }
    }

    /// Every legal order of every unit in a movement phase, appended to
    /// `ids` as numbers of the variant's `OrderTable`; `s.out` gets each
    /// unit's province and span in `ids`. Candidates come from the map
    /// (neighbours, convoy reach, units that could be helped) and are kept
    /// only if dip's checks accept them, so the list and the adjudicator
    /// never disagree.
    fn movement_orders(&self, table: &mut OrderTable, s: &mut Scratch, ids: &mut Vec<u32>) {
        use dip_core::movement::check_order;
        let map = self.map();
        let v = self.v;
        let st = &self.state;
        let n = map.num_provinces();
        s.units.clear();
        s.units.extend(st.units());
        let units = &s.units;
        // Where each unit can go: by its own borders, and (armies) by convoy.
        if s.seen.is_empty() || s.shores.is_empty() {
            s.seen = dip_core::ids::BitSet::with_capacity(n);
            s.shores = dip_core::ids::BitSet::with_capacity(n);
        }
        s.sea.clear();
        s.sea_span.clear();
        s.fleets.clear();
        s.fleet_span.clear();
        s.facts.clear();
        let rules_hash = {
            use std::hash::{Hash, Hasher};
            let mut h = Fx::default();
            self.rules.hash(&mut h);
            h.finish()
        };
        // The process-wide cache, locked only when this game's memo misses.
        let mut cache = None;
        if s.memo.len() != n {
            s.memo = vec![None; n];
        }
        // The groups of convoy spaces holding a unit able to convoy that
        // touch one another: an army reaches every fleet of each group next
        // to it (`convoy::fleets_reachable`, found once for all armies).
        s.group.clear();
        s.group.resize(n, u32::MAX);
        s.members.clear();
        s.member_span.clear();
        for q in 0..n {
            let q = ProvinceId(q as u16);
            if s.group[q.index()] != u32::MAX || !dip_core::convoy::can_convoy_in(map, st, q) {
                continue;
            }
            let g = s.member_span.len() as u32;
            let start = s.members.len();
            s.group[q.index()] = g;
            s.members.push(q);
            let mut k = start;
            while k < s.members.len() {
                let f = s.members[k];
                k += 1;
                for x in map.convoy_neighbours(f).iter() {
                    let x = ProvinceId(x as u16);
                    if s.group[x.index()] == u32::MAX && dip_core::convoy::can_convoy_in(map, st, x) {
                        s.group[x.index()] = g;
                        s.members.push(x);
                    }
                }
            }
            s.member_span.push((start as u32, s.members.len() as u32));
        }
        // Each group's shores (the land its units touch), in the order the
        // loop over an army's fleets below finds them: most armies reach
        // one group, and their shores are then the group's.
        s.group_shores.clear();
        s.shore_span.clear();
        for g in 0..s.member_span.len() {
            let (a, b) = s.member_span[g];
            s.members[a as usize..b as usize].sort_unstable();
            s.shores.clear();
            let from = s.group_shores.len() as u32;
            for &f in &s.members[a as usize..b as usize] {
                for q in map.convoy_neighbours(f).iter() {
                    if is_shore(map, ProvinceId(q as u16)) && !s.shores.contains(q) {
                        s.shores.insert(q);
                        s.group_shores.push(ProvinceId(q as u16));
                    }
                }
            }
            s.shore_span.push((from, s.group_shores.len() as u32));
        }
        for &(p, u) in units {
            let (sea0, fleet0) = (s.sea.len(), s.fleets.len());
            if map.unit_type(u.kind).convoyable && !s.member_span.is_empty() {
                let mut near: [u32; 8] = [u32::MAX; 8];
                let mut count = 0;
                let mut many = false;
                for x in map.convoy_neighbours(p).iter() {
                    let g = s.group[x];
                    if g != u32::MAX && !near[..count].contains(&g) {
                        if count == near.len() {
                            many = true;
                            break;
                        }
                        near[count] = g;
                        count += 1;
                    }
                }
                if many {
                    dip_core::convoy::fleets_reachable(map, st, p, &mut s.seen, &mut s.stack);
                    s.fleets.extend(s.seen.iter().map(|f| ProvinceId(f as u16)));
                } else {
                    for &g in &near[..count] {
                        let (a, b) = s.member_span[g as usize];
                        s.fleets.extend_from_slice(&s.members[a as usize..b as usize]);
                    }
                    s.fleets[fleet0..].sort_unstable();
                }
                debug_assert_eq!(&s.fleets[fleet0..], {
                    dip_core::convoy::fleets_reachable(map, st, p, &mut s.seen, &mut s.stack);
                    s.seen.iter().map(|f| ProvinceId(f as u16)).collect::<Vec<_>>()
                });
                if count == 1 && !many {
                    let (a, b) = s.shore_span[near[0] as usize];
                    s.sea
                        .extend(s.group_shores[a as usize..b as usize].iter().filter(|&&q| q != p));
                } else {
                    s.shores.clear();
                    for &f in &s.fleets[fleet0..] {
                        for q in map.convoy_neighbours(f).iter() {
                            let q = ProvinceId(q as u16);
                            if q != p && is_shore(map, q) && !s.shores.contains(q.index()) {
                                s.shores.insert(q.index());
                                s.sea.push(q);
                            }
                        }
                    }
                }
            }
            let fleets = &s.fleets[fleet0..];
            let facts = if fleets.is_empty() {
                None
            } else {
                let mut bits = [0u64; 4];
                let small = n <= 256;
                if small {
                    for f in fleets {
                        bits[f.index() / 64] |= 1 << (f.index() % 64);
                    }
                }
                let listed = if small {
                    Vec::new()
                } else {
                    fleets.iter().map(|f| f.0).collect()
                };
                // The facts this game's army had there last time, if its
                // fleets are the same: most fleets stay a phase or more.
                let memo = &mut s.memo[p.index()];
                match memo {
                    Some((k, r, b, h, f)) if small && (*k, *r, *b, *h) == (u.kind, u.region, bits, rules_hash) => {
                        Some(f.clone())
                    }
                    _ => {
                        let key: ConvoyKey = (
                            map as *const Map as usize,
                            rules_hash,
                            p.0,
                            u.kind.0,
                            u.region.0,
                            bits,
                            listed,
                        );
                        let cache = cache.get_or_insert_with(|| {
                            CONVOYS
                                .get_or_init(|| {
                                    Mutex::new(FxMap::with_capacity_and_hasher(1 << 12, Default::default()))
                                })
                                .lock()
                                .unwrap_or_else(|e| e.into_inner())
                        });
                        let found = cache.get(&key).cloned();
                        let f = found.unwrap_or_else(|| {
                            let f = Arc::new(self.convoy_facts(table, p, u, fleets, &s.sea[sea0..]));
                            if cache.len() >= CONVOYS_MAX {
                                cache.clear();
                            }
                            cache.insert(key, f.clone());
                            f
                        });
                        if small {
                            *memo = Some((u.kind, u.region, bits, rules_hash, f.clone()));
                        }
                        Some(f)
                    }
                }
            };
            s.sea_span.push((sea0 as u32, s.sea.len() as u32));
            s.fleet_span.push((fleet0 as u32, s.fleets.len() as u32));
            s.facts.push(facts);
        }
        drop(cache);
        let land = |j: usize| -> &'static [ProvinceId] {
            let u = units[j].1;
            &v.lands[u.kind.index()][u.region.index()]
        };
        let fleets_of = |j: usize| &s.fleets[s.fleet_span[j].0 as usize..s.fleet_span[j].1 as usize];
        // Who could move into each province: (unit, its place among the
        // units that can move there over a border, or `BY_SEA`), the
        // entries of province `d` at `reach[start[d]..start[d + 1]]`.
        const BY_SEA: u16 = u16::MAX;
        s.start.clear();
        s.start.resize(n + 1, 0);
        s.unit_at.clear();
        s.unit_at.resize(n, u32::MAX);
        // Per army, the shores of its fleets beyond its own borders (a span of `beyond`).
        s.beyond.clear();
        s.beyond_span.clear();
        for (j, &(q, _)) in units.iter().enumerate() {
            s.unit_at[q.index()] = j as u32;
            let near = land(j);
            for &d in near {
                s.start[d.index() + 1] += 1;
            }
            let from = s.beyond.len() as u32;
            let (a, b) = s.sea_span[j];
            for &d in &s.sea[a as usize..b as usize] {
                if !near.contains(&d) {
                    s.start[d.index() + 1] += 1;
                    s.beyond.push(d);
                }
            }
            s.beyond_span.push((from, s.beyond.len() as u32));
        }
        for d in 0..n {
            s.start[d + 1] += s.start[d];
        }
        s.fill.clear();
        s.fill.extend_from_slice(&s.start[..n]);
        s.reach.clear();
        s.reach.resize(s.start[n] as usize, (0, 0));
        let slot_of = |x: &Unit| x.kind.index() * map.num_regions() + x.region.index();
        for (j, &(_, u)) in units.iter().enumerate() {
            let ranks = table.mover_rank.get(slot_of(&u)).map_or(&[][..], |r| &r[..]);
            for (b, &d) in land(j).iter().enumerate() {
                let at = &mut s.fill[d.index()];
                s.reach[*at as usize] = (j as u32, ranks.get(b).copied().unwrap_or(BY_SEA - 1));
                *at += 1;
            }
            let (a, b) = s.beyond_span[j];
            for &d in &s.beyond[a as usize..b as usize] {
                let at = &mut s.fill[d.index()];
                s.reach[*at as usize] = (j as u32, BY_SEA);
                *at += 1;
            }
        }
        let reaches = |d: ProvinceId| &s.reach[s.start[d.index()] as usize..s.start[d.index() + 1] as usize];
        // The armies each fleet could convoy (by the army's convoy facts):
        // those of the fleet in `f` at `convoyed[conv_start[f]..conv_start[f + 1]]`.
        s.conv_start.clear();
        s.conv_start.resize(n + 1, 0);
        for j in 0..units.len() {
            if s.facts[j].is_some() {
                for &f in fleets_of(j) {
                    s.conv_start[f.index() + 1] += 1;
                }
            }
        }
        for d in 0..n {
            s.conv_start[d + 1] += s.conv_start[d];
        }
        s.fill.clear();
        s.fill.extend_from_slice(&s.conv_start[..n]);
        s.convoyed.clear();
        s.convoyed.resize(s.conv_start[n] as usize, 0);
        for j in 0..units.len() {
            if s.facts[j].is_some() {
                for &f in fleets_of(j) {
                    let at = &mut s.fill[f.index()];
                    s.convoyed[*at as usize] = j as u32;
                    *at += 1;
                }
            }
        }
        let name = |u: &Unit| v.unit_names[u.kind.index()][u.region.index()].as_str();
        let plain = !map.has_edge_flags();
        let fit = codes_fit(map);
        // The support tables are only read here; out of the order table,
        // which numbers what they lack.
        let supports = std::mem::take(&mut table.supports);
        s.out.clear();
        for (i, &(p, u)) in units.iter().enumerate() {
            let start = ids.len() as u32;
            let me = UnitRef::new(Some(u.kind), p);
            let ok = |k: OrderKind| check_order(map, st, &self.rules, &Order::new(u.power, k));
            // Holds, moves over a border and supports built from the
            // borders are what the checks accept on maps without border
            // flags (canals, weak moves): no need to ask for each.
            let trusted = |k: OrderKind| plain || ok(k);
            let mine = name(&u);
            let edges = map.edges(u.kind, u.region);
            // The hold and the moves: numbered once per unit type and region.
            let slot = table.unit_slot(v, u.kind, u.region);
            if let Some(own) = &table.unit_orders[slot] {
                if plain {
                    ids.extend_from_slice(own);
                } else {
                    ids.push(own[0]);
                    for (e, &id) in edges.iter().zip(&own[1..]) {
                        let q = map.province_of(e.to);
                        let d = if map.region(e.to).coast.is_some() {
                            Dest::coast(q, e.to)
                        } else {
                            Dest::new(q)
                        };
                        if ok(OrderKind::Move(me, d, false)) {
                            ids.push(id);
                        }
                    }
                }
            }
            // The text is written only the first time the code is seen.
            let num = |table: &mut OrderTable, code: u64, parts: &[&str]| {
                if fit {
                    table.coded(v, code, || parts.concat())
                } else {
                    table.id(v, &parts.concat())
                }
            };
            if let Some(f) = &s.facts[i] {
                ids.extend_from_slice(&f.move_ids);
            }
            // Supports over land: one read each in the unit's own small
            // table (`OrderTable::supports`), numbered when the variant loaded.
            let near = land(i);
            let mine_sup = supports.get(slot).and_then(|t| t.as_ref());
            let part = |at: usize| -> &[u32] { mine_sup.map_or(&[], |t| t.part(at)) };
            for (a, &q) in near.iter().enumerate() {
                let j = s.unit_at[q.index()];
                if j == u32::MAX {
                    continue;
                }
                let other = units[j as usize].1;
                if !trusted(OrderKind::SupportHold(me, UnitRef::new(Some(other.kind), q))) {
                    continue;
                }
                let rank = table
                    .stand_rank
                    .get(slot_of(&other))
                    .map_or(usize::MAX, |&r| r as usize);
                let id = match part(a).get(rank).copied().unwrap_or(u32::MAX) {
                    u32::MAX => num(
                        table,
                        code(4, u.kind, u.region, Some((other.kind, other.region)), 0),
                        &[mine, " S ", name(&other)],
                    ),
                    id => id,
                };
                ids.push(id);
            }
            for (a, &d) in near.iter().enumerate() {
                // MILA also lists the coast the supported fleet would take.
                let split = v.split[d.index()];
                let by_rank = part(near.len() + a);
                for &(j, rank) in reaches(d) {
                    let j = j as usize;
                    if j == i {
                        continue;
                    }
                    let (q, other) = units[j];
                    if q == d {
                        continue;
                    }
                    let kind = || OrderKind::SupportMove(me, UnitRef::new(Some(other.kind), q), Dest::new(d));
                    let id = if rank != BY_SEA {
                        if !plain && !ok(kind()) {
                            continue;
                        }
                        by_rank.get(rank as usize).copied().unwrap_or(u32::MAX)
                    } else {
                        // Support of a convoyed move: the route must not need
                        // the supporter; when it cannot, the army's convoy facts say.
                        let legal = if plain {
                            let legal = s.facts[j].as_ref().is_some_and(|f| f.supported_to(p, d));
                            debug_assert_eq!(legal, ok(kind()));
                            legal
                        } else {
                            ok(kind())
                        };
                        if !legal {
                            continue;
                        }
                        u32::MAX
                    };
                    let id = match id {
                        u32::MAX => num(
                            table,
                            code(5, u.kind, u.region, Some((other.kind, other.region)), d.0),
                            &[mine, " S ", name(&other), " - ", &v.prov_names[d.index()]],
                        ),
                        id => id,
                    };
                    ids.push(id);
                    if split {
                        for e in map.edges(other.kind, other.region) {
                            if map.province_of(e.to) == d && map.region(e.to).coast.is_some() {
                                ids.push(num(
                                    table,
                                    code(6, u.kind, u.region, Some((other.kind, other.region)), e.to.0),
                                    &[mine, " S ", name(&other), " - ", &v.region_names[e.to.index()]],
                                ));
                            }
                        }
                    }
                }
            }
            let conv = s.conv_start[p.index()] as usize..s.conv_start[p.index() + 1] as usize;
            for &j in &s.convoyed[conv] {
                let j = j as usize;
                let Some(facts) = &s.facts[j] else { continue };
                if j == i {
                    continue;
                }
                let other = units[j].1;
                let Some(at) = facts.convoys.iter().position(|(fleet, _)| *fleet == p) else {
                    continue;
                };
                match &facts.convoy_ids[at] {
                    (k, r, numbers) if *k == u.kind && *r == u.region => ids.extend_from_slice(numbers),
                    _ => {
                        for &d in &facts.convoys[at].1 {
                            ids.push(num(
                                table,
                                code(7, u.kind, u.region, Some((other.kind, other.region)), d.0),
                                &[mine, " C ", name(&other), " - ", &v.prov_names[d.index()]],
                            ));
                        }
                    }
                }
            }
            s.out.push((p, u, (start, ids.len() as u32 - start)));
        }
        table.supports = supports;
    }

    /// The convoy facts of the army `u` in `q` with these fleets in reach.
    fn convoy_facts(
        &self,
        table: &mut OrderTable,
        q: ProvinceId,
        u: Unit,
        fleets: &[ProvinceId],
        sea: &[ProvinceId],
    ) -> ConvoyFacts {
        use dip_core::movement::check_order;
        let map = self.map();
        let v = self.v;
        let fit = codes_fit(map);
        let mut num = |code: u64, text: &dyn Fn() -> String| {
            if fit {
                table.coded(v, code, text)
            } else {
                table.id(v, &text())
            }
        };
        let army = &v.unit_names[u.kind.index()][u.region.index()];
        let st = &self.state;
        let them = UnitRef::new(Some(u.kind), q);
        let mut facts = ConvoyFacts::default();
        for &d in sea {
            let by_convoy = |d: ProvinceId| {
                check_order(
                    map,
                    st,
                    &self.rules,
                    &Order::new(u.power, OrderKind::Move(them, Dest::new(d), true)),
                )
            };
            // A move to a province beyond the army's borders needs a route:
            // `sea` is every shore of the fleets the army reaches, so there
            // is one, and the check is whether the army may stand there.
            // (Searching routes per destination was most of the cost.)
            let ok = if map.reaches(u.kind, u.region, d) {
                by_convoy(d)
            } else {
                let ok = map.allows(map.main_region(d), u.kind);
                debug_assert_eq!(ok, by_convoy(d));
                ok
            };
            if ok {
                facts.moves.push(d);
                let dn = &v.prov_names[d.index()];
                facts.move_ids.push(num(code(3, u.kind, u.region, None, d.0), &|| {
                    format!("{army} - {dn} VIA")
                }));
            }
        }
        // What `convoy::on_route` lists on every call: the units able to convoy.
        let able: Vec<ProvinceId> = map
            .province_ids()
            .filter(|&p| dip_core::convoy::can_convoy_in(map, st, p))
            .collect();
        for &f in fleets {
            let Some(fleet) = st.unit(f) else { continue };
            let Some(k) = able.iter().position(|&x| x == f) else {
                continue;
            };
            // `check_order` of the convoy is: a unit able to convoy in a
            // convoy space (`able`), a convoyable army (`u`), a destination
            // other than the army's province (`sea`) where it may stand, and
            // the fleet on a route (`on_route`, as here).
            let dests: Vec<ProvinceId> = sea
                .iter()
                .copied()
                .filter(|&d| {
                    map.allows(map.main_region(d), u.kind) && dip_core::convoy::on_minimal_route(map, &able, q, d, k)
                })
                .collect();
            debug_assert!(sea.iter().all(|&d| dests.contains(&d)
                == check_order(
                    map,
                    st,
                    &self.rules,
                    &Order::new(
                        fleet.power,
                        OrderKind::Convoy(UnitRef::new(Some(fleet.kind), f), them, Dest::new(d))
                    )
                )));
            if !dests.is_empty() {
                let mine = &v.unit_names[fleet.kind.index()][fleet.region.index()];
                let numbers = dests
                    .iter()
                    .map(|d| {
                        let dn = &v.prov_names[d.index()];
                        num(
                            code(7, fleet.kind, fleet.region, Some((u.kind, u.region)), d.0),
                            &|| format!("{mine} C {army} - {dn}"),
                        )
                    })
                    .collect();
                facts.convoy_ids.push((fleet.kind, fleet.region, numbers));
                facts.convoys.push((f, dests));
            }
        }
        // Where a route goes without each fleet: the shores of the fleets
        // still reached from the army (`convoy::route_possible_without`).
        let mut seen = vec![false; map.num_provinces()];
        let mut stack: Vec<ProvinceId> = Vec::new();
        for &skip in fleets {
            seen.iter_mut().for_each(|x| *x = false);
            let mut shores: Vec<ProvinceId> = Vec::new();
            stack.clear();
            stack.push(q);
            while let Some(p) = stack.pop() {
                for x in map.convoy_neighbours(p).iter() {
                    let x = ProvinceId(x as u16);
                    if p != q && facts.moves.contains(&x) && !shores.contains(&x) {
                        shores.push(x);
                    }
                    if seen[x.index()] || x == skip || !dip_core::convoy::can_convoy_in(map, st, x) {
                        continue;
                    }
                    seen[x.index()] = true;
                    stack.push(x);
                }
            }
            let reached = facts.moves.iter().copied().filter(|d| shores.contains(d)).collect();
            facts.without.push((skip, reached));
        }
        facts
    }

    /// See [`read_mila`].
    fn read_mila(&self, text: &str, power: PowerId) -> Option<Order> {
        read_mila(self.v, text, power)
    }

    // ---- processing ----------------------------------------------------------

    /// Does support `o` name a coast other than the one the supported
    /// unit moves to?
    fn support_misses_coast(&self, o: &Order, orders: &[Order]) -> bool {
        let OrderKind::SupportMove(_, t, d) = o.kind else {
            return false;
        };
        let CoastSpec::Coast(r) = d.coast else {
            return false;
        };
        orders.iter().any(|x| match x.kind {
            OrderKind::Move(u, to, _) if u.province == t.province && to.province == d.province => {
                matches!(to.coast, CoastSpec::Coast(r2) if r2 != r)
            }
            _ => false,
        })
    }

    /// Why a movement order given (under NO_CHECK) cannot be its unit's:
    /// `Some(true)` when the unit is another power's, `Some(false)` when
    /// it names a coast the unit is not on.
    fn not_its_unit(&self, o: &Order) -> Option<bool> {
        let u = o.unit()?;
        let actual = self.state.unit(u.province)?;
        if actual.power != o.power {
            return Some(true);
        }
        match u.coast {
            CoastSpec::Coast(r) if r != actual.region => Some(false),
            _ => None,
        }
    }

    /// MILA's convention for moves that could go by land or by sea: by
    /// convoy when convoy orders for it form a chain and the order says
    /// `VIA` or one of the convoying fleets is the army's own.
    fn convoy_intent(&self, orders: &mut [Order]) {
        let map = self.map();
        let convoys: Vec<(PowerId, ProvinceId, ProvinceId, ProvinceId)> = orders
            .iter()
            .filter_map(|o| match o.kind {
                // A convoy order that could not be carried out (NO_CHECK
                // lets it through) shows no intent.
                OrderKind::Convoy(f, a, to) if self.problem(o).is_none() => {
                    Some((o.power, f.province, a.province, to.province))
                }
                _ => None,
            })
            .collect();
        for o in orders.iter_mut() {
            if let OrderKind::Move(u, d, via) = o.kind {
                let adjacent = self
                    .state
                    .unit(u.province)
                    .is_some_and(|x| map.reaches(x.kind, x.region, d.province));
                if !adjacent {
                    continue;
                }
                let mine: Vec<&(PowerId, ProvinceId, ProvinceId, ProvinceId)> = convoys
                    .iter()
                    .filter(|c| c.2 == u.province && c.3 == d.province)
                    .collect();
                let fleets: Vec<ProvinceId> = mine.iter().map(|c| c.1).collect();
                let own = mine.iter().any(|c| c.0 == o.power);
                let convoyed = !fleets.is_empty() && chain(map, &fleets, u.province, d.province) && (via || own);
                o.kind = OrderKind::Move(u, d, convoyed);
            }
        }
    }

    /// Where MILA labels differently from dip's verdicts (the board is the
    /// same): a support given by the owner of the unit attacked is `void`
    /// where MILA finds it cannot count (a swap, or the supported move is
    /// the strongest there); when a convoyed army gets `no convoy`, its
    /// convoys and supports without a result get `no convoy` too; a convoy
    /// of an army that moved over land, or off every chain of convoys, is
    /// `no convoy`.
    fn mila_labels(
        &self,
        orders: &[Order],
        m: &dip_core::movement::MovementOutcome,
        tags: &mut [Option<&'static str>],
    ) {
        let map = self.map();
        let given = tags.to_vec();
        let left = |p: ProvinceId| m.moves.iter().any(|&(from, _)| from == p);
        let strength = |p: ProvinceId| {
            1 + orders
                .iter()
                .zip(&given)
                .filter(|(o, t)| {
                    t.is_none()
                        && matches!(o.kind, OrderKind::SupportHold(_, x) | OrderKind::SupportMove(_, x, _) if x.province == p)
                })
                .count()
        };
        let move_of = |p: ProvinceId| {
            orders.iter().find_map(|o| match o.kind {
                OrderKind::Move(u, d, via) if u.province == p => Some((d.province, via)),
                _ => None,
            })
        };
        let mut no_convoy: Vec<ProvinceId> = Vec::new();
        for (o, t) in orders.iter().zip(tags.iter()) {
            if let (OrderKind::Move(u, ..), Some(NO_CONVOY)) = (o.kind, t) {
                no_convoy.push(u.province);
            }
        }
        for (i, o) in orders.iter().enumerate() {
            match o.kind {
                OrderKind::SupportMove(_, t, d) if tags[i].is_none() => {
                    let own = self.state.unit(d.province).is_some_and(|x| x.power == o.power);
                    if own && !left(d.province) {
                        let via = move_of(t.province).is_some_and(|(_, v)| v);
                        let swap = !via && move_of(d.province).is_some_and(|(to, v)| to == t.province && !v);
                        let mine = strength(t.province);
                        let others = orders
                            .iter()
                            .filter_map(|x| match x.kind {
                                OrderKind::Move(u, to, _) if to.province == d.province && u.province != t.province => {
                                    Some(strength(u.province))
                                }
                                _ => None,
                            })
                            .max()
                            .unwrap_or(0)
                            .max(strength(d.province));
                        if swap || mine > others {
                            tags[i] = Some(VOID);
                        }
                    }
                }
                // (An illegal convoy, which NO_CHECK lets through, stays void.)
                OrderKind::Convoy(f, a, d)
                    if tags[i].is_none() || (tags[i] == Some(VOID) && self.problem(o).is_none()) =>
                {
                    let adjacent = self
                        .state
                        .unit(a.province)
                        .is_some_and(|x| map.reaches(x.kind, x.region, d.province));
                    let by_land = adjacent
                        && orders.iter().any(|x| {
                            matches!(x.kind, OrderKind::Move(u, to, false) if u.province == a.province && to.province == d.province)
                        });
                    let fleets: Vec<ProvinceId> = orders
                        .iter()
                        .filter_map(|x| match x.kind {
                            OrderKind::Convoy(g, b, e) if b.province == a.province && e.province == d.province => {
                                Some(g.province)
                            }
                            _ => None,
                        })
                        .collect();
                    let moving = move_of(a.province).is_some_and(|(to, _)| to == d.province);
                    let on_chain = reach(map, &fleets, a.province).contains(&f.province)
                        && reach(map, &fleets, d.province).contains(&f.province);
                    if moving && (by_land || !on_chain) {
                        tags[i] = Some(NO_CONVOY);
                    }
                }
                _ => {}
            }
            if tags[i].is_none() {
                let helped = match o.kind {
                    OrderKind::SupportHold(_, t) | OrderKind::SupportMove(_, t, _) | OrderKind::Convoy(_, t, _) => {
                        Some(t.province)
                    }
                    _ => None,
                };
                if helped.is_some_and(|p| no_convoy.contains(&p)) {
                    tags[i] = Some(NO_CONVOY);
                }
            }
        }
    }

    /// Adjudicates the phase, records it and moves to the next one.
    pub fn process(&mut self) {
        if self.done {
            return;
        }
        let map = self.map();
        let kind = self.state.phase.kind;
        let processed = self.state.phase;
        let name = short_phase(&processed);
        if self.state.phase.season == Season::Fall
            && kind != PhaseKind::Adjustment
            && map.supply_centers().iter().all(|&sc| self.state.owner(sc).is_none())
        {
            // MILA: when no power owns a centre, each gets its home centres
            // before the centres are captured.
            self.state.own_home_centers(map);
        }
        let given: usize = self.orders.iter().map(|l| l.len()).sum();
        let mut orders: Vec<Order> = Vec::with_capacity(given);
        // Per order adjudicated: its key and text.
        let mut keys: Vec<(Name, Name)> = Vec::with_capacity(given);
        let mut results = Results::new(std::mem::take(&mut self.results_at), map.num_provinces());
        let mut ordered_units: Vec<(PowerId, Name)> = Vec::with_capacity(given);
        let mut popped = Vec::new();
        let mut dislodged = Vec::new();
        match kind {
            PhaseKind::Movement => {
                for (p, u) in self.state.units() {
                    results.add(Some(p), Name::Borrowed(self.unit_name(&u)), None);
                }
            }
            PhaseKind::Retreat => {
                for (p, d) in self.state.all_dislodged() {
                    results.add(Some(p), Name::Borrowed(self.unit_name(&d.unit)), None);
                }
            }
            PhaseKind::Adjustment => {}
        }
        // MILA carries out builds and disbands while they are due, in the order given.
        let carried = if kind == PhaseKind::Adjustment {
            self.adjustments_carried_out()
        } else {
            Vec::new()
        };
        for (pi, list) in self.orders.iter().enumerate() {
            let mine = ordered_units.len();
            // Refused orders first, then the others, each in the order given.
            let refused = |(_, e): &(usize, &Entry)| e.void || e.order.is_none();
            let entries = list.iter().enumerate();
            for (k, e) in entries.clone().filter(refused).chain(entries.filter(|x| !refused(x))) {
                if let (PhaseKind::Movement, Some(o), false) = (kind, e.order, e.void) {
                    match self.not_its_unit(&o) {
                        // MILA (NO_CHECK): an order to another power's
                        // unit is set aside, the unit's own stands.
                        Some(true) => continue,
                        // An order naming a coast the unit is not on is
                        // read for the unit's coast (MILA corrects it); if
                        // it cannot be carried out, it is void under the
                        // unit as written.
                        Some(false) if self.problem(&o).is_some() => {
                            results.add(None, Name::Owned(first_two(&e.text)), Some(VOID));
                            continue;
                        }
                        _ => {}
                    }
                }
                let rkey: Name = match (kind, e.order.map(|o| o.kind)) {
                    _ if e.void => Name::Owned(first_two(&e.text)),
                    (PhaseKind::Adjustment, Some(OrderKind::Build(_))) | (_, None) => Name::Owned(first_two(&e.text)),
                    (PhaseKind::Adjustment, Some(OrderKind::Waive)) => Name::Borrowed("WAIVE"),
                    _ => e.key.clone(),
                };
                if !ordered_units[mine..].iter().any(|(_, k)| same(k, &rkey)) {
                    ordered_units.push((PowerId(pi as u8), rkey.clone()));
                }
                let at = e.order.and_then(|o| o.unit()).map(|u| u.province);
                let carried_out = carried.get(pi).and_then(|c| c.get(k)).copied();
                match e.order {
                    Some(_) if carried_out == Some(false) && !e.void => {
                        results.add(at, rkey.clone(), None);
                        results.add(at, rkey, Some(VOID));
                    }
                    Some(o) if !e.void => {
                        orders.push(o);
                        keys.push((rkey, e.text.clone()));
                    }
                    _ => results.add(at, rkey, Some(VOID)),
                }
            }
        }
        if kind == PhaseKind::Movement {
            self.convoy_intent(&mut orders);
            // A support that kept its coast (`expand=False`) and names
            // another coast than the move it supports is void.
            let mut k = 0;
            while k < orders.len() {
                if self.support_misses_coast(&orders[k], &orders) {
                    let (key, _) = keys.remove(k);
                    let at = orders.remove(k).unit().map(|u| u.province);
                    results.add(at, key, Some(VOID));
                } else {
                    k += 1;
                }
            }
        }
        let outcome = game::adjudicate(map, &self.state, &orders, &self.rules);
        let mut tags: Vec<Option<&'static str>> = outcome
            .orders()
            .iter()
            .map(|report| match kind {
                PhaseKind::Movement => movement_tags(&report.verdict),
                PhaseKind::Retreat => match report.verdict {
                    Verdict::Illegal(_) | Verdict::Duplicate => Some(VOID),
                    Verdict::Done {
                        success: false,
                        reason: dip_core::Reason::RetreatClash,
                    } => Some(BOUNCE),
                    _ => None,
                },
                PhaseKind::Adjustment => match report.verdict {
                    Verdict::Done { success: true, .. } => Some(OK),
                    _ => Some(VOID),
                },
            })
            .collect();
        if let PhaseOutcome::Movement(m) = &outcome {
            self.mila_labels(&orders, m, &mut tags);
        }
        for (((key, _), tag), o) in keys.iter().zip(tags).zip(&orders) {
            results.add(o.unit().map(|u| u.province), key.clone(), tag);
        }
        match &outcome {
            PhaseOutcome::Movement(m) => {
                for d in &m.dislodged {
                    let key = self.unit_name(&d.unit);
                    let p = map.province_of(d.unit.region);
                    if let Some(i) = results.find(Some(p), key) {
                        results.list[i].1.remove(DISRUPTED);
                    }
                    results.add(Some(p), Name::Borrowed(key), Some(DISLODGED));
                    dislodged.push((key.to_string(), self.v.prov_names[d.attacker_from.index()].clone()));
                }
                for &p in &m.disbanded {
                    if let Some(k) = self.unit_key_at(p) {
                        popped.push(k.into_owned());
                    }
                }
            }
            PhaseOutcome::Retreat(r) => {
                for &p in &r.disbanded {
                    if let Some(k) = self.dislodged_key_at(p) {
                        popped.push(k.to_string());
                        results.add(Some(p), k, Some(DISBAND));
                    }
                }
            }
            PhaseOutcome::Adjustment(_) => {}
        }
        let next = game::advance(map, &self.state, &outcome);
        // The history keeps the order of placement before the phase; the
        // units that moved take theirs along.
        let old = self.seq.clone();
        let seq = &mut self.seq;
        match &outcome {
            PhaseOutcome::Movement(m) => {
                for &(from, to) in &m.moves {
                    seq[map.province_of(to).index()] = old[from.index()];
                }
            }
            PhaseOutcome::Retreat(r) => {
                for &(_, to) in &r.retreats {
                    seq[map.province_of(to).index()] = self.next_seq;
                    self.next_seq += 1;
                }
            }
            PhaseOutcome::Adjustment(a) => {
                for u in &a.built {
                    seq[map.province_of(u.region).index()] = self.next_seq;
                    self.next_seq += 1;
                }
            }
        }
        for &sc in map.supply_centers() {
            if next.owner(sc) != self.state.owner(sc) {
                // A centre captured goes to the end of its owner's list.
                self.center_seq[sc.index()] = self.next_seq;
                self.next_seq += 1;
            }
        }
        // The position processed goes to the history as it is (no copy).
        let before = std::mem::replace(&mut self.state, next);
        self.history.push(PhaseRecord {
            name,
            state: before,
            seq: old,
            orders: self
                .orders
                .iter_mut()
                .enumerate()
                .flat_map(|(p, l)| {
                    l.drain(..)
                        .filter(Entry::shown)
                        .map(move |e| (PowerId(p as u8), e.text))
                })
                .collect(),
            results: std::mem::take(&mut results.list),
        });
        self.results_at = results.at;
        self.last = Processed {
            popped,
            given: keys,
            ordered_units,
            dislodged,
        };
        self.touch();
        self.check_end(processed);
    }

    /// MILA decides the end on entering the winter after a Fall (whether
    /// or not there is anything to adjust): a power with the victory's
    /// centres wins; else the winter of the game's 100th year (counted from
    /// the variant's first year) is a draw.
    fn check_end(&mut self, processed: Phase) {
        let now = self.state.phase;
        let winter_reached = processed.season == Season::Fall
            && processed.kind != PhaseKind::Adjustment
            && (now.kind == PhaseKind::Adjustment || now.year > processed.year);
        if !winter_reached {
            return;
        }
        let winter = Phase::new(processed.year, Season::Fall, PhaseKind::Adjustment);
        if let Some(w) = game::winner(self.map(), &self.state) {
            self.done = true;
            self.outcome = vec![short_phase(&winter), self.v.powers[w.index()].clone()];
        } else if i64::from(processed.year) - i64::from(self.first_year()) + 1 == 100 {
            // MILA draws in that winter, which it records in the history.
            self.state.phase = winter;
            self.draw(None);
        }
    }

    /// The year the variant starts in (MILA's `map.first_year`).
    pub fn first_year(&self) -> i32 {
        self.v.start.phase.year
    }

    /// MILA's `draw`: the current phase goes to the history without orders
    /// or results, and the game ends; the winners are the powers named, or
    /// else every power with units, in alphabetical order.
    pub fn draw(&mut self, winners: Option<&[PowerId]>) {
        if self.done {
            return;
        }
        let name = self.phase_name();
        let mut names: Vec<String> = match winners {
            Some(w) => w.iter().map(|p| self.v.powers[p.index()].clone()).collect(),
            None => self
                .map()
                .power_ids()
                .filter(|&p| self.state.units().any(|(_, u)| u.power == p))
                .map(|p| self.v.powers[p.index()].clone())
                .collect(),
        };
        if winners.is_none() {
            names.sort();
        }
        for l in &mut self.orders {
            l.clear();
        }
        self.history.push(PhaseRecord {
            name: name.clone(),
            state: self.state.clone(),
            seq: self.seq.clone(),
            orders: Vec::new(),
            results: Vec::new(),
        });
        self.outcome = std::iter::once(name).chain(names).collect();
        self.done = true;
        self.touch();
    }

    /// A hash of the position (units, dislodged units, centres, phase).
    pub fn hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |x: u64| {
            h ^= x;
            h = h.wrapping_mul(0x0100_0000_01b3);
        };
        eat(self.state.phase.year as u64);
        eat(self.state.phase.season as u64);
        eat(self.state.phase.kind as u64);
        for (p, u) in self.state.units() {
            eat(((p.index() as u64) << 32) | ((u.power.index() as u64) << 16) | u.region.index() as u64);
        }
        for (p, d) in self.state.all_dislodged() {
            eat((1 << 48)
                | ((p.index() as u64) << 32)
                | ((d.unit.power.index() as u64) << 16)
                | d.unit.region.index() as u64);
        }
        for &sc in self.map().supply_centers() {
            if let Some(o) = self.state.owner(sc) {
                eat((2 << 48) | ((sc.index() as u64) << 16) | o.index() as u64);
            }
        }
        h
    }

    /// Results of the last phase processed: unit → MILA's words.
    pub fn last_results(&self) -> &[(Name, Tags)] {
        self.history.last().map_or(&[], |r| &r.results)
    }

    /// MILA's `command` of the last movement phase: each unit's order
    /// without the unit (`- BUR`, `S A PAR - BUR`), `H` when it had none.
    pub fn last_command(&self) -> Vec<(String, String)> {
        let Some(r) = self.history.last() else {
            return Vec::new();
        };
        if r.state.phase.kind != PhaseKind::Movement {
            return Vec::new();
        }
        r.state
            .units()
            .map(|(_, u)| {
                let key = self.unit_key(&u);
                let text = self
                    .last
                    .given
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map(|(_, t)| t.strip_prefix(key.as_str()).unwrap_or(t).trim().to_string())
                    .unwrap_or_else(|| "H".into());
                (key, text)
            })
            .collect()
    }

    /// Puts back a position recorded in the history (for `set_state`).
    pub fn restore(&mut self, state: State, seq: Vec<u64>) {
        self.state = state;
        self.seq = seq;
        self.touch();
    }

    pub fn seq(&self) -> &[u64] {
        &self.seq
    }
}

/// Reads an order in MILA's own syntax (`A PAR - BUR`, `F NTH C A LON -
/// NWY`, `A LON - NWY VIA`, `F STP/SC S A MOS`) without the general
/// reader; anything else gives `None`.
pub fn read_mila(v: &VariantData, text: &str, power: PowerId) -> Option<Order> {
    let mut w: [&str; 7] = [""; 7];
    let mut n = 0;
    // MILA's orders have single spaces: split at them; anything else
    // (other blanks, several in a row) is split the general way.
    let bytes = text.as_bytes();
    let mut single = bytes.first().is_some_and(|&c| c != b' ') && bytes.last().is_some_and(|&c| c != b' ');
    let mut after_space = false;
    for &c in bytes {
        let space = c == b' ';
        if (space && after_space) || (!space && c.is_ascii_whitespace()) {
            single = false;
            break;
        }
        after_space = space;
    }
    if single {
        for word in text.split(' ') {
            *w.get_mut(n)? = word;
            n += 1;
        }
    } else {
        for word in text.split_ascii_whitespace() {
            *w.get_mut(n)? = word;
            n += 1;
        }
    }
    let w = &w[..n];
    let unit = |i: usize| -> Option<UnitRef> {
        let letter = w.get(i)?;
        if letter.len() != 1 {
            return None;
        }
        let letter = letter.as_bytes()[0] as char;
        let kind = v.letters.iter().find(|(c, _)| *c == letter)?.1;
        let (p, r) = v.loc(w.get(i + 1)?)?;
        Some(UnitRef::new(Some(kind), p).with_coast(r.map_or(CoastSpec::None, CoastSpec::Coast)))
    };
    let dest = |i: usize| -> Option<Dest> {
        let (p, r) = v.loc(w.get(i)?)?;
        Some(Dest {
            province: p,
            coast: r.map_or(CoastSpec::None, CoastSpec::Coast),
        })
    };
    let kind = match w {
        [_, _, "H"] => OrderKind::Hold(unit(0)?),
        [_, _, "-", _] => OrderKind::Move(unit(0)?, dest(3)?, false),
        [_, _, "-", _, "VIA"] => OrderKind::Move(unit(0)?, dest(3)?, true),
        [_, _, "S", _, _] | [_, _, "S", _, _, "H"] => OrderKind::SupportHold(unit(0)?, unit(3)?),
        [_, _, "S", _, _, "-", _] => OrderKind::SupportMove(unit(0)?, unit(3)?, dest(6)?),
        [_, _, "C", _, _, "-", _] => OrderKind::Convoy(unit(0)?, unit(3)?, Dest::new(dest(6)?.province)),
        [_, _, "R", _] => OrderKind::Retreat(unit(0)?, dest(3)?),
        [_, _, "D"] => OrderKind::Disband(unit(0)?),
        [_, _, "B"] => OrderKind::Build(unit(0)?),
        ["WAIVE"] => OrderKind::Waive,
        _ => return None,
    };
    Some(Order::new(power, kind))
}

/// May a convoyed army land in `q`? Any land, a coast where fleets also
/// convoy (Baleares on ancmed) included.
fn is_shore(map: &Map, q: ProvinceId) -> bool {
    matches!(
        map.province(q).terrain,
        dip_core::Terrain::Land | dip_core::Terrain::Coast
    )
}

/// Three capital letters as an index below 26³ (`VariantData::loc3`).
fn loc3_index(b: &[u8]) -> Option<usize> {
    match b {
        [x, y, z] if x.is_ascii_uppercase() && y.is_ascii_uppercase() && z.is_ascii_uppercase() => {
            Some(((x - b'A') as usize * 26 + (y - b'A') as usize) * 26 + (z - b'A') as usize)
        }
        _ => None,
    }
}

/// Up to eight bytes of a name as one number (`loc_codes`' key).
fn pack(name: &str) -> Option<u64> {
    let b = name.as_bytes();
    if b.len() > 8 {
        return None;
    }
    let mut w = [0u8; 8];
    w[..b.len()].copy_from_slice(b);
    Some(u64::from_le_bytes(w))
}

/// The convoying provinces reachable from `from` through the given ones.
fn reach(map: &Map, fleets: &[ProvinceId], from: ProvinceId) -> Vec<ProvinceId> {
    let mut seen = vec![false; fleets.len()];
    let mut stack: Vec<usize> = (0..fleets.len())
        .filter(|&k| map.convoy_adjacent(from, fleets[k]))
        .collect();
    while let Some(k) = stack.pop() {
        if std::mem::replace(&mut seen[k], true) {
            continue;
        }
        stack.extend((0..fleets.len()).filter(|&q| !seen[q] && map.convoy_adjacent(fleets[k], fleets[q])));
    }
    (0..fleets.len()).filter(|&k| seen[k]).map(|k| fleets[k]).collect()
}

/// A chain of the given convoying provinces from `from` to `to`.
fn chain(map: &Map, fleets: &[ProvinceId], from: ProvinceId, to: ProvinceId) -> bool {
    let mut seen = vec![false; fleets.len()];
    let mut stack: Vec<usize> = (0..fleets.len())
        .filter(|&k| map.convoy_adjacent(from, fleets[k]))
        .collect();
    while let Some(k) = stack.pop() {
        if std::mem::replace(&mut seen[k], true) {
            continue;
        }
        if map.convoy_adjacent(fleets[k], to) {
            return true;
        }
        stack.extend((0..fleets.len()).filter(|&q| !seen[q] && map.convoy_adjacent(fleets[k], fleets[q])));
    }
    false
}

/// Processes many games at once on all cores (one thread per core).
pub fn process_many(games: &mut [&mut Game]) {
    if games.len() < 32 {
        // A thread costs more than a few phases (and, on a busy machine,
        // waiting for a core to run it costs more still).
        games.iter_mut().for_each(|g| g.process());
        return;
    }
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(games.len().max(1));
    let per = games.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|s| {
        for chunk in games.chunks_mut(per) {
            s.spawn(move || {
                for g in chunk.iter_mut() {
                    g.process();
                }
            });
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> Game {
        Game::new(variant("standard").unwrap())
    }

    fn power(g: &Game, name: &str) -> PowerId {
        g.power(name).unwrap()
    }

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn results(g: &Game, unit: &str) -> Vec<&'static str> {
        g.last_results()
            .iter()
            .find(|(u, _)| u == unit)
            .map(|(_, r)| r.to_vec())
            .unwrap_or_default()
    }

    #[test]
    fn orders_are_stored_in_mila_syntax() {
        let mut g = game();
        let eng = power(&g, "ENGLAND");
        g.set_orders(eng, &strings(&["LON H", "F edi - nth", "A LVP - YOR"]), true);
        assert_eq!(g.orders(eng), ["F LON H", "F EDI - NTH", "A LVP - YOR"]);
    }

    #[test]
    fn an_order_names_its_location_first() {
        let v = variant("standard").unwrap();
        let at = |name: &str| v.locs.iter().position(|l| l == name);
        assert_eq!(v.order_loc("A PAR - BUR"), at("PAR"));
        assert_eq!(v.order_loc("F STP/SC S A MOS - FIN"), at("STP/SC"));
        assert_eq!(v.order_loc("F NTH C A LON - NWY"), at("NTH"));
        assert_eq!(v.order_loc("WAIVE"), None);
        assert_eq!(v.order_loc("A XYZ H"), None);
    }

    #[test]
    fn orders_given_by_number_were_filed_as_by_text() {
        let mut by_text = game();
        let mut by_number = game();
        let fra = power(&by_text, "FRANCE");
        let texts = ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"];
        by_text.possible();
        by_text.set_orders(fra, &texts, true);
        by_number.possible();
        let known: Vec<u32> = {
            let mut table = by_number.v.orders.lock().unwrap();
            texts.iter().map(|t| table.find(by_number.v, t).unwrap().0).collect()
        };
        by_number.set_orders_known(fra, &texts, &known, true);
        assert_eq!(by_text.orders(fra), by_number.orders(fra));
        by_text.process();
        by_number.process();
        assert_eq!(by_text.units(fra), by_number.units(fra));
    }

    #[test]
    fn unknown_power_is_named_in_the_error() {
        let g = game();
        let e = g.power("NARNIA").unwrap_err();
        assert!(e.contains("NARNIA") && e.contains("FRANCE"), "{e}");
    }

    #[test]
    fn illegal_order_is_refused_with_the_reason() {
        let mut g = game();
        let fra = power(&g, "FRANCE");
        g.set_orders(fra, &strings(&["A PAR - MUN"]), true);
        assert!(g.orders(fra).is_empty());
        assert!(g.errors[0].contains("A PAR - MUN"), "{:?}", g.errors);
    }

    #[test]
    fn standoff_is_labelled_bounce_and_units_stay() {
        let mut g = game();
        let (fra, ger) = (power(&g, "FRANCE"), power(&g, "GERMANY"));
        g.set_orders(fra, &strings(&["A PAR - BUR"]), true);
        g.set_orders(ger, &strings(&["A MUN - BUR"]), true);
        g.process();
        assert_eq!(results(&g, "A PAR"), [BOUNCE]);
        assert_eq!(results(&g, "A MUN"), [BOUNCE]);
        assert!(g.units(fra).contains(&"A PAR".to_string()));
        assert_eq!(g.phase_name(), "F1901M");
    }

    #[test]
    fn support_for_dislodging_own_unit_is_void() {
        let mut g = game();
        let ger = power(&g, "GERMANY");
        g.clear_units(None);
        g.set_units(ger, &strings(&["A BER", "F KIE", "A MUN"]), false);
        g.set_orders(ger, &strings(&["A BER H", "F KIE - BER", "A MUN S F KIE - BER"]), true);
        g.process();
        assert_eq!(results(&g, "A MUN"), [VOID]);
        assert_eq!(results(&g, "F KIE"), [BOUNCE]);
    }

    #[test]
    fn every_listed_order_is_accepted_by_set_orders() {
        let mut rng = dip_core::random::Rng::with_seed(11);
        let mut g = game();
        for _ in 0..30 {
            let possible = g.possible();
            let powers: Vec<PowerId> = g.map().power_ids().collect();
            for (i, _) in g.v.locs.iter().enumerate() {
                for text in possible.orders(g.v, i) {
                    let text = text.as_str();
                    let Some(o) = g.read_mila(text, PowerId(0)) else {
                        panic!("cannot read `{text}`");
                    };
                    let Some(u) = o.unit() else { continue };
                    let owner = match g.state.phase.kind {
                        PhaseKind::Retreat => g.state.dislodged(u.province).map(|d| d.unit.power),
                        PhaseKind::Adjustment => powers.iter().copied().find(|&p| {
                            dip_core::legal::adjustment_orders(g.map(), &g.state, p)
                                .iter()
                                .any(|x| x.unit().map(|y| y.province) == Some(u.province))
                        }),
                        PhaseKind::Movement => g.state.unit(u.province).map(|x| x.power),
                    };
                    let mut h = g.clone();
                    h.set_orders(owner.unwrap(), &[text.to_string()], true);
                    assert!(
                        h.errors.is_empty(),
                        "`{text}` refused in {}: {:?}",
                        g.phase_name(),
                        h.errors
                    );
                }
            }
            for o in dip_core::random::random_orders(g.map(), &g.state, &g.rules, &mut rng) {
                let text = g.order_text(&o);
                g.set_orders(o.power, &[text], true);
            }
            g.process();
        }
    }

    #[test]
    fn every_map_was_drawn_after_2000_whatever_its_first_year() {
        // MILA draws in the winter of the 100th year counted from the
        // map's first year; dip drew after 2000 on every map.
        for (name, first) in [
            ("standard", 1901),
            ("ancmed", 1),
            ("modern", 1994),
            ("pure", 1901),
            ("standard_fleet_rome", 1901),
            ("colonial", 1870),
            ("empire", 1999),
            ("world", 2000),
        ] {
            let mut g = Game::new(variant(name).unwrap());
            assert_eq!(g.first_year(), first, "{name}");
            let last = first + 99;
            g.set_phase(&format!("F{:04}M", last - 1)).unwrap();
            g.process();
            assert!(!g.done, "{name} ended after {}", last - 1);
            g.set_phase(&format!("F{last:04}M")).unwrap();
            g.process();
            assert!(g.done, "{name} went on after {last}");
            let winter = format!("W{last:04}A");
            assert_eq!(g.outcome[0], winter, "{name}");
            assert_eq!(
                g.history.last().map(|r| r.name.as_str()),
                Some(winter.as_str()),
                "{name}"
            );
            assert!(g.outcome.len() > 1, "{name}: no power left in the draw");
        }
    }

    #[test]
    fn ancmed_phases_were_named_without_four_digit_years() {
        let mut g = Game::new(variant("ancmed").unwrap());
        assert_eq!(g.phase_name(), "S0001M");
        g.process();
        assert_eq!(g.phase_name(), "F0001M");
        assert_eq!(g.history[0].name, "S0001M");
        // Both spellings are read.
        g.set_phase("S12M").unwrap();
        assert_eq!(g.phase_name(), "S0012M");
        g.set_phase("F0003R").unwrap();
        assert_eq!(g.phase_name(), "F0003R");
        assert_eq!(long_phase(&g.state.phase), "FALL 3 RETREATS");
        g.set_phase("WINTER 7 ADJUSTMENTS").unwrap();
        assert_eq!(g.phase_name(), "W0007A");
    }

    /// France's army in Burgundy dislodged from Munich, with a standoff in
    /// Picardy: it may retreat to Gascony and Marseilles only.
    fn burgundy_dislodged() -> Game {
        let mut g = game();
        g.clear_units(None);
        let (fra, ger, eng) = (power(&g, "FRANCE"), power(&g, "GERMANY"), power(&g, "ENGLAND"));
        g.set_units(fra, &strings(&["A BUR", "A PAR"]), false);
        g.set_units(ger, &strings(&["A MUN", "A RUH"]), false);
        g.set_units(eng, &strings(&["A BEL"]), false);
        g.set_orders(fra, &strings(&["A BUR H", "A PAR - PIC"]), true);
        g.set_orders(ger, &strings(&["A MUN - BUR", "A RUH S A MUN - BUR"]), true);
        g.set_orders(eng, &strings(&["A BEL - PIC"]), true);
        g.process();
        assert_eq!(g.phase_name(), "S1901R");
        g
    }

    #[test]
    fn retreats_restored_from_a_state_opened_the_attackers_origin_and_standoffs() {
        let g = burgundy_dislodged();
        let fra = power(&g, "FRANCE");
        let allowed = g.retreats(fra);
        assert_eq!(allowed, [("A BUR".to_string(), strings(&["GAS", "MAR"]))]);
        // The position as a state holds it: units set again, then the lists.
        let mut h = game();
        h.set_phase("S1901R").unwrap();
        h.clear_units(None);
        for p in g.map().power_ids() {
            let mut units = g.units(p);
            units.extend(g.retreats(p).into_iter().map(|(u, _)| format!("*{u}")));
            h.set_units(p, &units, true);
        }
        // set_units alone opens every empty neighbour (as MILA's does).
        let mut open = h.retreats(fra)[0].1.clone();
        open.sort();
        assert_eq!(open, strings(&["GAS", "MAR", "MUN", "PIC"]));
        h.restore_retreats(&allowed);
        assert_eq!(h.retreats(fra), allowed);
        h.set_orders(fra, &strings(&["A BUR R MUN"]), true);
        assert!(h.orders(fra).is_empty(), "{:?}", h.orders(fra));
        h.set_orders(fra, &strings(&["A BUR R PIC"]), true);
        assert!(h.orders(fra).is_empty(), "{:?}", h.orders(fra));
        h.set_orders(fra, &strings(&["A BUR R GAS"]), true);
        assert_eq!(h.orders(fra), ["A BUR R GAS"]);
    }

    #[test]
    fn history_keeps_each_phase_with_orders_and_results() {
        let mut g = game();
        let fra = power(&g, "FRANCE");
        g.set_orders(fra, &strings(&["A PAR - BUR"]), true);
        g.process();
        g.process();
        assert_eq!(g.history.len(), 2);
        assert_eq!(g.history[0].name, "S1901M");
        assert_eq!(g.history[0].orders_of(fra).collect::<Vec<_>>(), ["A PAR - BUR"]);
        assert_eq!(g.history[1].name, "F1901M");
    }
}
