//! GAME.TXT's VARIANTPATH: a bundled variant, a variant in a jDip plugin
//! under `--variants`, or a variant file or folder in the game's folder or
//! its project folder (DipWork's CURRENTPATH, the game folder's parent). A
//! game file names nothing elsewhere on the machine (no absolute path, no
//! `..`), as DPjudge's `MAP` and a record's `variant` do not.

use dip_variants::files::confined;
use dip_variants::Variant;
use std::path::{Path, PathBuf};

/// The folders a VARIANTPATH is looked up in: the game's, then the project's.
fn bases(game_dir: &Path, project_dir: Option<&Path>) -> Vec<PathBuf> {
    let mut v = vec![game_dir.to_path_buf()];
    let project = project_dir
        .or_else(|| game_dir.parent())
        .map(|p| if p.as_os_str().is_empty() { Path::new(".") } else { p }.to_path_buf());
    v.extend(project);
    v
}

/// The variant VARIANTPATH names, and the file or folder it was read from.
pub fn resolve(game_dir: &Path, project_dir: Option<&Path>, value: &str) -> Result<(Variant, Option<PathBuf>), String> {
    let name = value.trim();
    if dip_variants::bundled()
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case(name))
    {
        return dip_variants::load(name).map(|v| (v, None)).map_err(|e| e.to_string());
    }
    // DipWork's games write `variants\mini`.
    let portable = if std::path::MAIN_SEPARATOR == '/' {
        name.replace('\\', "/")
    } else {
        name.to_string()
    };
    let bases = bases(game_dir, project_dir);
    let where_ = || {
        bases
            .iter()
            .map(|b| {
                if b.as_os_str().is_empty() {
                    ".".into()
                } else {
                    b.display().to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(" or ")
    };
    for base in &bases {
        let path = confined(base, &portable).map_err(|_| {
            format!(
                "`{name}`: a variant named in a game file must be bundled or inside {} (no absolute path, no `..`)",
                where_()
            )
        })?;
        if path.exists() {
            let v = dip_variants::load(&path.to_string_lossy()).map_err(|e| e.to_string())?;
            return Ok((v, Some(path)));
        }
    }
    if Path::new(&portable).exists() {
        return Err(format!(
            "`{name}`: not found in {}; a variant named in a game file must be there (or bundled)",
            where_()
        ));
    }
    // A variant in a jDip plugin under `--variants`, else the error that
    // lists the bundled variants.
    dip_variants::load(name).map(|v| (v, None)).map_err(|e| e.to_string())
}

/// What `dip new` writes as VARIANTPATH for `variant`: a bundled name or
/// plugin name as it is, a path relative to the game's folder or its
/// project folder; a variant elsewhere cannot be named by the game.
pub fn for_new_game(game_dir: &Path, variant: &str) -> Result<String, String> {
    let p = Path::new(variant);
    if dip_variants::bundled()
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case(variant.trim()))
        || !p.exists()
    {
        return Ok(variant.to_string());
    }
    let abs = std::fs::canonicalize(p).map_err(|e| format!("{variant}: {e}"))?;
    for base in bases(game_dir, None) {
        if let Ok(b) = std::fs::canonicalize(&base) {
            if let Ok(rel) = abs.strip_prefix(&b) {
                return Ok(rel.to_string_lossy().to_string());
            }
        }
    }
    Err(format!(
        "{variant}: a game names its variant inside its folder or the folder above it (the project folder); copy the variant there, or start the game there"
    ))
}
