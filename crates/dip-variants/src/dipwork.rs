//! DipWork's variant files (docs/dipwork-variant.md): VARIANT.TXT (keyword
//! parameters and lists), FIELDS.TXT (`#` fields, `-` borders, `=`
//! synonyms) and the starting position in GAME.TXT; read into a [`Model`]
//! and written from one.

use std::collections::HashMap;

use dip_core::map::{BuildRule, EdgeFlags, Terrain, TerrainSet, UnitType};
use dip_core::{PhaseKind, Season};

use crate::model::{MEdge, MPower, MProvince, MUnit, Model};
use crate::VariantError;

mod fields;

fn err(file: &str, line: usize, message: impl Into<String>) -> VariantError {
    VariantError {
        file: file.to_string(),
        line,
        message: message.into(),
    }
}

/// The lines of a list: (line number, text).
pub type ListLines = Vec<(usize, String)>;

/// VARIANT.TXT: parameters (keyword → (line, value)) and lists (keyword →
/// (line, lines)).
#[derive(Default, Debug)]
pub struct Params {
    pub values: Vec<(String, usize, String)>,
    pub lists: Vec<(String, usize, ListLines)>,
}

impl Params {
    pub fn get(&self, key: &str) -> Option<(usize, &str)> {
        self.values
            .iter()
            .find(|(k, _, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, l, v)| (*l, v.as_str()))
    }
    pub fn list(&self, key: &str) -> Option<&[(usize, String)]> {
        self.lists
            .iter()
            .find(|(k, _, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, _, v)| v.as_slice())
    }
}

/// Parameters whose value is `ja` or `nein`.
const BOOLEANS: &[&str] = &[
    "SELF_CUT_OK",
    "CONVOY_CUTS",
    "EXACT_MATCH",
    "NSU_CHECKING_OFF",
    "ERROR_NR_OUTPUT",
];
/// Parameters whose value is a number.
const NUMBERS: &[&str] = &[
    "IX_3_INTERPRETATION",
    "IX_7_INTERPRETATION",
    "X_INTERPRETATION",
    "PARTIAL_CUT_POSSIBLE",
    "CONVOY_RELEVANT_UNITNR",
    "SPELLCHECK",
    "SLOWMOTION",
    "PLAINOUTWIDTH",
    "TABCOLUMNWIDTH",
    "VICTORY",
];
/// Rule switches passed on to the ruleset.
const SWITCHES: &[&str] = &[
    "SELF_CUT_OK",
    "CONVOY_CUTS",
    "IX_3_INTERPRETATION",
    "IX_7_INTERPRETATION",
    "PARTIAL_CUT_POSSIBLE",
];

fn yes_no(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "ja" | "yes" | "j" | "y" | "1" | "on" | "true" => Some(true),
        "nein" | "no" | "n" | "0" | "off" | "false" => Some(false),
        _ => None,
    }
}

/// Reads VARIANT.TXT: `KEYWORD value` lines, and lists (a keyword alone on
/// its line, then its lines up to a blank line); `END` ends the file.
pub fn read_params(text: &str, file: &str) -> Result<Params, VariantError> {
    let mut p = Params::default();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line_no = i + 1;
        let line = lines[i].trim();
        i += 1;
        if line.is_empty() || line.starts_with(';') {
            continue;
        }
        let (key, value) = match line.split_once(char::is_whitespace) {
            Some((k, v)) => (k, v.trim()),
            None => (line, ""),
        };
        if key.eq_ignore_ascii_case("END") {
            break;
        }
        if !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(err(
                file,
                line_no,
                format!("expected a keyword (letters, digits, `_`), found `{key}`"),
            ));
        }
        let upper = key.to_ascii_uppercase();
        if value.is_empty() {
            // A list up to the next blank line.
            let mut items = Vec::new();
            while i < lines.len() && !lines[i].trim().is_empty() {
                if lines[i].trim().eq_ignore_ascii_case("END") {
                    break;
                }
                items.push((i + 1, lines[i].trim().to_string()));
                i += 1;
            }
            p.lists.push((upper, line_no, items));
            continue;
        }
        if BOOLEANS.contains(&upper.as_str()) && yes_no(value).is_none() {
            return Err(err(file, line_no, format!("`{key}` takes ja or nein, found `{value}`")));
        }
        if NUMBERS.contains(&upper.as_str()) && value.parse::<i64>().is_err() {
            return Err(err(file, line_no, format!("`{key}` takes a number, found `{value}`")));
        }
        p.values.push((upper, line_no, value.to_string()));
    }
    Ok(p)
}

/// A FIELDS.TXT field.
struct Field {
    name: String,
    x: f32,
    y: f32,
    coast_of: Option<String>,
    letters: String,
    points: u32,
    home: Option<String>,
    line: usize,
}

fn terrain_of(letters: &str) -> Terrain {
    if letters.contains('X') {
        Terrain::Impassable
    } else if letters.contains('C') {
        Terrain::Coast
    } else if letters.contains('O') {
        Terrain::Sea
    } else {
        Terrain::Land
    }
}

/// The coast name of a subfield: `Spa/nc` → `nc`; `SpN` → `nc`.
fn coast_name(field: &str) -> String {
    if let Some((_, c)) = field.split_once(['/', '(']) {
        return c.trim_end_matches(')').to_ascii_lowercase();
    }
    match field.chars().last().map(|c| c.to_ascii_lowercase()) {
        Some(c @ ('n' | 's' | 'e' | 'w')) => format!("{c}c"),
        // German: Ost (east).
        Some('o') => "ec".to_string(),
        _ => field
            .chars()
            .filter(|c| c.is_ascii_alphabetic())
            .take(3)
            .collect::<String>()
            .to_ascii_lowercase(),
    }
}

/// Reads a DipWork variant: the folder (or its VARIANT.TXT), with FIELDS.TXT
/// (or the file named by FNFIELDTEXT) and GAME.TXT when present.
pub fn read_dir(path: &str) -> Result<Model, VariantError> {
    let p = std::path::Path::new(path);
    let dir = if p.is_dir() {
        p.to_path_buf()
    } else {
        p.parent().map(|d| d.to_path_buf()).unwrap_or_default()
    };
    let find = |name: &str| -> Option<std::path::PathBuf> {
        let rd = std::fs::read_dir(&dir).ok()?;
        rd.flatten().map(|e| e.path()).find(|f| {
            f.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.eq_ignore_ascii_case(name))
        })
    };
    let vpath = if p.is_dir() {
        find("VARIANT.TXT")
    } else {
        Some(p.to_path_buf())
    };
    let vpath = vpath.ok_or_else(|| err(path, 0, "no VARIANT.TXT in this folder"))?;
    let vfile = vpath.to_string_lossy().to_string();
    let (vtext, encoding) =
        crate::formats::read_legacy_text_encoded(&vpath).map_err(|e| err(&vfile, 0, format!("cannot read ({e})")))?;
    let params = read_params(&vtext, &vfile)?;
    let fname = params
        .get("FNFIELDTEXT")
        .map(|(_, v)| v.to_string())
        .unwrap_or_else(|| "FIELDS.TXT".into());
    let fpath = find(&fname).ok_or_else(|| err(&vfile, 0, format!("no {fname} next to VARIANT.TXT")))?;
    let ffile = fpath.to_string_lossy().to_string();
    let (ftext, fenc) =
        crate::formats::read_legacy_text_encoded(&fpath).map_err(|e| err(&ffile, 0, format!("cannot read ({e})")))?;
    // The umlauts are usually in the fields' names.
    let encoding = if fenc == crate::files::Encoding::Utf8 {
        encoding
    } else {
        fenc
    };
    let game = match find("GAME.TXT") {
        Some(g) => {
            let gf = g.to_string_lossy().to_string();
            let t = crate::formats::read_legacy_text(&g).map_err(|e| err(&gf, 0, format!("cannot read ({e})")))?;
            Some((t, gf))
        }
        None => None,
    };
    let name = dir
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("variant")
        .to_ascii_lowercase();
    let mut m = read(
        &params,
        &vfile,
        &ftext,
        &ffile,
        game.as_ref().map(|(t, f)| (t.as_str(), f.as_str())),
        &name,
    )?;
    m.encoding = encoding;
    let piclist = params.get("FNPICLIST").or_else(|| params.get("PICLIST"));
    // A picture list that is not there only costs the mapper its
    // pictures (the manual's default name, `piclst64.txt`, is often named
    // and not shipped): the units are drawn as dip's icons, said so.
    if let Some((l, name)) = piclist {
        match find(name.trim()) {
            Some(path) => read_piclist(&mut m, &path, &dir)?,
            None => m.notes.push(format!(
                "{vfile}:{l}: FNPICLIST {}: no such picture list next to VARIANT.TXT; units are drawn as dip's icons",
                name.trim()
            )),
        }
    }
    Ok(m)
}

/// A file named with DipWork's `\` separators, relative to `base` (any case).
fn find_relative(base: &std::path::Path, name: &str) -> Option<std::path::PathBuf> {
    crate::files::find_dos_path(base, name).filter(|p| p.is_file())
}

/// DipWork's picture list (FNPICLIST, e.g. `PICLST64.TXT`): `TYPE NATION
/// FILE` a line, e.g. `A Fr VARIANTS\UNITPICS\fr_a_64.tif`, FILE relative to
/// DipWork's folder (tried from the variant's folder and each folder above
/// it). Pictures that are not there are left out (their units get the
/// generated icons); an unknown nation or unit type is an error.
fn read_piclist(m: &mut Model, path: &std::path::Path, dir: &std::path::Path) -> Result<(), VariantError> {
    let file = path.to_string_lossy().to_string();
    let text = crate::formats::read_legacy_text(path).map_err(|e| err(&file, 0, format!("cannot read ({e})")))?;
    for (i, line) in text.lines().enumerate() {
        let l = i + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with(';') || line.starts_with('#') {
            continue;
        }
        let mut ws = line.splitn(3, char::is_whitespace);
        let (Some(ut), Some(nation), Some(pic)) = (ws.next(), ws.next(), ws.next().map(str::trim)) else {
            return Err(err(&file, l, format!("expected `TYPE NATION FILE`, found `{line}`")));
        };
        let letter = m
            .unit_types
            .iter()
            .find(|u| {
                u.name.eq_ignore_ascii_case(ut)
                    || (ut.chars().count() == 1 && ut.chars().all(|c| c.eq_ignore_ascii_case(&u.letter)))
            })
            .map(|u| u.letter)
            .ok_or_else(|| err(&file, l, format!("unknown unit type `{ut}` (not in UNITLIST)")))?;
        let power = m
            .powers
            .iter()
            .find(|p| {
                p.abbr.eq_ignore_ascii_case(nation)
                    || p.name.eq_ignore_ascii_case(nation)
                    || p.aliases.iter().any(|a| a.eq_ignore_ascii_case(nation))
            })
            .map(|p| p.abbr.clone())
            .ok_or_else(|| err(&file, l, format!("unknown nation `{nation}` (not in NATIONLIST)")))?;
        // Every folder above the variant's, also of a relative path.
        let abs = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        let found = abs.ancestors().find_map(|base| find_relative(base, pic));
        let Some(found) = found else { continue };
        if m.unit_pictures.iter().any(|(p, u, _)| *p == power && *u == letter) {
            continue;
        }
        // Found from the absolute folder: kept absolute, so that it is
        // found again whatever folder the program runs in.
        m.unit_pictures
            .push((power, letter, found.to_string_lossy().replace('\\', "/")));
    }
    Ok(())
}

/// Builds the model from VARIANT.TXT parameters, FIELDS.TXT text and
/// optionally GAME.TXT text.
pub fn read(
    params: &Params,
    vfile: &str,
    fields_text: &str,
    ffile: &str,
    game: Option<(&str, &str)>,
    default_name: &str,
) -> Result<Model, VariantError> {
    let mut m = Model {
        files: vec![vfile.to_string(), ffile.to_string()],
        ..Model::default()
    };
    if let Some(g) = game {
        m.files.push(g.1.to_string());
    }
    read_header(&mut m, params, vfile, default_name)?;
    read_nations(&mut m, params, vfile)?;
    let allowed_in = read_unit_list(&mut m, params, vfile)?;
    read_order_list(&mut m, params, vfile)?;
    let n_types = m.unit_types.len();
    let convoy_nr = convoy_column(params, n_types, vfile)?;
    let fields = fields::Fields::read(fields_text, ffile, n_types)?;
    let region_of = fields.add_provinces(&mut m, ffile)?;
    fields.set_unit_terrains(&mut m, &allowed_in, convoy_nr, ffile)?;
    fields.add_borders(&mut m, &region_of, n_types, ffile)?;
    if let Some((text, gfile)) = game {
        read_game(&mut m, text, gfile, &region_of)?;
    }
    Ok(m)
}

/// Names, victory, build rule, start phase and rule switches.
fn read_header(m: &mut Model, params: &Params, vfile: &str, default_name: &str) -> Result<(), VariantError> {
    m.name = params
        .get("DIPNAME")
        .map(|(_, v)| v.to_string())
        .unwrap_or_else(|| default_name.to_string());
    m.title = params
        .get("VARNAME")
        .map(|(_, v)| v.to_string())
        .unwrap_or_else(|| m.name.clone());
    if let Some((_, v)) = params.get("VICTORY") {
        m.victory = v.parse().unwrap_or(0);
    }
    if let Some((l, v)) = params.get("BUILDRULE") {
        m.build_rule = match v.to_ascii_lowercase().as_str() {
            "standard" => BuildRule::Standard,
            "aberration" => BuildRule::Aberration,
            "chaos" => BuildRule::Chaos,
            _ => {
                return Err(err(
                    vfile,
                    l,
                    format!("BUILDRULE takes Standard, Aberration or Chaos, found `{v}`"),
                ))
            }
        };
    }
    if let Some((l, v)) = params.get("STARTPHASE") {
        start_phase(m, v).map_err(|e| err(vfile, l, e))?;
    }
    let mut rules = params
        .get("RULES")
        .map(|(_, v)| v.to_string())
        .unwrap_or_else(|| "dipwork".into());
    for s in SWITCHES {
        if let Some((l, v)) = params.get(s) {
            let mut probe = dip_core::Ruleset::DATC;
            probe.set(s, v).map_err(|e| err(vfile, l, e.to_string()))?;
            rules.push_str(&format!(
                " {}={}",
                s.to_ascii_lowercase().replace('_', "-"),
                v.to_ascii_lowercase()
            ));
        }
    }
    m.rules = rules;
    Ok(())
}

/// `STARTPHASE YEAR spring|fall|winter [movement|retreat]`: a phase name
/// as [`dip_core::Phase`]'s one reader reads it.
fn start_phase(m: &mut Model, v: &str) -> Result<(), String> {
    let p: dip_core::Phase = v
        .parse()
        .map_err(|e| format!("STARTPHASE takes `YEAR spring|fall|winter [movement|retreat]`, found `{v}`: {e}"))?;
    (m.year, m.season, m.kind) = (p.year, p.season, p.kind);
    Ok(())
}

/// NATIONLIST: `ABBR NAME [SPELLING...] [adj=ADJECTIVE]` per nation.
fn read_nations(m: &mut Model, params: &Params, vfile: &str) -> Result<(), VariantError> {
    let nations = params
        .list("NATIONLIST")
        .ok_or_else(|| err(vfile, 0, "no NATIONLIST"))?;
    for (l, line) in nations {
        let ws: Vec<&str> = line.split_whitespace().collect();
        let [abbr, name, rest @ ..] = ws.as_slice() else {
            return Err(err(vfile, *l, "expected `ABBR NAME [SPELLING...]` in NATIONLIST"));
        };
        let mut aliases: Vec<String> = Vec::new();
        let mut adjective = name.to_string();
        for w in rest {
            if let Some(a) = w.strip_prefix("adj=") {
                adjective = a.replace('_', " ");
            } else if !w.eq_ignore_ascii_case(name) && !w.eq_ignore_ascii_case(abbr) {
                aliases.push(w.replace('_', " "));
            }
        }
        aliases.retain(|a| !a.eq_ignore_ascii_case(&adjective));
        m.powers.push(MPower {
            abbr: abbr.to_string(),
            name: name.replace('_', " "),
            adjective,
            aliases,
            src: (0, *l),
            ..MPower::default()
        });
    }
    Ok(())
}

/// UNITLIST: the unit types (their terrains come from the fields later);
/// returns each type's `AllowedIn=` letters.
fn read_unit_list(m: &mut Model, params: &Params, vfile: &str) -> Result<Vec<String>, VariantError> {
    let units = params.list("UNITLIST").ok_or_else(|| err(vfile, 0, "no UNITLIST"))?;
    let mut allowed_in: Vec<String> = Vec::new();
    for (l, line) in units {
        let (ut, aliases, allowed) = unit_line(line).map_err(|e| err(vfile, *l, e))?;
        allowed_in.push(allowed);
        m.unit_types.push(ut);
        m.unit_aliases.push(aliases);
    }
    Ok(allowed_in)
}

/// `LETTER [SPELLING...] NAME # Costs=N St=N [convoyable] [canConvoy]
/// AllowedIn=LETTERS`: the type, its spellings and its AllowedIn letters.
fn unit_line(line: &str) -> Result<(UnitType, Vec<String>, String), String> {
    let (names, opts) = line
        .split_once('#')
        .ok_or("expected `LETTER [SPELLING...] NAME # Costs=N St=N [convoyable] [canConvoy] AllowedIn=LETTERS`")?;
    let ws: Vec<&str> = names.split_whitespace().collect();
    let letter = ws
        .first()
        .and_then(|w| w.chars().next())
        .filter(|c| c.is_ascii_alphabetic())
        .ok_or("expected a unit letter first")?
        .to_ascii_uppercase();
    let uname = ws.last().copied().unwrap_or("Unit").to_string();
    let aliases: Vec<String> = ws
        .iter()
        .skip(1)
        .take(ws.len().saturating_sub(2))
        .map(|w| w.to_string())
        .collect();
    let mut ut = UnitType::named(letter, &uname);
    let mut allowed = String::new();
    for o in opts.split_whitespace() {
        let lower = o.to_ascii_lowercase();
        if let Some(v) = lower.strip_prefix("costs=") {
            ut.cost = v.parse().map_err(|_| format!("Costs= takes a number, found `{v}`"))?;
        } else if let Some(v) = lower.strip_prefix("st=") {
            ut.strength = v.parse().map_err(|_| format!("St= takes a number, found `{v}`"))?;
        } else if o.len() > 10 && lower.starts_with("allowedin=") {
            allowed = o[10..].to_string();
        } else if lower == "allowedin=" {
        } else if lower == "convoyable" {
            ut.convoyable = true;
        } else if lower == "canconvoy" {
            ut.can_convoy = true;
        } else {
            return Err(format!(
                "unknown unit option `{o}` (expected Costs=, St=, AllowedIn=, convoyable or canConvoy)"
            ));
        }
    }
    Ok((ut, aliases, allowed))
}

/// ORDERLIST: the words of each order kind, one line per kind in order.
fn read_order_list(m: &mut Model, params: &Params, vfile: &str) -> Result<(), VariantError> {
    let Some(lines) = params.list("ORDERLIST") else {
        return Ok(());
    };
    for (i, (l, line)) in lines.iter().enumerate() {
        let Some(kind) = crate::ORDER_KINDS.get(i) else {
            return Err(err(
                vfile,
                *l,
                format!(
                    "ORDERLIST has at most {} lines (hold, move, support, convoy, retreat, disband, build, waive, via)",
                    crate::ORDER_KINDS.len()
                ),
            ));
        };
        m.order_words
            .push((kind.to_string(), line.split_whitespace().map(str::to_string).collect()));
    }
    Ok(())
}

/// CONVOY_RELEVANT_UNITNR: one past the unit types at most (a larger
/// number would make a border table that wide: 4294967295 columns).
fn convoy_column(params: &Params, n_types: usize, vfile: &str) -> Result<usize, VariantError> {
    match params.get("CONVOY_RELEVANT_UNITNR") {
        None => Ok(n_types + 1),
        Some((l, v)) => match v.trim().parse::<usize>() {
            Ok(n) if (1..=n_types + 1).contains(&n) => Ok(n),
            _ => Err(err(
                vfile,
                l,
                format!(
                    "CONVOY_RELEVANT_UNITNR takes a unit number from 1 to {} (the unit types, or one more for the convoy column), not `{}`",
                    n_types + 1,
                    v.trim()
                ),
            )),
        },
    }
}

/// GAME.TXT: `NATION X`, then `UNITS` and `CENTERS` lists.
fn read_game(m: &mut Model, text: &str, file: &str, region_of: &HashMap<String, String>) -> Result<(), VariantError> {
    let fi = m.files.len() - 1;
    let mut nation: Option<String> = None;
    let mut section = "";
    let mut owners = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let l = i + 1;
        let ws: Vec<&str> = raw.split_whitespace().collect();
        let Some(&kw) = ws.first() else { continue };
        match kw.to_ascii_uppercase().as_str() {
            "END" => break,
            "NATION" => {
                let n = ws.get(1).ok_or_else(|| err(file, l, "expected `NATION ABBR`"))?;
                let p = m
                    .powers
                    .iter()
                    .find(|p| p.abbr.eq_ignore_ascii_case(n) || p.name.eq_ignore_ascii_case(n))
                    .ok_or_else(|| err(file, l, format!("unknown nation `{n}`")))?;
                nation = Some(p.abbr.clone());
                section = "";
            }
            "UNITS" => section = "units",
            "CENTERS" | "CENTRES" => section = "centers",
            _ if ws.len() == 1 && section == "centers" => {
                let pw = nation
                    .clone()
                    .ok_or_else(|| err(file, l, "a centre before any NATION line"))?;
                let r = region_of
                    .get(&kw.to_lowercase())
                    .ok_or_else(|| err(file, l, format!("unknown field `{kw}`")))?;
                owners.push((pw, r.split('/').next().unwrap_or(r).to_string()));
            }
            _ if ws.len() == 2 && section == "units" => {
                let pw = nation
                    .clone()
                    .ok_or_else(|| err(file, l, "a unit before any NATION line"))?;
                let letter = kw.chars().next().unwrap_or('A').to_ascii_uppercase();
                let r = region_of
                    .get(&ws[1].to_lowercase())
                    .ok_or_else(|| err(file, l, format!("unknown field `{}`", ws[1])))?;
                m.units.push(MUnit {
                    power: pw,
                    letter,
                    region: r.clone(),
                    src: (fi, l),
                });
            }
            _ => {
                if section.is_empty() {
                    continue; // other game parameters
                }
                return Err(err(
                    file,
                    l,
                    format!(
                        "cannot read `{}` (expected a unit `A Vie` or a centre `Vie`)",
                        raw.trim()
                    ),
                ));
            }
        }
    }
    m.owners = Some(owners);
    Ok(())
}

/// The three files of a DipWork variant: (VARIANT.TXT, FIELDS.TXT, GAME.TXT).
pub fn write(m: &Model) -> (String, String, String) {
    (variant_txt(m), fields_txt(m), game_txt(m))
}

/// The unit types written as DipWork's units: all but a pseudo-unit
/// that only marks convoys.
fn real_unit_types(m: &Model) -> usize {
    m.unit_types.len() - usize::from(m.convoy_unit.is_some_and(|c| is_pseudo(m, c)))
}

/// The letter of unit type `i` in the terrain columns: its own letter,
/// or its number where its letter is a terrain's (L, C, O, X).
fn build_letter(m: &Model, i: usize) -> char {
    let c = m.unit_types[i].letter;
    if "LCOX".contains(c) {
        char::from_digit(i as u32 % 10, 10).unwrap_or('9')
    } else {
        c
    }
}

/// The field a region is written as: a coast is the subfield of its own
/// name where it has one (`PeS`), else `stp/sc`; everywhere a field is
/// named.
fn field(m: &Model, region: &str) -> String {
    let Some((p, c)) = region.split_once('/') else {
        return region.to_string();
    };
    m.provinces
        .iter()
        .find(|q| q.abbr == p)
        .and_then(|q| q.coast_names.iter().find(|(x, _)| x == c))
        .map(|(_, n)| n.clone())
        .unwrap_or_else(|| region.to_string())
}

/// VARIANT.TXT: the names, start, victory and rules, then the nations,
/// unit types and order words.
fn variant_txt(m: &Model) -> String {
    let mut v = String::new();
    v.push_str(&format!("VARNAME {}\n", m.title));
    v.push_str(&format!("DIPNAME {}\n", m.name));
    let (season, kind) = match (m.season, m.kind) {
        (_, PhaseKind::Adjustment) => ("winter", ""),
        (Season::Spring, PhaseKind::Retreat) => ("spring", " retreat"),
        (Season::Spring, _) => ("spring", ""),
        (Season::Fall, PhaseKind::Retreat) => ("fall", " retreat"),
        (Season::Fall, _) => ("fall", ""),
    };
    v.push_str(&format!("STARTPHASE {} {season}{kind}\n", m.year));
    v.push_str(&format!("VICTORY {}\n", m.victory));
    let br = match m.build_rule {
        BuildRule::Standard => "Standard",
        BuildRule::Aberration => "Aberration",
        BuildRule::Chaos => "Chaos",
    };
    v.push_str(&format!("BUILDRULE {br}\n"));
    v.push_str(&format!("RULES {}\n", m.rules));
    let convoy_col = match m.convoy_unit {
        Some(c) => c + 1,
        None => m
            .unit_types
            .iter()
            .position(|u| u.can_convoy)
            .map(|c| c + 1)
            .unwrap_or(real_unit_types(m) + 1),
    };
    v.push_str(&format!("CONVOY_RELEVANT_UNITNR {convoy_col}\n"));
    v.push_str("FNFIELDTEXT FIELDS.TXT\n\nNATIONLIST\n");
    nation_list(m, &mut v);
    v.push_str("\nUNITLIST\n");
    unit_list(m, &mut v);
    if !m.order_words.is_empty() {
        v.push_str("\nORDERLIST\n");
        order_list(m, &mut v);
    }
    v.push_str("\nEND\n");
    v
}

/// NATIONLIST's lines: abbreviation, name, adjective and aliases.
fn nation_list(m: &Model, v: &mut String) {
    for p in &m.powers {
        let mut line = format!("{} {}", p.abbr, p.name.replace(' ', "_"));
        if p.adjective != p.name {
            line.push_str(&format!(" adj={}", p.adjective.replace(' ', "_")));
        }
        for a in &p.aliases {
            line.push_str(&format!(" {}", a.replace(' ', "_")));
        }
        v.push_str(&line);
        v.push('\n');
    }
}

/// UNITLIST's lines: letter, aliases, name, cost, strength, convoying and
/// the terrain letter it is built on.
fn unit_list(m: &Model, v: &mut String) {
    for (i, u) in m.unit_types.iter().enumerate().take(real_unit_types(m)) {
        let al: String = m
            .unit_aliases
            .get(i)
            .map(|a| a.iter().map(|w| format!(" {w}")).collect())
            .unwrap_or_default();
        let mut line = format!("{}{al} {} # Costs={} St={}", u.letter, u.name, u.cost, u.strength);
        if u.convoyable {
            line.push_str(" convoyable");
        }
        if u.can_convoy {
            line.push_str(" canConvoy");
        }
        line.push_str(&format!(" AllowedIn={}", build_letter(m, i)));
        v.push_str(&line);
        v.push('\n');
    }
}

/// ORDERLIST's lines: each order kind's words (its own name where it has
/// none), up to the last kind with words.
fn order_list(m: &Model, v: &mut String) {
    let last = crate::ORDER_KINDS
        .iter()
        .rposition(|k| m.order_words.iter().any(|(x, _)| x == k))
        .unwrap_or(0);
    for k in &crate::ORDER_KINDS[..=last] {
        let words: Vec<String> = m
            .order_words
            .iter()
            .filter(|(x, _)| x == k)
            .flat_map(|(_, w)| w.iter().cloned())
            .collect();
        v.push_str(&if words.is_empty() {
            k.to_string()
        } else {
            words.join(" ")
        });
        v.push('\n');
    }
}

/// FIELDS.TXT: the fields, the borders, the provinces' synonyms.
fn fields_txt(m: &Model) -> String {
    let mut f = String::new();
    field_lines(m, &mut f);
    f.push('\n');
    border_lines(m, &mut f);
    f.push('\n');
    for p in &m.provinces {
        let mut syns: Vec<String> = Vec::new();
        if p.name != p.abbr {
            syns.push(p.name.replace(' ', "_"));
        }
        syns.extend(p.aliases.iter().map(|a| a.replace(' ', "_")));
        if !syns.is_empty() {
            f.push_str(&format!("= {} {}\n", p.abbr, syns.join(" ")));
        }
    }
    f.push_str("END\n");
    f
}

/// A field's terrain letter followed by the letters of the unit types
/// built on that terrain.
fn terrain_letters(m: &Model, t: Terrain) -> String {
    let mut s = match t {
        Terrain::Land => 'L',
        Terrain::Coast => 'C',
        Terrain::Sea => 'O',
        Terrain::Impassable => 'X',
    }
    .to_string();
    for (i, u) in m.unit_types.iter().enumerate().take(real_unit_types(m)) {
        if u.builds_on.contains(t) {
            s.push(build_letter(m, i));
        }
    }
    s
}

/// A field line for each province (position, terrain, centre, home) and
/// each of its coasts.
fn field_lines(m: &Model, f: &mut String) {
    let pos = |p: Option<(f32, f32)>| p.map(|(x, y)| format!("{x} {y}")).unwrap_or_else(|| "0 0".into());
    for p in &m.provinces {
        let home = if p.home_of_all {
            "All".to_string()
        } else {
            p.homes.first().cloned().unwrap_or_else(|| "-".into())
        };
        f.push_str(&format!(
            "# {} {} - {} {} {home}\n",
            p.abbr,
            pos(p.at),
            terrain_letters(m, p.terrain),
            u32::from(p.center)
        ));
        for (c, at) in &p.coasts {
            f.push_str(&format!(
                "# {} {} {} {} 0 -\n",
                field(m, &format!("{}/{c}", p.abbr)),
                pos(at.or(p.at)),
                p.abbr,
                terrain_letters(m, p.terrain)
            ));
        }
    }
}

/// The (from, to) region pairs with a border: by field, then clockwise
/// (DipWork takes the clockwise order from the order of the border lines).
fn border_pairs(m: &Model) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = Vec::new();
    let rank = |from: &str, to: &str| -> usize {
        let fp = from.split('/').next().unwrap_or(from);
        let tp = to.split('/').next().unwrap_or(to);
        m.clockwise
            .iter()
            .find(|(p, _)| p == fp)
            .and_then(|(_, ns)| ns.iter().position(|n| n == tp))
            .unwrap_or(usize::MAX)
    };
    for p in &m.provinces {
        let mut regions = vec![p.abbr.clone()];
        regions.extend(p.coasts.iter().map(|(c, _)| format!("{}/{c}", p.abbr)));
        let mut mine: Vec<(String, String)> = Vec::new();
        for r in &regions {
            for e in m.edges.iter().filter(|e| e.from == *r) {
                let k = (r.clone(), e.to.clone());
                if !mine.contains(&k) {
                    mine.push(k);
                }
            }
        }
        mine.sort_by_key(|(f, t)| rank(f, t));
        pairs.extend(mine);
    }
    pairs
}

/// Can a unit of type `ut` stand in the region (a coast only for a unit
/// that uses coasts, and the province's land not for one where it has
/// coasts)?
fn stands(m: &Model, ut: usize, region: &str) -> bool {
    let u = &m.unit_types[ut];
    let (p, c) = match region.split_once('/') {
        Some((p, c)) => (p, Some(c)),
        None => (region, None),
    };
    let Some(prov) = m.provinces.iter().find(|q| q.abbr == p) else {
        return false;
    };
    if !u.stands_on.contains(prov.terrain) {
        return false;
    }
    match (c, prov.coasts.is_empty(), u.uses_coasts) {
        (Some(_), _, true) => true,
        (Some(_), _, false) => false,
        (None, false, true) => false,
        (None, _, _) => true,
    }
}

/// A border line for each pair of regions: for each unit type, `ja`
/// where it may cross, `nein` where it stands but may not, `-` else.
fn border_lines(m: &Model, f: &mut String) {
    let n_cols = if m.convoy_unit.is_some_and(|c| is_pseudo(m, c)) {
        m.unit_types.len()
    } else {
        real_unit_types(m)
    };
    for (from, to) in &border_pairs(m) {
        let mut line = format!("- {} {}", field(m, from), field(m, to));
        for ut in 0..n_cols {
            let has = m.edges.iter().any(|e| e.ut == ut && e.from == *from && e.to == *to);
            let val = if has {
                "ja"
            } else if stands(m, ut, from) {
                "nein"
            } else {
                "-"
            };
            line.push(' ');
            line.push_str(val);
        }
        f.push_str(&line);
        f.push('\n');
    }
}

/// GAME.TXT: each nation's units and centres.
fn game_txt(m: &Model) -> String {
    let mut g = String::new();
    g.push_str(&format!("VARIANTPATH variants\\{}\n", m.name));
    let owners: Vec<(String, String)> = m.owners.clone().unwrap_or_else(|| {
        m.provinces
            .iter()
            .filter(|p| p.center && p.homes.len() == 1)
            .map(|p| (p.homes[0].clone(), p.abbr.clone()))
            .collect()
    });
    for p in &m.powers {
        g.push_str(&format!("NATION {}\nUNITS\n", p.abbr));
        for u in m.units.iter().filter(|u| u.power == p.abbr) {
            g.push_str(&format!("{} {}\n", u.letter, field(m, &u.region)));
        }
        g.push_str("CENTERS\n");
        for (_, c) in owners.iter().filter(|(pw, _)| *pw == p.abbr) {
            g.push_str(&format!("{c}\n"));
        }
    }
    g.push_str("END\n");
    g
}

fn is_pseudo(m: &Model, ut: usize) -> bool {
    m.unit_types
        .get(ut)
        .is_some_and(|u| u.builds_on.0 == 0 && !u.can_convoy && !u.convoyable && u.cost == 0)
        && ut + 1 == m.unit_types.len()
}
