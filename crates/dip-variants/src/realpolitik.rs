//! Realpolitik / RealWorld variant files (docs/realpolitik.md): the `.var`
//! file and the `.map`, `.cnt`, `.gam`, `.rgn` and `.txt` files it names,
//! also in shared folders; read into a [`Model`] and written from one.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use dip_core::map::{BuildRule, EdgeFlags, Terrain, UnitType};
use dip_core::{PhaseKind, Season};

use crate::model::{MEdge, MPower, MProvince, MUnit, Model};
use crate::VariantError;

fn err(file: &str, line: usize, message: impl Into<String>) -> VariantError {
    VariantError {
        file: file.to_string(),
        line,
        message: message.into(),
    }
}

const VAR_KEYS: [&str; 12] = [
    "Version",
    "Name",
    "MapData",
    "Countries",
    "Game",
    "BWMap",
    "ColorMap",
    "Regions",
    "Info",
    "Build",
    "Centers",
    "Flags",
];

/// The `.var` file: key → (line, value).
/// A `.var` file's lines: key to (line, value).
type Var = HashMap<String, (usize, String)>;

fn read_var(text: &str, file: &str) -> Result<Var, VariantError> {
    let mut out = HashMap::new();
    let mut plain = 0;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let (k, v) = match line.split_once(':') {
            Some((k, v)) if VAR_KEYS.iter().any(|x| x.eq_ignore_ascii_case(k.trim())) => {
                let k = VAR_KEYS
                    .iter()
                    .find(|x| x.eq_ignore_ascii_case(k.trim()))
                    .copied()
                    .unwrap_or("");
                (k.to_string(), v.trim().to_string())
            }
            _ => {
                // Values without keys, one a line, in the order of the guide.
                let Some(k) = VAR_KEYS.get(plain) else {
                    return Err(err(
                        file,
                        i + 1,
                        format!(
                            "unexpected line `{line}` (expected `Key: value`, keys {})",
                            VAR_KEYS.join(", ")
                        ),
                    ));
                };
                plain += 1;
                (k.to_string(), line.to_string())
            }
        };
        out.insert(k, (i + 1, v));
    }
    Ok(out)
}

/// A file named in the `.var` file: in the variant's folder, else (a path
/// like `Standard/Standard.map`) in the shared folder next to it.
fn resolve(var_dir: &Path, name: &str) -> Option<PathBuf> {
    let rel: PathBuf = name.split(['/', '\\', ':']).filter(|s| !s.is_empty()).collect();
    // `..` rather than the parent: a `.var` named by a relative path
    // (`Tiny/Tiny.var`, or `Tiny.var` in the working folder) has its shared
    // folder as a relative path too.
    let tries = [
        var_dir.join(&rel),
        var_dir.join("..").join(&rel),
        var_dir.join(rel.file_name().unwrap_or_default()),
    ];
    for t in tries {
        if t.is_file() {
            return Some(t);
        }
        // Case-insensitive match of the file name.
        if let (Some(dir), Some(fname)) = (t.parent(), t.file_name().and_then(|f| f.to_str())) {
            if let Ok(rd) = std::fs::read_dir(dir) {
                for e in rd.flatten() {
                    // A file: the variant's folder may share the map's name.
                    if e.file_name().to_str().is_some_and(|n| n.eq_ignore_ascii_case(fname)) && e.path().is_file() {
                        return Some(e.path());
                    }
                }
            }
        }
    }
    None
}

/// A file `resolve` found, as the variant's files name it: relative to the
/// variant's folder (`Icon Files/RedArmy.ico`, or `../Icon Files/RedArmy.ico`
/// for the shared folder), so that it is found again from the `.var` file's
/// folder wherever the program runs.
fn relative_to(var_dir: &Path, found: &Path) -> String {
    crate::files::relative_to(var_dir, found)
        .to_string_lossy()
        .replace('\\', "/")
}

/// An entry of `dir` named `name` in any case (DOS and the Mac wrote
/// `Icon Files`, `REDARMY.ICO` or `redarmy.ico` alike).
fn entry_in(dir: &Path, name: &str) -> Option<PathBuf> {
    let exact = dir.join(name);
    if exact.exists() {
        return Some(exact);
    }
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .find(|e| e.file_name().to_str().is_some_and(|n| n.eq_ignore_ascii_case(name)))
        .map(|e| e.path())
}

/// The `Icon Files` folders an icon is looked for in, first found first:
/// the variant's own ("placed in the sub-folder for that variant"), then
/// the global one "located in the Realpolitik folder": the folder above
/// the variant's, or the one above that when the variants are in a folder
/// of their own (Realpolitik's `Variant Files/Standard/Standard.var`).
fn icon_folders(var_dir: &Path) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    let mut at = var_dir.to_path_buf();
    for _ in 0..3 {
        if let Some(f) = entry_in(&at, "Icon Files").filter(|f| f.is_dir()) {
            dirs.push(f);
        }
        at = at.join("..");
    }
    dirs
}

/// Realpolitik's unit icons: `Icon Files/{Colour}{Type}.ico` (e.g.
/// `RedArmy.ico`) in the variant's folder, else in the global one (see
/// [`icon_folders`]), for each country's colour and each unit type.
/// Realpolitik stamps the country's initial on them; dip draws them as
/// they are. Units left without an icon are drawn as dip's, and said so.
fn find_icons(m: &mut Model, dir: &Path) {
    let types: Vec<(char, String)> = if m.unit_types.is_empty() {
        vec![('A', "Army".into()), ('F', "Fleet".into())]
    } else {
        m.unit_types
            .iter()
            .map(|u| (u.letter, u.name.replace(' ', "")))
            .collect()
    };
    let folders = icon_folders(dir);
    let mut missing = Vec::new();
    for p in &m.powers {
        let Some(colour) = p.colour.as_deref().filter(|c| !c.starts_with('#')) else {
            continue;
        };
        for (letter, name) in &types {
            let file = format!("{colour}{name}.ico");
            match folders.iter().find_map(|f| entry_in(f, &file).filter(|e| e.is_file())) {
                Some(found) => m
                    .unit_pictures
                    .push((p.abbr.clone(), *letter, relative_to(dir, &found))),
                None => missing.push(file),
            }
        }
    }
    if missing.is_empty() {
        return;
    }
    let var = m.files.first().cloned().unwrap_or_default();
    let looked: Vec<String> = folders
        .iter()
        .map(|f| f.canonicalize().unwrap_or_else(|_| f.clone()).display().to_string())
        .collect();
    m.notes.push(if looked.is_empty() {
        format!(
            "{var}: no `Icon Files` folder in the variant's folder or the Realpolitik folder above it: units are drawn as dip's icons"
        )
    } else {
        format!(
            "{var}: {} not in {}: those units are drawn as dip's icons",
            missing.join(", "),
            looked.join(" or ")
        )
    });
}

fn pair(s: &str) -> Option<(f32, f32)> {
    let mut it = s.split(',').map(|x| x.trim().parse::<f32>());
    match (it.next(), it.next()) {
        (Some(Ok(x)), Some(Ok(y))) => Some((x, y)),
        _ => None,
    }
}

/// Reads a Realpolitik variant from its `.var` file.
pub fn read(var_path: &str) -> Result<Model, VariantError> {
    let vp = Path::new(var_path);
    let dir = vp.parent().unwrap_or(Path::new("."));
    let (text, encoding) =
        crate::formats::read_legacy_text_encoded(vp).map_err(|e| err(var_path, 0, format!("cannot read ({e})")))?;
    let var = read_var(&text, var_path)?;
    let mut m = Model {
        encoding,
        files: vec![var_path.to_string()],
        ..Model::default()
    };
    let get = |k: &str| var.get(k).map(|(l, v)| (*l, v.clone()));
    let open = |m: &mut Model, key: &str, required: bool| open_part(m, &var, dir, var_path, key, required);
    m.name = vp
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("variant")
        .to_ascii_lowercase();
    m.title = get("Name").map(|(_, v)| v).unwrap_or_else(|| m.name.clone());
    let flags = read_settings(&mut m, &var, dir, var_path)?;
    // Countries first: the map marks home centres by the countries' initials.
    if let Some((t, f)) = open(&mut m, "Countries", true)? {
        read_cnt(&mut m, &t, f)?;
    }
    let (map_text, mf) = open(&mut m, "MapData", true)?.unwrap_or_default();
    read_map(&mut m, &map_text, mf, flags & 4 != 0)?;
    if let Some((t, f)) = open(&mut m, "Game", true)? {
        read_gam(&mut m, &t, f)?;
    }
    if let Some((t, f)) = open(&mut m, "Regions", false)? {
        read_rgn(&mut m, &t, f)?;
    }
    find_icons(&mut m, dir);
    if let Some((t, _)) = open(&mut m, "Info", false)? {
        m.description = t
            .lines()
            .map(|l| l.trim_end().to_string())
            .filter(|l| !l.is_empty())
            .collect();
    }
    Ok(m)
}

/// The text of the file a `.var` line names (`MapData: Standard.map`), found
/// in the variant's folder or the shared one next to it, with its index in
/// `m.files` for errors. A missing optional part is `None`.
fn open_part(
    m: &mut Model,
    var: &Var,
    dir: &Path,
    var_path: &str,
    key: &str,
    required: bool,
) -> Result<Option<(String, usize)>, VariantError> {
    let get = |k: &str| var.get(k).map(|(l, v)| (*l, v.clone()));
    let Some((l, name)) = get(key) else {
        return if required {
            Err(err(var_path, 0, format!("no `{key}:` line")))
        } else {
            Ok(None)
        };
    };
    let Some(p) = resolve(dir, &name) else {
        return if required {
            Err(err(
                var_path,
                l,
                format!(
                    "{key}: file `{name}` not found (looked in the variant's folder and the shared folder next to it)"
                ),
            ))
        } else {
            Ok(None)
        };
    };
    let f = p.to_string_lossy().to_string();
    let (t, enc) =
        crate::formats::read_legacy_text_encoded(&p).map_err(|e| err(&f, 0, format!("cannot read ({e})")))?;
    if enc != crate::files::Encoding::Utf8 {
        m.encoding = enc;
    }
    m.files.push(f);
    Ok(Some((t, m.files.len() - 1)))
}

/// The `.var` file's settings: build rule, centres to win, flags (large
/// icons, wings) and the map pictures. Returns the flags.
fn read_settings(m: &mut Model, var: &Var, dir: &Path, var_path: &str) -> Result<u32, VariantError> {
    let get = |k: &str| var.get(k).map(|(l, v)| (*l, v.clone()));
    if let Some((l, b)) = get("Build") {
        m.build_rule = match b.to_ascii_lowercase().as_str() {
            "standard" => BuildRule::Standard,
            "aberration" => BuildRule::Aberration,
            "chaos" => BuildRule::Chaos,
            _ => {
                return Err(err(
                    var_path,
                    l,
                    format!("Build: expected Standard, Aberration or Chaos, found `{b}`"),
                ))
            }
        };
    }
    if let Some((l, c)) = get("Centers") {
        m.victory = c
            .parse()
            .map_err(|_| err(var_path, l, format!("Centers: expected a number, found `{c}`")))?;
    }
    let flags: u32 = match get("Flags") {
        Some((l, f)) => f
            .parse()
            .map_err(|_| err(var_path, l, format!("Flags: expected a number, found `{f}`")))?,
        None => 0,
    };
    if flags & 8 != 0 {
        m.pictures.push(("icons".into(), "large".into()));
    }
    for (k, kind) in [("ColorMap", "colour"), ("BWMap", "bw")] {
        if let Some((_, v)) = get(k) {
            // Realpolitik's files often name the picture without its
            // extension (`ColorMap Standard`): the file found is kept, the
            // Windows edition's BMP or the Mac edition's PICT.
            let found = resolve(dir, &v).or_else(|| {
                ["bmp", "png", "pct", "pict"]
                    .iter()
                    .find_map(|e| resolve(dir, &format!("{v}.{e}")))
            });
            let v = match found {
                Some(f) => relative_to(dir, &f),
                None => v,
            };
            m.pictures.push((kind.into(), v));
        }
    }
    Ok(flags)
}

fn read_map(m: &mut Model, text: &str, fi: usize, wings: bool) -> Result<(), VariantError> {
    let file = m.files[fi].clone();
    let mut section = 0;
    let mut adj: Vec<Adjacency> = Vec::new();
    let mut centres: Vec<String> = Vec::new();
    // Three sections, each ended by a `-1` line: spaces, adjacencies, centres.
    for (i, raw) in text.lines().enumerate() {
        let l = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line == "-1" {
            section += 1;
            continue;
        }
        match section {
            0 => read_space(m, line, &file, fi, l)?,
            1 => adj.push(read_adjacency(line, &file, l)?),
            _ => centres.extend(line.split_whitespace().map(|s| s.to_ascii_lowercase())),
        }
    }
    m.unit_types = vec![UnitType::army(), UnitType::fleet()];
    if wings || adj.iter().any(|a| a.kind == "aa") {
        m.unit_types.push(UnitType::wing());
    }
    mark_coasts(m, &adj, &file)?;
    for c in &centres {
        if let Some(pi) = m.find_province(c) {
            m.provinces[pi].center = true;
        }
    }
    // A space without any adjacency (Switzerland) is impassable.
    for p in m.provinces.iter_mut() {
        if !adj.iter().any(|a| a.from == p.abbr) && p.terrain == Terrain::Land && !p.center {
            p.terrain = Terrain::Impassable;
        }
    }
    m.edges = borders(m, &adj, &file, fi)?;
    Ok(())
}

/// One line of the `.map` file's adjacency section: `abbr-TYPE: abbr abbr...`.
struct Adjacency {
    line: usize,
    from: String,
    /// mv (army), xc (fleet), nc/sc/ec/wc (fleet from a coast), aa (wing), mx (weak army move).
    kind: String,
    to: Vec<String>,
}

/// A line of the space section: `Full Name, TYPE abbr [aliases...]`, the
/// type's letters saying land, water, neutral centre or whose home it is.
fn read_space(m: &mut Model, line: &str, file: &str, fi: usize, l: usize) -> Result<(), VariantError> {
    let usage = "expected `Full Name, TYPE abbr [abbr...]` (TYPE of l, w, v, x and country initials)";
    let (full, rest) = line.split_once(',').ok_or_else(|| err(file, l, usage))?;
    let ws: Vec<&str> = rest.split([',', ' ', '\t']).filter(|w| !w.is_empty()).collect();
    let [t, abbr, aliases @ ..] = ws.as_slice() else {
        return Err(err(file, l, usage));
    };
    let (mut land, mut water, mut neutral) = (false, false, false);
    let mut home: Option<char> = None;
    for c in t.chars() {
        match c {
            'l' => land = true,
            'w' => water = true,
            'v' => {} // ice: read, not played
            'x' => {
                neutral = true;
                land = true
            }
            c if c.is_ascii_uppercase() => {
                home = Some(c);
                land = true
            }
            other => {
                return Err(err(
                    file,
                    l,
                    format!("unknown space type letter `{other}` (expected l, w, v, x or a country's initial)"),
                ))
            }
        }
    }
    let terrain = match (land, water) {
        (true, true) => Terrain::Coast,
        (false, true) => Terrain::Sea,
        _ => Terrain::Land,
    };
    let key = abbr.to_ascii_lowercase();
    let full: String = full.trim().chars().filter(|c| !"()/:,=#".contains(*c)).collect();
    let mut p = MProvince::new(&key, &full, terrain);
    p.aliases = aliases
        .iter()
        .map(|a| a.replace('_', " "))
        .filter(|a| !a.eq_ignore_ascii_case(&full) && !a.eq_ignore_ascii_case(&key))
        .collect();
    p.src = (fi, l);
    p.center = neutral || home.is_some();
    if let Some(c) = home {
        let pw = m
            .powers
            .iter()
            .find(|p| p.initial == Some(c))
            .ok_or_else(|| err(file, l, format!("no country has the initial `{c}` (in the .cnt file)")))?;
        p.homes.push(pw.abbr.clone());
    }
    if m.find_province(&key).is_some() {
        return Err(err(file, l, format!("space `{key}` defined twice")));
    }
    m.provinces.push(p);
    Ok(())
}

/// A line of the adjacency section: `abbr-TYPE: abbr abbr...`.
fn read_adjacency(line: &str, file: &str, l: usize) -> Result<Adjacency, VariantError> {
    let (head, rest) = line.split_once(':').ok_or_else(|| {
        err(
            file,
            l,
            "expected `abbr-TYPE: abbr abbr...` (TYPE mv, xc, nc, sc, ec, wc, aa or mx)",
        )
    })?;
    let (abbr, kind) = head
        .trim()
        .rsplit_once('-')
        .ok_or_else(|| err(file, l, "expected `abbr-TYPE:` (the `-` must be there)"))?;
    let kind = kind.to_ascii_lowercase();
    if !["mv", "xc", "nc", "sc", "ec", "wc", "aa", "mx"].contains(&kind.as_str()) {
        return Err(err(
            file,
            l,
            format!("unknown adjacency type `{kind}` (expected mv, xc, nc, sc, ec, wc, aa or mx)"),
        ));
    }
    Ok(Adjacency {
        line: l,
        from: abbr.to_ascii_lowercase(),
        kind,
        to: rest.split_whitespace().map(|s| s.to_ascii_lowercase()).collect(),
    })
}

/// Coasts and terrain: `xc` or coast lines make a land space coastal.
fn mark_coasts(m: &mut Model, adj: &[Adjacency], file: &str) -> Result<(), VariantError> {
    for Adjacency {
        line: l,
        from: abbr,
        kind,
        ..
    } in adj
    {
        let pi = m
            .find_province(abbr)
            .ok_or_else(|| err(file, *l, format!("unknown space `{abbr}`")))?;
        let p = &mut m.provinces[pi];
        if ["nc", "sc", "ec", "wc"].contains(&kind.as_str()) {
            if !p.coasts.iter().any(|(c, _)| c == kind) {
                p.coasts.push((kind.clone(), None));
            }
            if p.terrain == Terrain::Land {
                p.terrain = Terrain::Coast;
            }
        } else if kind == "xc" && p.terrain == Terrain::Land {
            p.terrain = Terrain::Coast;
        }
    }
    Ok(())
}

/// The borders of the adjacency lines, once every space and coast is known:
/// a `/hx` target cannot be retreated to, and a fleet moving to a space
/// with coasts must name one.
fn borders(m: &Model, adj: &[Adjacency], file: &str, fi: usize) -> Result<Vec<MEdge>, VariantError> {
    let split = |m: &Model, abbr: &str| m.find_province(abbr).is_some_and(|i| !m.provinces[i].coasts.is_empty());
    let mut edges = Vec::new();
    for Adjacency {
        line: l,
        from: abbr,
        kind,
        to: list,
    } in adj
    {
        for t in list {
            let (target, hx) = match t.strip_suffix("/hx") {
                Some(x) => (x.to_string(), true),
                None => (t.clone(), false),
            };
            let tp = target.split('/').next().unwrap_or(&target).to_string();
            if m.find_province(&tp).is_none() {
                return Err(err(
                    file,
                    *l,
                    format!("unknown space `{target}` in the adjacencies of `{abbr}`"),
                ));
            }
            let (ut, from, to, mut flags) = match kind.as_str() {
                "mv" => (0, abbr.clone(), tp.clone(), EdgeFlags::default()),
                "mx" => (0, abbr.clone(), tp.clone(), EdgeFlags::WEAK_MOVE),
                "aa" => (2, abbr.clone(), tp.clone(), EdgeFlags::default()),
                "xc" => {
                    if split(m, &tp) && !target.contains('/') {
                        return Err(err(
                            file,
                            *l,
                            format!("`{tp}` has coasts: write `{tp}/nc` (or sc, ec, wc)"),
                        ));
                    }
                    (1, abbr.clone(), target.clone(), EdgeFlags::default())
                }
                c => (1, format!("{abbr}/{c}"), target.clone(), EdgeFlags::default()),
            };
            if hx {
                flags = flags.with(EdgeFlags::NO_RETREAT);
            }
            edges.push(MEdge {
                ut,
                from,
                to,
                flags,
                src: (fi, *l),
            });
        }
    }
    Ok(edges)
}

/// The data lines of a file: (line number, trimmed text), without `#`
/// comments. Blank lines are data (a country without units has one).
fn data_lines(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.starts_with('#'))
        .collect()
}

/// `.cnt`: `1` (the version), the number of countries, then one country a
/// line: `Name Adjective Initial Pattern Colour`.
fn read_cnt(m: &mut Model, text: &str, fi: usize) -> Result<(), VariantError> {
    let file = m.files[fi].clone();
    let lines = data_lines(text);
    let mut it = lines.iter();
    let end = |what: &str| err(&file, 0, format!("the file ends where {what} was expected"));
    let &(l, version) = it.next().ok_or_else(|| end("the version `1`"))?;
    if version != "1" {
        return Err(err(
            &file,
            l,
            format!("only version 1 country files can be read, found `{version}`"),
        ));
    }
    let &(l, count) = it.next().ok_or_else(|| end("the number of countries"))?;
    let n: usize = count
        .parse()
        .map_err(|_| err(&file, l, format!("expected the number of countries, found `{count}`")))?;
    for _ in 0..n {
        let &(l, line) = it
            .next()
            .ok_or_else(|| end("a country `Name Adjective Initial Pattern Colour`"))?;
        let f: Vec<&str> = line.split_whitespace().collect();
        let [name, adjective, initial, pattern, colour, ..] = f.as_slice() else {
            return Err(err(
                &file,
                l,
                format!("expected `Name Adjective Initial Pattern Colour`, found `{line}`"),
            ));
        };
        let name = name.replace('_', " ");
        let abbr: String = name
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .take(3)
            .collect::<String>()
            .to_ascii_uppercase();
        let abbr = if abbr.is_empty() || m.powers.iter().any(|p| p.abbr == abbr) {
            format!("{}{}", abbr.chars().take(2).collect::<String>(), m.powers.len())
        } else {
            abbr
        };
        // Realpolitik knows a colour by its icons' names (`RedArmy.ico`);
        // one dip cannot draw is said, not quietly replaced.
        let known = crate::colour::named(colour).is_some() || crate::colour::hex(colour).is_some();
        if !known {
            m.notes.push(format!(
                "{file}:{l}: {name}'s colour `{colour}` is not one dip knows (e.g. Red, Blue, Green, Yellow, Purple, Cyan, Brown, Orange, Black, White, Grey): its units are drawn in a colour of dip's own"
            ));
        }
        m.powers.push(MPower {
            abbr,
            name,
            adjective: adjective.replace('_', " "),
            colour: colour
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '#')
                .then(|| colour.to_string()),
            initial: initial.chars().next(),
            pattern: Some(pattern.to_string()),
            aliases: Vec::new(),
            src: (fi, l),
        });
    }
    Ok(())
}

/// `.gam`: `1` (the version), a title, the variant's name, the phase
/// (`Spring 1901`), the adjustment flag, the number of countries, then per
/// country its name, its supply centres and its units (`a bud f tri`), and
/// the dislodgement flag.
fn read_gam(m: &mut Model, text: &str, fi: usize) -> Result<(), VariantError> {
    let file = m.files[fi].clone();
    let lines = data_lines(text);
    let mut it = lines.iter();
    let end = |what: &str| err(&file, 0, format!("the file ends where {what} was expected"));
    let &(l, version) = it.next().ok_or_else(|| end("the version `1`"))?;
    if version != "1" {
        return Err(err(
            &file,
            l,
            format!("only version 1 game files can be read, found `{version}`"),
        ));
    }
    it.next().ok_or_else(|| end("the game's title"))?;
    it.next().ok_or_else(|| end("the variant's name"))?;
    let &(l, phase) = it.next().ok_or_else(|| end("the phase, e.g. `Spring 1901`"))?;
    // A phase name as dip's one reader reads it; the kind comes from the
    // adjustment flag below.
    let p: dip_core::Phase = phase.parse().map_err(|e| {
        err(
            &file,
            l,
            format!("expected a phase like `Spring 1901`, found `{phase}`: {e}"),
        )
    })?;
    (m.year, m.season) = (p.year, p.season);
    let flag = |it: &mut std::slice::Iter<(usize, &str)>, what: &str| -> Result<(usize, i64), VariantError> {
        let &(l, v) = it.next().ok_or_else(|| end(what))?;
        v.parse()
            .map(|n| (l, n))
            .map_err(|_| err(&file, l, format!("expected {what} (a number), found `{v}`")))
    };
    let (_, adjust) = flag(&mut it, "the adjustment flag")?;
    m.kind = if adjust > 0 {
        PhaseKind::Adjustment
    } else {
        PhaseKind::Movement
    };
    let (l, n) = flag(&mut it, "the number of countries")?;
    if n as usize != m.powers.len() {
        return Err(err(
            &file,
            l,
            format!("{n} countries, but the country file has {}", m.powers.len()),
        ));
    }
    let mut owners = Vec::new();
    for i in 0..m.powers.len() {
        let pw = m.powers[i].abbr.clone();
        it.next().ok_or_else(|| end("a country's name"))?;
        let &(l, centres) = it.next().ok_or_else(|| end("a country's supply centres"))?;
        for c in centres.split([' ', ';', ',', '\t']).filter(|c| !c.is_empty()) {
            if m.find_province(c).is_none() {
                return Err(err(&file, l, format!("unknown supply centre `{c}`")));
            }
            owners.push((pw.clone(), c.to_ascii_lowercase()));
        }
        let &(l, units) = it.next().ok_or_else(|| end("a country's units"))?;
        let toks: Vec<&str> = units.split([' ', ';', ',', '\t']).filter(|c| !c.is_empty()).collect();
        for pair in toks.chunks(2) {
            let [t, r] = pair else {
                return Err(err(
                    &file,
                    l,
                    format!("expected units like `a bud f tri`, found `{units}`"),
                ));
            };
            let letter = t.chars().next().unwrap_or('a').to_ascii_uppercase();
            if !matches!(letter, 'A' | 'F' | 'W') || t.len() != 1 {
                return Err(err(&file, l, format!("unknown unit type `{t}` (expected a, f or w)")));
            }
            m.units.push(MUnit {
                power: pw.clone(),
                letter,
                region: r.to_ascii_lowercase(),
                src: (fi, l),
            });
        }
    }
    if let Ok((l, d)) = flag(&mut it, "the dislodgement flag") {
        if d > 0 {
            return Err(err(
                &file,
                l,
                "a starting position with dislodged units is not supported",
            ));
        }
    }
    m.owners = Some(owners);
    Ok(())
}

/// `.rgn`: unit and name positions of every space (in the order of the
/// `.map` file) and of its coasts, and their scanlines (kept to be written
/// back; the renderer reads them itself from the file).
fn read_rgn(m: &mut Model, text: &str, fi: usize) -> Result<(), VariantError> {
    let file = m.files[fi].clone();
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    let mut i = 2.min(lines.len()); // `Variant` and the name
    let next = |what: &str, i: &mut usize| -> Result<(usize, String), VariantError> {
        let (l, s) = lines
            .get(*i)
            .copied()
            .ok_or_else(|| err(&file, 0, format!("the file ends where {what} was expected")))?;
        *i += 1;
        Ok((l, s.to_string()))
    };
    for pi in 0..m.provinces.len() {
        let (l, head) = next("`# spacename`", &mut i)?;
        if !head.starts_with('#') {
            return Err(err(
                &file,
                l,
                format!("expected `# {}`, found `{head}`", m.provinces[pi].abbr),
            ));
        }
        let count = 1 + m.provinces[pi].coasts.len();
        let mut scan_parts: Vec<Vec<String>> = Vec::new();
        for k in 0..count {
            let (l, unit) = next("a unit position `x,y`", &mut i)?;
            let nums: Vec<&str> = unit.split(',').collect();
            let at =
                pair(&unit).ok_or_else(|| err(&file, l, format!("expected a unit position `x,y`, found `{unit}`")))?;
            if k == 0 {
                m.provinces[pi].at = Some(at);
                // `x,y,xs,ys`: the fleet's own place in a space with one
                // coast (with split coasts, each coast has its own line).
                if nums.len() == 4 {
                    let fleet = pair(&format!("{},{}", nums[2], nums[3]))
                        .ok_or_else(|| err(&file, l, format!("expected `x,y,xs,ys`, found `{unit}`")))?;
                    match m.provinces[pi].coasts.first_mut() {
                        Some(c) => c.1 = Some(fleet),
                        None => m.provinces[pi].fleet_at = Some(fleet),
                    }
                }
                let (l, name) = next("a name position `x,y`", &mut i)?;
                m.provinces[pi].label = Some(
                    pair(&name)
                        .ok_or_else(|| err(&file, l, format!("expected a name position `x,y`, found `{name}`")))?,
                );
            } else if let Some(c) = m.provinces[pi].coasts.get_mut(k - 1) {
                c.1 = Some(at);
            }
            let (l, n) = next("the number of scanlines", &mut i)?;
            let n: usize = n
                .parse()
                .map_err(|_| err(&file, l, format!("expected the number of scanlines, found `{n}`")))?;
            let mut part = Vec::new();
            for _ in 0..n {
                let (l, s) = next("a scanline `x y length`", &mut i)?;
                if s.split_whitespace().count() != 3 || s.split_whitespace().any(|w| w.parse::<i64>().is_err()) {
                    return Err(err(&file, l, format!("expected a scanline `x y length`, found `{s}`")));
                }
                part.push(s.split_whitespace().collect::<Vec<_>>().join(" "));
            }
            scan_parts.push(part);
        }
        let abbr = m.provinces[pi].abbr.clone();
        m.scanlines.push((abbr, scan_parts));
    }
    Ok(())
}

/// Writes a model as Realpolitik files into a folder: NAME.var, .map,
/// .cnt, .gam, .rgn, .txt. Returns (file name, text) pairs.
pub fn write(m: &Model) -> Vec<(String, String)> {
    let n = &m.name;
    let initials = country_initials(m);
    let txt = m.description.join("\n\n") + "\n";
    vec![
        (format!("{n}.var"), write_var(m)),
        (format!("{n}.map"), write_map(m, &initials)),
        (format!("{n}.cnt"), write_cnt(m, &initials)),
        (format!("{n}.gam"), write_gam(m)),
        (format!("{n}.rgn"), write_rgn(m)),
        (format!("{n}.txt"), txt),
    ]
}

/// The `.var` file: the variant's keywords (its files, build rule, victory, flags).
fn write_var(m: &Model) -> String {
    let n = &m.name;
    let mut var = String::new();
    let br = match m.build_rule {
        BuildRule::Standard => "Standard",
        BuildRule::Aberration => "Aberration",
        BuildRule::Chaos => "Chaos",
    };
    let wings = m.unit_types.iter().any(|u| u.letter == 'W');
    for (k, v) in [
        ("Version", "1".to_string()),
        ("Name", m.title.clone()),
        ("MapData", format!("{n}.map")),
        ("Countries", format!("{n}.cnt")),
        ("Game", format!("{n}.gam")),
        ("BWMap", format!("{n}BW")),
        ("ColorMap", n.clone()),
        ("Regions", format!("{n}.rgn")),
        ("Info", format!("{n}.txt")),
        ("Build", br.to_string()),
        ("Centers", m.victory.to_string()),
        ("Flags", {
            // 4: wings; 8: large icons.
            let large = m
                .pictures
                .iter()
                .any(|(k, v)| k == "icons" && v.eq_ignore_ascii_case("large"));
            (if wings { 4 } else { 0 } + if large { 8 } else { 0 }).to_string()
        }),
    ] {
        var.push_str(&format!("{k}: {v}\n"));
    }
    var
}

/// Country initials: one upper-case letter each marks its home centres.
fn country_initials(m: &Model) -> Vec<Option<char>> {
    let mut initials: Vec<Option<char>> = Vec::new();
    for p in &m.powers {
        let own = p
            .initial
            .filter(|c| c.is_ascii_uppercase() && !initials.contains(&Some(*c)));
        let pick = own.or_else(|| {
            ('A'..='Z').find(|c| !initials.contains(&Some(*c)) && !m.powers.iter().any(|q| q.initial == Some(*c)))
        });
        initials.push(pick);
    }
    initials
}

/// The `.map` file: provinces, then adjacencies, then the centres.
fn write_map(m: &Model, initials: &[Option<char>]) -> String {
    let initial_of = |abbr: &str| m.powers.iter().position(|p| p.abbr == abbr).and_then(|i| initials[i]);
    let mut map = String::new();
    for p in &m.provinces {
        let mut t = match p.terrain {
            Terrain::Sea => "w".to_string(),
            Terrain::Coast => "lw".to_string(),
            _ => "l".to_string(),
        };
        if p.center {
            match p.homes.first().and_then(|h| initial_of(h)) {
                Some(c) => t = t.replace('l', &c.to_string()),
                None => t = t.replace('l', "x"),
            }
        }
        let al: Vec<String> = p.aliases.iter().map(|a| a.replace(' ', "_")).collect();
        map.push_str(&format!("{}, {t} {} {}\n", p.name, p.abbr, al.join(" ")).replace(" \n", "\n"));
    }
    map.push_str("-1\n");
    write_adjacencies(m, &mut map);
    map.push_str("-1\n");
    let centres: Vec<&str> = m
        .provinces
        .iter()
        .filter(|p| p.center)
        .map(|p| p.abbr.as_str())
        .collect();
    map.push_str(&centres.join(" "));
    map.push('\n');
    map
}

/// The `.map` file's adjacency lines: per region, army (`mv`, `mx`),
/// fleet (by coast) and wing (`aa`) moves.
fn write_adjacencies(m: &Model, map: &mut String) {
    let army = 0;
    let fleet = m.unit_types.iter().position(|u| u.uses_coasts);
    let wing = m.unit_types.iter().position(|u| u.letter == 'W');
    for p in &m.provinces {
        let mut regions = vec![p.abbr.clone()];
        regions.extend(p.coasts.iter().map(|(c, _)| format!("{}/{c}", p.abbr)));
        for r in &regions {
            let out_of = |ut: Option<usize>, pred: &dyn Fn(&MEdge) -> bool| -> Vec<String> {
                m.edges
                    .iter()
                    .filter(|e| Some(e.ut) == ut && e.from == *r && pred(e))
                    .map(|e| {
                        let mut t = e.to.clone();
                        if e.flags.has(EdgeFlags::NO_RETREAT) {
                            t.push_str("/hx");
                        }
                        t
                    })
                    .collect()
            };
            let kind = match r.split_once('/') {
                Some((_, c)) => c.to_string(),
                None => "xc".into(),
            };
            let lists = [
                ("mv", out_of(Some(army), &|e| !e.flags.has(EdgeFlags::WEAK_MOVE))),
                ("mx", out_of(Some(army), &|e| e.flags.has(EdgeFlags::WEAK_MOVE))),
                (kind.as_str(), out_of(fleet, &|_| true)),
                ("aa", out_of(wing, &|_| true)),
            ];
            for (k, list) in lists {
                if !list.is_empty() {
                    map.push_str(&format!("{}-{k}: {}\n", p.abbr, list.join(" ")));
                }
            }
        }
    }
}

/// The `.cnt` file: the countries, their initials, icon patterns and colours.
fn write_cnt(m: &Model, initials: &[Option<char>]) -> String {
    let word = |s: &str| s.replace(' ', "_");
    // Realpolitik knows colours by name (its icons are `RedArmy.ico`): a
    // `#rrggbb` colour is written as the nearest name no other power has.
    let colour_names = crate::colour::names_for(&m.powers.iter().map(|p| p.colour.clone()).collect::<Vec<_>>());
    let mut cnt = String::from("1\n");
    cnt.push_str(&format!("{}\n", m.powers.len()));
    for (i, p) in m.powers.iter().enumerate() {
        cnt.push_str(&format!(
            "{} {} {} {} {}\n",
            word(&p.name),
            word(&p.adjective),
            initials[i].or(p.initial).unwrap_or('?'),
            p.pattern.clone().unwrap_or_else(|| "Random".into()),
            colour_names[i].clone().unwrap_or_else(|| "Black".into()),
        ));
    }
    cnt
}

/// The `.gam` file: the starting phase, each country's centres and units.
fn write_gam(m: &Model) -> String {
    let word = |s: &str| s.replace(' ', "_");
    let mut gam = String::from("1\n");
    let season = match (m.season, m.kind) {
        (_, PhaseKind::Adjustment) => "Winter",
        (Season::Spring, _) => "Spring",
        (Season::Fall, _) => "Fall",
    };
    gam.push_str(&format!("{}\n{}\n{season} {}\n", m.title, m.title, m.year));
    gam.push_str(if m.kind == PhaseKind::Adjustment { "1\n" } else { "0\n" });
    gam.push_str(&format!("{}\n", m.powers.len()));
    let owners = m.owners.clone().unwrap_or_else(|| {
        m.provinces
            .iter()
            .filter(|p| p.center && p.homes.len() == 1)
            .map(|p| (p.homes[0].clone(), p.abbr.clone()))
            .collect()
    });
    for p in &m.powers {
        let cs: Vec<&str> = owners
            .iter()
            .filter(|(pw, _)| *pw == p.abbr)
            .map(|(_, c)| c.as_str())
            .collect();
        let us: Vec<String> = m
            .units
            .iter()
            .filter(|u| u.power == p.abbr)
            .map(|u| format!("{} {}", u.letter.to_ascii_lowercase(), u.region))
            .collect();
        gam.push_str(&format!("{}\n{}\n{}\n", word(&p.name), cs.join(" "), us.join(" ")));
    }
    gam.push_str("0\n");
    gam
}

/// The `.rgn` file: each province's unit and label points and scanlines.
fn write_rgn(m: &Model) -> String {
    let mut rgn = format!("Variant\n{}\n", m.title);
    let xy = |p: Option<(f32, f32)>| {
        p.map(|(x, y)| format!("{},{}", x.round(), y.round()))
            .unwrap_or_else(|| "0,0".into())
    };
    // The scanlines read from a `.rgn` go back as they came.
    let scan = |abbr: &str, part: usize| -> String {
        let lines = m
            .scanlines
            .iter()
            .find(|(a, _)| a == abbr)
            .and_then(|(_, parts)| parts.get(part))
            .cloned()
            .unwrap_or_default();
        let mut t = format!("{}\n", lines.len());
        for l in lines {
            t.push_str(&l);
            t.push('\n');
        }
        t
    };
    for p in &m.provinces {
        rgn.push_str(&format!(
            "# {}\n{}{}\n{}\n{}",
            p.name,
            xy(p.at),
            p.fleet_at.map(|f| format!(",{}", xy(Some(f)))).unwrap_or_default(),
            xy(p.label.or(p.at)),
            scan(&p.abbr, 0)
        ));
        for (k, (_, at)) in p.coasts.iter().enumerate() {
            rgn.push_str(&format!("{}\n{}", xy(at.or(p.at)), scan(&p.abbr, k + 1)));
        }
    }
    rgn
}
