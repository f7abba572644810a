//! A variant loaded once per process for `dip.Game`: MILA's map names,
//! the names of locations, units and powers as MILA writes them, and the
//! variant's order table.

use super::{FastMap, OrderTable};
use dip_core::{Map, ProvinceId, RegionId, Ruleset, State};
use dip_play::{Loaded, Variants};
use dip_text::Vocabulary;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

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
    pub(super) name_rank: Vec<u32>,
    pub(super) by_name: Vec<ProvinceId>,
    /// Location name → province and, for a coast, its region.
    pub loc_index: HashMap<String, (ProvinceId, Option<RegionId>)>,
    /// The same for names of up to eight bytes, by their bytes as a
    /// number: read for every word of every order given.
    pub(super) loc_codes: FastMap<u64, (ProvinceId, Option<RegionId>)>,
    /// The same for three capital letters (most names), indexed by them
    /// (`loc3_index`): the location's place in `locs` plus one, 0 for none.
    pub(super) loc3: Vec<u16>,
    /// Per location (as `locs`): its province and region.
    pub(super) loc_at: Vec<(ProvinceId, Option<RegionId>)>,
    /// Unit letter → unit type.
    pub letters: Vec<(char, dip_core::UnitTypeId)>,
    /// By province: its place in MILA's order of locations (that of its
    /// map file), which lists and dicts an agent indexes into follow.
    pub mila_rank: Vec<u32>,
    /// The places in `locs` in MILA's order: a province with coasts
    /// before or after them, as MILA's map file has it.
    pub mila_locs: Vec<usize>,
    /// The provinces of the starting units in the order the variant file
    /// lists them (MILA's `power.units` at the start).
    pub start_order: Vec<ProvinceId>,
    /// What each impassable province touches (the variant's `touches`).
    pub touches: Vec<(ProvinceId, Vec<ProvinceId>)>,
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

/// Where the module's variants come from: the one [`Variants`] value of
/// the Python module (a module is process-wide, so its value is a
/// static), with the jDip plugins and folders `dip.add_variant_path` gave
/// as its search paths.
static VARIANTS: Mutex<Option<Variants>> = Mutex::new(None);

/// The module's `Variants`.
pub(super) fn variants() -> Variants {
    VARIANTS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(Variants::new)
        .clone()
}

/// Adds a plugin or a folder of plugins to where variant names are looked
/// up: the module's `Variants` is made again with one more search path.
pub fn add_search_path(path: PathBuf) {
    let mut variants = VARIANTS.lock().unwrap_or_else(|e| e.into_inner());
    let now = variants.get_or_insert_with(Variants::new);
    if !now.search_paths().contains(&path) {
        let mut paths = now.search_paths().to_vec();
        paths.push(path);
        *variants = Some(Variants::with_search_paths(paths));
    }
}

/// The variant a MILA map name names, from `variants`.
pub(super) fn load(variants: &Variants, name: &str) -> Result<Arc<Loaded>, dip_variants::VariantError> {
    match mila_two_powers(name) {
        // The standard map cut to two powers, kept in `Variants` under
        // the MILA name only (its own name is `standard`).
        Some(keep) => dip_variants::parse(&standard_for_two(keep), &format!("{name} (the standard map)"))
            .map(|v| variants.insert_as(&[name], v)),
        None => variants.get(dip_name(name)),
    }
}

/// The variant `name` (a MILA map name, a bundled dip variant, a path
/// to a variant file, or a jDip plugin's variant under the paths added)
/// from the module's `Variants`, with the tables games of it share, made
/// on first use.
pub fn variant(name: &str) -> Result<&'static VariantData, String> {
    static CACHE: OnceLock<Mutex<HashMap<String, &'static VariantData>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(v) = cache.get(name) {
        return Ok(v);
    }
    let loaded = load(&variants(), name).map_err(|e| e.to_string())?;
    // One variant for the whole process: games share its map.
    let loaded: &'static Loaded = Box::leak(Box::new(loaded));
    let var = loaded.variant();
    let words = var.word_lists();
    let touches = var.touches.clone();
    let map: &'static Map = loaded.map();
    // The variant's own words (other spellings of powers, unit types and
    // order words), as dip's order reader takes them.
    let mut vocab = Vocabulary::new(map).with_spellcheck(0);
    let _ = vocab.apply_lists(&words, true);
    let upper = |s: &str| s.to_ascii_uppercase();
    let prov_names: Vec<String> = map.province_ids().map(|p| upper(&map.province(p).abbr)).collect();
    let region_names: Vec<String> = (0..map.num_regions())
        .map(|r| upper(&map.region_name(RegionId(r as u16))))
        .collect();
    let locs = location_names(map, &prov_names, &region_names);
    let unit_names = unit_names(map, &region_names);
    let lands = lands(map);
    let coast_loc = coast_locs(map, &locs, &region_names);
    let loc_index = location_index(map, &prov_names, &region_names);
    let letters = map
        .unit_type_ids()
        .map(|k| (map.unit_type(k).letter.to_ascii_uppercase(), k))
        .collect();
    let loc_codes = loc_index
        .iter()
        .filter_map(|(name, &at)| pack(name).map(|c| (c, at)))
        .collect();
    let loc_at: Vec<(ProvinceId, Option<RegionId>)> = locs.iter().map(|l| loc_index[l]).collect();
    let loc3 = three_letter_index(&locs);
    let mila_rank = mila_rank(name, map, &prov_names);
    let mila_locs = mila_locs(name, map, &mila_rank, &locs, &region_names);
    let start_order = start_order(name, map);
    let mut by_name: Vec<ProvinceId> = map.province_ids().collect();
    by_name.sort_by(|a, b| prov_names[a.index()].cmp(&prov_names[b.index()]));
    let data = VariantData {
        orders: Mutex::new(OrderTable::default()),
        unit_names,
        lands,
        coast_loc,
        split: map.province_ids().map(|p| !map.coasts(p).is_empty()).collect(),
        name_rank: name_rank(&by_name),
        by_name,
        loc_index,
        loc_codes,
        loc3,
        loc_at,
        letters,
        mila_rank,
        mila_locs,
        start_order,
        touches,
        name: name.to_string(),
        map,
        vocab,
        start: var.start.clone(),
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

/// Every location as MILA names it: the provinces, then the coasts.
fn location_names(map: &Map, prov_names: &[String], region_names: &[String]) -> Vec<String> {
    let mut locs = prov_names.to_vec();
    for p in map.province_ids() {
        for &r in map.coasts(p) {
            if map.region(r).coast.is_some() {
                locs.push(region_names[r.index()].clone());
            }
        }
    }
    locs
}

/// `A PAR`, `F STP/SC`: by unit type, then region.
fn unit_names(map: &Map, region_names: &[String]) -> Vec<Vec<String>> {
    map.unit_type_ids()
        .map(|k| {
            region_names
                .iter()
                .map(|r| format!("{} {r}", map.unit_type(k).letter))
                .collect()
        })
        .collect()
}

/// The provinces a unit reaches over its borders, each once, in the order
/// of `Map::edges`: by unit type, then region.
fn lands(map: &Map) -> Vec<Vec<Box<[ProvinceId]>>> {
    map.unit_type_ids()
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
        .collect()
}

/// By region: its place in `locs` when it is a coast.
fn coast_locs(map: &Map, locs: &[String], region_names: &[String]) -> Vec<Option<usize>> {
    (0..map.num_regions())
        .map(|r| {
            let r = RegionId(r as u16);
            map.region(r)
                .coast
                .as_ref()
                .and_then(|_| locs.iter().position(|l| *l == region_names[r.index()]))
        })
        .collect()
}

/// Location name → province and, for a coast, its region.
fn location_index(
    map: &Map,
    prov_names: &[String],
    region_names: &[String],
) -> HashMap<String, (ProvinceId, Option<RegionId>)> {
    let mut loc_index = HashMap::new();
    for p in map.province_ids() {
        loc_index.insert(prov_names[p.index()].clone(), (p, None));
        for &r in map.coasts(p) {
            if map.region(r).coast.is_some() {
                loc_index.insert(region_names[r.index()].clone(), (p, Some(r)));
            }
        }
    }
    loc_index
}

/// The locations of three capital letters, indexed by them: the place in
/// `locs` plus one, 0 for none (see `VariantData::loc3`).
fn three_letter_index(locs: &[String]) -> Vec<u16> {
    let mut loc3 = vec![0u16; 26 * 26 * 26];
    for (i, l) in locs.iter().enumerate() {
        if let Some(k) = loc3_index(l.as_bytes()) {
            loc3[k] = i as u16 + 1;
        }
    }
    loc3
}

/// By province: its place in `by_name`.
fn name_rank(by_name: &[ProvinceId]) -> Vec<u32> {
    let mut rank = vec![0u32; by_name.len()];
    for (k, p) in by_name.iter().enumerate() {
        rank[p.index()] = k as u32;
    }
    rank
}

/// The text of the bundled variant a MILA map is read from, if any.
fn bundled_text(mila: &str) -> Option<&'static str> {
    let name = if mila_two_powers(mila).is_some() {
        "standard"
    } else {
        dip_name(mila)
    };
    dip_variants::bundled()
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| *t)
}

/// By province, its place in MILA's order of locations: that of the
/// `province` lines of the variant file, which for MILA's maps follow
/// MILA's map files; the standard board's file groups provinces by
/// terrain, so the standard maps take the order of `fleetrome.variant`
/// (the same board, listed as MILA lists it).
fn mila_rank(name: &str, map: &Map, prov_names: &[String]) -> Vec<u32> {
    let n = prov_names.len();
    let mut rank: Vec<u32> = (0..n as u32).collect();
    if name != "standard" && mila_two_powers(name).is_none() {
        return rank;
    }
    let Some(text) = bundled_text("standard_fleet_rome") else {
        return rank;
    };
    let listed: Vec<ProvinceId> = text
        .lines()
        .filter_map(|l| l.strip_prefix("province "))
        .filter_map(|rest| rest.split_whitespace().next())
        .filter_map(|abbr| map.find_province(abbr))
        .collect();
    if listed.len() != n {
        return rank;
    }
    for (k, p) in listed.iter().enumerate() {
        rank[p.index()] = k as u32;
    }
    rank
}

/// The places in `locs` in MILA's order: provinces by `rank`, a
/// province's coasts just before it (after it on the maps whose files
/// list them so: colonial, world).
fn mila_locs(name: &str, map: &Map, rank: &[u32], locs: &[String], region_names: &[String]) -> Vec<usize> {
    let coasts_after = matches!(name, "colonial" | "world");
    let mut provinces: Vec<ProvinceId> = map.province_ids().collect();
    provinces.sort_by_key(|p| rank[p.index()]);
    let mut out = Vec::with_capacity(locs.len());
    for p in provinces {
        let coasts = map
            .coasts(p)
            .iter()
            .filter(|&&r| map.region(r).coast.is_some())
            .filter_map(|r| locs.iter().position(|l| *l == region_names[r.index()]));
        if coasts_after {
            out.push(p.index());
            out.extend(coasts);
        } else {
            out.extend(coasts);
            out.push(p.index());
        }
    }
    out
}

/// The provinces of the starting units in the order of the variant
/// file's `unit-at` lines (a bundled variant; else none), which for
/// MILA's maps follow MILA's map files; the standard maps take
/// `fleetrome.variant`'s (the same places, listed as MILA lists them).
fn start_order(name: &str, map: &Map) -> Vec<ProvinceId> {
    let source = if name == "standard" || mila_two_powers(name).is_some() {
        "standard_fleet_rome"
    } else {
        name
    };
    let Some(text) = bundled_text(source) else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|l| l.strip_prefix("unit-at "))
        .filter_map(|rest| rest.split_whitespace().nth(2))
        .filter_map(|region| map.find_province(region.split('/').next().unwrap_or(region)))
        .collect()
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
