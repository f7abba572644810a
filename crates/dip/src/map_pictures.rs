//! A converted variant's map pictures: Realpolitik finds its maps by the
//! `.var` file's `ColorMap:` and `BWMap:` names, to which "RealWorld will
//! append the appropriate" extension (`.bmp`, `.pct`). `dip variant convert
//! --to realpolitik` writes `ColorMap: NAME` and `BWMap: NAMEBW`, so the
//! pictures go with it under those names.

use anyhow::{anyhow, Result};
use dip_variants::Model;
use std::path::{Path, PathBuf};

/// The map pictures to write next to a converted Realpolitik variant in
/// `out`: (file, bytes). A BMP or PICT goes as it is, another picture (a
/// PNG) as a BMP, the Windows edition's format. A picture the variant
/// names but does not have is a note on stderr, as `variant check` says.
pub fn for_realpolitik(model: &Model, source: &str, out: &Path) -> Result<Vec<(PathBuf, Vec<u8>)>> {
    // Pictures are named relative to the variant's own file.
    let base = model.files.first().map(String::as_str).unwrap_or(source);
    let base = Path::new(base).parent().unwrap_or(Path::new("."));
    let mut files = Vec::new();
    for (kind, file) in &model.pictures {
        let stem = match kind.as_str() {
            "colour" => model.name.clone(),
            "bw" => format!("{}BW", model.name),
            _ => continue,
        };
        let from = base.join(file);
        let Ok(bytes) = std::fs::read(&from) else {
            eprintln!(
                "note: the {kind} map `{}` is not there: the converted variant has none",
                from.display()
            );
            continue;
        };
        let (ext, bytes) = if bytes.starts_with(b"BM") {
            ("bmp", bytes)
        } else if !bytes.starts_with(b"\x89PNG") && dip_render::pict::is_pict(&bytes) {
            ("pct", bytes)
        } else {
            let pm = dip_render::raster::decode_picture(&bytes).map_err(|e| anyhow!("{}: {e}", from.display()))?;
            ("bmp", dip_render::raster::encode_bmp(&pm, None))
        };
        files.push((out.join(format!("{stem}.{ext}")), bytes));
    }
    Ok(files)
}
