//! The variants games are played on: bundled variants, loaded once and
//! kept for the life of the process together with their order vocabulary
//! (building a vocabulary costs more than reading a turn's orders).

use dip_text::Vocabulary;
use dip_variants::Variant;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// A variant with its words.
pub struct Loaded {
    pub variant: &'static Variant,
    pub vocab: Vocabulary<'static>,
}

static CACHE: OnceLock<Mutex<HashMap<String, &'static Loaded>>> = OnceLock::new();

/// The names of the variants a game may use.
pub fn names() -> Vec<&'static str> {
    dip_variants::bundled().iter().map(|(n, _)| *n).collect()
}

/// A bundled variant by name (case-insensitive). Each is loaded once and
/// never freed: there are a few dozen at most.
pub fn get(name: &str) -> Result<&'static Loaded, String> {
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
    let variant: &'static Variant = Box::leak(Box::new(dip_variants::load(&key).map_err(|e| e.to_string())?));
    let mut vocab = Vocabulary::new(&variant.map);
    vocab
        .apply_lists(&variant.word_lists(), true)
        .map_err(|e| format!("the variant's word lists: {e}"))?;
    let loaded: &'static Loaded = Box::leak(Box::new(Loaded { variant, vocab }));
    let mut map = cache.lock().unwrap_or_else(|p| p.into_inner());
    Ok(*map.entry(key).or_insert(loaded))
}
