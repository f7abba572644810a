//! GAME.TXT's VARIANTPATH: a bundled variant, a variant in a jDip plugin
//! under the search paths of the `Variants` given (`--variants`), or a variant file or folder in the project folder
//! (where PROJECT.TXT stands: DipWork's working folder; without one, the
//! game folder's parent) or the game's folder. DipWork writes it with DOS's
//! `\` in any case (`variants\standard`). A game file names nothing
//! elsewhere on the machine (no absolute path, no `..`), as DPjudge's `MAP`
//! and a record's `variant` do not.

use dip_play::Variants;
use dip_variants::files::confined;
use dip_variants::Variant;
use std::path::{Path, PathBuf};

/// The folders a VARIANTPATH is looked up in: the project's, then the game's.
fn bases(game_dir: &Path, project_dir: Option<&Path>) -> Vec<PathBuf> {
    let project = project_dir
        .or_else(|| game_dir.parent())
        .map(|p| if p.as_os_str().is_empty() { Path::new(".") } else { p }.to_path_buf());
    let mut v: Vec<PathBuf> = project.into_iter().collect();
    v.push(game_dir.to_path_buf());
    v
}

/// A variant resolved from VARIANTPATH.
pub struct Resolved {
    pub variant: Variant,
    /// The variant file or folder read, when it was one on disk.
    pub path: Option<PathBuf>,
    /// A DipWork variant folder's parameter file (VARIANT.TXT, or the name
    /// FNVARIANT gives), whose keywords are game parameters too.
    pub params_file: Option<PathBuf>,
}

/// The variant VARIANTPATH names; `fnvariant` is the name of a DipWork
/// variant folder's parameter file (FNVARIANT, VARIANT.TXT by default).
pub fn resolve(
    game_dir: &Path,
    project_dir: Option<&Path>,
    value: &str,
    fnvariant: &str,
    variants: &Variants,
) -> Result<Resolved, String> {
    let name = value.trim();
    let plain = |variant| Resolved {
        variant,
        path: None,
        params_file: None,
    };
    if dip_variants::bundled()
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case(name))
    {
        return variants.load(name).map(plain).map_err(|e| e.to_string());
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
        confined(base, &portable).map_err(|_| {
            format!(
                "`{name}`: a variant named in a game file must be bundled or inside {} (no absolute path, no `..`)",
                where_()
            )
        })?;
        // Names in any case, as on DOS.
        if let Some(path) = dip_variants::files::find_dos_path(base, &portable) {
            return load_found(&path, fnvariant, variants);
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
    variants.load(name).map(plain).map_err(|e| e.to_string())
}

/// A variant file or folder found on disk; a DipWork folder is read with
/// its parameter file, which may have another name than VARIANT.TXT.
fn load_found(path: &Path, fnvariant: &str, variants: &Variants) -> Result<Resolved, String> {
    let params_file = path
        .is_dir()
        .then(|| dip_variants::files::find_dos_path(path, fnvariant))
        .flatten()
        .filter(|p| p.is_file());
    let variant = match &params_file {
        Some(f) if !fnvariant.eq_ignore_ascii_case("VARIANT.TXT") => {
            let f = f.to_string_lossy().to_string();
            dip_variants::dipwork::read_dir(&f).and_then(|m| m.build(&f))
        }
        _ => variants.load(&path.to_string_lossy()),
    }
    .map_err(|e| e.to_string())?;
    Ok(Resolved {
        variant,
        path: Some(path.to_path_buf()),
        params_file,
    })
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
