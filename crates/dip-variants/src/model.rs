//! An editable description of a variant, by names: what the readers of
//! foreign formats produce, what the writers consume, and what map edits
//! (seismic play) change. `Model::build` writes it as a native file and
//! parses that, so every variant, whatever its source, passes the same
//! checks; an error is reported at the line of the source file the faulty
//! item came from.

use dip_core::map::{BuildRule, EdgeFlags, Terrain, UnitType};
use dip_core::{PhaseKind, Season};

pub use crate::border_rules::MBorderRule;
use crate::{Variant, VariantError};

/// Where an item came from: (index into `Model::files`, 1-based line).
pub type Src = (usize, usize);

#[derive(Clone, Debug, Default, PartialEq)]
pub struct MPower {
    pub abbr: String,
    pub name: String,
    pub adjective: String,
    pub colour: Option<String>,
    pub initial: Option<char>,
    pub pattern: Option<String>,
    pub aliases: Vec<String>,
    pub src: Src,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MProvince {
    pub abbr: String,
    pub name: String,
    pub terrain: Terrain,
    pub center: bool,
    /// Home powers by abbreviation.
    pub homes: Vec<String>,
    pub home_of_all: bool,
    /// Split coasts: (coast, position).
    pub coasts: Vec<(String, Option<(f32, f32)>)>,
    /// The coasts' own names, where the variant gives them: (coast, name),
    /// e.g. DipWork's subfield (`sc`, `PeS`).
    pub coast_names: Vec<(String, String)>,
    pub at: Option<(f32, f32)>,
    /// Where a fleet stands in a province with one coast, when not at `at`
    /// (Realpolitik's special fleet position `x,y,xs,ys`).
    pub fleet_at: Option<(f32, f32)>,
    pub label: Option<(f32, f32)>,
    pub aliases: Vec<String>,
    pub src: Src,
}

impl MProvince {
    pub fn new(abbr: &str, name: &str, terrain: Terrain) -> Self {
        MProvince {
            abbr: abbr.into(),
            name: name.into(),
            terrain,
            center: false,
            homes: Vec::new(),
            home_of_all: false,
            coasts: Vec::new(),
            coast_names: Vec::new(),
            at: None,
            fleet_at: None,
            label: None,
            aliases: Vec::new(),
            src: (0, 0),
        }
    }
}

/// One directed border for one unit type, by region names (`lon`, `stp/nc`).
#[derive(Clone, Debug, PartialEq)]
pub struct MEdge {
    /// Index into `Model::unit_types`.
    pub ut: usize,
    pub from: String,
    pub to: String,
    pub flags: EdgeFlags,
    pub src: Src,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MUnit {
    pub power: String,
    pub letter: char,
    pub region: String,
    pub src: Src,
}

/// A whole variant by names.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub name: String,
    pub title: String,
    pub description: Vec<String>,
    pub year: i32,
    pub season: Season,
    pub kind: PhaseKind,
    pub victory: u16,
    pub build_rule: BuildRule,
    pub rules: String,
    pub powers: Vec<MPower>,
    pub unit_types: Vec<UnitType>,
    pub convoy_unit: Option<usize>,
    pub provinces: Vec<MProvince>,
    pub edges: Vec<MEdge>,
    /// Given clockwise orders: (province, neighbours).
    pub clockwise: Vec<(String, Vec<String>)>,
    /// What impassable provinces touch (`touches`): (province, neighbours).
    pub touches: Vec<(String, Vec<String>)>,
    pub units: Vec<MUnit>,
    /// Starting owners (power, province); `None`: owners of home centres.
    pub owners: Option<Vec<(String, String)>>,
    pub pictures: Vec<(String, String)>,
    /// Unit pictures: (power abbreviation, unit type letter, file).
    pub unit_pictures: Vec<(String, char, String)>,
    /// Other spellings of each unit type, indexed like `unit_types`.
    pub unit_aliases: Vec<Vec<String>>,
    /// Order words: (kind, words), kinds in `crate::ORDER_KINDS`.
    pub order_words: Vec<(String, Vec<String>)>,
    /// Source files named in `Src`.
    pub files: Vec<String>,
    /// Coastal provinces where fleets convoy (`convoy-coast`).
    pub convoy_coasts: Vec<String>,
    /// Rules of provinces' borders (`border-rule`).
    pub border_rules: Vec<MBorderRule>,
    /// How the files it was read from were written (DipWork's and
    /// Realpolitik's come from DOS and Windows): files written back in a
    /// legacy format keep it.
    pub encoding: crate::files::Encoding,
    /// Realpolitik's `.rgn` scanlines as read (`x y length`), by province
    /// abbreviation, one list per part (the province, then its coasts):
    /// written back as they came.
    pub scanlines: Vec<(String, Vec<Vec<String>>)>,
    /// What the reader could not use and replaced (a picture list or
    /// icons not found, an unknown colour name): said by `variant check`
    /// and by the commands that draw, never dropped in silence.
    pub notes: Vec<String>,
}

impl Default for Model {
    fn default() -> Self {
        Model {
            name: String::new(),
            title: String::new(),
            description: Vec::new(),
            year: 1901,
            season: Season::Spring,
            kind: PhaseKind::Movement,
            victory: 0,
            build_rule: BuildRule::Standard,
            rules: "datc".into(),
            powers: Vec::new(),
            unit_types: Vec::new(),
            convoy_unit: None,
            provinces: Vec::new(),
            edges: Vec::new(),
            clockwise: Vec::new(),
            touches: Vec::new(),
            units: Vec::new(),
            owners: None,
            pictures: Vec::new(),
            unit_pictures: Vec::new(),
            unit_aliases: Vec::new(),
            order_words: Vec::new(),
            files: Vec::new(),
            convoy_coasts: Vec::new(),
            border_rules: Vec::new(),
            encoding: crate::files::Encoding::Utf8,
            scanlines: Vec::new(),
            notes: Vec::new(),
        }
    }
}

fn quote(s: &str) -> String {
    if s.is_empty() || s.contains(|c: char| c.is_whitespace() || c == '#' || c == ',') {
        format!("\"{s}\"")
    } else {
        s.to_string()
    }
}

fn pos(p: (f32, f32)) -> String {
    format!("{},{}", p.0, p.1)
}

fn terrains(t: dip_core::map::TerrainSet) -> String {
    let v: Vec<&str> = Terrain::ALL
        .iter()
        .filter(|x| t.contains(**x))
        .map(|x| x.name())
        .collect();
    if v.is_empty() {
        "none".into()
    } else {
        v.join(",")
    }
}

fn flags_suffix(f: EdgeFlags) -> String {
    let mut s = String::new();
    if f.has(EdgeFlags::WEAK_MOVE) {
        s.push_str(":mx");
    }
    if f.has(EdgeFlags::NO_RETREAT) {
        s.push_str(":hx");
    }
    if f.has(EdgeFlags::CANAL) {
        s.push_str(":canal");
    }
    s
}

/// The native text being written, with the source of each line's item
/// (so that a build error names the file and line it came from).
#[derive(Default)]
struct Native {
    out: String,
    srcs: Vec<Src>,
}

impl Native {
    fn line(&mut self, text: String, src: Src) {
        self.out.push_str(&text);
        self.out.push('\n');
        self.srcs.push(src);
    }
}

fn region_key(r: &str) -> String {
    r.to_ascii_lowercase()
}

impl Model {
    /// The native text and, per output line, the source of its item.
    pub fn to_native_with_sources(&self) -> (String, Vec<Src>) {
        let mut w = Native::default();
        self.write_settings(&mut w);
        self.write_powers_and_units(&mut w);
        self.write_provinces(&mut w);
        self.write_borders(&mut w);
        self.write_start(&mut w);
        (w.out, w.srcs)
    }

    /// Name, title, description, start, victory, build rule, rules and pictures.
    fn write_settings(&self, w: &mut Native) {
        let none = (0usize, 0usize);
        w.line(format!("variant {}", self.name), none);
        if !self.title.is_empty() {
            w.line(format!("title {}", self.title), none);
        }
        for d in &self.description {
            if d.trim().is_empty() {
                continue;
            }
            w.line(format!("description {}", d.replace('#', "No.")), none);
        }
        let (season, kind) = match (self.season, self.kind) {
            (_, PhaseKind::Adjustment) => ("winter", "adjustment"),
            (Season::Spring, PhaseKind::Movement) => ("spring", "movement"),
            (Season::Spring, PhaseKind::Retreat) => ("spring", "retreat"),
            (Season::Fall, PhaseKind::Movement) => ("fall", "movement"),
            (Season::Fall, PhaseKind::Retreat) => ("fall", "retreat"),
        };
        w.line(format!("start {} {season} {kind}", self.year), none);
        w.line(format!("victory {}", self.victory), none);
        let br = match self.build_rule {
            BuildRule::Standard => "standard",
            BuildRule::Aberration => "aberration",
            BuildRule::Chaos => "chaos",
        };
        w.line(format!("build-rule {br}"), none);
        w.line(format!("rules {}", self.rules), none);
        for (k, p) in &self.pictures {
            w.line(format!("picture {} {}", quote(k), quote(p)), none);
        }
        w.line(String::new(), none);
    }

    /// Powers, unit types and what the variant says of units (convoying
    /// type, pictures, order words).
    fn write_powers_and_units(&self, w: &mut Native) {
        let none = (0usize, 0usize);
        for p in &self.powers {
            let mut t = format!("power {} {} {}", quote(&p.abbr), quote(&p.name), quote(&p.adjective));
            if let Some(c) = &p.colour {
                t.push_str(&format!(" colour={c}"));
            }
            if let Some(i) = p.initial {
                t.push_str(&format!(" initial={}", quote(&i.to_string())));
            }
            if let Some(pt) = &p.pattern {
                t.push_str(&format!(" pattern={pt}"));
            }
            if !p.aliases.is_empty() {
                let a: Vec<String> = p.aliases.iter().map(|a| quote(a)).collect();
                t.push_str(&format!(" aka={}", a.join(",")));
            }
            w.line(t, p.src);
        }
        for (i, u) in self.unit_types.iter().enumerate() {
            let mut t = format!("unit {} {} strength={} cost={}", u.letter, u.name, u.strength, u.cost);
            if let Some(al) = self.unit_aliases.get(i).filter(|a| !a.is_empty()) {
                t.push_str(&format!(" aka={}", al.join(",")));
            }
            if u.convoyable {
                t.push_str(" convoyable");
            }
            if u.can_convoy {
                t.push_str(" convoys");
            }
            if u.uses_coasts {
                t.push_str(" coasts");
            }
            t.push_str(&format!(
                " stands={} builds={}",
                terrains(u.stands_on),
                terrains(u.builds_on)
            ));
            w.line(t, none);
        }
        if let Some(c) = self.convoy_unit.and_then(|c| self.unit_types.get(c)) {
            w.line(format!("convoy-unit {}", c.letter), none);
        }
        for (pw, ut, f) in &self.unit_pictures {
            w.line(format!("unit-picture {} {ut} {}", quote(pw), quote(f)), none);
        }
        for (k, ws) in &self.order_words {
            let ws: Vec<String> = ws.iter().map(|w| quote(w)).collect();
            w.line(format!("order-words {k} {}", ws.join(" ")), none);
        }
    }

    /// Provinces, then the coast regions that have a position or a name.
    fn write_provinces(&self, w: &mut Native) {
        for p in &self.provinces {
            let mut t = format!("province {} {} {}", quote(&p.abbr), quote(&p.name), p.terrain.name());
            if p.center {
                t.push_str(" center");
            }
            let mut homes: Vec<String> = p.homes.clone();
            if p.home_of_all {
                homes.push("all".into());
            }
            if !homes.is_empty() {
                t.push_str(&format!(" home={}", homes.join(",")));
            }
            if !p.coasts.is_empty() {
                let c: Vec<&str> = p.coasts.iter().map(|c| c.0.as_str()).collect();
                t.push_str(&format!(" coasts={}", c.join(",")));
            }
            if let Some(a) = p.at {
                t.push_str(&format!(" at={}", pos(a)));
            }
            if let Some(a) = p.fleet_at {
                t.push_str(&format!(" fleet-at={}", pos(a)));
            }
            if let Some(a) = p.label {
                t.push_str(&format!(" label={}", pos(a)));
            }
            if !p.aliases.is_empty() {
                let a: Vec<String> = p.aliases.iter().map(|a| quote(a)).collect();
                t.push_str(&format!(" aka={}", a.join(",")));
            }
            w.line(t, p.src);
        }
        for p in &self.provinces {
            for (c, at) in &p.coasts {
                let mut t = format!("region {}/{c}", p.abbr);
                if let Some(a) = at {
                    t.push_str(&format!(" at={}", pos(*a)));
                }
                if let Some((_, n)) = p.coast_names.iter().find(|(x, _)| x == c) {
                    t.push_str(&format!(" name={}", quote(n)));
                }
                if t.contains('=') {
                    w.line(t, p.src);
                }
            }
        }
    }

    /// Borders: both ways where the reverse edge exists with the same
    /// flags, else one way; one line per edge keeps the source line.
    fn write_borders(&self, w: &mut Native) {
        let mut seen = std::collections::HashMap::new();
        for e in &self.edges {
            seen.insert((e.ut, region_key(&e.from), region_key(&e.to)), e.flags);
        }
        let mut done = std::collections::HashSet::new();
        for e in &self.edges {
            let key = (e.ut, region_key(&e.from), region_key(&e.to));
            if !done.insert(key.clone()) {
                continue;
            }
            let Some(u) = self.unit_types.get(e.ut) else { continue };
            let rev = (e.ut, key.2.clone(), key.1.clone());
            let both = seen.get(&rev) == Some(&e.flags);
            if both {
                done.insert(rev);
            }
            let kw = if both { "border" } else { "border-oneway" };
            w.line(
                format!("{kw} {} {} {}{}", u.letter, e.from, e.to, flags_suffix(e.flags)),
                e.src,
            );
        }
    }

    /// Convoy coasts, border rules, clockwise orders and touches; then the
    /// starting units and owners.
    fn write_start(&self, w: &mut Native) {
        let none = (0usize, 0usize);
        if !self.convoy_coasts.is_empty() {
            w.line(format!("convoy-coast {}", self.convoy_coasts.join(" ")), none);
        }
        for r in &self.border_rules {
            w.line(r.to_line(), r.src);
        }
        for (p, ns) in &self.clockwise {
            w.line(format!("clockwise {p} {}", ns.join(" ")), none);
        }
        for (p, ns) in &self.touches {
            w.line(format!("touches {p} {}", ns.join(" ")), none);
        }
        for u in &self.units {
            w.line(format!("unit-at {} {} {}", u.power, u.letter, u.region), u.src);
        }
        if let Some(owners) = &self.owners {
            for (pw, pr) in owners {
                w.line(format!("owner {pw} {pr}"), none);
            }
        }
    }

    /// The native text (docs/variant-format.md).
    pub fn to_native(&self) -> String {
        self.to_native_with_sources().0
    }

    /// Builds the variant; errors name the source file and line of the
    /// faulty item (or `fallback` when it has no source).
    pub fn build(&self, fallback: &str) -> Result<Variant, VariantError> {
        let (text, srcs) = self.to_native_with_sources();
        let mut v = crate::parse::parse(&text, fallback).map_err(|mut e| {
            let src = e.line.checked_sub(1).and_then(|i| srcs.get(i)).copied();
            match src {
                Some((f, l)) if l > 0 => {
                    e.file = self.files.get(f).cloned().unwrap_or_else(|| fallback.to_string());
                    e.line = l;
                }
                _ => {
                    e.file = fallback.to_string();
                    e.line = 0;
                }
            }
            e
        })?;
        v.notes = self.notes.clone();
        Ok(v)
    }

    /// The model of a variant (everything the native format can say).
    pub fn from_variant(v: &Variant) -> Model {
        let map = &v.map;
        let mut m = Model {
            name: v.name.clone(),
            title: v.title.clone(),
            description: v.description.lines().map(str::to_string).collect(),
            year: v.start.phase.year,
            season: v.start.phase.season,
            kind: v.start.phase.kind,
            victory: map.victory,
            build_rule: map.build_rule,
            rules: v.rules_text.clone(),
            unit_types: map.unit_types().to_vec(),
            convoy_unit: v.convoy_unit.map(|u| u.index()),
            pictures: v.pictures.clone(),
            unit_pictures: v
                .unit_pictures
                .iter()
                .map(|u| {
                    (
                        map.power(u.power).abbr.clone(),
                        map.unit_type(u.unit_type).letter,
                        u.path.clone(),
                    )
                })
                .collect(),
            unit_aliases: v.unit_aliases.clone(),
            order_words: v.order_words.clone(),
            touches: v
                .touches
                .iter()
                .map(|(p, ns)| {
                    let abbr = |q: &dip_core::ProvinceId| map.province(*q).abbr.clone();
                    (abbr(p), ns.iter().map(abbr).collect())
                })
                .collect(),
            ..Model::default()
        };
        m.powers = power_models(v);
        m.provinces = map.province_ids().map(|pid| province_model(v, pid)).collect();
        m.edges = edge_models(map);
        m.convoy_coasts = map
            .province_ids()
            .filter(|&p| map.province(p).terrain == Terrain::Coast && map.is_convoy_space(p))
            .map(|p| map.province(p).abbr.clone())
            .collect();
        m.border_rules = map
            .border_rules()
            .iter()
            .map(|r| MBorderRule::from_rule(map, r))
            .collect();
        m.clockwise = unimplied_clockwise(map);
        for (_, u) in v.start.units() {
            m.units.push(MUnit {
                power: map.power(u.power).abbr.clone(),
                letter: map.unit_type(u.kind).letter,
                region: map.region_name(u.region),
                src: (0, 0),
            });
        }
        m.owners = explicit_owners(v);
        m
    }

    /// Gives every province its clockwise order (formats such as DipWork's
    /// keep the order of the border lines).
    pub fn fill_clockwise(&mut self, v: &Variant) {
        let map = &v.map;
        self.clockwise = map
            .province_ids()
            .filter(|&p| !map.clockwise(p).is_empty())
            .map(|p| {
                (
                    map.province(p).abbr.clone(),
                    map.clockwise(p).iter().map(|q| map.province(*q).abbr.clone()).collect(),
                )
            })
            .collect();
    }

    pub fn find_province(&self, name: &str) -> Option<usize> {
        self.provinces.iter().position(|p| {
            p.abbr.eq_ignore_ascii_case(name)
                || p.name.eq_ignore_ascii_case(name)
                || p.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
        })
    }

    pub fn find_unit_type(&self, word: &str) -> Option<usize> {
        self.unit_types.iter().position(|u| {
            u.name.eq_ignore_ascii_case(word)
                || (word.chars().count() == 1 && word.chars().next().is_some_and(|c| c.eq_ignore_ascii_case(&u.letter)))
        })
    }
}

/// The powers with their styles (colour, initial, pattern, aliases).
fn power_models(v: &Variant) -> Vec<MPower> {
    let map = &v.map;
    let mut powers = Vec::new();
    for (i, p) in map.powers().iter().enumerate() {
        let st = v.power_styles.get(i).cloned().unwrap_or_default();
        powers.push(MPower {
            abbr: p.abbr.clone(),
            name: p.name.clone(),
            adjective: p.adjective.clone(),
            colour: st.colour,
            initial: st.initial,
            pattern: st.pattern,
            aliases: st.aliases,
            src: (0, 0),
        });
    }
    powers
}

/// A province with its centre, homes, positions, aliases and coasts.
fn province_model(v: &Variant, pid: dip_core::ProvinceId) -> MProvince {
    let map = &v.map;
    let p = map.province(pid);
    let mut mp = MProvince::new(&p.abbr, &p.name, p.terrain);
    mp.center = p.supply_center;
    mp.homes = p.homes.iter().map(|h| map.power(h).abbr.clone()).collect();
    mp.home_of_all = p.home_of_all;
    mp.at = p.pos;
    mp.fleet_at = p.regions.first().and_then(|&r| map.region(r).fleet_pos);
    mp.label = v.labels.get(pid.index()).copied().flatten();
    mp.aliases = p.aliases.clone();
    for &r in map.coasts(pid) {
        let reg = map.region(r);
        let c = reg.coast.clone().unwrap_or_default();
        let at = if reg.pos == p.pos { None } else { reg.pos };
        if let Some(n) = &reg.name {
            mp.coast_names.push((c.clone(), n.clone()));
        }
        mp.coasts.push((c, at));
    }
    mp
}

/// Every unit type's borders, region by region.
fn edge_models(map: &dip_core::Map) -> Vec<MEdge> {
    let mut edges = Vec::new();
    for ut in map.unit_type_ids() {
        for r in 0..map.num_regions() {
            let from = dip_core::RegionId(r as u16);
            for e in map.edges(ut, from) {
                edges.push(MEdge {
                    ut: ut.index(),
                    from: map.region_name(from),
                    to: map.region_name(e.to),
                    flags: e.flags,
                    src: (0, 0),
                });
            }
        }
    }
    edges
}

/// Clockwise orders that the positions do not imply.
fn unimplied_clockwise(map: &dip_core::Map) -> Vec<(String, Vec<String>)> {
    let mut clockwise = Vec::new();
    for pid in map.province_ids() {
        let implied = implied_clockwise(map, pid);
        if implied != map.clockwise(pid) {
            let ns = map
                .clockwise(pid)
                .iter()
                .map(|q| map.province(*q).abbr.clone())
                .collect();
            clockwise.push((map.province(pid).abbr.clone(), ns));
        }
    }
    clockwise
}

/// Owners: only when they differ from "home centres owned by their power".
fn explicit_owners(v: &Variant) -> Option<Vec<(String, String)>> {
    let map = &v.map;
    let mut implied = v.start.clone();
    for &c in map.supply_centers() {
        implied.set_owner(c, None);
    }
    implied.own_home_centers(map);
    let differs = map
        .supply_centers()
        .iter()
        .any(|&c| implied.owner(c) != v.start.owner(c));
    if differs {
        let mut owners = Vec::new();
        for &c in map.supply_centers() {
            if let Some(o) = v.start.owner(c) {
                owners.push((map.power(o).abbr.clone(), map.province(c).abbr.clone()));
            }
        }
        return Some(owners);
    }
    None
}

/// The clockwise order `MapBuilder::build` derives without a given order.
fn implied_clockwise(map: &dip_core::Map, p: dip_core::ProvinceId) -> Vec<dip_core::ProvinceId> {
    let prov = map.province(p);
    let mut ns: Vec<dip_core::ProvinceId> = Vec::new();
    for &r in &prov.regions {
        for ut in map.unit_type_ids() {
            for e in map.edges(ut, r) {
                let q = map.province_of(e.to);
                if q != p && !ns.contains(&q) {
                    ns.push(q);
                }
            }
        }
    }
    if let Some((x, y)) = prov.pos {
        let angle = |q: dip_core::ProvinceId| {
            map.province(q)
                .pos
                .map(|(qx, qy)| (qy - y).atan2(qx - x))
                .unwrap_or(0.0)
        };
        ns.sort_by(|&a, &b| angle(a).total_cmp(&angle(b)));
    }
    ns
}
