//! Realpolitik / RealWorld variant files (docs/realpolitik.md): the `.var`
//! file and the `.map`, `.cnt`, `.gam`, `.rgn` and `.txt` files it names,
//! also in shared folders; read into a [`Model`] and written from one.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use dip_core::map::{BuildRule, EdgeFlags, Terrain, TerrainSet, UnitType};
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
fn read_var(text: &str, file: &str) -> Result<HashMap<String, (usize, String)>, VariantError> {
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
    let tries = [
        var_dir.join(&rel),
        var_dir.parent().map(|p| p.join(&rel)).unwrap_or_default(),
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
                    if e.file_name().to_str().is_some_and(|n| n.eq_ignore_ascii_case(fname)) {
                        return Some(e.path());
                    }
                }
            }
        }
    }
    None
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
    let text = std::fs::read_to_string(vp).map_err(|e| err(var_path, 0, format!("cannot read ({e})")))?;
    let var = read_var(&text, var_path)?;
    let mut m = Model {
        files: vec![var_path.to_string()],
        ..Model::default()
    };
    let get = |k: &str| var.get(k).map(|(l, v)| (*l, v.clone()));
    let open = |m: &mut Model, key: &str, required: bool| -> Result<Option<(String, usize)>, VariantError> {
        let Some((l, name)) = get(key) else {
            return if required {
                Err(err(var_path, 0, format!("no `{key}:` line")))
            } else {
                Ok(None)
            };
        };
        let Some(p) = resolve(dir, &name) else {
            return if required {
                Err(err(var_path, l, format!("{key}: file `{name}` not found (looked in the variant's folder and the shared folder next to it)")))
            } else {
                Ok(None)
            };
        };
        let f = p.to_string_lossy().to_string();
        let t = std::fs::read_to_string(&p).map_err(|e| err(&f, 0, format!("cannot read ({e})")))?;
        m.files.push(f);
        Ok(Some((t, m.files.len() - 1)))
    };
    m.name = vp
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("variant")
        .to_ascii_lowercase();
    m.title = get("Name").map(|(_, v)| v).unwrap_or_else(|| m.name.clone());
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
            m.pictures.push((kind.into(), v));
        }
    }
    let (map_text, mf) = open(&mut m, "MapData", true)?.unwrap_or_default();
    read_map(&mut m, &map_text, mf, flags & 4 != 0)?;
    if let Some((t, f)) = open(&mut m, "Countries", true)? {
        read_cnt(&mut m, &t, f)?;
    }
    if let Some((t, f)) = open(&mut m, "Game", true)? {
        read_gam(&mut m, &t, f)?;
    }
    if let Some((t, f)) = open(&mut m, "Regions", false)? {
        read_rgn(&mut m, &t, f)?;
    }
    if let Some((t, _)) = open(&mut m, "Info", false)? {
        m.description = t
            .lines()
            .map(|l| l.trim_end().to_string())
            .filter(|l| !l.is_empty())
            .collect();
    }
    Ok(m)
}

fn read_map(m: &mut Model, text: &str, fi: usize, wings: bool) -> Result<(), VariantError> {
    let file = m.files[fi].clone();
    let mut section = 0;
    let mut adj: Vec<(usize, String, String, Vec<String>)> = Vec::new();
    let mut kinds: HashMap<String, char> = HashMap::new();
    let mut centres: Vec<String> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let l = i + 1;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if line == "-1" {
            section += 1;
            continue;
        }
        match section {
            0 => {
                let (full, rest) = line
                    .rsplit_once(',')
                    .ok_or_else(|| err(&file, l, "expected `Full Name, TYPE abbr [alias...]` (TYPE l, w or x)"))?;
                let ws: Vec<&str> = rest.split_whitespace().collect();
                let (t, abbr, aliases) = match ws.as_slice() {
                    [t, abbr, al @ ..] if t.len() == 1 => (t.chars().next().unwrap_or('l'), *abbr, al),
                    _ => {
                        return Err(err(
                            &file,
                            l,
                            "expected `Full Name, TYPE abbr [alias...]` (TYPE l, w or x)",
                        ))
                    }
                };
                let terrain = match t.to_ascii_lowercase() {
                    'w' => Terrain::Sea,
                    'x' => Terrain::Impassable,
                    'l' => Terrain::Land,
                    other => {
                        return Err(err(
                            &file,
                            l,
                            format!("unknown space type `{other}` (expected l, w or x)"),
                        ))
                    }
                };
                let key = abbr.to_ascii_lowercase();
                kinds.insert(key.clone(), t);
                let full: String = full.trim().chars().filter(|c| !"()/:,=#".contains(*c)).collect();
                let mut p = MProvince::new(&key, &full, terrain);
                p.aliases = aliases
                    .iter()
                    .map(|a| a.replace('_', " "))
                    .filter(|a| !a.eq_ignore_ascii_case(&full))
                    .collect();
                p.src = (fi, l);
                if m.find_province(&key).is_some() {
                    return Err(err(&file, l, format!("space `{key}` defined twice")));
                }
                m.provinces.push(p);
            }
            1 => {
                let (head, rest) = line.split_once(':').ok_or_else(|| {
                    err(
                        &file,
                        l,
                        "expected `abbr-TYPE: abbr abbr...` (TYPE mv, xc, nc, sc, ec, wc, aa or mx)",
                    )
                })?;
                let (abbr, kind) = head
                    .trim()
                    .rsplit_once('-')
                    .ok_or_else(|| err(&file, l, "expected `abbr-TYPE:` (the `-` must be there)"))?;
                let kind = kind.to_ascii_lowercase();
                if !["mv", "xc", "nc", "sc", "ec", "wc", "aa", "mx"].contains(&kind.as_str()) {
                    return Err(err(
                        &file,
                        l,
                        format!("unknown adjacency type `{kind}` (expected mv, xc, nc, sc, ec, wc, aa or mx)"),
                    ));
                }
                adj.push((
                    l,
                    abbr.to_ascii_lowercase(),
                    kind,
                    rest.split_whitespace().map(|s| s.to_ascii_lowercase()).collect(),
                ));
            }
            _ => centres.extend(line.split_whitespace().map(|s| s.to_ascii_lowercase())),
        }
    }
    m.unit_types = vec![UnitType::army(), UnitType::fleet()];
    let uses_wings = wings || adj.iter().any(|a| a.2 == "aa");
    if uses_wings {
        m.unit_types.push(UnitType {
            letter: 'W',
            name: "Wing".into(),
            strength: 1,
            cost: 1,
            convoyable: false,
            can_convoy: false,
            stands_on: TerrainSet::of(&[Terrain::Land, Terrain::Coast, Terrain::Sea]),
            builds_on: TerrainSet::of(&[Terrain::Land, Terrain::Coast]),
            uses_coasts: false,
        });
    }
    // Coasts and terrain: `xc` or coast lines make a land space coastal.
    for (l, abbr, kind, _) in &adj {
        let pi = m
            .find_province(abbr)
            .ok_or_else(|| err(&file, *l, format!("unknown space `{abbr}`")))?;
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
    for c in &centres {
        if let Some(pi) = m.find_province(c) {
            m.provinces[pi].center = true;
        }
    }
    let split = |m: &Model, abbr: &str| m.find_province(abbr).is_some_and(|i| !m.provinces[i].coasts.is_empty());
    let mut edges = Vec::new();
    for (l, abbr, kind, list) in &adj {
        for t in list {
            let (target, hx) = match t.strip_suffix("/hx") {
                Some(x) => (x.to_string(), true),
                None => (t.clone(), false),
            };
            let tp = target.split('/').next().unwrap_or(&target).to_string();
            if m.find_province(&tp).is_none() {
                return Err(err(
                    &file,
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
                            &file,
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
    m.edges = edges;
    Ok(())
}

/// `.cnt`: one country a line: `Name, Adjective, Colour, Pattern, Initial[, home...]`.
fn read_cnt(m: &mut Model, text: &str, fi: usize) -> Result<(), VariantError> {
    let file = m.files[fi].clone();
    for (i, raw) in text.lines().enumerate() {
        let l = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.chars().all(|c| c.is_ascii_digit()) {
            continue; // version and count lines
        }
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        if f.len() < 5 {
            return Err(err(
                &file,
                l,
                "expected `Name, Adjective, Colour, Pattern, Initial[, home centres]`",
            ));
        }
        let initial = f[4].chars().next();
        let abbr: String = f[0]
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .take(3)
            .collect::<String>()
            .to_ascii_uppercase();
        let abbr = if m.powers.iter().any(|p| p.abbr == abbr) {
            format!("{abbr}{}", m.powers.len())
        } else {
            abbr
        };
        let colour = f[2].to_ascii_lowercase();
        m.powers.push(MPower {
            abbr: abbr.clone(),
            name: f[0].to_string(),
            adjective: f[1].to_string(),
            colour: (!colour.is_empty() && colour.chars().all(|c| c.is_ascii_alphanumeric() || c == '#'))
                .then_some(colour),
            initial,
            pattern: (!f[3].is_empty()).then(|| f[3].to_string()),
            aliases: Vec::new(),
            src: (fi, l),
        });
        if let Some(homes) = f.get(5) {
            for h in homes.split_whitespace() {
                let pi = m
                    .find_province(h)
                    .ok_or_else(|| err(&file, l, format!("unknown home centre `{h}`")))?;
                m.provinces[pi].homes.push(abbr.clone());
            }
        }
    }
    Ok(())
}

fn power_abbr(m: &Model, name: &str) -> Option<String> {
    m.powers
        .iter()
        .find(|p| {
            p.name.eq_ignore_ascii_case(name)
                || p.abbr.eq_ignore_ascii_case(name)
                || p.adjective.eq_ignore_ascii_case(name)
        })
        .map(|p| p.abbr.clone())
}

/// `.gam`: `SEASON YEAR [KIND]`; `Country: A abbr, F abbr/nc, ...` lines;
/// after `-1`, `Country: centre centre ...` lines (the starting owners).
fn read_gam(m: &mut Model, text: &str, fi: usize) -> Result<(), VariantError> {
    let file = m.files[fi].clone();
    let mut section = 0;
    let mut owners = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let l = i + 1;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if line == "-1" {
            section += 1;
            continue;
        }
        let Some((who, rest)) = line.split_once(':') else {
            let ws: Vec<&str> = line.split_whitespace().collect();
            let season = ws.first().map(|s| s.to_ascii_lowercase());
            let year = ws.get(1).and_then(|y| y.parse().ok());
            match (season.as_deref(), year) {
                (Some("spring"), Some(y)) => (m.season, m.year) = (Season::Spring, y),
                (Some("fall" | "autumn"), Some(y)) => (m.season, m.year) = (Season::Fall, y),
                (Some("winter"), Some(y)) => (m.season, m.year, m.kind) = (Season::Fall, y, PhaseKind::Adjustment),
                _ => {
                    return Err(err(
                        &file,
                        l,
                        format!("expected `SEASON YEAR` or `Country: ...`, found `{line}`"),
                    ))
                }
            }
            continue;
        };
        let pw = power_abbr(m, who.trim()).ok_or_else(|| err(&file, l, format!("unknown country `{}`", who.trim())))?;
        if section == 0 {
            for u in rest.split(',').map(str::trim).filter(|u| !u.is_empty()) {
                let ws: Vec<&str> = u.split_whitespace().collect();
                let [t, r] = ws.as_slice() else {
                    return Err(err(
                        &file,
                        l,
                        format!("expected a unit like `A bud` or `F stp/sc`, found `{u}`"),
                    ));
                };
                let letter = t.chars().next().unwrap_or('A').to_ascii_uppercase();
                m.units.push(MUnit {
                    power: pw.clone(),
                    letter,
                    region: r.to_ascii_lowercase(),
                    src: (fi, l),
                });
            }
        } else {
            for c in rest.split([',', ' ']).filter(|c| !c.is_empty()) {
                if m.find_province(c).is_none() {
                    return Err(err(&file, l, format!("unknown supply centre `{c}`")));
                }
                owners.push((pw.clone(), c.to_ascii_lowercase()));
            }
        }
    }
    if section > 0 {
        m.owners = Some(owners);
    }
    Ok(())
}

/// `.rgn`: unit and name positions of every space (in the order of the
/// `.map` file) and of its coasts; the scanlines are skipped.
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
        let mut parts = Vec::new();
        parts.push(1 + m.provinces[pi].coasts.len());
        for k in 0..parts[0] {
            let (l, unit) = next("a unit position `x,y`", &mut i)?;
            let nums: Vec<&str> = unit.split(',').collect();
            let at =
                pair(&unit).ok_or_else(|| err(&file, l, format!("expected a unit position `x,y`, found `{unit}`")))?;
            if k == 0 {
                m.provinces[pi].at = Some(at);
                if nums.len() == 4 {
                    let fleet = pair(&format!("{},{}", nums[2], nums[3]));
                    if let (Some(f), Some(c)) = (fleet, m.provinces[pi].coasts.first_mut()) {
                        c.1 = Some(f);
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
            for _ in 0..n {
                let (l, s) = next("a scanline `x y length`", &mut i)?;
                if s.split_whitespace().count() != 3 || s.split_whitespace().any(|w| w.parse::<i64>().is_err()) {
                    return Err(err(&file, l, format!("expected a scanline `x y length`, found `{s}`")));
                }
            }
        }
    }
    Ok(())
}

/// Writes a model as Realpolitik files into a folder: NAME.var, .map,
/// .cnt, .gam, .rgn, .txt. Returns (file name, text) pairs.
pub fn write(m: &Model) -> Vec<(String, String)> {
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
        ("Flags", if wings { "4".into() } else { "0".into() }),
    ] {
        var.push_str(&format!("{k}: {v}\n"));
    }
    let mut map = String::new();
    for p in &m.provinces {
        let t = match p.terrain {
            Terrain::Sea => 'w',
            Terrain::Impassable => 'x',
            _ => 'l',
        };
        let al: Vec<String> = p.aliases.iter().map(|a| a.replace(' ', "_")).collect();
        map.push_str(&format!("{}, {t} {} {}\n", p.name, p.abbr, al.join(" ")).replace(" \n", "\n"));
    }
    map.push_str("-1\n");
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
    map.push_str("-1\n");
    let centres: Vec<&str> = m
        .provinces
        .iter()
        .filter(|p| p.center)
        .map(|p| p.abbr.as_str())
        .collect();
    map.push_str(&centres.join(" "));
    map.push('\n');
    let mut cnt = String::from("1\n");
    cnt.push_str(&format!("{}\n", m.powers.len()));
    for p in &m.powers {
        let homes: Vec<&str> = m
            .provinces
            .iter()
            .filter(|q| q.homes.contains(&p.abbr))
            .map(|q| q.abbr.as_str())
            .collect();
        cnt.push_str(&format!(
            "{}, {}, {}, {}, {}, {}\n",
            p.name,
            p.adjective,
            p.colour.clone().unwrap_or_default(),
            p.pattern.clone().unwrap_or_default(),
            p.initial.unwrap_or_else(|| p.name.chars().next().unwrap_or('?')),
            homes.join(" ")
        ));
    }
    let mut gam = String::new();
    let season = match (m.season, m.kind) {
        (_, PhaseKind::Adjustment) => "Winter",
        (Season::Spring, _) => "Spring",
        (Season::Fall, _) => "Fall",
    };
    gam.push_str(&format!("{season} {}\n", m.year));
    for p in &m.powers {
        let us: Vec<String> = m
            .units
            .iter()
            .filter(|u| u.power == p.abbr)
            .map(|u| format!("{} {}", u.letter, u.region))
            .collect();
        gam.push_str(&format!("{}: {}\n", p.name, us.join(", ")));
    }
    gam.push_str("-1\n");
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
        gam.push_str(&format!("{}: {}\n", p.name, cs.join(" ")));
    }
    let mut rgn = format!("Variant\n{}\n", m.title);
    let xy = |p: Option<(f32, f32)>| {
        p.map(|(x, y)| format!("{},{}", x.round(), y.round()))
            .unwrap_or_else(|| "0,0".into())
    };
    for p in &m.provinces {
        rgn.push_str(&format!("# {}\n{}\n{}\n0\n", p.name, xy(p.at), xy(p.label.or(p.at))));
        for (_, at) in &p.coasts {
            rgn.push_str(&format!("{}\n0\n", xy(at.or(p.at))));
        }
    }
    let txt = m.description.join("\n\n") + "\n";
    vec![
        (format!("{n}.var"), var),
        (format!("{n}.map"), map),
        (format!("{n}.cnt"), cnt),
        (format!("{n}.gam"), gam),
        (format!("{n}.rgn"), rgn),
        (format!("{n}.txt"), txt),
    ]
}
