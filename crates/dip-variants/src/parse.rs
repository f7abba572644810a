//! The parser of dip's native variant format (docs/variant-format.md).
//!
//! It reads every line first and then builds the variant in a fixed order
//! (header, powers, unit types, provinces, regions, borders, clockwise
//! orders, starting units, owners), so that lines may come in any order.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::str::FromStr;

use dip_core::map::{normalize_coast, BuildRule, EdgeFlags, MapBuilder, Terrain, TerrainSet, UnitType};
use dip_core::{Phase, PhaseKind, PowerId, ProvinceId, RegionId, Ruleset, Season, State, Unit, UnitTypeId};

use crate::lex::{key_value, split_outside_quotes, unquote, words};
use crate::{PowerStyle, Variant, VariantError};

mod header;
mod lines;
mod pictures;
mod places;
mod powers;
mod start;

/// A problem on one line, before the file name is known.
type Res<T> = Result<T, String>;

const KEYWORDS: &[&str] = &[
    "variant",
    "title",
    "description",
    "start",
    "victory",
    "build-rule",
    "rules",
    "power",
    "unit",
    "province",
    "region",
    "border",
    "border-oneway",
    "clockwise",
    "touches",
    "unit-at",
    "owner",
    "convoy-unit",
    "convoy-coast",
    "border-rule",
    "picture",
    "unit-picture",
    "order-words",
];

/// Maps keyed by names: foldhash is quicker than SipHash for the short
/// keys here (files are trusted not to be built to collide).
type FastMap<K, V> = HashMap<K, V, foldhash::fast::FixedState>;
type FastSet<K> = HashSet<K, foldhash::fast::FixedState>;

/// The most regions (provinces and coasts) a variant may have.
const MAX_REGIONS: usize = 60_000;

/// One non-blank line: its number and its words (the keyword first).
struct Stmt<'a> {
    line: usize,
    words: Vec<&'a str>,
}

impl<'a> Stmt<'a> {
    fn keyword(&self) -> &'a str {
        self.words.first().copied().unwrap_or("")
    }
    fn args(&self) -> &[&'a str] {
        self.words.get(1..).unwrap_or(&[])
    }
    /// The rest of the line after the keyword as text, quotes removed.
    fn rest(&self) -> String {
        self.args().iter().map(|w| unquote(w)).collect::<Vec<_>>().join(" ")
    }
}

/// Positional words and `key=value` options of a line.
struct Args<'a> {
    pos: Vec<&'a str>,
    opts: Opts<'a>,
}

/// `key=value` options (few: a list is quicker than a map).
struct Opts<'a>(Vec<(&'a str, &'a str)>);

impl<'a> Opts<'a> {
    fn get(&self, key: &str) -> Option<&'a str> {
        self.0.iter().find(|(k, _)| *k == key).map(|&(_, v)| v)
    }
    fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
}

/// Lower case, allocating only when needed.
fn lower(s: &str) -> Cow<'_, str> {
    if s.is_ascii() && !s.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(s.to_lowercase())
    }
}

fn args<'a>(stmt: &Stmt<'a>, allowed: &[&str]) -> Res<Args<'a>> {
    let mut pos = Vec::new();
    let mut opts = Opts(Vec::new());
    for &w in stmt.args() {
        match key_value(w) {
            Some((k, v)) => {
                if !allowed.contains(&k) {
                    return Err(if allowed.is_empty() {
                        format!("`{}` takes no options, found `{w}`", stmt.keyword())
                    } else {
                        format!(
                            "unknown option `{k}=` for `{}` (expected {})",
                            stmt.keyword(),
                            list(allowed.iter().map(|a| format!("{a}=")))
                        )
                    });
                }
                if opts.contains_key(k) {
                    return Err(format!("option `{k}=` given twice"));
                }
                opts.0.push((k, v));
            }
            None => pos.push(w),
        }
    }
    Ok(Args { pos, opts })
}

/// `a, b or c`.
fn list(items: impl IntoIterator<Item = String>) -> String {
    let v: Vec<String> = items.into_iter().collect();
    match v.len() {
        0 => String::new(),
        1 => v[0].clone(),
        n => format!("{} or {}", v[..n - 1].join(", "), v[n - 1]),
    }
}

fn number<T: FromStr>(s: &str, what: &str) -> Res<T> {
    unquote(s).parse().map_err(|_| format!("expected {what}, found `{s}`"))
}

fn position(s: &str) -> Res<(f32, f32)> {
    let bad = || format!("expected a position `at=X,Y` (two numbers), found `{s}`");
    let (x, y) = s.split_once(',').ok_or_else(bad)?;
    let x: f32 = x.trim().parse().map_err(|_| bad())?;
    let y: f32 = y.trim().parse().map_err(|_| bad())?;
    if !x.is_finite() || !y.is_finite() {
        return Err(bad());
    }
    Ok((x, y))
}

fn terrain(s: &str) -> Res<Terrain> {
    Terrain::ALL
        .into_iter()
        .find(|t| t.name() == s)
        .ok_or_else(|| format!("expected a terrain (land, coast, sea or impassable), found `{s}`"))
}

fn terrains(s: &str) -> Res<TerrainSet> {
    let mut set = TerrainSet::default();
    if s == "none" {
        return Ok(set);
    }
    for t in s.split(',') {
        set = TerrainSet(set.0 | terrain(t.trim())?.bit());
    }
    Ok(set)
}

/// A name: not empty, without the characters that separate names.
fn name(word: &str, what: &str) -> Res<String> {
    let n = unquote(word).into_owned();
    if n.is_empty() {
        return Err(format!("expected {what}, found an empty name"));
    }
    if let Some(c) = n.chars().find(|c| matches!(c, '/' | ':' | ',' | '=' | '(' | ')' | '#')) {
        return Err(format!("{what} `{n}` may not contain `{c}`"));
    }
    Ok(n)
}

/// A short name: a name without spaces.
fn short_name(word: &str, what: &str) -> Res<String> {
    let n = name(word, what)?;
    if n.contains(char::is_whitespace) {
        return Err(format!("{what} `{n}` may not contain spaces"));
    }
    Ok(n)
}

fn colour(s: &str) -> Res<String> {
    let c = unquote(s).into_owned();
    let hex = c
        .strip_prefix('#')
        .is_some_and(|h| (h.len() == 3 || h.len() == 6) && h.chars().all(|c| c.is_ascii_hexdigit()));
    let word = !c.is_empty() && c.chars().all(|c| c.is_ascii_alphabetic());
    if hex || word {
        Ok(c)
    } else {
        Err(format!("expected a colour `#rrggbb` or a colour name, found `{s}`"))
    }
}

struct ProvRec {
    abbr: String,
    terrain: Terrain,
    main: RegionId,
    coasts: Vec<(String, RegionId)>,
}

struct Parser<'f> {
    file: &'f str,
    b: MapBuilder,
    unit_types: Vec<UnitType>,
    provs: Vec<ProvRec>,
    /// Region → its province.
    region_prov: Vec<ProvinceId>,
    /// Every name of every province, lower case → (province, line).
    names: FastMap<String, (ProvinceId, usize)>,
    /// `label=` of each province.
    labels: Vec<Option<(f32, f32)>>,
}

impl Parser<'_> {
    fn err(&self, line: usize, message: impl Into<String>) -> VariantError {
        VariantError {
            file: self.file.to_string(),
            line,
            message: message.into(),
        }
    }

    fn province(&self, word: &str) -> Res<ProvinceId> {
        let n = unquote(word);
        self.names
            .get(lower(&n).as_ref())
            .map(|&(p, _)| p)
            .ok_or_else(|| format!("unknown province `{n}`"))
    }

    fn rec(&self, p: ProvinceId) -> Res<&ProvRec> {
        self.provs
            .get(p.index())
            .ok_or_else(|| format!("no province id {}", p.0))
    }

    /// `lon`, `stp/nc`, `stp(nc)`, `"St Petersburg"/nc`.
    fn region(&self, word: &str) -> Res<RegionId> {
        let (p, c) = match word.split_once('/') {
            Some((p, c)) => (p, Some(c)),
            None => match word.split_once('(') {
                Some((p, c)) => (p, Some(c.strip_suffix(')').unwrap_or(c))),
                None => (word, None),
            },
        };
        let pid = self.province(p)?;
        let rec = self.rec(pid)?;
        let Some(c) = c else { return Ok(rec.main) };
        if rec.coasts.is_empty() {
            return Err(format!("`{}` has no coasts, found `{word}`", rec.abbr));
        }
        let coasts = || list(rec.coasts.iter().map(|(c, _)| format!("{}/{c}", rec.abbr)));
        let norm = normalize_coast(c).ok_or_else(|| format!("unknown coast `{c}` (expected {})", coasts()))?;
        rec.coasts
            .iter()
            .find(|(c, _)| *c == norm)
            .map(|&(_, r)| r)
            .ok_or_else(|| format!("`{}` has no coast `{c}` (expected {})", rec.abbr, coasts()))
    }

    fn region_name(&self, r: RegionId) -> String {
        let Some(rec) = self.region_prov.get(r.index()).and_then(|p| self.provs.get(p.index())) else {
            return format!("region {}", r.0);
        };
        match rec.coasts.iter().find(|(_, cr)| *cr == r) {
            Some((c, _)) => format!("{}/{c}", rec.abbr),
            None => rec.abbr.clone(),
        }
    }

    fn unit_type(&self, word: &str) -> Res<UnitTypeId> {
        let w = unquote(word);
        let mut chars = w.chars();
        let letter = match (chars.next(), chars.next()) {
            (Some(c), None) => Some(c),
            _ => None,
        };
        self.unit_types
            .iter()
            .position(|u| letter.is_some_and(|c| c.eq_ignore_ascii_case(&u.letter)) || u.name.eq_ignore_ascii_case(&w))
            .map(|i| UnitTypeId(i as u8))
            .ok_or_else(|| {
                format!(
                    "unknown unit type `{w}` (expected {})",
                    list(self.unit_types.iter().map(|u| u.letter.to_string()))
                )
            })
    }

    /// May a unit of type `ut` stand in region `r`? (The rule of `MapBuilder::build`.)
    fn check_allows(&self, ut: UnitTypeId, r: RegionId) -> Res<()> {
        let u = self
            .unit_types
            .get(ut.index())
            .ok_or_else(|| format!("no unit type id {}", ut.0))?;
        let p = *self
            .region_prov
            .get(r.index())
            .ok_or_else(|| format!("no region id {}", r.0))?;
        let rec = self.rec(p)?;
        if !u.stands_on.contains(rec.terrain) {
            return Err(format!(
                "{} ({}) cannot stand in `{}` ({})",
                u.name,
                u.letter,
                rec.abbr,
                rec.terrain.name()
            ));
        }
        let on_coast = r != rec.main;
        if on_coast && !u.uses_coasts {
            return Err(format!(
                "{} ({}) does not use coasts: write `{}` rather than `{}`",
                u.name,
                u.letter,
                rec.abbr,
                self.region_name(r)
            ));
        }
        if !on_coast && u.uses_coasts && !rec.coasts.is_empty() {
            return Err(format!(
                "{} ({}) in `{}` needs a coast: {}",
                u.name,
                u.letter,
                rec.abbr,
                list(rec.coasts.iter().map(|(c, _)| format!("{}/{c}", rec.abbr)))
            ));
        }
        Ok(())
    }

    fn add_name(&mut self, n: &str, p: ProvinceId, line: usize) -> Res<bool> {
        let key = n.to_lowercase();
        match self.names.get(&key) {
            Some(&(q, _)) if q == p => Ok(false),
            Some(&(q, l)) => {
                let other = self.rec(q).map(|r| r.abbr.clone()).unwrap_or_default();
                Err(format!("name `{n}` is already used by province `{other}` (line {l})"))
            }
            None => {
                self.names.insert(key, (p, line));
                Ok(true)
            }
        }
    }
}

/// How the error for a file that is no variant file at all begins.
pub(crate) const NOT_A_VARIANT: &str = "not a dip variant file";

/// Parses a variant's text made by another format's reader (which found
/// its pictures itself, a Realpolitik `.var` in its shared folder above);
/// `file` names it in error messages.
pub(crate) fn parse(text: &str, file: &str) -> Result<Variant, VariantError> {
    parse_with(text, file, false)
}

/// Parses a native variant file: the pictures it names must be in its
/// folder (no absolute path, no `..`), so a variant from elsewhere reads no
/// other file of the machine.
pub(crate) fn parse_native(text: &str, file: &str) -> Result<Variant, VariantError> {
    parse_with(text, file, true)
}

fn parse_with(text: &str, file: &str, confine: bool) -> Result<Variant, VariantError> {
    let folder = pictures::Folder { file, confine };
    let mut p = Parser {
        file,
        b: MapBuilder::default(),
        unit_types: Vec::new(),
        provs: Vec::new(),
        region_prov: Vec::new(),
        names: FastMap::default(),
        labels: Vec::new(),
    };
    let lines = lines::Lines::read(&p, text)?;
    let head = header::read(&p, &lines)?;
    p.b = MapBuilder::new(&head.name);
    p.b.victory = head.victory;
    p.b.build_rule = head.build_rule;

    let mut power_names = powers::PowerNames::default();
    let mut styles = Vec::new();
    for s in lines.all("power") {
        styles.push(powers::add_power(&mut p, s, &mut power_names).map_err(|m| p.err(s.line, m))?);
    }
    let unit_aliases = powers::read_unit_types(&mut p, lines.all("unit"))?;
    let convoy_unit = powers::read_convoy_unit(&mut p, lines.all("convoy-unit"))?;
    let order_words = powers::read_order_words(&p, lines.all("order-words"))?;
    let pictures = pictures::read_pictures(&p, &folder, lines.all("picture"))?;

    let mut regions = 0usize;
    for s in lines.all("province") {
        add_province(&mut p, s, &mut regions).map_err(|m| p.err(s.line, m))?;
    }
    for s in lines.all("region") {
        places::set_region(&mut p, s).map_err(|m| p.err(s.line, m))?;
    }
    let mut neighbours: Vec<FastSet<ProvinceId>> = vec![FastSet::default(); p.provs.len()];
    for kw in ["border", "border-oneway"] {
        for s in lines.all(kw) {
            add_borders(&mut p, s, kw == "border", &mut neighbours).map_err(|m| p.err(s.line, m))?;
        }
    }
    let mut clockwise_given = FastMap::default();
    for s in lines.all("clockwise") {
        places::set_clockwise(&mut p, s, &neighbours, &mut clockwise_given).map_err(|m| p.err(s.line, m))?;
    }
    for s in lines.all("convoy-coast") {
        places::add_convoy_coasts(&mut p, s).map_err(|m| p.err(s.line, m))?;
    }
    let mut touches: Vec<(ProvinceId, Vec<ProvinceId>)> = Vec::new();
    for s in lines.all("touches") {
        let t = places::read_touches(&p, s, &touches).map_err(|m| p.err(s.line, m))?;
        touches.push(t);
    }
    // Rules of provinces' borders (seasons, phases, years, unit and order
    // types, strength changes).
    for s in lines.all("border-rule") {
        add_border_rule(&mut p, s).map_err(|m| p.err(s.line, m))?;
    }

    let b = std::mem::take(&mut p.b);
    let map = b
        .build()
        .map_err(|e| p.err(head.line, format!("the map is not valid: {e}")))?;
    if let Some(line) = head.victory_line {
        let n = map.supply_centers().len();
        if head.victory as usize > n {
            return Err(p.err(
                line,
                format!(
                    "victory {} is more than the {n} supply centres of the map",
                    head.victory
                ),
            ));
        }
    }
    let start = start::read(&p, &map, head.phase, &lines)?;
    let unit_pictures = pictures::read_unit_pictures(&p, &map, &folder, lines.all("unit-picture"))?;

    Ok(Variant {
        name: head.name,
        title: head.title,
        map,
        start,
        rules: head.rules,
        description: head.description,
        power_styles: styles,
        rules_text: head.rules_text,
        convoy_unit,
        labels: std::mem::take(&mut p.labels),
        pictures,
        unit_pictures,
        unit_aliases,
        order_words,
        touches,
        notes: Vec::new(),
    })
}

/// `start 1901 spring`, `start 1901 fall retreat`, `start S1901M`: the
/// arguments are a phase name as [`Phase`]'s one reader reads them.
fn parse_start(s: &Stmt) -> Res<Phase> {
    let usage = "expected `start YEAR SEASON [KIND]`, e.g. `start 1901 spring` (season spring, fall or winter; kind movement, retreat or adjustment)";
    if !(1..=3).contains(&s.args().len()) {
        return Err(usage.into());
    }
    let words: Vec<String> = s.args().iter().map(|w| unquote(w).into_owned()).collect();
    words.join(" ").parse::<Phase>()
}

fn parse_unit(s: &Stmt, known: &[UnitType]) -> Res<UnitType> {
    let usage = "expected `unit LETTER NAME [strength=N] [cost=N] [convoyable] [convoys] [coasts] stands=TERRAINS [builds=TERRAINS]`";
    let a = args(s, &["strength", "cost", "stands", "builds", "aka"])?;
    let (letter, uname, flags) = match &a.pos[..] {
        [l, n, flags @ ..] => (l, n, flags),
        _ => return Err(usage.into()),
    };
    let l = unquote(letter);
    let mut cs = l.chars();
    let letter = match (cs.next(), cs.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_uppercase(),
        _ => return Err(format!("expected a unit letter (one letter), found `{l}`")),
    };
    let uname = short_name(uname, "a unit type name")?;
    if let Some(u) = known
        .iter()
        .find(|u| u.letter == letter || u.name.eq_ignore_ascii_case(&uname))
    {
        return Err(format!(
            "unit type `{letter}` / `{uname}` clashes with `{} {}`",
            u.letter, u.name
        ));
    }
    let mut ut = UnitType::named(letter, &uname);
    for f in flags {
        match *f {
            "convoyable" => ut.convoyable = true,
            "convoys" => ut.can_convoy = true,
            "coasts" => ut.uses_coasts = true,
            other => {
                return Err(format!(
                    "unknown unit flag `{other}` (expected convoyable, convoys or coasts)"
                ))
            }
        }
    }
    if let Some(v) = a.opts.get("strength") {
        ut.strength = number(v, "a strength (0 to 255)")?;
    }
    if let Some(v) = a.opts.get("cost") {
        ut.cost = number(v, "a cost (0 to 255)")?;
    }
    ut.stands_on = terrains(
        a.opts
            .get("stands")
            .ok_or("expected `stands=TERRAINS`, e.g. `stands=land,coast`")?,
    )?;
    ut.builds_on = match a.opts.get("builds") {
        Some(v) => terrains(v)?,
        None => ut.stands_on,
    };
    Ok(ut)
}

fn add_province(p: &mut Parser, s: &Stmt, regions: &mut usize) -> Res<()> {
    let usage = "expected `province ABBR NAME TERRAIN [center] [home=POWER,...] [coasts=nc,sc] [at=X,Y] [fleet-at=X,Y] [aka=NAME,...]` (quote names with spaces)";
    let a = args(s, &["home", "coasts", "at", "fleet-at", "aka", "label"])?;
    let (abbr, pname, terr, flags) = match &a.pos[..] {
        [ab, n, t, flags @ ..] => (ab, n, t, flags),
        [_, _] | [_] | [] => return Err(usage.into()),
    };
    let abbr = short_name(abbr, "a province abbreviation")?;
    let pname = name(pname, "a province name")?;
    let terr = terrain(terr).map_err(|m| format!("{m} (quote names with spaces: \"St Petersburg\")"))?;
    let center = centre_flag(flags)?;
    let coasts: Vec<String> = match a.opts.get("coasts") {
        Some(v) => province_coasts(v, terr, &abbr)?,
        None => Vec::new(),
    };
    *regions += 1 + coasts.len();
    if *regions > MAX_REGIONS {
        return Err(format!("too many provinces and coasts: at most {MAX_REGIONS}"));
    }
    let at = a.opts.get("at").map(position).transpose()?;
    let label = a.opts.get("label").map(position).transpose()?;
    let fleet_at = a.opts.get("fleet-at").map(position).transpose()?;
    if fleet_at.is_some() && (terr != Terrain::Coast || !coasts.is_empty()) {
        return Err(format!(
            "fleet-at= is for a `coast` province without split coasts (a coast's place is its `region` line); `{abbr}` is not one"
        ));
    }
    let (homes, home_of_all) = province_homes(p, a.opts.get("home"), center, &abbr)?;
    let mut aliases = Vec::new();
    if let Some(v) = a.opts.get("aka") {
        for w in split_outside_quotes(v, ',') {
            aliases.push(name(w, "an alias")?);
        }
    }

    let id = ProvinceId(p.provs.len() as u16);
    let line = s.line;
    p.add_name(&abbr, id, line)?;
    p.add_name(&pname, id, line)?;
    let mut kept = Vec::new();
    for al in aliases {
        if p.add_name(&al, id, line)? {
            kept.push(al);
        }
    }
    let pid = p.b.add_province(&abbr, &pname, terr, center);
    let main = p.b.main_region(pid).ok_or("internal: province without a region")?;
    p.region_prov.push(pid);
    let mut coast_regions = Vec::new();
    for c in coasts {
        let r = p.b.add_coast(pid, &c);
        p.region_prov.push(pid);
        if let Some(reg) = p.b.region_mut(r) {
            reg.pos = at;
        }
        coast_regions.push((c, r));
    }
    if let Some(reg) = p.b.region_mut(main) {
        reg.pos = at;
        reg.fleet_pos = fleet_at;
    }
    if let Some(prov) = p.b.province_mut(pid) {
        prov.pos = at;
        prov.aliases = kept;
        prov.home_of_all = home_of_all;
        for h in homes {
            prov.homes.insert(h);
        }
    }
    p.labels.push(label);
    p.provs.push(ProvRec {
        abbr,
        terrain: terr,
        main,
        coasts: coast_regions,
    });
    Ok(())
}

/// The words after a province's terrain: only `center` (or `centre`).
fn centre_flag(flags: &[&str]) -> Res<bool> {
    let mut center = false;
    for f in flags {
        match *f {
            "center" | "centre" => center = true,
            other => {
                return Err(format!(
                    "unknown province flag `{other}` (expected center or an option like at=X,Y)"
                ))
            }
        }
    }
    Ok(center)
}

/// `coasts=nc,sc`: only a coast province has them, each named once.
fn province_coasts(v: &str, terr: Terrain, abbr: &str) -> Res<Vec<String>> {
    if terr != Terrain::Coast {
        return Err(format!(
            "only a `coast` province may have coasts; `{abbr}` is {}",
            terr.name()
        ));
    }
    let mut out: Vec<String> = Vec::new();
    for c in v.split(',') {
        let n =
            normalize_coast(c).ok_or_else(|| format!("expected a coast name like nc, sc, ec or wc, found `{c}`"))?;
        if out.contains(&n) {
            return Err(format!("coast `{n}` given twice"));
        }
        out.push(n);
    }
    Ok(out)
}

/// `home=POWER,...` (or `all`): only a centre has homes.
fn province_homes(p: &Parser, home: Option<&str>, center: bool, abbr: &str) -> Res<(Vec<PowerId>, bool)> {
    let mut homes = Vec::new();
    let mut home_of_all = false;
    if let Some(v) = home {
        if !center {
            return Err(format!("home= is for supply centres: add `center` to `{abbr}`"));
        }
        for h in split_outside_quotes(v, ',') {
            let h = unquote(h);
            if h.eq_ignore_ascii_case("all") {
                home_of_all = true;
            } else {
                homes.push(
                    p.b.find_power(&h)
                        .ok_or_else(|| format!("unknown power `{h}` in home="))?,
                );
            }
        }
    }
    Ok((homes, home_of_all))
}

fn add_borders(p: &mut Parser, s: &Stmt, both_ways: bool, neighbours: &mut [FastSet<ProvinceId>]) -> Res<()> {
    let kw = s.keyword();
    let a = args(s, &[])?;
    let (ut, from, tos) = match &a.pos[..] {
        [ut, from, tos @ ..] if !tos.is_empty() => (ut, from, tos),
        _ => {
            return Err(format!(
                "expected `{kw} TYPE PROV NEIGHBOUR...`, e.g. `{kw} F lon wal yor nth eng` (a neighbour may carry flags: den:canal)"
            ))
        }
    };
    let ut = p.unit_type(ut)?;
    let from_r = p.region(from)?;
    p.check_allows(ut, from_r)?;
    let from_p = *p.region_prov.get(from_r.index()).ok_or("internal: unknown region")?;
    for w in tos.iter() {
        let mut parts = w.split(':');
        let target = parts.next().unwrap_or("");
        let mut flags = EdgeFlags::default();
        for f in parts {
            flags = flags.with(match f {
                "mx" => EdgeFlags::WEAK_MOVE,
                "hx" => EdgeFlags::NO_RETREAT,
                "canal" => EdgeFlags::CANAL,
                other => return Err(format!("unknown border flag `{other}` (expected mx, hx or canal)")),
            });
        }
        let to_r = p.region(target)?;
        p.check_allows(ut, to_r)?;
        let to_p = *p.region_prov.get(to_r.index()).ok_or("internal: unknown region")?;
        if to_p == from_p {
            return Err(format!(
                "a border must join two different provinces, found `{}` and `{target}`",
                from
            ));
        }
        if both_ways {
            p.b.add_border(ut, from_r, to_r, flags);
            if let Some(n) = neighbours.get_mut(to_p.index()) {
                n.insert(from_p);
            }
        } else {
            p.b.add_directed_border(ut, from_r, to_r, flags);
        }
        if let Some(n) = neighbours.get_mut(from_p.index()) {
            n.insert(to_p);
        }
    }
    Ok(())
}

fn add_border_rule(p: &mut Parser, s: &Stmt) -> Res<()> {
    use crate::border_rules as br;
    let a = args(s, br::OPTIONS)?;
    let [prov] = a.pos[..] else {
        return Err(
            "expected `border-rule PROV [from=PROV,...] [units=TYPES] [orders=ORDERS] [seasons=SEASONS] [phases=PHASES] [years=FIRST..LAST|odd|even] [strength=N]`"
                .into(),
        );
    };
    let mut rule = dip_core::map::BorderRule {
        province: p.province(prov)?,
        ..Default::default()
    };
    if let Some(v) = a.opts.get("from") {
        for w in split_outside_quotes(v, ',') {
            rule.from.push(p.province(w)?);
        }
    }
    if let Some(v) = a.opts.get("units") {
        for w in split_outside_quotes(v, ',') {
            rule.unit_types |= 1 << p.unit_type(w)?.0;
        }
    }
    if let Some(v) = a.opts.get("orders") {
        rule.orders = br::parse_orders(v)?;
    }
    if let Some(v) = a.opts.get("seasons") {
        rule.seasons = br::parse_seasons(v)?;
    }
    if let Some(v) = a.opts.get("phases") {
        rule.phases = br::parse_phases(v)?;
    }
    if let Some(v) = a.opts.get("years") {
        rule.years = br::parse_years(v)?;
    }
    if let Some(v) = a.opts.get("strength") {
        rule.strength = number(v, "a strength change such as `strength=-1`")?;
    }
    if !rule.closes() && rule.strength == 0 {
        return Err("the rule gives no condition (units=, orders=, seasons=, phases=, years=) and no strength=: it changes nothing".into());
    }
    p.b.add_border_rule(rule);
    Ok(())
}
