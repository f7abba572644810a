//! The variants games are played on: bundled variants, loaded once and
//! kept for the life of the process together with their order vocabulary
//! (building a vocabulary costs more than reading a turn's orders).

use dip_text::Vocabulary;
use dip_variants::Variant;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// A variant with its words, and its map's picture once it is drawn.
pub struct Loaded {
    pub variant: &'static Variant,
    pub vocab: Vocabulary<'static>,
    /// Built on first use and kept: a map without a shapes file grows its
    /// shapes, which took a second a page for World in a debug build.
    picture: OnceLock<dip_render::Picture<'static>>,
}

impl Loaded {
    /// The variant's picture, for every map the server draws of it.
    pub fn picture(&self) -> &dip_render::Picture<'static> {
        self.picture.get_or_init(|| dip_render::Picture::new(self.variant))
    }
}

static CACHE: OnceLock<Mutex<HashMap<String, &'static Loaded>>> = OnceLock::new();

/// Variants this process was given on its command line (`dip daide
/// --variant PATH`), by the name or path given. Never filled from a
/// request: an API client must not make the server read files.
static LOCAL: OnceLock<Mutex<HashMap<String, &'static Loaded>>> = OnceLock::new();

/// The names of the variants a game may use.
pub fn names() -> Vec<&'static str> {
    dip_variants::bundled().iter().map(|(n, _)| *n).collect()
}

/// A bundled variant by name (case-insensitive). Each is loaded once and
/// never freed: there are a few dozen at most.
pub fn get(name: &str) -> Result<&'static Loaded, String> {
    // A variant of the command line comes first: its file may differ from
    // the bundled variant of the same name.
    if let Some(l) = LOCAL
        .get()
        .and_then(|m| m.lock().unwrap_or_else(|p| p.into_inner()).get(name.trim()).copied())
    {
        return Ok(l);
    }
    let key = name.trim().to_ascii_lowercase();
    if !names().iter().any(|n| n.eq_ignore_ascii_case(&key)) {
        return Err(format!(
            "unknown variant `{name}`: choose one of {}",
            names().join(", ")
        ));
    }
    let cache = CACHE.get_or_init(Default::default);
    if let Some(l) = cache.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
        return Ok(l);
    }
    let loaded = leak(dip_variants::load(&key).map_err(|e| e.to_string())?)?;
    let mut map = cache.lock().unwrap_or_else(|p| p.into_inner());
    Ok(*map.entry(key).or_insert(loaded))
}

/// Makes any variant dip loads (a bundled name, a variant file or folder
/// of any format, a jDip plugin's variant by name under `--variants`)
/// playable in this process: `get` then finds it by `name_or_path` and by
/// the variant's own name (which games store), before any bundled
/// variant of that name. For the command line only (`dip daide
/// --variant`).
pub fn register(name_or_path: &str) -> Result<&'static Loaded, String> {
    if let Ok(l) = get(name_or_path) {
        return Ok(l);
    }
    let loaded = leak(dip_variants::load(name_or_path).map_err(|e| e.to_string())?)?;
    let local = LOCAL.get_or_init(Default::default);
    let mut map = local.lock().unwrap_or_else(|p| p.into_inner());
    map.insert(loaded.variant.name.trim().to_string(), loaded);
    map.insert(name_or_path.trim().to_string(), loaded);
    Ok(loaded)
}

fn leak(variant: Variant) -> Result<&'static Loaded, String> {
    let variant: &'static Variant = Box::leak(Box::new(variant));
    let mut vocab = Vocabulary::new(&variant.map);
    vocab
        .apply_lists(&variant.word_lists(), true)
        .map_err(|e| format!("the variant's word lists: {e}"))?;
    Ok(Box::leak(Box::new(Loaded {
        variant,
        vocab,
        picture: OnceLock::new(),
    })))
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
