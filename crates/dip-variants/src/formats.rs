//! Reading and writing variants in every supported format.

use std::path::{Path, PathBuf};

use crate::model::Model;
use crate::{Variant, VariantError};

/// A variant file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// dip's `.variant` file.
    Native,
    /// A DipWork folder: VARIANT.TXT, FIELDS.TXT, GAME.TXT.
    DipWork,
    /// A DPjudge / MILA `.map` file.
    DpJudge,
    /// A Realpolitik `.var` file and the files it names.
    Realpolitik,
    /// A jDip variant plugin: a folder holding variants.xml, or its zip.
    Jdip,
}

impl Format {
    pub fn parse(s: &str) -> Option<Format> {
        match s.to_ascii_lowercase().as_str() {
            "native" | "variant" | "dip" => Some(Format::Native),
            "dipwork" => Some(Format::DipWork),
            "dpjudge" | "mila" => Some(Format::DpJudge),
            "realpolitik" | "rp" => Some(Format::Realpolitik),
            "jdip" => Some(Format::Jdip),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Format::Native => "native",
            Format::DipWork => "dipwork",
            Format::DpJudge => "dpjudge",
            Format::Realpolitik => "realpolitik",
            Format::Jdip => "jdip",
        }
    }
}

fn is_dipwork(path: &Path) -> bool {
    let named = |p: &Path, n: &str| {
        p.file_name()
            .and_then(|f| f.to_str())
            .is_some_and(|f| f.eq_ignore_ascii_case(n))
    };
    if path.is_dir() {
        return std::fs::read_dir(path)
            .map(|rd| rd.flatten().any(|e| named(&e.path(), "VARIANT.TXT")))
            .unwrap_or(false);
    }
    named(path, "VARIANT.TXT")
}

/// Which format a path is in, by its name and (for `.map`) its contents.
pub fn detect(path: &str) -> Option<Format> {
    let p = Path::new(path);
    if crate::jdip::is_plugin_path(path) {
        return Some(Format::Jdip);
    }
    if is_dipwork(p) {
        return Some(Format::DipWork);
    }
    let ext = p.extension().and_then(|e| e.to_str()).map(|e| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("variant") => Some(Format::Native),
        Some("map") => Some(Format::DpJudge),
        Some("var") => Some(Format::Realpolitik),
        _ => None,
    }
}

/// Reads any supported format into a model (a plugin variant by its name
/// alone only with [`read_model_in`]).
pub fn read_model(path: &str) -> Result<(Model, Format), VariantError> {
    read_model_in(path, &[])
}

/// [`read_model`], and a variant name in the jDip plugins under `search`.
pub fn read_model_in(path: &str, search: &[PathBuf]) -> Result<(Model, Format), VariantError> {
    if let Some((_, text)) = crate::bundled()
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(path.trim()))
    {
        let v = crate::parse(text, &format!("variants/{path}.variant"))?;
        return Ok((Model::from_variant(&v), Format::Native));
    }
    let format = detect(path).ok_or_else(|| VariantError {
        file: path.to_string(),
        line: 0,
        message: "unknown variant format (expected a bundled name, a .variant file, a DipWork folder or VARIANT.TXT, a Realpolitik .var file, a DPjudge .map file, a jDip plugin folder or zip, or a variant name in a plugin under --variants)".into(),
    });
    let format = match format {
        Ok(f) => f,
        Err(e) => {
            if !Path::new(path).exists() {
                if let Some(found) = crate::jdip::find_in(search, path) {
                    return Ok((found?.1.model, Format::Jdip));
                }
            }
            return Err(e);
        }
    };
    let m = match format {
        Format::Native => {
            let v = crate::load_in(path, search)?;
            Model::from_variant(&v)
        }
        Format::DipWork => crate::dipwork::read_dir(path)?,
        Format::DpJudge => crate::dpjudge::read_file(path)?,
        Format::Realpolitik => crate::realpolitik::read(path)?,
        Format::Jdip => crate::jdip::load_path(path)?.1.model,
    };
    Ok((m, format))
}

/// A bundled name or a file in any supported format.
pub fn load_any(path: &str) -> Result<Variant, VariantError> {
    load_any_in(path, &[])
}

/// [`load_any`], and a variant name in the jDip plugins under `search`.
pub fn load_any_in(path: &str, search: &[PathBuf]) -> Result<Variant, VariantError> {
    match detect(path) {
        Some(Format::DipWork | Format::DpJudge | Format::Realpolitik | Format::Jdip) => {
            let (m, _) = read_model(path)?;
            m.build(path)
        }
        _ => crate::load_in(path, search),
    }
}

/// The files a model becomes in a format, with their contents: one file
/// for native and DPjudge (at `out`), a folder's files for DipWork and
/// Realpolitik (inside `out`). Nothing is written.
pub fn outputs(m: &Model, format: Format, out: &Path) -> Vec<(PathBuf, String)> {
    match format {
        Format::Native => vec![(out.to_path_buf(), m.to_native())],
        Format::DpJudge => vec![(out.to_path_buf(), crate::dpjudge::write(m))],
        Format::Realpolitik => crate::realpolitik::write(m)
            .into_iter()
            .map(|(name, text)| (out.join(name), text))
            .collect(),
        Format::Jdip => crate::jdip::write(m)
            .into_iter()
            .map(|(name, text)| (out.join(name), text))
            .collect(),
        Format::DipWork => {
            let mut m = m.clone();
            if let Ok(v) = m.build("variant") {
                m.fill_clockwise(&v);
            }
            let (v, f, g) = crate::dipwork::write(&m);
            vec![
                (out.join("VARIANT.TXT"), v),
                (out.join("FIELDS.TXT"), f),
                (out.join("GAME.TXT"), g),
            ]
        }
    }
}

/// Writes a model in a format: a file for native and DPjudge, a folder for
/// DipWork and Realpolitik. Returns the files written.
pub fn write(m: &Model, format: Format, out: &Path) -> std::io::Result<Vec<PathBuf>> {
    let files = outputs(m, format, out);
    if matches!(format, Format::DipWork | Format::Realpolitik | Format::Jdip) {
        std::fs::create_dir_all(out)?;
    }
    // DipWork's and Realpolitik's files go back in the encoding they came
    // in (umlauts stay readable to DOS and Windows programs).
    let enc = match format {
        Format::DipWork | Format::Realpolitik => m.encoding,
        _ => crate::files::Encoding::Utf8,
    };
    for (f, text) in &files {
        std::fs::write(f, crate::files::encode(text, enc))?;
    }
    Ok(files.into_iter().map(|(f, _)| f).collect())
}

/// Borders (`TYPE from-to[:flags]`), home centres (`home PROV of POWER`)
/// and border rules (`border-rule …`) of the model that a format cannot
/// carry: what is missing when the written files are read back.
pub fn lost_in(m: &Model, format: Format) -> Vec<String> {
    let Ok(before) = m.build("variant") else {
        return Vec::new();
    };
    let after = match format {
        Format::Native => return Vec::new(),
        Format::DpJudge => crate::dpjudge::read_str(&crate::dpjudge::write(m), "x.map").and_then(|m| m.build("x.map")),
        Format::DipWork => {
            let (v, f, g) = crate::dipwork::write(m);
            crate::dipwork::read_params(&v, "VARIANT.TXT")
                .and_then(|p| {
                    crate::dipwork::read(&p, "VARIANT.TXT", &f, "FIELDS.TXT", Some((&g, "GAME.TXT")), &m.name)
                })
                .and_then(|m| m.build("x"))
        }
        Format::Jdip => crate::jdip::Plugin::from_memory(
            "x.zip",
            crate::jdip::write(m)
                .into_iter()
                .map(|(n, t)| (n, t.into_bytes()))
                .collect(),
        )
        .and_then(|p| {
            let name = p.variants.first().map(|v| v.0.clone()).unwrap_or_default();
            p.variant(&name)
        })
        .and_then(|v| v.model.build("x.zip")),
        Format::Realpolitik => {
            let dir = std::env::temp_dir().join(format!("dip-lost-{}-{}", std::process::id(), m.name));
            let res = write(m, format, &dir)
                .map_err(|e| VariantError {
                    file: dir.display().to_string(),
                    line: 0,
                    message: e.to_string(),
                })
                .and_then(|_| load_any(&dir.join(format!("{}.var", m.name)).to_string_lossy()));
            let _ = std::fs::remove_dir_all(&dir);
            res
        }
    };
    let Ok(after) = after else {
        return vec!["the written files do not read back".into()];
    };
    let set = |v: &Variant| {
        let map = &v.map;
        let mut out = std::collections::BTreeSet::new();
        for ut in map.unit_type_ids() {
            for r in 0..map.num_regions() {
                let from = dip_core::RegionId(r as u16);
                for e in map.edges(ut, from) {
                    let mut s = format!(
                        "{} {}-{}",
                        map.unit_type(ut).letter,
                        map.region_name(from).to_lowercase(),
                        map.region_name(e.to).to_lowercase()
                    );
                    for (f, n) in [
                        (dip_core::map::EdgeFlags::WEAK_MOVE, ":mx"),
                        (dip_core::map::EdgeFlags::NO_RETREAT, ":hx"),
                        (dip_core::map::EdgeFlags::CANAL, ":canal"),
                    ] {
                        if e.flags.has(f) {
                            s.push_str(n);
                        }
                    }
                    out.insert(s);
                }
            }
        }
        out
    };
    let homes = |v: &Variant| {
        let map = &v.map;
        let mut out = std::collections::BTreeSet::new();
        for &c in map.supply_centers() {
            let p = map.province(c);
            for h in p.homes.iter() {
                out.insert(format!("home {} of {}", p.abbr.to_lowercase(), map.power(h).name));
            }
            if p.home_of_all {
                out.insert(format!("home {} of all", p.abbr.to_lowercase()));
            }
        }
        out
    };
    let rules = |v: &Variant| {
        v.map
            .border_rules()
            .iter()
            .map(|r| crate::MBorderRule::from_rule(&v.map, r).to_line())
            .collect::<std::collections::BTreeSet<String>>()
    };
    let a = set(&after);
    let mut lost: Vec<String> = set(&before).difference(&a).cloned().collect();
    lost.extend(homes(&before).difference(&homes(&after)).cloned());
    lost.extend(rules(&before).difference(&rules(&after)).cloned());
    lost
}

/// Reads a text file of an older program: UTF-8 when it is valid UTF-8,
/// else ISO-8859-1 (the umlauts of DipWork's and Realpolitik's files), with
/// DOS line ends and a final Ctrl-Z removed.
pub fn read_legacy_text(path: impl AsRef<Path>) -> std::io::Result<String> {
    read_legacy_text_encoded(path).map(|(t, _)| t)
}

/// [`read_legacy_text`] with the encoding found (UTF-8, Latin-1 or a DOS
/// code page, as `dip run` reads game files: the two agree on umlauts).
pub fn read_legacy_text_encoded(path: impl AsRef<Path>) -> std::io::Result<(String, crate::files::Encoding)> {
    let path = path.as_ref();
    let bytes = crate::files::read_bytes_capped(path, crate::files::MAX_TEXT_BYTES)
        .map_err(|m| std::io::Error::new(std::io::ErrorKind::InvalidData, m))?;
    let (text, enc) = crate::files::decode_any(bytes);
    Ok((text.replace("\r\n", "\n").trim_end_matches('\u{1a}').to_string(), enc))
}
