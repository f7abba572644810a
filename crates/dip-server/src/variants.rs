//! The variants games are played on: the server's [`Variants`] (bundled
//! variants, and those its command line gave), a value of its `AppState`
//! passed to whatever reads a game, never a static of the process. Each
//! variant is loaded once per `Variants` and kept with its order
//! vocabulary (building one costs more than reading a turn's orders).

use dip_play::{Loaded, Variants};
use dip_variants::Variant;
use std::sync::Arc;

/// The names of the variants a game may use.
pub fn names() -> Vec<&'static str> {
    dip_variants::bundled().iter().map(|(n, _)| *n).collect()
}

/// What a server plays: bundled variants, and those [`register`]ed. A
/// request never makes it read a file.
pub fn for_server() -> Variants {
    Variants::bundled_only()
}

/// A variant of `variants` by name: one [`register`]ed under that name
/// (its file may differ from the bundled variant of the same name), else
/// a bundled one (any case).
pub fn get(variants: &Variants, name: &str) -> Result<Arc<Loaded>, String> {
    variants.get(name).map_err(|e| {
        if names().iter().any(|n| n.eq_ignore_ascii_case(name.trim())) {
            e.to_string()
        } else {
            format!("unknown variant `{name}`: choose one of {}", names().join(", "))
        }
    })
}

/// Makes any variant dip loads (a bundled name, a variant file or folder
/// of any format, a jDip plugin's variant by name under the search paths
/// of `from`, the command line's `--variants`) playable on `variants`:
/// [`get`] then finds it by `name_or_path` and by the variant's own name
/// (which games store), before any bundled variant of that name. For the
/// command line only (`dip daide --variant`).
pub fn register(variants: &Variants, name_or_path: &str, from: &Variants) -> Result<Arc<Loaded>, String> {
    if let Ok(l) = get(variants, name_or_path) {
        return Ok(l);
    }
    let variant = dip_variants::load_in(name_or_path, from.search_paths()).map_err(|e| e.to_string())?;
    // Its lists were checked when it was read; they must also apply.
    dip_text::Vocabulary::new(&variant.map)
        .apply_lists(&variant.word_lists(), true)
        .map_err(|e| format!("the variant's word lists: {e}"))?;
    Ok(variants.insert_as(&[name_or_path, &variant.name.clone()], variant))
}

/// Can bots play this variant? DAIDE has two unit types, AMY and FLT: a
/// variant whose games may hold others (a jDip plugin's wings) would
/// show them as armies that no order can reach, and its games would
/// never end. Types no game holds (DipWork's convoy pseudo-unit) do not
/// matter. (Here, not in the DAIDE adapter: the lobby asks it of a game
/// created with `"daide": true`.)
pub fn daide_playable(variant: &Variant) -> Result<(), String> {
    let map = &variant.map;
    let other = |k: dip_core::UnitTypeId| !matches!(map.unit_type(k).letter, 'A' | 'F');
    let in_play = map
        .unit_type_ids()
        .filter(|&k| other(k))
        .find(|&k| map.unit_type(k).builds_on.0 != 0 || variant.start.units().any(|(_, u)| u.kind == k));
    match in_play {
        Some(k) => Err(format!(
            "DAIDE knows armies and fleets only; this variant has {} ({}) too",
            map.unit_type(k).name,
            map.unit_type(k).letter
        )),
        None => Ok(()),
    }
}

/// The standard variant, loaded once for the unit tests of this crate.
#[cfg(test)]
pub fn standard_for_tests() -> Arc<Loaded> {
    static STANDARD: std::sync::OnceLock<Arc<Loaded>> = std::sync::OnceLock::new();
    STANDARD
        .get_or_init(|| get(&for_server(), "standard").expect("the bundled standard variant"))
        .clone()
}
