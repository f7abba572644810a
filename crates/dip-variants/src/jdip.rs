//! jDip's variant plugins (docs/jdip-plugin.md): a folder holding
//! `variants.xml`, or the `.zip` (`…Variant.zip`, `…Variants.zip`) as
//! jDip's users get it. `variants.xml` names one or more variants; each
//! names an adjacency file (provinces, coasts, borders) and map graphics
//! (an SVG whose `jdipNS:PROVINCE_DATA` gives the unit points and whose
//! `MouseLayer` gives the province shapes).
//!
//! What the engine can carry is read into a [`Model`]: provinces and
//! coasts, armies' and fleets' borders, wings (a third unit type that moves
//! to every touching province), borders that always forbid some unit types
//! (their edges are left out), borders by season, phase, year, unit or
//! order type and difficult passable borders (the model's border rules),
//! convoyable coasts, starting time, victory, build rule, powers, centres
//! and units. What it cannot (game length, years without capture) is kept
//! in [`JdipVariant::notes`] and reported, never silently dropped.
//!
//! Everything is read through size caps; a zip entry larger than
//! [`MAX_ENTRY_BYTES`] is refused before it is unpacked. Errors name the
//! file (`plugin.zip!/variants.xml`) and line.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use dip_core::map::{BuildRule, EdgeFlags, OrderClass, Terrain, TerrainSet, UnitType, Years};
use dip_core::{PhaseKind, Season};

use crate::model::{MBorderRule, MEdge, MPower, MProvince, MUnit, Model};
use crate::VariantError;

mod adjacency;
mod variant_xml;
use adjacency::read_adjacency;
use variant_xml::read_variant;

/// The largest file read from a plugin (variants.xml, adjacency, SVG): 32 MiB.
pub const MAX_ENTRY_BYTES: u64 = 32 << 20;
/// The largest plugin zip read: 256 MiB.
pub const MAX_ZIP_BYTES: u64 = 256 << 20;
/// The most XML nodes of one file (roxmltree's limit).
const MAX_NODES: u32 = 2_000_000;

fn err(file: &str, line: usize, message: impl Into<String>) -> VariantError {
    VariantError {
        file: file.to_string(),
        line,
        message: message.into(),
    }
}

/// The files of a plugin: a folder on disk, or the entries of a zip (kept
/// in memory, unpacked one at a time on demand).
pub struct Plugin {
    /// The path the user gave (folder or zip).
    pub path: String,
    source: Source,
    /// Where `variants.xml` is inside the plugin (`""` or `sub/`).
    prefix: String,
    /// `variants.xml` as text.
    pub variants_xml: String,
    /// The variants it names: (name, aliases).
    pub variants: Vec<(String, Vec<String>)>,
}

enum Source {
    Dir(PathBuf),
    Zip(Vec<u8>),
    Memory(Vec<(String, Vec<u8>)>),
}

impl std::fmt::Debug for Plugin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plugin")
            .field("path", &self.path)
            .field("variants", &self.variants)
            .finish()
    }
}

/// A variant of a plugin, read.
#[derive(Clone, Debug)]
pub struct JdipVariant {
    pub model: Model,
    /// The map's SVG: (file name for messages, text), when the plugin has one.
    pub svg: Option<(String, String)>,
    /// The preferred unit symbol pack named by the plugin (`preferredUnitStyle`).
    pub unit_style: Option<String>,
    /// The borders by season, phase, year, order type or with a
    /// `baseMoveModifier`, as read: (province, border). Each is one of the
    /// model's `border_rules`, which the engine enforces.
    pub borders: Vec<(String, Border)>,
    /// The provinces marked `isConvoyableCoast` (the coasts among them are
    /// the model's `convoy_coasts`, where fleets convoy).
    pub convoyable_coasts: Vec<String>,
    /// Everything read and not carried into the model, one line each.
    pub notes: Vec<String>,
}

/// One `BORDER` of an adjacency file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Border {
    pub id: String,
    pub description: String,
    /// Locations the border applies to units coming from (empty: all).
    pub from: Vec<String>,
    pub unit_types: Vec<String>,
    pub order_types: Vec<String>,
    pub year: String,
    pub season: String,
    pub phase: String,
    pub base_move_modifier: String,
    /// Line in the adjacency file.
    pub line: usize,
}

impl Border {
    /// Forbids the unit types always (no season, phase, year or order condition).
    fn unconditional(&self) -> bool {
        self.order_types.is_empty()
            && self.year.trim().is_empty()
            && self.season.trim().is_empty()
            && self.phase.trim().is_empty()
            && self.base_move_modifier.trim().is_empty()
    }
}

fn entry_name(plugin: &str, inner: &str) -> String {
    format!("{plugin}!/{inner}")
}

impl Plugin {
    /// A plugin folder (holding `variants.xml`) or zip.
    pub fn open(path: &Path) -> Result<Plugin, VariantError> {
        let shown = path.display().to_string();
        if path.is_dir() {
            let text = read_dir_file(path, "variants.xml", &shown)?;
            let file = path.join("variants.xml").display().to_string();
            return Plugin::with_index(shown, Source::Dir(path.to_path_buf()), String::new(), text, &file);
        }
        let bytes = crate::files::read_bytes_capped(path, MAX_ZIP_BYTES).map_err(|m| err(&shown, 0, m))?;
        Plugin::from_zip_bytes(&shown, bytes)
    }

    /// A plugin zip from its bytes; `name` names it in messages.
    pub fn from_zip_bytes(name: &str, bytes: Vec<u8>) -> Result<Plugin, VariantError> {
        let names = {
            let z = zip::ZipArchive::new(std::io::Cursor::new(&bytes[..]))
                .map_err(|e| err(name, 0, format!("not a zip file: {e}")))?;
            z.file_names()
                .filter_map(|n| n.ok().map(|c| c.into_owned()))
                .collect::<Vec<_>>()
        };
        // variants.xml at the top, or in the shallowest folder.
        let index = names
            .iter()
            .filter(|n| {
                n.rsplit('/')
                    .next()
                    .is_some_and(|f| f.eq_ignore_ascii_case("variants.xml"))
            })
            .min_by_key(|n| n.matches('/').count())
            .cloned()
            .ok_or_else(|| err(name, 0, "no variants.xml in the zip; is it a jDip variant plugin?"))?;
        let prefix = index[..index.len() - "variants.xml".len()].to_string();
        let text = zip_entry(&bytes, name, &index)?;
        let text = crate::files::decode_utf8(text, &entry_name(name, &index)).map_err(|m| err(name, 0, m))?;
        Plugin::with_index(
            name.to_string(),
            Source::Zip(bytes),
            prefix,
            text,
            &entry_name(name, &index),
        )
    }

    /// A plugin from files in memory (name, bytes): for tests and fuzzing.
    pub fn from_memory(name: &str, files: Vec<(String, Vec<u8>)>) -> Result<Plugin, VariantError> {
        let text = files
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("variants.xml"))
            .map(|(_, b)| b.clone())
            .ok_or_else(|| err(name, 0, "no variants.xml"))?;
        let file = entry_name(name, "variants.xml");
        let text = crate::files::decode_utf8(text, &file).map_err(|m| err(name, 0, m))?;
        Plugin::with_index(name.to_string(), Source::Memory(files), String::new(), text, &file)
    }

    fn with_index(
        path: String,
        source: Source,
        prefix: String,
        text: String,
        file: &str,
    ) -> Result<Plugin, VariantError> {
        let variants = {
            let doc = xml(&text, file)?;
            let root = doc.root_element();
            if !root.has_tag_name("VARIANTS") {
                return Err(err(
                    file,
                    line_of(&doc, root),
                    format!("expected the element VARIANTS, found {}", root.tag_name().name()),
                ));
            }
            let mut v = Vec::new();
            for n in root.children().filter(|n| n.has_tag_name("VARIANT")) {
                let name = attr_req(&doc, n, "name", file)?;
                let aliases = n.attribute("aliases").map(split_csv).unwrap_or_default();
                v.push((name.to_string(), aliases));
            }
            if v.is_empty() {
                return Err(err(file, line_of(&doc, root), "no VARIANT element"));
            }
            v
        };
        Ok(Plugin {
            path,
            source,
            prefix,
            variants_xml: text,
            variants,
        })
    }

    /// The name of a file of the plugin in messages.
    pub fn file_name(&self, inner: &str) -> String {
        match &self.source {
            Source::Dir(d) => d.join(inner).display().to_string(),
            _ => entry_name(&self.path, &format!("{}{inner}", self.prefix)),
        }
    }

    /// A file of the plugin (named relative to `variants.xml`), as bytes.
    pub fn read_bytes(&self, inner: &str) -> Result<Vec<u8>, VariantError> {
        let shown = self.file_name(inner);
        if inner.contains("..") || inner.starts_with(['/', '\\']) || inner.contains(':') {
            return Err(err(
                &shown,
                0,
                "a file named by a plugin must be inside the plugin (no absolute path, no `..`)",
            ));
        }
        match &self.source {
            Source::Dir(d) => {
                let p = d.join(inner);
                if !p.exists() {
                    return Err(err(&shown, 0, "no such file in the plugin"));
                }
                // The message names the path; the error names it already.
                crate::files::read_bytes_capped(&p, MAX_ENTRY_BYTES).map_err(|m| {
                    let prefix = format!("{}: ", p.display());
                    err(&shown, 0, m.strip_prefix(&prefix).unwrap_or(&m))
                })
            }
            Source::Zip(bytes) => {
                let want = format!("{}{inner}", self.prefix);
                let names: Vec<String> = zip::ZipArchive::new(std::io::Cursor::new(&bytes[..]))
                    .map_err(|e| err(&self.path, 0, format!("not a zip file: {e}")))?
                    .file_names()
                    .filter_map(|n| n.ok().map(|c| c.into_owned()))
                    .collect();
                let name = names
                    .iter()
                    .find(|n| **n == want)
                    .or_else(|| names.iter().find(|n| n.eq_ignore_ascii_case(&want)))
                    .ok_or_else(|| err(&shown, 0, "no such file in the plugin"))?;
                zip_entry(bytes, &self.path, name)
            }
            Source::Memory(files) => files
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(inner))
                .map(|(_, b)| b.clone())
                .ok_or_else(|| err(&shown, 0, "no such file in the plugin")),
        }
    }

    /// A text file of the plugin.
    pub fn read_text(&self, inner: &str) -> Result<String, VariantError> {
        let shown = self.file_name(inner);
        let b = self.read_bytes(inner)?;
        crate::files::decode_utf8(b, &shown).map_err(|m| err(&shown, 0, m))
    }

    /// The variant named `name` (or one of its aliases, or dip's short name
    /// for it: `Modern__with_Wings_`), case-insensitive.
    pub fn find(&self, name: &str) -> Option<&str> {
        let name = name.trim();
        self.variants
            .iter()
            .find(|(n, a)| n.eq_ignore_ascii_case(name) || a.iter().any(|x| x.eq_ignore_ascii_case(name)))
            .or_else(|| {
                self.variants
                    .iter()
                    .find(|(n, _)| safe_name(n).eq_ignore_ascii_case(name))
            })
            .map(|(n, _)| n.as_str())
    }

    /// The names of the plugin's variants, for a message that `name` is not one.
    pub(crate) fn names(&self) -> String {
        self.variants
            .iter()
            .map(|v| v.0.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Reads one variant of the plugin.
    pub fn variant(&self, name: &str) -> Result<JdipVariant, VariantError> {
        read_variant(self, name)
    }
}

fn read_dir_file(dir: &Path, name: &str, shown: &str) -> Result<String, VariantError> {
    let exact = dir.join(name);
    let path = if exact.is_file() {
        exact
    } else {
        std::fs::read_dir(dir)
            .ok()
            .and_then(|rd| {
                rd.flatten().map(|e| e.path()).find(|p| {
                    p.file_name()
                        .and_then(|f| f.to_str())
                        .is_some_and(|f| f.eq_ignore_ascii_case(name))
                })
            })
            .ok_or_else(|| {
                err(
                    shown,
                    0,
                    format!("no {name} in the folder; is it a jDip variant plugin?"),
                )
            })?
    };
    crate::files::read_text(&path).map_err(|m| err(&path.display().to_string(), 0, m))
}

/// One entry of a zip, refused when it would unpack larger than
/// [`MAX_ENTRY_BYTES`] (checked before unpacking, and while unpacking).
fn zip_entry(bytes: &[u8], zip_name: &str, inner: &str) -> Result<Vec<u8>, VariantError> {
    let shown = entry_name(zip_name, inner);
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| err(zip_name, 0, format!("not a zip file: {e}")))?;
    let f = z
        .by_name(inner)
        .map_err(|e| err(&shown, 0, format!("cannot read: {e}")))?;
    if f.size() > MAX_ENTRY_BYTES {
        return Err(err(
            &shown,
            0,
            format!(
                "unpacks to {} bytes, more than the {} MiB dip reads from one file of a plugin",
                f.size(),
                MAX_ENTRY_BYTES >> 20
            ),
        ));
    }
    let mut out = Vec::new();
    f.take(MAX_ENTRY_BYTES + 1)
        .read_to_end(&mut out)
        .map_err(|e| err(&shown, 0, format!("cannot unpack: {e}")))?;
    if out.len() as u64 > MAX_ENTRY_BYTES {
        return Err(err(
            &shown,
            0,
            format!(
                "unpacks to more than the {} MiB dip reads from one file of a plugin",
                MAX_ENTRY_BYTES >> 20
            ),
        ));
    }
    Ok(out)
}

/// jDip's SVGs declare the `jdipNS` prefix only as a DTD default
/// attribute, which XML readers without DTD defaults do not see: the
/// declaration is added to the root element (on its line, so lines stay).
fn declare_jdip_ns(text: &str) -> Option<String> {
    if !text.contains("jdipNS:") {
        return None;
    }
    let body_start = text
        .find("<svg")
        .filter(|&i| text[i + 4..].starts_with(|c: char| c.is_whitespace() || c == '>'))?;
    let end = body_start + text[body_start..].find('>')?;
    if text[body_start..end].contains("xmlns:jdipNS") {
        return None;
    }
    let at = if text[..end].ends_with('/') { end - 1 } else { end };
    Some(format!(
        "{} xmlns:jdipNS=\"http://jdip.sourceforge.org/jdipNS\"{}",
        &text[..at],
        &text[at..]
    ))
}

/// Parses an SVG of a plugin (see [`declare_jdip_ns`]) and runs `f` on it.
fn with_svg<T>(
    text: &str,
    file: &str,
    f: impl FnOnce(&roxmltree::Document) -> Result<T, VariantError>,
) -> Result<T, VariantError> {
    match declare_jdip_ns(text) {
        Some(t) => {
            let doc = xml(&t, file)?;
            f(&doc)
        }
        None => {
            let doc = xml(text, file)?;
            f(&doc)
        }
    }
}

fn xml<'a>(text: &'a str, file: &str) -> Result<roxmltree::Document<'a>, VariantError> {
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        nodes_limit: MAX_NODES,
        ..Default::default()
    };
    roxmltree::Document::parse_with_options(text, opts).map_err(|e| {
        let p = e.pos();
        err(file, p.row as usize, format!("not well-formed XML: {e}"))
    })
}

fn line_of(doc: &roxmltree::Document, n: roxmltree::Node) -> usize {
    doc.text_pos_at(n.range().start).row as usize
}

fn attr_req<'a>(
    doc: &roxmltree::Document,
    n: roxmltree::Node<'a, 'a>,
    name: &str,
    file: &str,
) -> Result<&'a str, VariantError> {
    n.attribute(name).ok_or_else(|| {
        err(
            file,
            line_of(doc, n),
            format!("{} without the attribute `{name}`", n.tag_name().name()),
        )
    })
}

/// jDip's comma-separated names (`aliases`, `altnames`): commas outside
/// double quotes separate, spaces belong to the names (`Sail Ho` is one).
fn split_csv(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in s.chars().chain(std::iter::once(',')) {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => {
                let t = cur.trim();
                if !t.is_empty() {
                    out.push(t.to_string());
                }
                cur.clear();
            }
            c => cur.push(c),
        }
    }
    out
}

fn split_list(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
}

/// A jDip location (`stp-nc`, `stp/nc`, `bul-ec`) as (province, coast).
fn location(s: &str) -> (String, Option<String>) {
    let s = s.trim().to_ascii_lowercase();
    for sep in ['-', '/'] {
        if let Some((p, c)) = s.rsplit_once(sep) {
            let c = c.trim_end_matches('.').replace('.', "");
            if matches!(c.as_str(), "nc" | "sc" | "ec" | "wc" | "mv" | "xc") {
                let c = if c == "mv" || c == "xc" { None } else { Some(c) };
                return (p.to_string(), c);
            }
        }
    }
    (s, None)
}

/// `Spring, 1901, Movement` (any order of the three words; `1901` alone is Spring Movement).
fn parse_turn(s: &str) -> Option<(i32, Season, PhaseKind)> {
    let mut year = None;
    let mut season = Season::Spring;
    let mut kind = PhaseKind::Movement;
    let mut winter = false;
    for w in s.split([',', ' ']).filter(|w| !w.is_empty()) {
        let l = w.to_ascii_lowercase();
        match l.as_str() {
            "spring" | "s" => season = Season::Spring,
            "fall" | "autumn" | "f" => season = Season::Fall,
            "winter" | "w" => winter = true,
            "movement" | "m" => kind = PhaseKind::Movement,
            "retreat" | "r" => kind = PhaseKind::Retreat,
            "adjustment" | "a" | "build" => kind = PhaseKind::Adjustment,
            _ => {
                let (num, neg) = match l.strip_suffix("bc") {
                    Some(n) => (n, true),
                    None => (l.as_str(), false),
                };
                let y = dip_core::parse_year(num).ok()?;
                year = Some(if neg { -y } else { y });
            }
        }
    }
    if winter {
        season = Season::Fall;
        kind = PhaseKind::Adjustment;
    }
    Some((year?, season, kind))
}

/// Unit type index by jDip's word (`army`, `fleet`, `wing`, `A`, `F`, `W`).
fn unit_index(word: &str, wings: bool) -> Option<usize> {
    match word.trim().to_ascii_lowercase().as_str() {
        "army" | "a" => Some(0),
        "fleet" | "f" => Some(1),
        "wing" | "w" if wings => Some(2),
        _ => None,
    }
}

/// The wing: stands anywhere, moves to every touching province.
pub fn wing() -> UnitType {
    UnitType {
        letter: 'W',
        name: "Wing".into(),
        strength: 1,
        cost: 1,
        convoyable: false,
        can_convoy: false,
        stands_on: TerrainSet::of(&[Terrain::Land, Terrain::Coast, Terrain::Sea]),
        builds_on: TerrainSet::of(&[Terrain::Land, Terrain::Coast]),
        uses_coasts: false,
    }
}

/// Abbreviations for powers: the first three letters, unless taken.
fn power_abbrs(names: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for n in names {
        let base: String = n
            .chars()
            .filter(|c| c.is_alphanumeric())
            .take(3)
            .collect::<String>()
            .to_uppercase();
        let mut a = if base.is_empty() { "P".to_string() } else { base.clone() };
        let mut i = 1;
        while out.iter().any(|o| o.eq_ignore_ascii_case(&a)) {
            a = format!("{base}{i}");
            i += 1;
        }
        out.push(a);
    }
    out
}

/// A variant name usable as dip's short name: letters, digits, `_`, `-`, `.`.
pub fn safe_name(s: &str) -> String {
    let out: String = s
        .trim()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || "_-.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() {
        "jdip".into()
    } else {
        out
    }
}

fn strip_tags(s: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in s.chars() {
        match c {
            '<' => inside = true,
            '>' if inside => {
                inside = false;
                out.push(' ');
            }
            _ if !inside => out.push(c),
            _ => {}
        }
    }
    out
}

/// A jDip `BORDER` as a border rule of its province: `None` when it
/// changes nothing (no condition, no modifier: jDip lets every unit pass).
fn border_rule(
    b: &Border,
    province: &str,
    from: Vec<String>,
    types: &[usize],
    unit_types: &[UnitType],
    file: &str,
    notes: &mut Vec<String>,
) -> Result<Option<MBorderRule>, VariantError> {
    let mut r = MBorderRule {
        province: province.to_string(),
        from,
        units: types
            .iter()
            .filter_map(|&u| unit_types.get(u))
            .map(|u| u.letter)
            .collect(),
        ..Default::default()
    };
    let unknown_orders = border_orders(b, &mut r.orders);
    if !unknown_orders.is_empty() {
        notes.push(format!(
            "{file}:{}: border `{}` of {province}: order types {} are never refused by dip",
            b.line,
            b.id,
            unknown_orders.join(", ")
        ));
        if r.orders.is_empty() {
            return Ok(None);
        }
    }
    r.seasons = border_seasons(b, file)?;
    r.phases = border_phases(b, file)?;
    r.years = border_years(b, file)?;
    let modifier = b.base_move_modifier.trim();
    if !modifier.is_empty() {
        let v: i32 = modifier
            .parse()
            .map_err(|_| bad_attribute(b, file, "baseMoveModifier", modifier, "a whole number such as -1"))?;
        r.strength = v.clamp(-100, 100) as i8;
    }
    let closes = !r.units.is_empty()
        || !r.orders.is_empty()
        || !r.seasons.is_empty()
        || !r.phases.is_empty()
        || r.years != Years::Any;
    Ok((closes || r.strength != 0).then_some(r))
}

/// An attribute of a `BORDER` that does not read, with what it takes.
fn bad_attribute(b: &Border, file: &str, what: &str, v: &str, expected: &str) -> VariantError {
    err(
        file,
        b.line,
        format!("border `{}`: {what} `{v}` (expected {expected})", b.id),
    )
}

/// `orderTypes`: the order classes the border refuses, added to `orders`;
/// returns the classes dip does not know.
fn border_orders(b: &Border, orders: &mut Vec<OrderClass>) -> Vec<String> {
    let mut unknown_orders = Vec::new();
    for o in &b.order_types {
        // jDip names order classes: `dip.order.Move`, `info.jdip.order.Support`.
        let class = o.rsplit('.').next().unwrap_or(o);
        match OrderClass::parse(class) {
            Some(c) if !orders.contains(&c) => orders.push(c),
            Some(_) => {}
            None => unknown_orders.push(o.clone()),
        }
    }
    unknown_orders
}

/// `season`: the seasons the border is closed in.
fn border_seasons(b: &Border, file: &str) -> Result<Vec<Season>, VariantError> {
    let mut seasons = Vec::new();
    for w in split_list(&b.season) {
        let s = match w.to_ascii_lowercase().as_str() {
            "spring" | "summer" | "s" => Season::Spring,
            "fall" | "autumn" | "winter" | "f" | "w" => Season::Fall,
            _ => return Err(bad_attribute(b, file, "season", w, "Spring or Fall")),
        };
        if !seasons.contains(&s) {
            seasons.push(s);
        }
    }
    Ok(seasons)
}

/// `phase`: the phases the border is closed in.
fn border_phases(b: &Border, file: &str) -> Result<Vec<PhaseKind>, VariantError> {
    let mut phases = Vec::new();
    for w in split_list(&b.phase) {
        let k = match w.to_ascii_lowercase().as_str() {
            "movement" | "m" => PhaseKind::Movement,
            "retreat" | "r" => PhaseKind::Retreat,
            _ => return Err(bad_attribute(b, file, "phase", w, "Movement or Retreat")),
        };
        if !phases.contains(&k) {
            phases.push(k);
        }
    }
    Ok(phases)
}

/// `year`: two years (the first not after the second), odd or even.
fn border_years(b: &Border, file: &str) -> Result<Years, VariantError> {
    let years: Vec<&str> = b.year.split([',', ' ', '\t']).filter(|w| !w.is_empty()).collect();
    Ok(match years[..] {
        [] => Years::Any,
        [w] if w.eq_ignore_ascii_case("odd") => Years::Odd,
        [w] if w.eq_ignore_ascii_case("even") => Years::Even,
        [a, z] => match (a.parse::<i32>(), z.parse::<i32>()) {
            (Ok(a), Ok(z)) if a <= z => Years::Between(a, z),
            _ => {
                return Err(bad_attribute(
                    b,
                    file,
                    "year",
                    &b.year,
                    "two years, the first not after the second, or odd or even",
                ))
            }
        },
        _ => {
            return Err(bad_attribute(
                b,
                file,
                "year",
                &b.year,
                "two years, the first not after the second, or odd or even",
            ))
        }
    })
}

/// The unit points of the map's SVG (`jdipNS:PROVINCE_DATA`): each
/// province's and coast's `UNIT` point, and the label points of
/// `BriefLabelLayer`. An SVG without PROVINCE_DATA is an error.
fn apply_svg(m: &mut Model, text: &str, file: &str) -> Result<(), VariantError> {
    with_svg(text, file, |doc| apply_svg_doc(m, doc, file))
}

fn apply_svg_doc(m: &mut Model, doc: &roxmltree::Document, file: &str) -> Result<(), VariantError> {
    let root = doc.root_element();
    let data = root
        .descendants()
        .find(|n| n.tag_name().name() == "PROVINCE_DATA")
        .ok_or_else(|| {
            err(
                file,
                line_of(doc, root),
                "no jdipNS:PROVINCE_DATA in the SVG (expected the unit points of jDip's map)",
            )
        })?;
    for layer in ["MapLayer", "UnitLayer"] {
        if !root.descendants().any(|n| n.attribute("id") == Some(layer)) {
            return Err(err(
                file,
                line_of(doc, root),
                format!("no layer `{layer}` (a <g id=\"{layer}\">) in the SVG; jDip's maps have MapLayer, SupplyCenterLayer, UnitLayer, DislodgedUnitLayer, OrderLayer and MouseLayer"),
            ));
        }
    }
    let vb = view_box(doc);
    let (vx, vy, k) = (vb.0, vb.1, drawing_scale(vb));
    let num = |n: roxmltree::Node, a: &str| {
        n.attribute(a)
            .and_then(|v| v.trim().parse::<f32>().ok())
            .filter(|v| v.is_finite())
    };
    for p in data.children().filter(|n| n.tag_name().name() == "PROVINCE") {
        let Some(name) = p.attribute("name") else { continue };
        let (prov, coast) = location(name);
        // Names the adjacency file does not know (pictures of a map shared
        // by several variants) place nothing.
        let Some(pi) = m.find_province(&prov) else { continue };
        let Some(u) = p.children().find(|n| n.tag_name().name() == "UNIT") else {
            continue;
        };
        let (Some(x), Some(y)) = (num(u, "x"), num(u, "y")) else {
            return Err(err(file, line_of(doc, u), "UNIT without numeric x and y"));
        };
        let (x, y) = ((x - vx) * k, (y - vy) * k);
        let mp = &mut m.provinces[pi];
        match coast {
            Some(c) => {
                if let Some(slot) = mp.coasts.iter_mut().find(|x| x.0 == c) {
                    slot.1 = Some((x, y));
                }
                if mp.at.is_none() {
                    mp.at = Some((x, y));
                }
            }
            None => mp.at = Some((x, y)),
        }
    }
    // Power colours (`jdipNS:POWERCOLOR power="austria" color="#DA251D"`).
    for c in root.descendants().filter(|n| n.tag_name().name() == "POWERCOLOR") {
        let (Some(pw), Some(col)) = (c.attribute("power"), c.attribute("color")) else {
            continue;
        };
        let col = col.trim();
        let hex = col.len() == 7 && col.starts_with('#') && col[1..].chars().all(|c| c.is_ascii_hexdigit());
        if let Some(p) = m.powers.iter_mut().find(|p| p.name.eq_ignore_ascii_case(pw.trim())) {
            if hex {
                p.colour = Some(col.to_ascii_lowercase());
            }
        }
    }
    if let Some(labels) = root
        .descendants()
        .find(|n| n.attribute("id") == Some("BriefLabelLayer"))
    {
        for t in labels
            .descendants()
            .filter(|n| n.has_tag_name("text") || n.tag_name().name() == "text")
        {
            let word: String = t
                .descendants()
                .filter(|n| n.is_text())
                .filter_map(|n| n.text())
                .collect::<String>()
                .trim()
                .to_ascii_lowercase();
            let (prov, _) = location(&word);
            // Rotated labels are placed by the text's own transform
            // (`translate(324.7,543), rotate(-80)` with x = y = 0).
            if let (Some(pi), Some(x), Some(y)) = (
                m.provinces.iter().position(|p| p.abbr == prov),
                num(t, "x"),
                num(t, "y"),
            ) {
                let (x, y) = apply(transform_of(t), (x, y));
                m.provinces[pi].label = Some(((x - vx) * k, (y - vy) * k));
            }
        }
    }
    Ok(())
}

/// A view box or picture box: (x, y, width, height).
pub type ViewBox = (f32, f32, f32, f32);

/// Province shapes by name: (short name, polygons of points).
pub type NamedShapes = Vec<(String, Vec<Vec<(f32, f32)>>)>;

/// The SVG's view box (x, y, width, height): the user space of its points.
fn view_box(doc: &roxmltree::Document) -> (f32, f32, f32, f32) {
    let root = doc.root_element();
    let num = |a: &str| {
        root.attribute(a)
            .and_then(|v| v.trim().trim_end_matches("px").parse::<f32>().ok())
            .filter(|v| v.is_finite() && *v > 0.0)
    };
    let vb: Vec<f32> = root
        .attribute("viewBox")
        .unwrap_or("")
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter_map(|w| w.parse().ok())
        .collect();
    match vb[..] {
        [x, y, w, h] if w > 0.0 && h > 0.0 && x.is_finite() && y.is_finite() && w.is_finite() && h.is_finite() => {
            (x, y, w, h)
        }
        _ => (
            0.0,
            0.0,
            num("width").unwrap_or(1000.0),
            num("height").unwrap_or(1000.0),
        ),
    }
}

/// The longest side, in pixels, of a plugin's map as dip draws it: larger
/// view boxes (Sail Ho!'s is 7300 × 7695) are scaled down, and the points
/// read with them.
pub const MAX_MAP_SIDE: f32 = 2400.0;

/// Pixels per unit of the view box.
fn drawing_scale(vb: (f32, f32, f32, f32)) -> f32 {
    (MAX_MAP_SIDE / vb.2.max(vb.3)).min(1.0)
}

/// The map's SVG ready to be drawn under dip's picture: the layers jDip
/// fills or uses for clicks (`MouseLayer`, unit, order and label layers)
/// blanked out, the jdipNS prefix declared; with its view box, whose
/// origin is the origin of the points read ([`JdipVariant::model`]'s);
/// its width and height are in pixels (scaled by [`MAX_MAP_SIDE`]).
pub fn drawable_svg(text: &str, file: &str) -> Result<(String, ViewBox), VariantError> {
    let owned = declare_jdip_ns(text);
    let text = owned.as_deref().unwrap_or(text);
    let doc = xml(text, file)?;
    let vb = view_box(&doc);
    let k = drawing_scale(vb);
    let vb = (vb.0, vb.1, vb.2 * k, vb.3 * k);
    let mut cut: Vec<std::ops::Range<usize>> = doc
        .descendants()
        .filter(|n| {
            n.is_element()
                && (n.tag_name().namespace() == Some("http://jdip.sourceforge.org/jdipNS")
                    || matches!(
                        n.attribute("id"),
                        Some(
                            "MouseLayer"
                                | "UnitLayer"
                                | "DislodgedUnitLayer"
                                | "OrderLayer"
                                | "HighestOrderLayer"
                                | "BriefLabelLayer"
                                | "FullLabelLayer"
                        )
                    ))
        })
        .map(|n| n.range())
        .collect();
    cut.sort_by_key(|r| r.start);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for r in cut {
        if r.start < at {
            continue; // inside a cut already
        }
        out.push_str(&text[at..r.start]);
        // Keep the lines (messages about the drawing keep their numbers).
        out.extend(text[r.clone()].chars().filter(|&c| c == '\n'));
        at = r.end;
    }
    out.push_str(&text[at..]);
    Ok((out, vb))
}

/// Points by province short name.
pub type NamedPoints = Vec<(String, (f32, f32))>;

/// The supply-centre points of the map's SVG (`jdipNS:SUPPLY_CENTER` of
/// `PROVINCE_DATA`, where jDip draws each centre's marker), by province
/// short name, in the points' coordinates (those of [`JdipVariant::model`]).
/// Provinces without one are left out.
pub fn svg_centre_points(text: &str, file: &str) -> Result<NamedPoints, VariantError> {
    with_svg(text, file, |doc| {
        let vb = view_box(doc);
        let k = drawing_scale(vb);
        let num = |n: roxmltree::Node, a: &str| {
            n.attribute(a)
                .and_then(|v| v.trim().parse::<f32>().ok())
                .filter(|v| v.is_finite())
        };
        let mut out = Vec::new();
        let provinces = doc
            .descendants()
            .filter(|n| n.tag_name().name() == "PROVINCE_DATA")
            .flat_map(|d| d.children().filter(|n| n.tag_name().name() == "PROVINCE"));
        for p in provinces {
            let Some(name) = p.attribute("name") else { continue };
            let Some(c) = p.children().find(|n| n.tag_name().name() == "SUPPLY_CENTER") else {
                continue;
            };
            if let (Some(x), Some(y)) = (num(c, "x"), num(c, "y")) {
                out.push((location(name).0, ((x - vb.0) * k, (y - vb.1) * k)));
            }
        }
        Ok(out)
    })
}

/// The province shapes of the map's SVG: each path of `MouseLayer` (by
/// province name; coasts join their province), as polygons of its points
/// (curves by points along them). Only absolute and relative M, L, H, V, C,
/// S, Q, T, Z of path data; the transforms of the path and its ancestors
/// are applied.
pub fn svg_shapes(text: &str, file: &str) -> Result<NamedShapes, VariantError> {
    with_svg(text, file, |doc| svg_shapes_doc(doc, file))
}

fn svg_shapes_doc(doc: &roxmltree::Document, file: &str) -> Result<NamedShapes, VariantError> {
    let root = doc.root_element();
    let layer = root
        .descendants()
        .find(|n| n.attribute("id") == Some("MouseLayer"))
        .ok_or_else(|| {
            err(
                file,
                line_of(doc, root),
                "no layer `MouseLayer` (the province shapes) in the SVG",
            )
        })?;
    let vb = view_box(doc);
    let k = drawing_scale(vb);
    let mut out = Vec::new();
    for p in layer.descendants().filter(|n| n.is_element()) {
        let Some(id) = p.attribute("id") else { continue };
        let rings = match p.tag_name().name() {
            "path" => path_rings(p.attribute("d").unwrap_or("")),
            "polygon" | "polyline" => {
                let nums: Vec<f32> = p
                    .attribute("points")
                    .unwrap_or("")
                    .split(|c: char| c == ',' || c.is_whitespace())
                    .filter_map(|w| w.parse().ok())
                    .collect();
                vec![nums.chunks_exact(2).map(|c| (c[0], c[1])).collect()]
            }
            "rect" => {
                let g = |a| p.attribute(a).and_then(|v: &str| v.parse::<f32>().ok()).unwrap_or(0.0);
                let (x, y, w, h) = (g("x"), g("y"), g("width"), g("height"));
                vec![vec![(x, y), (x + w, y), (x + w, y + h), (x, y + h)]]
            }
            _ => continue,
        };
        let t = transform_of(p);
        let rings: Vec<Vec<(f32, f32)>> = rings
            .into_iter()
            .map(|r| {
                r.into_iter()
                    .map(|pt| {
                        let (x, y) = apply(t, pt);
                        ((x - vb.0) * k, (y - vb.1) * k)
                    })
                    .collect::<Vec<_>>()
            })
            .filter(|r| r.len() >= 3)
            .collect();
        let (prov, _) = location(id);
        out.push((prov, rings));
    }
    Ok(out)
}

/// An SVG transform as its matrix `a b c d e f`.
type Affine = [f64; 6];

const IDENTITY: Affine = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];

fn mul(p: Affine, q: Affine) -> Affine {
    [
        p[0] * q[0] + p[2] * q[1],
        p[1] * q[0] + p[3] * q[1],
        p[0] * q[2] + p[2] * q[3],
        p[1] * q[2] + p[3] * q[3],
        p[0] * q[4] + p[2] * q[5] + p[4],
        p[1] * q[4] + p[3] * q[5] + p[5],
    ]
}

/// The transform from an element's coordinates to the document's: its own
/// `transform` and its ancestors'. A transform that does not parse (or is
/// not finite) counts as none, as a picture without it would be drawn.
fn transform_of(n: roxmltree::Node) -> Affine {
    let mut t = IDENTITY;
    for a in n.ancestors() {
        let Some(text) = a.attribute("transform") else { continue };
        if let Ok(m) = text.parse::<svgtypes::Transform>() {
            let m = [m.a, m.b, m.c, m.d, m.e, m.f];
            if m.iter().all(|v| v.is_finite()) {
                t = mul(m, t);
            }
        }
    }
    t
}

fn apply(t: Affine, (x, y): (f32, f32)) -> (f32, f32) {
    let (x, y) = (x as f64, y as f64);
    let p = (t[0] * x + t[2] * y + t[4], t[1] * x + t[3] * y + t[5]);
    if p.0.is_finite() && p.1.is_finite() {
        (p.0 as f32, p.1 as f32)
    } else {
        (x as f32, y as f32)
    }
}

/// Polygons of SVG path data (curves by points along them).
fn path_rings(d: &str) -> Vec<Vec<(f32, f32)>> {
    let Some(toks) = path_tokens(d) else {
        return Vec::new();
    };
    let mut rings = Vec::new();
    let mut cur: Vec<(f32, f32)> = Vec::new();
    let (mut x, mut y) = (0.0f32, 0.0f32);
    let (mut sx, mut sy) = (0.0f32, 0.0f32);
    let mut cmd = 'M';
    let mut last_cubic: Option<(f32, f32)> = None;
    let mut last_quad: Option<(f32, f32)> = None;
    let mut k = 0;
    let mut guard = 0usize;
    while k < toks.len() {
        guard += 1;
        if guard > toks.len() * 2 + 8 {
            break;
        }
        if let Ok(c) = toks[k] {
            cmd = c;
            k += 1;
            if c == 'Z' || c == 'z' {
                close_ring(&mut rings, &mut cur);
                (x, y) = (sx, sy);
            }
            continue;
        }
        let n = match cmd.to_ascii_uppercase() {
            'M' | 'L' | 'T' => 2,
            'H' | 'V' => 1,
            'C' => 6,
            'S' | 'Q' => 4,
            'A' => 7,
            _ => {
                k += 1;
                continue;
            }
        };
        let args: Vec<f32> = toks[k..].iter().take(n).map_while(|t| t.err()).collect();
        if args.len() < n {
            break;
        }
        k += n;
        let rel = cmd.is_ascii_lowercase();
        let (ox, oy) = if rel { (x, y) } else { (0.0, 0.0) };
        let (px, py) = (x, y);
        let upper = cmd.to_ascii_uppercase();
        match upper {
            'H' => x = args[0] + if rel { x } else { 0.0 },
            'V' => y = args[0] + if rel { y } else { 0.0 },
            _ => {
                x = args[n - 2] + ox;
                y = args[n - 1] + oy;
            }
        }
        let ctrl = curve_controls(
            upper,
            &args,
            (ox, oy),
            (px, py),
            (x, y),
            &mut last_cubic,
            &mut last_quad,
        );
        if let Some(((c1x, c1y), (c2x, c2y))) = ctrl {
            for i in 1..8 {
                let t = i as f32 / 8.0;
                let u = 1.0 - t;
                let (a, b, c, d) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
                cur.push((a * px + b * c1x + c * c2x + d * x, a * py + b * c1y + c * c2y + d * y));
            }
        }
        if cmd == 'M' || cmd == 'm' {
            close_ring(&mut rings, &mut cur);
            (sx, sy) = (x, y);
            cur.push((x, y));
            cmd = if rel { 'l' } else { 'L' };
        } else {
            cur.push((x, y));
        }
    }
    if cur.len() >= 3 {
        rings.push(cur);
    }
    rings
}

/// A path's tokens: command letters (`Ok`) and numbers (`Err`); `None` when
/// a number does not read as a finite one.
fn path_tokens(d: &str) -> Option<Vec<Result<char, f32>>> {
    let mut toks: Vec<Result<char, f32>> = Vec::new();
    let b = d.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if c.is_ascii_alphabetic() && c != 'e' && c != 'E' {
            toks.push(Ok(c));
            i += 1;
        } else if c.is_ascii_digit() || c == '-' || c == '+' || c == '.' {
            let start = i;
            i += 1;
            let mut dot = c == '.';
            while i < b.len() {
                let d = b[i] as char;
                if d.is_ascii_digit() {
                    i += 1;
                } else if d == '.' && !dot {
                    dot = true;
                    i += 1;
                } else if (d == 'e' || d == 'E') && i + 1 < b.len() {
                    i += 1;
                    if b[i] == b'-' || b[i] == b'+' {
                        i += 1;
                    }
                } else {
                    break;
                }
            }
            match d[start..i].parse::<f32>() {
                Ok(v) if v.is_finite() => toks.push(Err(v)),
                _ => return None,
            }
        } else {
            i += 1;
        }
    }
    Some(toks)
}

/// Ends the ring being drawn: kept when it has an area (three points or
/// more), else dropped.
fn close_ring(rings: &mut Vec<Vec<(f32, f32)>>, cur: &mut Vec<(f32, f32)>) {
    if cur.len() >= 3 {
        rings.push(std::mem::take(cur));
    } else {
        cur.clear();
    }
}

/// Curves: the two control points of a cubic (a quadratic raised to one),
/// the first control point of S and T reflected from the previous curve's
/// last one; `None` for straight segments. `o` is the origin of relative
/// arguments, `p` the segment's start and `end` its end.
fn curve_controls(
    upper: char,
    args: &[f32],
    (ox, oy): (f32, f32),
    (px, py): (f32, f32),
    (x, y): (f32, f32),
    last_cubic: &mut Option<(f32, f32)>,
    last_quad: &mut Option<(f32, f32)>,
) -> Option<((f32, f32), (f32, f32))> {
    let reflect = |c: Option<(f32, f32)>| c.map_or((px, py), |(cx, cy)| (2.0 * px - cx, 2.0 * py - cy));
    let raise = |q: (f32, f32)| {
        (
            (px + 2.0 / 3.0 * (q.0 - px), py + 2.0 / 3.0 * (q.1 - py)),
            (x + 2.0 / 3.0 * (q.0 - x), y + 2.0 / 3.0 * (q.1 - y)),
        )
    };
    let smooth_quad = reflect(*last_quad);
    let ctrl = match upper {
        'C' => Some(((args[0] + ox, args[1] + oy), (args[2] + ox, args[3] + oy))),
        'S' => Some((reflect(*last_cubic), (args[0] + ox, args[1] + oy))),
        'Q' => Some(raise((args[0] + ox, args[1] + oy))),
        'T' => Some(raise(smooth_quad)),
        _ => None,
    };
    *last_cubic = match upper {
        'C' | 'S' => ctrl.map(|c| c.1),
        _ => None,
    };
    *last_quad = match upper {
        'Q' => Some((args[0] + ox, args[1] + oy)),
        'T' => Some(smooth_quad),
        _ => None,
    };
    ctrl
}

// ---------------------------------------------------------------------------
// Unit symbol packs.

/// A jDip unit symbol pack (`…Symbols.zip`, a folder holding symbols.xml
/// and symbols.svg, or symbols.svg itself): its name and the SVG whose
/// `<symbol id="Army|Fleet|Wing">` draw the units.
#[derive(Clone, Debug)]
pub struct SymbolPack {
    pub name: String,
    /// (file name for messages, text).
    pub svg: (String, String),
}

impl SymbolPack {
    pub fn open(path: &Path) -> Result<SymbolPack, VariantError> {
        let shown = path.display().to_string();
        let lower = shown.to_ascii_lowercase();
        let (xml_text, svg) = if lower.ends_with(".svg") {
            (
                None,
                (
                    shown.clone(),
                    crate::files::read_text(path).map_err(|m| err(&shown, 0, m))?,
                ),
            )
        } else if path.is_dir() {
            let x = read_dir_file(path, "symbols.xml", &shown).ok();
            let s = read_dir_file(path, "symbols.svg", &shown)?;
            (x, (path.join("symbols.svg").display().to_string(), s))
        } else {
            let bytes = crate::files::read_bytes_capped(path, MAX_ZIP_BYTES).map_err(|m| err(&shown, 0, m))?;
            let names: Vec<String> = zip::ZipArchive::new(std::io::Cursor::new(&bytes[..]))
                .map_err(|e| err(&shown, 0, format!("not a zip file: {e}")))?
                .file_names()
                .filter_map(|n| n.ok().map(|c| c.into_owned()))
                .collect();
            let find = |want: &str| {
                names
                    .iter()
                    .filter(|n| n.rsplit('/').next().is_some_and(|f| f.eq_ignore_ascii_case(want)))
                    .min_by_key(|n| n.matches('/').count())
                    .cloned()
            };
            let sname = find("symbols.svg")
                .ok_or_else(|| err(&shown, 0, "no symbols.svg in the zip; is it a jDip symbol pack?"))?;
            let text = |n: &str| -> Result<String, VariantError> {
                let b = zip_entry(&bytes, &shown, n)?;
                crate::files::decode_utf8(b, &entry_name(&shown, n)).map_err(|m| err(&shown, 0, m))
            };
            let x = find("symbols.xml").and_then(|n| text(&n).ok());
            (x, (entry_name(&shown, &sname), text(&sname)?))
        };
        let name = xml_text
            .as_deref()
            .and_then(|t| {
                let doc = xml(t, "symbols.xml").ok()?;
                doc.root_element().attribute("name").map(str::to_string)
            })
            .unwrap_or_else(|| {
                path.file_stem()
                    .and_then(|f| f.to_str())
                    .unwrap_or("symbols")
                    .trim_end_matches("Symbols")
                    .to_string()
            });
        // The symbols must be readable and hold at least the army.
        with_svg(&svg.1, &svg.0, |doc| {
            if doc
                .descendants()
                .any(|n| n.tag_name().name() == "symbol" && n.attribute("id") == Some("Army"))
            {
                Ok(())
            } else {
                Err(err(&svg.0, 0, "no <symbol id=\"Army\"> in the symbol pack's SVG"))
            }
        })?;
        Ok(SymbolPack { name, svg })
    }

    /// The pack as a standalone SVG drawing one unit symbol (`Army`,
    /// `Fleet`, `Wing`) in `fill`, centred in a square of side `side`;
    /// `None` when the pack has no such symbol.
    pub fn unit_svg(&self, symbol: &str, fill: &str, side: u32) -> Option<String> {
        let owned = declare_jdip_ns(&self.svg.1);
        let text = owned.as_deref().unwrap_or(&self.svg.1);
        let doc = xml(text, &self.svg.0).ok()?;
        let sym = doc
            .descendants()
            .find(|n| n.tag_name().name() == "symbol" && n.attribute("id") == Some(symbol))?;
        let vb: Vec<f32> = sym
            .attribute("viewBox")
            .unwrap_or("0 0 10 10")
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter_map(|w| w.parse().ok())
            .collect();
        let (w, h) = match vb[..] {
            [_, _, w, h] if w > 0.0 && h > 0.0 && w.is_finite() && h.is_finite() => (w, h),
            _ => (10.0, 10.0),
        };
        // The pack's styles and symbols, then one use of the symbol; jDip's
        // symbols are drawn around their origin.
        let defs: String = doc
            .root_element()
            .children()
            .filter(|n| n.tag_name().name() == "defs")
            .map(|n| &text[n.range()])
            .collect();
        let m = w.max(h) * 0.75;
        Some(format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"{side}\" height=\"{side}\" viewBox=\"{} {} {} {}\">{defs}<use xlink:href=\"#{symbol}\" x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"{}\"/></svg>",
            -m,
            -m,
            2.0 * m,
            2.0 * m,
            esc(fill)
        ))
    }
}

// ---------------------------------------------------------------------------
// Search paths: `--variants PATH`.

/// Is this path a plugin: a folder holding variants.xml, or a `.zip`/`.jar` file?
pub fn is_plugin(p: &Path) -> bool {
    if p.is_dir() {
        return std::fs::read_dir(p)
            .map(|rd| {
                rd.flatten().any(|e| {
                    e.file_name()
                        .to_str()
                        .is_some_and(|f| f.eq_ignore_ascii_case("variants.xml"))
                })
            })
            .unwrap_or(false);
    }
    p.is_file()
        && p.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("zip") || e.eq_ignore_ascii_case("jar"))
}

/// Every plugin under the search paths (folders searched four levels
/// deep), in a stable order; symbol packs (`…Symbols.zip`) are not plugins.
pub fn plugin_paths(paths: &[PathBuf]) -> Vec<PathBuf> {
    fn walk(p: &Path, depth: usize, out: &mut Vec<PathBuf>) {
        if is_plugin(p) {
            let name = p
                .file_name()
                .and_then(|f| f.to_str())
                .unwrap_or("")
                .to_ascii_lowercase();
            if !(name.ends_with("symbols.zip") || name.ends_with("symbols.jar")) {
                out.push(p.to_path_buf());
            }
            if p.is_file() {
                return;
            }
        }
        if depth == 0 || !p.is_dir() {
            return;
        }
        let Ok(rd) = std::fs::read_dir(p) else { return };
        let mut kids: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
        kids.sort();
        for k in kids {
            if k.is_dir() || is_plugin(&k) {
                walk(&k, depth - 1, out);
            }
        }
    }
    let mut out = Vec::new();
    for p in paths {
        walk(p, 4, &mut out);
    }
    out.dedup();
    out
}

/// The variant `name` from the plugins under the search paths `paths`
/// (dip-play's `Variants` holds them: there is no process-wide list): the
/// first plugin (in search order) that has a variant of that name or alias.
/// `None` when no plugin has it; an error when it is found and cannot be read.
pub fn find_in(paths: &[PathBuf], name: &str) -> Option<Result<(Plugin, JdipVariant), VariantError>> {
    if paths.is_empty() {
        return None;
    }
    // `PLUGIN#NAME`: the plugin by its file or folder name (`stdVariants`,
    // `stdVariants.zip`).
    if let Some((stem, vname)) = name.rsplit_once('#') {
        for p in plugin_paths(paths) {
            let file = p.file_name().and_then(|f| f.to_str()).unwrap_or("");
            let short = p.file_stem().and_then(|f| f.to_str()).unwrap_or("");
            if file.eq_ignore_ascii_case(stem.trim()) || short.eq_ignore_ascii_case(stem.trim()) {
                let plugin = match Plugin::open(&p) {
                    Ok(pl) => pl,
                    Err(e) => return Some(Err(e)),
                };
                let Some(n) = plugin.find(vname).map(str::to_string) else {
                    return Some(Err(err(
                        &plugin.file_name("variants.xml"),
                        0,
                        format!("no variant `{vname}` (it has {})", plugin.names()),
                    )));
                };
                return Some(plugin.variant(&n).map(|v| (plugin, v)));
            }
        }
    }
    for p in plugin_paths(paths) {
        let Ok(plugin) = Plugin::open(&p) else { continue };
        if let Some(n) = plugin.find(name).map(str::to_string) {
            return Some(plugin.variant(&n).map(|v| (plugin, v)));
        }
    }
    None
}

/// The plugin variants under the search paths that a bundled name hides
/// (`--variant standard` is dip's standard even when a plugin has a
/// `Standard`), each as `PLUGIN#NAME`, the spelling that picks it.
pub fn hidden_by_bundled(paths: &[PathBuf], name: &str) -> Vec<String> {
    let name = name.trim();
    if !crate::bundled().iter().any(|(n, _)| n.eq_ignore_ascii_case(name)) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for p in plugin_paths(paths) {
        let Ok(plugin) = Plugin::open(&p) else { continue };
        if let Some(v) = plugin.find(name) {
            out.push(format!("{}#{v}", plugin.path));
        }
    }
    out
}

/// A variant from a plugin path: `PATH` (its default variant, else its
/// first) or `PATH#NAME`.
pub fn load_path(path: &str) -> Result<(Plugin, JdipVariant), VariantError> {
    let (p, name) = match path.rsplit_once('#') {
        Some((p, n)) if is_plugin(Path::new(p)) => (p, Some(n)),
        _ => (path, None),
    };
    let plugin = Plugin::open(Path::new(p))?;
    let name = match name {
        Some(n) => n.to_string(),
        None => default_variant(&plugin),
    };
    let v = plugin.variant(&name)?;
    Ok((plugin, v))
}

fn default_variant(plugin: &Plugin) -> String {
    let Ok(doc) = xml(&plugin.variants_xml, "variants.xml") else {
        return plugin.variants.first().map(|v| v.0.clone()).unwrap_or_default();
    };
    doc.root_element()
        .children()
        .filter(|n| n.has_tag_name("VARIANT"))
        .find(|n| n.attribute("default") == Some("true"))
        .and_then(|n| n.attribute("name"))
        .map(str::to_string)
        .or_else(|| plugin.variants.first().map(|v| v.0.clone()))
        .unwrap_or_default()
}

/// The plugin variant a `--variant` value means: a plugin path
/// (`PLUGIN`, `PLUGIN#NAME`), or a name found under the search paths
/// `paths`; `None` for bundled names, other files and unknown names.
pub fn lookup_in(paths: &[PathBuf], spec: &str) -> Option<Result<(Plugin, JdipVariant), VariantError>> {
    if is_plugin_path(spec) {
        return Some(load_path(spec));
    }
    if crate::bundled()
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case(spec.trim()))
        || Path::new(spec).exists()
    {
        return None;
    }
    find_in(paths, spec)
}

/// Is `path` a jDip plugin path (`PLUGIN` or `PLUGIN#NAME`)?
pub fn is_plugin_path(path: &str) -> bool {
    let p = match path.rsplit_once('#') {
        Some((p, _)) if is_plugin(Path::new(p)) => p,
        _ => path,
    };
    let pp = Path::new(p);
    if pp.is_file() {
        let n = p.to_ascii_lowercase();
        return n.ends_with(".zip") || n.ends_with(".jar");
    }
    is_plugin(pp)
}

// ---------------------------------------------------------------------------
// Writing.

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn jdip_loc(region: &str) -> String {
    region.replace('/', "-")
}

/// A plugin from a model: `variants.xml`, `NAME_adjacency.xml` and
/// `NAME.svg` (a plain map with jDip's layers and unit points). Borders
/// with flags (`mx`, `hx`, canal) and unit types other than army, fleet
/// and wing have no jDip form and are left out (see [`crate::formats::lost_in`]).
pub fn write(m: &Model) -> Vec<(String, String)> {
    let base = plugin_base(m);
    let adj_name = format!("{base}_adjacency.xml");
    let svg_name = format!("{base}.svg");
    let v = variants_xml(m, &base, &adj_name, &svg_name);
    let a = adjacency_xml(m);
    let svg = write_svg(m);
    vec![("variants.xml".into(), v), (adj_name, a), (svg_name, svg)]
}

/// The plugin's file names' stem: the variant's name in lower case, other
/// than letters and digits as `_`.
fn plugin_base(m: &Model) -> String {
    let base: String = m
        .name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if base.is_empty() {
        "variant".to_string()
    } else {
        base
    }
}

/// A power's full name from its abbreviation (the abbreviation when none matches).
fn power_name(m: &Model, abbr: &str) -> String {
    m.powers
        .iter()
        .find(|p| p.abbr.eq_ignore_ascii_case(abbr))
        .map(|p| p.name.clone())
        .unwrap_or_else(|| abbr.to_string())
}

/// `variants.xml`: the map, rules, powers, start, victory, centres and units.
fn variants_xml(m: &Model, base: &str, adj_name: &str, svg_name: &str) -> String {
    let mut v = String::new();
    v.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    v.push_str("<!-- written by dip: dip variant convert, format jdip -->\n<VARIANTS>\n");
    v.push_str(&format!("\t<DESCRIPTION>{}</DESCRIPTION>\n", esc(&m.title)));
    v.push_str(&format!(
        "\t<MAP_DEFINITION id=\"{base}\" title=\"{}\" URI=\"{svg_name}\" thumbURI=\"{svg_name}\"/>\n",
        esc(if m.title.is_empty() { &m.name } else { &m.title })
    ));
    v.push_str(&format!(
        "\t<VARIANT name=\"{}\" version=\"1.0\" default=\"true\">\n",
        esc(&variant_name(m))
    ));
    v.push_str(&format!(
        "\t\t<DESCRIPTION>{}</DESCRIPTION>\n",
        esc(&m.description.join("\n"))
    ));
    v.push_str(&format!(
        "\t\t<MAP adjacencyURI=\"{adj_name}\">\n\t\t\t<MAP_GRAPHIC ref=\"{base}\" default=\"true\"/>\n\t\t</MAP>\n"
    ));
    write_rule_options(m, &mut v);
    write_powers(m, &mut v);
    write_starting_time(m, &mut v);
    write_victory(m, &mut v);
    write_supply_centers(m, &mut v);
    write_initial_state(m, &mut v);
    v.push_str("\t</VARIANT>\n</VARIANTS>\n");
    v
}

/// `<RULEOPTIONS>`: where builds may be made, and wings.
fn write_rule_options(m: &Model, v: &mut String) {
    let wings = m.unit_types.iter().any(|u| u.letter.eq_ignore_ascii_case(&'W'));
    let builds = match m.build_rule {
        BuildRule::Standard => "VALUE_BUILDS_HOME_ONLY",
        BuildRule::Chaos => "VALUE_BUILDS_ANY_OWNED",
        BuildRule::Aberration => "VALUE_BUILDS_ANY_IF_HOME_OWNED",
    };
    v.push_str(&format!(
        "\t\t<RULEOPTIONS>\n\t\t\t<RULEOPTION name=\"OPTION_BUILDS\" value=\"{builds}\"/>\n"
    ));
    if wings {
        v.push_str("\t\t\t<RULEOPTION name=\"OPTION_WINGS\" value=\"VALUE_WINGS_ENABLED\"/>\n");
    }
    v.push_str("\t\t</RULEOPTIONS>\n");
}

/// One `<POWER>` per power, its abbreviation and aliases as `altnames`.
fn write_powers(m: &Model, v: &mut String) {
    for p in &m.powers {
        let mut alt = vec![p.abbr.clone()];
        alt.extend(p.aliases.iter().cloned());
        alt.retain(|a| !a.eq_ignore_ascii_case(&p.name) && !a.contains(|c: char| c.is_whitespace() || c == ','));
        v.push_str(&format!(
            "\t\t<POWER name=\"{}\" active=\"true\" adjective=\"{}\"{}/>\n",
            esc(&p.name),
            esc(&p.adjective),
            if alt.is_empty() {
                String::new()
            } else {
                format!(" altnames=\"{}\"", esc(&alt.join(",")))
            }
        ));
    }
}

/// `<STARTINGTIME>`: the first phase.
fn write_starting_time(m: &Model, v: &mut String) {
    let (season, phase) = match (m.season, m.kind) {
        (_, PhaseKind::Adjustment) => ("Winter", "Adjustment"),
        (Season::Spring, k) => ("Spring", if k == PhaseKind::Retreat { "Retreat" } else { "Movement" }),
        (Season::Fall, k) => ("Fall", if k == PhaseKind::Retreat { "Retreat" } else { "Movement" }),
    };
    v.push_str(&format!(
        "\t\t<STARTINGTIME turn=\"{season}, {}, {phase}\"{}/>\n",
        m.year,
        if m.year <= 0 { " allowBCYears=\"true\"" } else { "" }
    ));
}

/// `<VICTORYCONDITIONS>`: jDip needs a victory condition: dip's 0 (more
/// than half the centres) is written as that number.
fn write_victory(m: &Model, v: &mut String) {
    let centres = m.provinces.iter().filter(|p| p.center).count();
    let victory = if m.victory > 0 {
        m.victory as usize
    } else {
        centres / 2 + 1
    };
    v.push_str("\t\t<VICTORYCONDITIONS>\n");
    v.push_str(&format!("\t\t\t<WINNING_SUPPLY_CENTERS value=\"{victory}\"/>\n"));
    v.push_str("\t\t</VICTORYCONDITIONS>\n");
}

/// One `<SUPPLYCENTER>` per centre: its home power and its owner at the start.
fn write_supply_centers(m: &Model, v: &mut String) {
    for p in m.provinces.iter().filter(|p| p.center) {
        let owner = match &m.owners {
            Some(o) => o
                .iter()
                .find(|(_, pr)| pr.eq_ignore_ascii_case(&p.abbr))
                .map(|(pw, _)| power_name(m, pw)),
            None => p.homes.first().map(|h| power_name(m, h)),
        };
        v.push_str(&format!(
            "\t\t<SUPPLYCENTER province=\"{}\" homepower=\"{}\" owner=\"{}\"/>\n",
            esc(&p.abbr),
            esc(&p
                .homes
                .first()
                .map(|h| power_name(m, h))
                .unwrap_or_else(|| "none".into())),
            esc(&owner.unwrap_or_else(|| "none".into()))
        ));
    }
}

/// One `<INITIALSTATE>` per starting army, fleet or wing.
fn write_initial_state(m: &Model, v: &mut String) {
    for u in &m.units {
        let word = match u.letter.to_ascii_uppercase() {
            'A' => "army",
            'F' => "fleet",
            'W' => "wing",
            _ => continue,
        };
        let (prov, coast) = match u.region.split_once('/') {
            Some((p, c)) => (p.to_string(), format!(" unitcoast=\"{}\"", esc(c))),
            None => (u.region.clone(), String::new()),
        };
        v.push_str(&format!(
            "\t\t<INITIALSTATE province=\"{}\" power=\"{}\" unit=\"{word}\"{coast}/>\n",
            esc(&prov),
            esc(&power_name(m, &u.power))
        ));
    }
}

/// The adjacency file: the border definitions, then one `<PROVINCE>` each.
fn adjacency_xml(m: &Model) -> String {
    let mut a = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- written by dip -->\n<PROVINCES>\n");
    let borders: Vec<(String, String)> = m
        .border_rules
        .iter()
        .enumerate()
        .filter_map(|(i, r)| jdip_border(r, &format!("rule{}", i + 1)).map(|b| (r.province.to_ascii_lowercase(), b)))
        .collect();
    if !borders.is_empty() {
        a.push_str("\t<BORDER_DEFINITIONS>\n");
        for (_, b) in &borders {
            a.push_str(&format!("\t\t{b}\n"));
        }
        a.push_str("\t</BORDER_DEFINITIONS>\n");
    }
    for p in &m.provinces {
        write_province(m, p, &borders, &mut a);
    }
    a.push_str("</PROVINCES>\n");
    a
}

/// One `<PROVINCE>`: its names, borders and adjacencies (army, fleet, each coast).
fn write_province(m: &Model, p: &MProvince, borders: &[(String, String)], a: &mut String) {
    let letter_of = |ut: usize| m.unit_types.get(ut).map(|u| u.letter.to_ascii_uppercase());
    let convoyable = if m.convoy_coasts.iter().any(|c| c.eq_ignore_ascii_case(&p.abbr)) {
        " isConvoyableCoast=\"true\""
    } else {
        ""
    };
    let ids: Vec<&str> = borders
        .iter()
        .filter(|(prov, _)| prov.eq_ignore_ascii_case(&p.abbr))
        .filter_map(|(_, b)| b.split('"').nth(1))
        .collect();
    let border_attr = if ids.is_empty() {
        String::new()
    } else {
        format!(" borders=\"{}\"", ids.join(" "))
    };
    a.push_str(&format!(
        "\t<PROVINCE shortname=\"{}\" fullname=\"{}\"{convoyable}{border_attr}>\n",
        esc(&p.abbr),
        esc(&p.name)
    ));
    for al in &p.aliases {
        a.push_str(&format!("\t\t<UNIQUENAME name=\"{}\"/>\n", esc(al)));
    }
    let refs = |from: &str, letter: char| -> Vec<String> {
        let mut r: Vec<String> = m
            .edges
            .iter()
            .filter(|e| {
                e.flags == EdgeFlags::default() && letter_of(e.ut) == Some(letter) && e.from.eq_ignore_ascii_case(from)
            })
            .map(|e| jdip_loc(&e.to))
            .collect();
        r.dedup();
        r
    };
    let mv = refs(&p.abbr, 'A');
    if !mv.is_empty() {
        a.push_str(&format!(
            "\t\t<ADJACENCY type=\"mv\" refs=\"{}\"/>\n",
            esc(&mv.join(" "))
        ));
    } else if matches!(p.terrain, Terrain::Land | Terrain::Coast) {
        // An island: jDip knows land only by an `mv` line (and refuses
        // a convoyable coast without one), so it names the province itself.
        a.push_str(&format!("\t\t<ADJACENCY type=\"mv\" refs=\"{}\"/>\n", esc(&p.abbr)));
    }
    let xc = refs(&p.abbr, 'F');
    if !xc.is_empty() || (p.coasts.is_empty() && matches!(p.terrain, Terrain::Coast | Terrain::Sea)) {
        a.push_str(&format!(
            "\t\t<ADJACENCY type=\"xc\" refs=\"{}\"/>\n",
            esc(&xc.join(" "))
        ));
    }
    for (c, _) in &p.coasts {
        if !matches!(c.as_str(), "nc" | "sc" | "ec" | "wc") {
            continue;
        }
        let r = refs(&format!("{}/{c}", p.abbr), 'F');
        a.push_str(&format!(
            "\t\t<ADJACENCY type=\"{c}\" refs=\"{}\"/>\n",
            esc(&r.join(" "))
        ));
    }
    if p.terrain == Terrain::Impassable && mv.is_empty() && xc.is_empty() && p.coasts.is_empty() {
        // jDip needs one adjacency line; an empty army line enters nowhere.
        a.push_str("\t\t<ADJACENCY type=\"mv\" refs=\"\"/>\n");
    }
    a.push_str("\t</PROVINCE>\n");
}

/// The name written for the variant: a plugin's own (`Modern (with
/// Wings)`, kept as the title) where dip's short name was made from it, so
/// that it reads back to the same short name; else the short name.
fn variant_name(m: &Model) -> String {
    if !m.title.trim().is_empty() && safe_name(&m.title) == m.name {
        m.title.trim().to_string()
    } else {
        m.name.clone()
    }
}

/// A border rule as jDip's `BORDER` element with this id (its first
/// attribute), or `None` when jDip cannot say it (unit types other than
/// army, fleet and wing; the adjustment phase).
fn jdip_border(r: &MBorderRule, id: &str) -> Option<String> {
    let mut units = Vec::new();
    for &c in &r.units {
        units.push(match c.to_ascii_uppercase() {
            'A' => "Army",
            'F' => "Fleet",
            'W' => "Wing",
            _ => return None,
        });
    }
    if r.phases.contains(&PhaseKind::Adjustment) {
        return None;
    }
    let mut t = format!("<BORDER id=\"{id}\" description=\"{}\"", esc(&r.to_line()));
    let mut attr = |k: &str, v: String| {
        if !v.is_empty() {
            t.push_str(&format!(" {k}=\"{}\"", esc(&v)));
        }
    };
    attr("from", r.from.join(" "));
    attr("unitTypes", units.join(", "));
    // jDip 1.6 names its order classes `dip.order.…`.
    let class = |o: &OrderClass| {
        let n = o.name();
        format!("dip.order.{}{}", n[..1].to_ascii_uppercase(), &n[1..])
    };
    attr("orderTypes", r.orders.iter().map(class).collect::<Vec<_>>().join(", "));
    let season = |s: &Season| if *s == Season::Spring { "Spring" } else { "Fall" };
    attr("season", r.seasons.iter().map(season).collect::<Vec<_>>().join(", "));
    let phase = |k: &PhaseKind| {
        if *k == PhaseKind::Retreat {
            "Retreat"
        } else {
            "Movement"
        }
    };
    attr("phase", r.phases.iter().map(phase).collect::<Vec<_>>().join(", "));
    attr(
        "year",
        match r.years {
            Years::Any => String::new(),
            Years::Between(a, b) => format!("{a}, {b}"),
            Years::Odd => "odd".into(),
            Years::Even => "even".into(),
        },
    );
    if r.strength != 0 {
        attr("baseMoveModifier", r.strength.to_string());
    }
    t.push_str("/>");
    Some(t)
}

/// A plain map: a square per province around its point, jDip's layers,
/// and the unit points.
fn write_svg(m: &Model) -> String {
    let n = m.provinces.len().max(1);
    let cols = (n as f32).sqrt().ceil() as usize;
    let pos: Vec<(f32, f32)> = m
        .provinces
        .iter()
        .enumerate()
        .map(|(i, p)| {
            p.at.unwrap_or(((i % cols) as f32 * 60.0 + 40.0, (i / cols) as f32 * 60.0 + 40.0))
        })
        .collect();
    let w = pos.iter().map(|p| p.0).fold(0.0f32, f32::max) + 60.0;
    let h = pos.iter().map(|p| p.1).fold(0.0f32, f32::max) + 60.0;
    let mut s = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:jdipNS=\"svg.dtd\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\">\n",
        num(w), num(h), num(w), num(h)
    );
    s.push_str("\t<jdipNS:DISPLAY><jdipNS:ZOOM min=\"5\" max=\"2200\" factor=\"1.2\"/><jdipNS:LABELS brief=\"true\" full=\"true\"/></jdipNS:DISPLAY>\n");
    svg_power_colours(m, &mut s);
    svg_province_data(m, &pos, &mut s);
    svg_map_layer(m, &pos, (w, h), &mut s);
    svg_label_layers(m, &pos, &mut s);
    s.push_str("\t<g id=\"MouseLayer\" visibility=\"hidden\">\n");
    for (i, p) in m.provinces.iter().enumerate() {
        s.push_str(&format!(
            "\t\t<path id=\"{}\" d=\"{}\"/>\n",
            esc(&p.abbr),
            square(pos[i])
        ));
    }
    s.push_str("\t</g>\n</svg>\n");
    s
}

/// A coordinate as written: to a tenth.
fn num(v: f32) -> String {
    format!("{}", (v * 10.0).round() / 10.0)
}

/// A province's shape in the written map: a square around its position.
fn square((x, y): (f32, f32)) -> String {
    format!(
        "M{} {} L{} {} L{} {} L{} {} z",
        num(x - 25.0),
        num(y - 25.0),
        num(x + 25.0),
        num(y - 25.0),
        num(x + 25.0),
        num(y + 25.0),
        num(x - 25.0),
        num(y + 25.0)
    )
}

/// `<jdipNS:ORDERDRAWING>`: each power's colour.
fn svg_power_colours(m: &Model, s: &mut String) {
    s.push_str("\t<jdipNS:ORDERDRAWING><jdipNS:POWERCOLORS>\n");
    for p in &m.powers {
        s.push_str(&format!(
            "\t\t<jdipNS:POWERCOLOR power=\"{}\" color=\"{}\"/>\n",
            esc(&p.name.to_lowercase()),
            esc(p.colour.as_deref().unwrap_or("#888888"))
        ));
    }
    s.push_str("\t</jdipNS:POWERCOLORS></jdipNS:ORDERDRAWING>\n");
}

/// `<jdipNS:PROVINCE_DATA>`: where each province's and coast's unit,
/// dislodged unit and centre are drawn.
fn svg_province_data(m: &Model, pos: &[(f32, f32)], s: &mut String) {
    s.push_str("\t<jdipNS:PROVINCE_DATA>\n");
    for (i, p) in m.provinces.iter().enumerate() {
        let (x, y) = pos[i];
        s.push_str(&format!(
            "\t\t<jdipNS:PROVINCE name=\"{}\"><jdipNS:UNIT x=\"{}\" y=\"{}\"/><jdipNS:DISLODGED_UNIT x=\"{}\" y=\"{}\"/>{}</jdipNS:PROVINCE>\n",
            esc(&p.abbr),
            num(x),
            num(y),
            num(x + 10.0),
            num(y - 10.0),
            if p.center { format!("<jdipNS:SUPPLY_CENTER x=\"{}\" y=\"{}\"/>", num(x), num(y + 14.0)) } else { String::new() }
        ));
        for (c, at) in &p.coasts {
            let (cx, cy) = at.unwrap_or((x, y));
            s.push_str(&format!(
                "\t\t<jdipNS:PROVINCE name=\"{}-{}\"><jdipNS:UNIT x=\"{}\" y=\"{}\"/><jdipNS:DISLODGED_UNIT x=\"{}\" y=\"{}\"/></jdipNS:PROVINCE>\n",
                esc(&p.abbr),
                esc(c),
                num(cx),
                num(cy),
                num(cx + 10.0),
                num(cy - 10.0)
            ));
        }
    }
    s.push_str("\t</jdipNS:PROVINCE_DATA>\n");
}

/// The map layer: the sea, and each province's square.
fn svg_map_layer(m: &Model, pos: &[(f32, f32)], (w, h): (f32, f32), s: &mut String) {
    s.push_str("\t<g id=\"MapLayer\">\n");
    s.push_str(&format!(
        "\t\t<rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#c5dfea\"/>\n",
        num(w),
        num(h)
    ));
    for (i, p) in m.provinces.iter().enumerate() {
        let fill = if p.terrain == Terrain::Sea {
            "#c5dfea"
        } else {
            "#eedcb5"
        };
        s.push_str(&format!(
            "\t\t<path id=\"_{}\" d=\"{}\" fill=\"{fill}\" stroke=\"#444\"/>\n",
            esc(&p.abbr),
            square(pos[i])
        ));
    }
    s.push_str("\t</g>\n");
}

/// The empty layers jDip draws into, and the province labels.
fn svg_label_layers(m: &Model, pos: &[(f32, f32)], s: &mut String) {
    for l in [
        "SupplyCenterLayer",
        "OrderLayer",
        "UnitLayer",
        "DislodgedUnitLayer",
        "HighestOrderLayer",
    ] {
        s.push_str(&format!("\t<g id=\"{l}\"/>\n"));
    }
    s.push_str("\t<g id=\"BriefLabelLayer\" font-size=\"10\">\n");
    for (i, p) in m.provinces.iter().enumerate() {
        let (x, y) = p.label.unwrap_or((pos[i].0, pos[i].1 + 20.0));
        s.push_str(&format!(
            "\t\t<text x=\"{}\" y=\"{}\">{}</text>\n",
            num(x),
            num(y),
            esc(&p.abbr)
        ));
    }
    s.push_str("\t</g>\n\t<g id=\"FullLabelLayer\" visibility=\"hidden\"/>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns() {
        assert_eq!(
            parse_turn("Spring, 1914, Movement"),
            Some((1914, Season::Spring, PhaseKind::Movement))
        );
        assert_eq!(
            parse_turn("Fall, 1901, Retreat"),
            Some((1901, Season::Fall, PhaseKind::Retreat))
        );
        assert_eq!(
            parse_turn("Winter, 1901, Adjustment").map(|t| t.2),
            Some(PhaseKind::Adjustment)
        );
        assert_eq!(parse_turn("Spring, 500BC, Movement").map(|t| t.0), Some(-500));
        assert_eq!(parse_turn("Spring, Movement"), None);
    }

    #[test]
    fn locations() {
        assert_eq!(location("stp-nc"), ("stp".into(), Some("nc".into())));
        assert_eq!(location("STP/SC"), ("stp".into(), Some("sc".into())));
        assert_eq!(location("bul"), ("bul".into(), None));
        assert_eq!(location("mid-atlantic"), ("mid-atlantic".into(), None));
    }

    #[test]
    fn path_data() {
        let r = path_rings("M 10,10 l 10 0 v 10 H 10 z m 100 100 L 120 100 120 120 z");
        assert_eq!(r.len(), 2);
        assert_eq!(r[0], vec![(10.0, 10.0), (20.0, 10.0), (20.0, 20.0), (10.0, 20.0)]);
        assert_eq!(r[1][0], (110.0, 110.0));
        assert!(path_rings("M 1e400 0 L 1 1 L 2 2 z").is_empty());
        // A cubic curve is followed, not cut short: its middle point is on it.
        let r = path_rings("M 0 0 C 0 40 40 40 40 0 z");
        assert_eq!(r[0].len(), 9);
        assert_eq!(r[0][4], (20.0, 30.0));
        // S reflects the previous control point; relative curves too.
        let r = path_rings("M 0 0 c 0 40 40 40 40 0 s 40 -40 40 0 z");
        assert_eq!(r[0][12], (60.0, -30.0));
        let r = path_rings("M 0 0 Q 20 40 40 0 T 80 0 z");
        assert_eq!(r[0][4], (20.0, 20.0));
        assert_eq!(r[0][12], (60.0, -20.0));
    }

    #[test]
    fn abbreviations_stay_unique() {
        let a = power_abbrs(&["Austria".into(), "Austrasia".into(), "A-Ank".into(), "".into()]);
        assert_eq!(a, vec!["AUS", "AUS1", "AAN", "P"]);
    }
}
