//! Where variants come from: one [`Variants`] value, passed in, never a
//! process-wide static. It knows the bundled variants, the jDip plugin
//! folders given with `--variants`, whether files may be read at all, and
//! keeps every variant it loaded, with its order vocabulary, as a shared
//! [`Loaded`].

use dip_text::Vocabulary;
use dip_variants::formats::Format;
use dip_variants::jdip::{JdipVariant, Plugin};
use dip_variants::{Variant, VariantError};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

type Words<'m> = Vocabulary<'m>;

self_cell::self_cell!(
    struct Cell {
        owner: Arc<Variant>,
        #[covariant]
        dependent: Words,
    }
);

/// A variant with the words its orders are read with (the vocabulary
/// borrows the variant's map; building one costs more than reading a
/// turn, so it is built once and kept with the variant).
pub struct Loaded(Cell);

impl Loaded {
    /// The variant with its own words: its names and the word lists its
    /// file gives (nation spellings, unit and order words).
    pub fn new(variant: Arc<Variant>) -> Loaded {
        Loaded::new_with(variant, |map, v| {
            let mut words = Vocabulary::new(map);
            // The variant's lists were checked when it was read; a list
            // that does not apply leaves the names as they are.
            let _ = words.apply_lists(&v.word_lists(), true);
            words
        })
    }

    /// The variant with words made by `words` (a game's own lists,
    /// `EXACT_MATCH`, `SPELLCHECK`, DIP's fixnames).
    pub fn new_with(
        variant: Arc<Variant>,
        words: impl for<'m> FnOnce(&'m dip_core::Map, &Variant) -> Vocabulary<'m>,
    ) -> Loaded {
        Loaded(Cell::new(variant, |v| words(&v.map, v)))
    }

    /// As [`Loaded::new_with`], for words that may fail.
    pub fn try_with<E>(
        variant: Arc<Variant>,
        words: impl for<'m> FnOnce(&'m dip_core::Map, &Variant) -> Result<Vocabulary<'m>, E>,
    ) -> Result<Loaded, E> {
        Cell::try_new(variant, |v| words(&v.map, v)).map(Loaded)
    }

    pub fn variant(&self) -> &Variant {
        self.0.borrow_owner()
    }

    /// The shared variant (to build another [`Loaded`] with other words).
    pub fn variant_arc(&self) -> Arc<Variant> {
        self.0.borrow_owner().clone()
    }

    pub fn map(&self) -> &dip_core::Map {
        &self.0.borrow_owner().map
    }

    pub fn vocabulary(&self) -> &Vocabulary<'_> {
        self.0.borrow_dependent()
    }
}

impl std::fmt::Debug for Loaded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Loaded").field("variant", &self.variant().name).finish()
    }
}

/// The variants a program may play: bundled ones by name, and (unless
/// [`Variants::bundled_only`]) files and folders of every format dip reads
/// and jDip plugin variants by name under the search paths. Cheap to
/// clone: clones share one cache.
#[derive(Clone, Default)]
pub struct Variants {
    inner: Arc<Inner>,
}

#[derive(Default)]
struct Inner {
    search: Vec<PathBuf>,
    bundled_only: bool,
    /// By the name or path asked for (trimmed; bundled names in lower case).
    cache: Mutex<HashMap<String, Arc<Loaded>>>,
}

impl std::fmt::Debug for Variants {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Variants")
            .field("search", &self.inner.search)
            .field("bundled_only", &self.inner.bundled_only)
            .finish()
    }
}

impl Variants {
    /// Bundled variants, and any file or folder named.
    pub fn new() -> Variants {
        Variants::default()
    }

    /// As [`Variants::new`], with jDip plugins looked for under `paths`
    /// (the binary's `--variants`).
    pub fn with_search_paths(paths: impl IntoIterator<Item = PathBuf>) -> Variants {
        Variants {
            inner: Arc::new(Inner {
                search: paths.into_iter().collect(),
                ..Inner::default()
            }),
        }
    }

    /// Bundled variants only, and those [`Variants::insert`]ed: what a
    /// server offers, where a request must never make it read a file.
    pub fn bundled_only() -> Variants {
        Variants {
            inner: Arc::new(Inner {
                bundled_only: true,
                ..Inner::default()
            }),
        }
    }

    /// The jDip plugin search paths.
    pub fn search_paths(&self) -> &[PathBuf] {
        &self.inner.search
    }

    /// The names of the bundled variants.
    pub fn bundled_names(&self) -> Vec<&'static str> {
        dip_variants::bundled().iter().map(|(n, _)| *n).collect()
    }

    fn key(name_or_path: &str) -> String {
        let t = name_or_path.trim();
        if dip_variants::bundled().iter().any(|(n, _)| n.eq_ignore_ascii_case(t)) {
            t.to_ascii_lowercase()
        } else {
            t.to_string()
        }
    }

    /// A variant by bundled name, file or folder (native, DipWork,
    /// Realpolitik, DPjudge, jDip plugin, `PLUGIN#NAME`) or jDip plugin
    /// variant name; loaded once, then shared. A variant
    /// [`Variants::insert`]ed under a name comes before a bundled one.
    pub fn get(&self, name_or_path: &str) -> Result<Arc<Loaded>, VariantError> {
        let key = Variants::key(name_or_path);
        if let Some(l) = self.lock().get(&key) {
            return Ok(l.clone());
        }
        let bundled = dip_variants::bundled()
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(&key));
        if self.inner.bundled_only && !bundled {
            return Err(self.unknown(name_or_path));
        }
        let variant = dip_variants::load_in(name_or_path, &self.inner.search)?;
        let own = Variants::key(&variant.name);
        let loaded = Arc::new(Loaded::new(Arc::new(variant)));
        let mut cache = self.lock();
        // A variant read from a file is found again by its own name (what
        // a stored game names), unless that is a bundled variant's.
        if !dip_variants::bundled()
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(&own))
        {
            cache.entry(own).or_insert_with(|| loaded.clone());
        }
        Ok(cache.entry(key).or_insert(loaded).clone())
    }

    /// A variant of its own, read afresh (not kept): by bundled name, file
    /// or folder of any format, or jDip plugin variant name under this
    /// value's search paths; for a program that changes the variant (a
    /// game directory's, an edited map) or reads a file it was given. What
    /// [`Variants::bundled_only`] limits is [`Variants::get`], the look-up
    /// by a name a request sends.
    pub fn load(&self, name_or_path: &str) -> Result<Variant, VariantError> {
        dip_variants::load_in(name_or_path, &self.inner.search)
    }

    /// As [`Variants::load`], a folder or file in a foreign format read
    /// through its model (`dip variant`'s and `dip render`'s reader).
    pub fn load_any(&self, path: &str) -> Result<Variant, VariantError> {
        dip_variants::formats::load_any_in(path, &self.inner.search)
    }

    /// The editable model of a variant and the format it was read in.
    pub fn read_model(&self, path: &str) -> Result<(dip_variants::Model, Format), VariantError> {
        dip_variants::formats::read_model_in(path, &self.inner.search)
    }

    /// The jDip plugin variant a name or path means (`PLUGIN`,
    /// `PLUGIN#NAME`, or a name under the search paths); `None` for
    /// bundled names, other files and unknown names.
    pub fn plugin_variant(&self, spec: &str) -> Option<Result<(Plugin, JdipVariant), VariantError>> {
        dip_variants::jdip::lookup_in(&self.inner.search, spec)
    }

    /// The plugin variants a bundled name hides, each as `PLUGIN#NAME`.
    pub fn hidden_by_bundled(&self, name: &str) -> Vec<String> {
        dip_variants::jdip::hidden_by_bundled(&self.inner.search, name)
    }

    /// Every plugin under the search paths.
    pub fn plugin_paths(&self) -> Vec<PathBuf> {
        dip_variants::jdip::plugin_paths(&self.inner.search)
    }

    fn unknown(&self, name_or_path: &str) -> VariantError {
        VariantError {
            file: name_or_path.trim().to_string(),
            line: 0,
            message: format!("unknown variant: choose one of {}", self.bundled_names().join(", ")),
        }
    }

    /// Keeps `variant` under `name` (and its own name), before any bundled
    /// variant of that name: a variant a program was given on its command
    /// line, a case file's plugin variant.
    pub fn insert(&self, name: &str, variant: Variant) -> Arc<Loaded> {
        let own = variant.name.clone();
        let loaded = Arc::new(Loaded::new(Arc::new(variant)));
        let mut cache = self.lock();
        cache.insert(Variants::key(name), loaded.clone());
        cache.entry(Variants::key(&own)).or_insert_with(|| loaded.clone());
        loaded
    }

    /// Keeps `variant` under each of `names`, before whatever was kept
    /// under them (a bundled variant included): a variant a server was
    /// given on its command line, found by the name or path given and by
    /// its own name.
    pub fn insert_as(&self, names: &[&str], variant: Variant) -> Arc<Loaded> {
        let loaded = Arc::new(Loaded::new(Arc::new(variant)));
        let mut cache = self.lock();
        for name in names {
            cache.insert(Variants::key(name), loaded.clone());
        }
        loaded
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Loaded>>> {
        self.inner.cache.lock().unwrap_or_else(|p| p.into_inner())
    }
}
