//! DPjudge `.map` files, as used by MILA's `diplomacy` engine
//! (docs/dpjudge-map.md): read into a [`Model`], and written.

use std::collections::HashMap;

use dip_core::map::{BuildRule, EdgeFlags, Terrain, UnitType};
use dip_core::{Phase, PhaseKind, Season};

use crate::model::{MEdge, MPower, MProvince, MUnit, Model};
use crate::VariantError;

fn err(file: &str, line: usize, message: impl Into<String>) -> VariantError {
    VariantError {
        file: file.to_string(),
        line,
        message: message.into(),
    }
}

#[derive(Default)]
struct Loc {
    kind: String,
    /// Upper-case in the ABUTS line (fleets too) or lower-case (armies only).
    abuts: Vec<(String, bool)>,
    line: usize,
    file: usize,
}

#[derive(Default)]
struct Reader {
    files: Vec<String>,
    /// Full names by lower-case location (`bul/ec` → `Bulgaria (east coast)`).
    names: HashMap<String, String>,
    aliases: HashMap<String, Vec<String>>,
    /// Locations in the order of their terrain lines.
    order: Vec<String>,
    locs: HashMap<String, Loc>,
    powers: Vec<MPower>,
    homes: Vec<(String, String)>,
    centres: Vec<String>,
    owners: HashMap<String, String>,
    units: Vec<MUnit>,
    begin: Option<(i32, Season, PhaseKind)>,
    victory: Option<u16>,
    build_any: bool,
}

/// Reads a DPjudge map file; `MAP other.map` lines read that file (from the
/// same folder) first.
pub fn read_file(path: &str) -> Result<Model, VariantError> {
    let mut r = Reader::default();
    read_into(&mut r, path, 0)?;
    let stem = std::path::Path::new(path)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("variant")
        .to_string();
    finish(r, &stem)
}

/// Reads DPjudge map text (no `MAP` includes).
pub fn read_str(text: &str, file: &str) -> Result<Model, VariantError> {
    let mut r = Reader::default();
    r.files.push(file.to_string());
    read_text(&mut r, text, 0, None)?;
    let stem = std::path::Path::new(file)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("variant")
        .to_string();
    finish(r, &stem)
}

fn read_into(r: &mut Reader, path: &str, depth: usize) -> Result<(), VariantError> {
    if depth > 8 {
        return Err(err(path, 1, "`MAP` includes nest too deep (a loop?)"));
    }
    let text =
        crate::formats::read_legacy_text(path).map_err(|e| err(path, 0, format!("cannot read the map file ({e})")))?;
    let fi = r.files.len();
    r.files.push(path.to_string());
    let dir = std::path::Path::new(path).parent().map(|d| d.to_path_buf());
    read_text(r, &text, fi, dir.as_deref().map(|d| (d, depth)))
}

fn read_text(
    r: &mut Reader,
    text: &str,
    fi: usize,
    dir: Option<(&std::path::Path, usize)>,
) -> Result<(), VariantError> {
    let file = r.files[fi].clone();
    // The power whose lines (units, centres) follow; a location or
    // `UNOWNED` line ends it.
    let mut current: Option<usize> = None;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let e = |m: String| err(&file, line_no, m);
        if let Some((full, rest)) = line.split_once('=') {
            r.names_line(full, rest, &e)?;
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let kw = words[0].to_ascii_uppercase();
        match kw.as_str() {
            "WATER" | "LAND" | "COAST" | "SHUT" | "PORT" => {
                r.location(&kw, &words, (fi, line_no), &e)?;
                current = None;
            }
            "MAP" => r.include(&words, dir, &e)?,
            "BEGIN" => {
                // dip's one reader of phase names (`SPRING 1901 MOVEMENT`).
                let p: Phase = words[1..].join(" ").parse().map_err(|why| {
                    e(format!(
                        "{why}: expected `BEGIN SEASON YEAR KIND`, e.g. `BEGIN SPRING 1901 MOVEMENT`"
                    ))
                })?;
                r.begin = Some((p.year, p.season, p.kind));
            }
            "VICTORY" => {
                let n = words.get(1).and_then(|w| w.parse().ok());
                r.victory = Some(n.ok_or_else(|| e("expected `VICTORY N`".into()))?);
            }
            "RULE" | "RULES" => {
                if words.iter().any(|w| w.eq_ignore_ascii_case("BUILD_ANY")) {
                    r.build_any = true;
                }
            }
            "UNPLAYED" | "DUMMY" | "DUMMIES" => {
                // Powers played by nobody still take part.
            }
            "UNOWNED" | "NEUTRAL" => {
                r.neutral(&words);
                current = None;
            }
            "A" | "F" if words.len() == 2 => r.unit(current, &kw, &words, (fi, line_no), &e)?,
            "OWNS" | "CENTERS" | "HOME" | "HOMES" | "INHABITS" => r.centres_line(current, &kw, &words, &e)?,
            _ => current = Some(r.power(&words, (fi, line_no), &e)?),
        }
    }
    Ok(())
}

/// The map file's lines, one method per keyword; `e` makes an error at the
/// line read.
impl Reader {
    /// Names: `Full Name = abbr alias...`.
    fn names_line(&mut self, full: &str, rest: &str, e: &dyn Fn(String) -> VariantError) -> Result<(), VariantError> {
        let mut ws = rest.split_whitespace();
        let Some(abbr) = ws.next() else {
            return Err(e("expected `Full Name = abbr [alias...]`".into()));
        };
        let key = abbr.to_ascii_lowercase();
        self.names.insert(key.clone(), full.trim().to_string());
        self.aliases
            .entry(key)
            .or_default()
            .extend(ws.map(|w| w.replace('+', " ")));
        Ok(())
    }

    /// `TERRAIN LOC [ABUTS LOC...]`: a location and what it borders.
    fn location(
        &mut self,
        kw: &str,
        words: &[&str],
        (fi, line_no): (usize, usize),
        e: &dyn Fn(String) -> VariantError,
    ) -> Result<(), VariantError> {
        let (loc, abuts) = match words.get(1..) {
            Some([loc, a, rest @ ..]) if a.eq_ignore_ascii_case("ABUTS") => (loc, rest),
            Some([loc]) => (loc, &[][..]),
            _ => return Err(e(format!("expected `{kw} LOC ABUTS LOC...`"))),
        };
        let key = loc.to_ascii_lowercase();
        if !self.locs.contains_key(&key) {
            self.order.push(key.clone());
        }
        self.locs.insert(
            key,
            Loc {
                kind: kw.to_string(),
                abuts: abuts
                    .iter()
                    .map(|a| (a.to_ascii_lowercase(), a.chars().any(|c| c.is_ascii_uppercase())))
                    .collect(),
                line: line_no,
                file: fi,
            },
        );
        Ok(())
    }

    /// `MAP FILE`: another map file (from the same folder), read at this line.
    fn include(
        &mut self,
        words: &[&str],
        dir: Option<(&std::path::Path, usize)>,
        e: &dyn Fn(String) -> VariantError,
    ) -> Result<(), VariantError> {
        let Some(name) = words.get(1) else {
            return Err(e("expected `MAP FILE`".into()));
        };
        match dir {
            Some((d, depth)) => {
                let p = crate::files::confined(d, name).map_err(|m| e(format!("`MAP`: {m}")))?;
                read_into(self, &p.to_string_lossy(), depth + 1)?;
            }
            None => return Err(e(format!("`MAP {name}`: includes need a file path, not text"))),
        }
        Ok(())
    }

    /// `UNOWNED LOC...`: centres nobody owns or calls home.
    fn neutral(&mut self, words: &[&str]) {
        for w in &words[1..] {
            let c = w.to_ascii_lowercase();
            self.owners.remove(&c);
            self.homes.retain(|(_, h)| *h != c);
            if !self.centres.contains(&c) {
                self.centres.push(c);
            }
        }
    }

    /// `A LOC` or `F LOC` after a power line: its starting unit.
    fn unit(
        &mut self,
        current: Option<usize>,
        kw: &str,
        words: &[&str],
        (fi, line_no): (usize, usize),
        e: &dyn Fn(String) -> VariantError,
    ) -> Result<(), VariantError> {
        let Some(pi) = current else {
            return Err(e("a unit line must follow a power line".into()));
        };
        let pw = self.powers[pi].abbr.clone();
        let region = words[1].to_ascii_lowercase();
        self.units
            .retain(|u| u.region.split('/').next() != region.split('/').next());
        self.units.push(MUnit {
            power: pw,
            letter: kw.chars().next().unwrap_or('A'),
            region,
            src: (fi, line_no),
        });
        Ok(())
    }

    /// `OWNS`/`CENTERS` (owned centres) or `HOME`/`HOMES`/`INHABITS` (home
    /// centres) after a power line.
    fn centres_line(
        &mut self,
        current: Option<usize>,
        kw: &str,
        words: &[&str],
        e: &dyn Fn(String) -> VariantError,
    ) -> Result<(), VariantError> {
        let Some(pi) = current else {
            return Err(e(format!("`{kw}` must follow a power line")));
        };
        let pw = self.powers[pi].abbr.clone();
        for w in &words[1..] {
            let c = w.to_ascii_lowercase();
            if !self.centres.contains(&c) {
                self.centres.push(c.clone());
            }
            if kw == "OWNS" || kw == "CENTERS" {
                self.owners.insert(c, pw.clone());
            } else {
                self.homes.push((pw.clone(), c));
            }
        }
        Ok(())
    }

    /// A power: `NAME [(ADJECTIVE[:LETTER])] [HOME...]`; homes given anew
    /// replace the power's homes and units. Returns the power's index.
    fn power(
        &mut self,
        words: &[&str],
        (fi, line_no): (usize, usize),
        e: &dyn Fn(String) -> VariantError,
    ) -> Result<usize, VariantError> {
        let name = words[0];
        if !name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c == '_' || c == '-' || c.is_ascii_digit())
        {
            return Err(e(format!(
                "cannot read this line (expected a power, `Name = abbr`, or `TERRAIN LOC ABUTS ...`), found `{name}`"
            )));
        }
        let mut rest = &words[1..];
        let mut adjective = name.to_string();
        let mut initial = None;
        if let Some(w) = rest.first().filter(|w| w.starts_with('(')) {
            let inner = w.trim_start_matches('(').trim_end_matches(')');
            let (a, l) = match inner.split_once(':') {
                Some((a, l)) => (a, Some(l)),
                None => (inner, None),
            };
            adjective = a.to_string();
            initial = l.and_then(|l| l.chars().next());
            rest = &rest[1..];
        }
        let abbr = name.to_string();
        let pi = match self.powers.iter().position(|p| p.abbr == abbr) {
            Some(i) => i,
            None => {
                self.powers.push(MPower {
                    abbr: abbr.clone(),
                    name: title_case(name),
                    adjective: title_case(&adjective),
                    initial,
                    src: (fi, line_no),
                    ..MPower::default()
                });
                self.powers.len() - 1
            }
        };
        if !rest.is_empty() {
            self.homes.retain(|(p, _)| *p != abbr);
            self.units.retain(|u| u.power != abbr);
        }
        for w in rest {
            let c = w.to_ascii_lowercase();
            if !self.centres.contains(&c) {
                self.centres.push(c.clone());
            }
            self.homes.push((abbr.clone(), c.clone()));
            self.owners.insert(c, abbr.clone());
        }
        Ok(pi)
    }
}

fn title_case(s: &str) -> String {
    let cap = |w: &str| {
        let mut cs = w.chars();
        match cs.next() {
            Some(c) => c.to_uppercase().collect::<String>() + &cs.as_str().to_lowercase(),
            None => String::new(),
        }
    };
    s.split(['_', ' ', '+'])
        .filter(|w| !w.is_empty())
        .map(|w| w.split('-').map(cap).collect::<Vec<_>>().join("-"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn finish(mut r: Reader, name: &str) -> Result<Model, VariantError> {
    let abbrs = short_power_abbrs(&mut r.powers);
    let power_of = |long: &str| abbrs.get(long).cloned();
    let mut m = Model {
        name: name.to_string(),
        title: title_case(name),
        files: r.files.clone(),
        unit_types: vec![UnitType::army(), UnitType::fleet()],
        build_rule: if r.build_any {
            BuildRule::Chaos
        } else {
            BuildRule::Standard
        },
        victory: r.victory.unwrap_or(0),
        ..Model::default()
    };
    if let Some((y, s, k)) = r.begin {
        m.year = y;
        m.season = s;
        m.kind = k;
    }
    let index = provinces(&r, &mut m)?;
    unique_names(&mut m);
    for (pw, c) in &r.homes {
        let Some(pa) = power_of(pw) else { continue };
        if let Some(&pi) = index.get(c) {
            if !m.provinces[pi].homes.contains(&pa) {
                m.provinces[pi].homes.push(pa);
            }
        }
    }
    m.powers.extend(r.powers.iter().cloned());
    m.edges = borders(&r, &m, &index)?;
    for u in r.units {
        let mut u = u;
        match power_of(&u.power) {
            Some(a) => u.power = a,
            None => continue,
        }
        m.units.push(u);
    }
    let mut owners: Vec<(String, String)> = Vec::new();
    for c in &r.centres {
        if let Some(pw) = r.owners.get(c).and_then(|p| power_of(p)) {
            owners.push((pw, c.clone()));
        }
    }
    owners.sort();
    m.owners = Some(owners);
    Ok(m)
}

/// Short power abbreviations: the first three letters, unless taken. Returns
/// the map file's power names to them.
fn short_power_abbrs(powers: &mut [MPower]) -> HashMap<String, String> {
    let mut abbrs: HashMap<String, String> = HashMap::new();
    for p in powers.iter_mut() {
        let mut a: String = p.abbr.chars().filter(|c| c.is_ascii_alphanumeric()).take(3).collect();
        let mut n = 1;
        while abbrs.values().any(|v| *v == a) {
            a = format!("{}{n}", &p.abbr.chars().take(2).collect::<String>());
            n += 1;
        }
        abbrs.insert(p.abbr.clone(), a.clone());
        p.abbr = a;
    }
    abbrs
}

/// Provinces: locations without a slash; coasts: `xxx/yy`. Returns the
/// province index by abbreviation.
fn provinces(r: &Reader, m: &mut Model) -> Result<HashMap<String, usize>, VariantError> {
    let mut index: HashMap<String, usize> = HashMap::new();
    for key in &r.order {
        if key.contains('/') {
            continue;
        }
        let loc = &r.locs[key];
        let terrain = match loc.kind.as_str() {
            "WATER" => Terrain::Sea,
            "LAND" => Terrain::Land,
            "SHUT" => Terrain::Impassable,
            _ => Terrain::Coast,
        };
        let full = r.names.get(key).cloned().unwrap_or_else(|| key.clone());
        let full: String = full.chars().filter(|c| !"()/:,=#".contains(*c)).collect();
        let full = full.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut p = MProvince::new(key, &full, terrain);
        p.src = (loc.file, loc.line);
        if full.eq_ignore_ascii_case(key) {
            p.name = title_case(key);
        }
        let mut aliases: Vec<String> = r.aliases.get(key).cloned().unwrap_or_default();
        aliases.retain(|a| !a.is_empty() && !a.contains(|c: char| "()/:,=#\"".contains(c)));
        p.aliases = aliases;
        p.center = r.centres.contains(key);
        index.insert(key.clone(), m.provinces.len());
        m.provinces.push(p);
    }
    for key in &r.order {
        if let Some((p, c)) = key.split_once('/') {
            let Some(&pi) = index.get(p) else {
                let loc = &r.locs[key];
                return Err(err(
                    &r.files[loc.file],
                    loc.line,
                    format!("coast `{key}` of unknown province `{p}`"),
                ));
            };
            m.provinces[pi].coasts.push((c.to_string(), None));
        }
    }
    Ok(index)
}

/// Remove aliases used twice (first one wins), and names equal to another's
/// abbreviation (such a name gets its abbreviation added).
fn unique_names(m: &mut Model) {
    let mut taken: HashMap<String, usize> = HashMap::new();
    for (i, p) in m.provinces.iter().enumerate() {
        taken.insert(p.abbr.to_lowercase(), i);
    }
    for i in 0..m.provinces.len() {
        let n = m.provinces[i].name.to_lowercase();
        if taken.get(&n).is_some_and(|&j| j != i) {
            m.provinces[i].name = format!("{} ({})", m.provinces[i].name, m.provinces[i].abbr);
        }
        taken.entry(m.provinces[i].name.to_lowercase()).or_insert(i);
    }
    for i in 0..m.provinces.len() {
        let al = std::mem::take(&mut m.provinces[i].aliases);
        let mut keep = Vec::new();
        for a in al {
            let k = a.to_lowercase();
            if taken.get(&k).is_some_and(|&j| j != i) || a.is_empty() {
                continue;
            }
            taken.insert(k, i);
            if !keep.contains(&a) {
                keep.push(a);
            }
        }
        m.provinces[i].aliases = keep;
    }
}

/// Borders. Armies: between non-water locations' provinces; fleets:
/// between water/coast locations, not from or to a province that has
/// coasts, only across upper-case abutments.
fn borders(r: &Reader, m: &Model, index: &HashMap<String, usize>) -> Result<Vec<MEdge>, VariantError> {
    let has_coasts = |p: &str| index.get(p).is_some_and(|&i| !m.provinces[i].coasts.is_empty());
    let mut edges = Vec::new();
    for key in &r.order {
        let loc = &r.locs[key];
        if loc.kind == "SHUT" {
            continue;
        }
        let from_prov = key.split('/').next().unwrap_or(key).to_string();
        for (to, upper) in &loc.abuts {
            let to_prov = to.split('/').next().unwrap_or(to).to_string();
            let Some(target) = r.locs.get(to).or_else(|| r.locs.get(&to_prov)) else {
                return Err(err(
                    &r.files[loc.file],
                    loc.line,
                    format!("`{key}` abuts unknown location `{to}`"),
                ));
            };
            if target.kind == "SHUT" || to_prov == from_prov {
                continue;
            }
            let src = (loc.file, loc.line);
            // Army.
            if loc.kind != "WATER" && target.kind != "WATER" && !key.contains('/') {
                edges.push(MEdge {
                    ut: 0,
                    from: from_prov.clone(),
                    to: to_prov.clone(),
                    flags: EdgeFlags::default(),
                    src,
                });
            }
            // Fleet.
            let fleet_from = loc.kind != "LAND" && (key.contains('/') || !has_coasts(&from_prov));
            let fleet_to = target.kind != "LAND" && (to.contains('/') || !has_coasts(&to_prov));
            if *upper && fleet_from && fleet_to {
                edges.push(MEdge {
                    ut: 1,
                    from: key.clone(),
                    to: to.clone(),
                    flags: EdgeFlags::default(),
                    src,
                });
            }
        }
    }
    Ok(edges)
}

/// Writes a model as a DPjudge map file.
pub fn write(m: &Model) -> String {
    let mut out = String::new();
    write_settings(m, &mut out);
    write_powers(m, &mut out);
    write_names(m, &mut out);
    write_locations(m, &mut out);
    out
}

/// The start phase, centres to win and the build rule.
fn write_settings(m: &Model, out: &mut String) {
    let season = match (m.season, m.kind) {
        (_, PhaseKind::Adjustment) => "WINTER",
        (Season::Spring, _) => "SPRING",
        (Season::Fall, _) => "FALL",
    };
    let kind = match m.kind {
        PhaseKind::Movement => "MOVEMENT",
        PhaseKind::Retreat => "RETREATS",
        PhaseKind::Adjustment => "ADJUSTMENTS",
    };
    out.push_str(&format!("BEGIN {season} {} {kind}\n", m.year));
    if m.victory > 0 {
        out.push_str(&format!("VICTORY {}\n", m.victory));
    }
    if m.build_rule == BuildRule::Chaos {
        out.push_str("RULE BUILD_ANY\n");
    }
    out.push('\n');
}

/// Each power with its homes, other owned centres and units; then the
/// centres nobody owns.
fn write_powers(m: &Model, out: &mut String) {
    let long = |abbr: &str| {
        m.powers
            .iter()
            .find(|p| p.abbr == abbr)
            .map(|p| p.name.to_ascii_uppercase().replace(' ', "_"))
            .unwrap_or_else(|| abbr.to_ascii_uppercase())
    };
    let owners = m.owners.clone().unwrap_or_else(|| {
        let mut o = Vec::new();
        for p in &m.provinces {
            if p.homes.len() == 1 {
                o.push((p.homes[0].clone(), p.abbr.clone()));
            }
        }
        o
    });
    for p in &m.powers {
        let homes: Vec<String> = m
            .provinces
            .iter()
            .filter(|q| q.homes.contains(&p.abbr))
            .map(|q| q.abbr.to_ascii_uppercase())
            .collect();
        let adj = p.adjective.to_ascii_uppercase().replace(' ', "_");
        let init = p.initial.map(|c| format!(":{c}")).unwrap_or_default();
        out.push_str(&format!("{} ({adj}{init}) {}\n", long(&p.abbr), homes.join(" ")));
        let owned: Vec<String> = owners
            .iter()
            .filter(|(pw, c)| *pw == p.abbr && !homes.contains(&c.to_ascii_uppercase()))
            .map(|(_, c)| c.to_ascii_uppercase())
            .collect();
        if !owned.is_empty() {
            out.push_str(&format!("OWNS {}\n", owned.join(" ")));
        }
        for u in m.units.iter().filter(|u| u.power == p.abbr) {
            out.push_str(&format!("{} {}\n", u.letter, u.region.to_ascii_uppercase()));
        }
        out.push('\n');
    }
    let unowned: Vec<String> = m
        .provinces
        .iter()
        .filter(|q| q.center && q.homes.is_empty() && !owners.iter().any(|(_, c)| c.eq_ignore_ascii_case(&q.abbr)))
        .map(|q| q.abbr.to_ascii_uppercase())
        .collect();
    if !unowned.is_empty() {
        out.push_str(&format!("UNOWNED {}\n\n", unowned.join(" ")));
    }
}

/// `Full Name = abbr alias...` for each province and coast.
fn write_names(m: &Model, out: &mut String) {
    for p in &m.provinces {
        let al: Vec<String> = p.aliases.iter().map(|a| a.replace(' ', "+")).collect();
        out.push_str(format!("{} = {} {}", p.name.replace('=', "-"), p.abbr, al.join(" ")).trim_end());
        out.push('\n');
        for (c, _) in &p.coasts {
            out.push_str(&format!("{} ({c}) = {}/{c}\n", p.name, p.abbr));
        }
    }
    out.push('\n');
}

/// Abutments per location: union over armies and fleets; lower case for
/// army-only borders.
fn write_locations(m: &Model, out: &mut String) {
    let army = m
        .unit_types
        .iter()
        .position(|u| !u.uses_coasts && u.convoyable)
        .unwrap_or(0);
    let fleet = m.unit_types.iter().position(|u| u.uses_coasts).unwrap_or(1);
    let mut locs: Vec<(String, Terrain)> = Vec::new();
    for p in &m.provinces {
        locs.push((p.abbr.clone(), p.terrain));
        for (c, _) in &p.coasts {
            locs.push((format!("{}/{c}", p.abbr), p.terrain));
        }
    }
    for (loc, terrain) in locs {
        let kw = match terrain {
            Terrain::Sea => "WATER",
            Terrain::Land => "LAND",
            Terrain::Coast => "COAST",
            Terrain::Impassable => "SHUT",
        };
        let is_split = !loc.contains('/') && m.provinces.iter().any(|p| p.abbr == loc && !p.coasts.is_empty());
        let shown = if is_split {
            loc.to_ascii_lowercase()
        } else {
            loc.to_ascii_uppercase()
        };
        let abuts = abutments(m, &loc, is_split, army, fleet);
        out.push_str(&format!("{kw:<6} {shown:<10} ABUTS {}\n", abuts.join(" ")));
    }
}

/// What one location abuts: fleet borders in upper case, army-only borders
/// in lower case.
fn abutments(m: &Model, loc: &str, is_split: bool, army: usize, fleet: usize) -> Vec<String> {
    let mut abuts: Vec<String> = Vec::new();
    for e in m.edges.iter().filter(|e| e.from.eq_ignore_ascii_case(loc)) {
        if e.ut == fleet {
            let t = e.to.to_ascii_uppercase();
            abuts.retain(|a| !a.eq_ignore_ascii_case(&t));
            abuts.push(t);
        } else if e.ut == army {
            let t = e.to.to_ascii_lowercase();
            if !abuts.iter().any(|a| a.eq_ignore_ascii_case(&t)) {
                abuts.push(t);
            }
        }
    }
    // An army border that is also a fleet border is written once, in upper case.
    let fleet_to: Vec<String> = m
        .edges
        .iter()
        .filter(|e| e.ut == fleet && e.from.eq_ignore_ascii_case(loc))
        .map(|e| e.to.split('/').next().unwrap_or("").to_ascii_lowercase())
        .collect();
    abuts.retain(|a| !(a.chars().all(|c| !c.is_ascii_uppercase()) && fleet_to.contains(&a.to_string()) && !is_split));
    if is_split {
        // The army location of a split province: all army borders, in upper
        // case for seas (fleets cannot stand here anyway).
        abuts = m
            .edges
            .iter()
            .filter(|e| e.ut == army && e.from.eq_ignore_ascii_case(loc))
            .map(|e| e.to.to_ascii_uppercase())
            .collect();
    }
    abuts
}
