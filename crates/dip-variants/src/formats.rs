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
}

impl Format {
    pub fn parse(s: &str) -> Option<Format> {
        match s.to_ascii_lowercase().as_str() {
            "native" | "variant" | "dip" => Some(Format::Native),
            "dipwork" => Some(Format::DipWork),
            "dpjudge" | "mila" => Some(Format::DpJudge),
            "realpolitik" | "rp" => Some(Format::Realpolitik),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Format::Native => "native",
            Format::DipWork => "dipwork",
            Format::DpJudge => "dpjudge",
            Format::Realpolitik => "realpolitik",
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

/// Reads any supported format into a model.
pub fn read_model(path: &str) -> Result<(Model, Format), VariantError> {
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
        message: "unknown variant format (expected a bundled name, a .variant file, a DipWork folder or VARIANT.TXT, a Realpolitik .var file or a DPjudge .map file)".into(),
    })?;
    let m = match format {
        Format::Native => {
            let v = crate::load(path)?;
            Model::from_variant(&v)
        }
        Format::DipWork => crate::dipwork::read_dir(path)?,
        Format::DpJudge => crate::dpjudge::read_file(path)?,
        Format::Realpolitik => crate::realpolitik::read(path)?,
    };
    Ok((m, format))
}

/// A bundled name or a file in any supported format.
pub fn load_any(path: &str) -> Result<Variant, VariantError> {
    match detect(path) {
        Some(Format::DipWork | Format::DpJudge | Format::Realpolitik) => {
            let (m, _) = read_model(path)?;
            m.build(path)
        }
        _ => crate::load(path),
    }
}

/// Writes a model in a format: a file for native and DPjudge, a folder for
/// DipWork and Realpolitik. Returns the files written.
pub fn write(m: &Model, format: Format, out: &Path) -> std::io::Result<Vec<PathBuf>> {
    match format {
        Format::Native => {
            std::fs::write(out, m.to_native())?;
            Ok(vec![out.to_path_buf()])
        }
        Format::DpJudge => {
            std::fs::write(out, crate::dpjudge::write(m))?;
            Ok(vec![out.to_path_buf()])
        }
        Format::Realpolitik => {
            std::fs::create_dir_all(out)?;
            let mut files = Vec::new();
            for (name, text) in crate::realpolitik::write(m) {
                let f = out.join(name);
                std::fs::write(&f, text)?;
                files.push(f);
            }
            Ok(files)
        }
        Format::DipWork => {
            std::fs::create_dir_all(out)?;
            let mut m = m.clone();
            if let Ok(v) = m.build("variant") {
                m.fill_clockwise(&v);
            }
            let (v, f, g) = crate::dipwork::write(&m);
            let files = vec![out.join("VARIANT.TXT"), out.join("FIELDS.TXT"), out.join("GAME.TXT")];
            std::fs::write(&files[0], v)?;
            std::fs::write(&files[1], f)?;
            std::fs::write(&files[2], g)?;
            Ok(files)
        }
    }
}
