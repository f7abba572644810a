//! dip-variants: dip's native variant format (docs/variant-format.md), its
//! parser, and the variants bundled with dip.
//!
//! ```
//! let v = dip_variants::standard();
//! assert_eq!(v.map.supply_centers().len(), 34);
//! let lon = v.map.find_province("London").unwrap();
//! assert_eq!(v.map.province(lon).abbr, "lon");
//! ```

#![forbid(unsafe_code)]

pub mod border_rules;
pub mod colour;
pub mod dipwork;
pub mod dpjudge;
pub mod files;
pub mod formats;
pub mod generate;
pub mod jdip;
mod lex;
pub mod lint;
mod model;
mod parse;
pub mod realpolitik;
pub mod seismic;

pub use model::{MBorderRule, MEdge, MPower, MProvince, MUnit, Model, Src};

/// The native text of a variant (docs/variant-format.md).
pub fn to_native(v: &Variant) -> String {
    Model::from_variant(v).to_native()
}

/// A variant: its map, starting position and default rules.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Short name (`standard`).
    pub name: String,
    /// Title for people (`Standard Diplomacy`).
    pub title: String,
    pub map: dip_core::Map,
    /// The position the game starts from.
    pub start: dip_core::State,
    /// The rules the variant is played with unless told otherwise.
    pub rules: dip_core::Ruleset,
    /// Free text from the `description` lines, one line each.
    pub description: String,
    /// How each power is drawn, indexed like `map.powers()`.
    pub power_styles: Vec<PowerStyle>,
    /// The text of the `rules` line (`datc` when none was given).
    pub rules_text: String,
    /// The unit type whose borders define convoy steps (`convoy-unit`), when given.
    pub convoy_unit: Option<dip_core::UnitTypeId>,
    /// Where each province's name label is drawn (`label=`), indexed by province.
    pub labels: Vec<Option<(f32, f32)>>,
    /// Map pictures: (kind, path), e.g. (`colour`, `maps/standard.png`).
    pub pictures: Vec<(String, String)>,
    /// Pictures of units per power and unit type (`unit-picture`), read
    /// when the variant is loaded.
    pub unit_pictures: Vec<UnitPicture>,
    /// Other spellings of each unit type in orders (`aka=` of its `unit`
    /// line; DipWork's UNITLIST), indexed like `map.unit_types()`.
    pub unit_aliases: Vec<Vec<String>>,
    /// Words for orders (`order-words`; DipWork's ORDERLIST): (kind, words),
    /// kinds in [`ORDER_KINDS`].
    pub order_words: Vec<(String, Vec<String>)>,
    /// The provinces each impassable province touches (`touches`): no
    /// unit crosses into it, but MILA's maps list them as its neighbours.
    pub touches: Vec<(dip_core::ProvinceId, Vec<dip_core::ProvinceId>)>,
    /// What the foreign files' reader could not use and replaced (a
    /// picture list or icons not found, an unknown colour name): shown by
    /// `variant check`, `dip run` and `dip render`.
    pub notes: Vec<String>,
}

/// The kinds of `order-words`, in the order of DipWork's ORDERLIST (hold,
/// move, support, convoy) and of dip's extension of it.
pub const ORDER_KINDS: [&str; 9] = [
    "hold", "move", "support", "convoy", "retreat", "disband", "build", "waive", "via",
];

impl Variant {
    /// The variant's words for the order reader, in DipWork's list layout
    /// (`NATIONLIST`, `UNITLIST`, `ORDERLIST`, ended by `END`), as
    /// `dip_text::Vocabulary::apply_lists` reads them: every power with its
    /// other spellings, every unit type with its spellings, and the order
    /// words (ORDERLIST only when the variant gives some).
    pub fn word_lists(&self) -> String {
        let map = &self.map;
        let mut s = String::from("NATIONLIST\n");
        for (i, p) in map.powers().iter().enumerate() {
            let mut words = vec![p.abbr.clone(), p.name.replace(' ', "_"), p.adjective.replace(' ', "_")];
            if let Some(st) = self.power_styles.get(i) {
                words.extend(st.aliases.iter().map(|a| a.replace(' ', "_")));
            }
            words.dedup();
            s.push_str(&words.join(" "));
            s.push('\n');
        }
        s.push_str("UNITLIST\n");
        for (i, u) in map.unit_types().iter().enumerate() {
            let mut words = vec![u.letter.to_string(), u.name.clone()];
            if let Some(a) = self.unit_aliases.get(i) {
                words.extend(a.iter().cloned());
            }
            s.push_str(&words.join(" "));
            s.push('\n');
        }
        if !self.order_words.is_empty() {
            s.push_str("ORDERLIST\n");
            let last = ORDER_KINDS
                .iter()
                .rposition(|k| self.order_words.iter().any(|(x, _)| x == k))
                .unwrap_or(0);
            for k in &ORDER_KINDS[..=last] {
                let words: Vec<String> = self
                    .order_words
                    .iter()
                    .filter(|(x, _)| x == k)
                    .flat_map(|(_, w)| w.iter().cloned())
                    .collect();
                s.push_str(&if words.is_empty() {
                    k.to_string()
                } else {
                    words.join(" ")
                });
                s.push('\n');
            }
        }
        s.push_str("END\n");
        s
    }
}

/// The picture of one power's units of one type (`unit-picture`; DipWork's
/// PICLIST, Realpolitik's icons).
#[derive(Clone, PartialEq, Eq)]
pub struct UnitPicture {
    pub power: dip_core::PowerId,
    pub unit_type: dip_core::UnitTypeId,
    /// The file as the variant names it (relative to the variant file).
    pub path: String,
    /// The file's bytes: a PNG, an uncompressed BMP, a Windows icon (ICO) or
    /// an uncompressed TIF (DipWork's unit pictures).
    pub bytes: Vec<u8>,
}

impl std::fmt::Debug for UnitPicture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UnitPicture")
            .field("power", &self.power)
            .field("unit_type", &self.unit_type)
            .field("path", &self.path)
            .field("bytes", &self.bytes.len())
            .finish()
    }
}

impl Variant {
    /// A variant that is only `map`: no units at the start (spring 1901),
    /// the DATC's rules, no pictures and no words but the map's names. For
    /// a program given a map alone, whose positions come from elsewhere (a
    /// saved game's phases).
    pub fn of_map(map: dip_core::Map) -> Variant {
        let start = dip_core::State::empty(
            &map,
            dip_core::Phase::new(1901, dip_core::Season::Spring, dip_core::PhaseKind::Movement),
        );
        Variant {
            name: map.name.clone(),
            title: map.name.clone(),
            start,
            rules: dip_core::Ruleset::default(),
            description: String::new(),
            power_styles: vec![PowerStyle::default(); map.powers().len()],
            rules_text: "datc".into(),
            convoy_unit: None,
            labels: vec![None; map.provinces().len()],
            pictures: Vec::new(),
            unit_pictures: Vec::new(),
            unit_aliases: vec![Vec::new(); map.unit_types().len()],
            order_words: Vec::new(),
            touches: Vec::new(),
            notes: Vec::new(),
            map,
        }
    }

    /// The picture of `power`'s units of type `unit_type`, when the variant gives one.
    pub fn unit_picture(&self, power: dip_core::PowerId, unit_type: dip_core::UnitTypeId) -> Option<&UnitPicture> {
        self.unit_pictures
            .iter()
            .find(|u| u.power == power && u.unit_type == unit_type)
    }
}

/// Drawing hints of a power (`colour=`, `initial=` of its `power` line).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PowerStyle {
    /// `#rrggbb`, `#rgb` or a colour name.
    pub colour: Option<String>,
    /// One character to mark its units and centres.
    pub initial: Option<char>,
    /// A black-and-white pattern name (Realpolitik's `Random`, `Hash`, ...).
    pub pattern: Option<String>,
    /// Other spellings accepted in orders (DipWork's NATIONLIST).
    pub aliases: Vec<String>,
}

/// A problem in a variant file, with where it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: {message}", dip_core::colon_line(.line))]
pub struct VariantError {
    pub file: String,
    /// 1-based line number; 0 when the file could not be read.
    pub line: usize,
    pub message: String,
}

impl VariantError {
    /// The file could not be read as a variant at all (missing, unreadable,
    /// an unknown format, or not a variant file): unusable input, unlike a
    /// mistake at a line of a variant file (a finding of `dip variant check`).
    pub fn is_unreadable(&self) -> bool {
        self.line == 0 || self.message.starts_with(parse::NOT_A_VARIANT)
    }
}

const STANDARD: &str = include_str!("../../../variants/standard.variant");

static BUNDLED: &[(&str, &str)] = &[
    ("standard", STANDARD),
    ("1898", include_str!("../../../variants/1898.variant")),
    ("pure", include_str!("../../../variants/pure.variant")),
    ("britain", include_str!("../../../variants/britain.variant")),
    ("chaos", include_str!("../../../variants/chaos.variant")),
    ("crowded", include_str!("../../../variants/crowded.variant")),
    ("nocoasts", include_str!("../../../variants/nocoasts.variant")),
    ("seismic", include_str!("../../../variants/seismic.variant")),
    ("fleetrome", include_str!("../../../variants/fleetrome.variant")),
    ("ancmed", include_str!("../../../variants/ancmed.variant")),
    ("modern", include_str!("../../../variants/modern.variant")),
    ("world", include_str!("../../../variants/world.variant")),
    ("colonial", include_str!("../../../variants/colonial.variant")),
    ("empire", include_str!("../../../variants/empire.variant")),
    ("youngstown", include_str!("../../../variants/youngstown.variant")),
    ("canton", include_str!("../../../variants/canton.variant")),
    ("coldwar", include_str!("../../../variants/coldwar.variant")),
    ("europe1939", include_str!("../../../variants/europe1939.variant")),
    ("1908fall", include_str!("../../../variants/1908fall.variant")),
];

/// Name and text of every bundled variant.
pub fn bundled() -> &'static [(&'static str, &'static str)] {
    BUNDLED
}

/// Parses a variant file; `file` names it in error messages and is the
/// folder its pictures must be in.
pub fn parse(text: &str, file: &str) -> Result<Variant, VariantError> {
    parse::parse_native(text, file)
}

/// A bundled variant by name (case-insensitive), else the variant at this
/// path: a native `.variant` file, a DipWork folder or VARIANT.TXT, a
/// Realpolitik `.var` file, a DPjudge `.map` file or a jDip plugin (folder
/// or zip, `PLUGIN#NAME` for one of its variants). A plugin variant by its
/// name alone is found only by [`load_in`], under search paths given.
pub fn load(name_or_path: &str) -> Result<Variant, VariantError> {
    load_in(name_or_path, &[])
}

/// [`load`], and else a variant of that name in the jDip plugins under
/// `search` (dip-play's `Variants` passes its own paths: there is no
/// process-wide list).
pub fn load_in(name_or_path: &str, search: &[std::path::PathBuf]) -> Result<Variant, VariantError> {
    let wanted = name_or_path.trim();
    if let Some((name, text)) = BUNDLED.iter().find(|(n, _)| n.eq_ignore_ascii_case(wanted)) {
        return parse(text, &bundled_file(name));
    }
    if matches!(
        formats::detect(name_or_path),
        Some(
            formats::Format::DipWork | formats::Format::DpJudge | formats::Format::Realpolitik | formats::Format::Jdip
        )
    ) {
        return formats::load_any(name_or_path);
    }
    // A name of a variant in a jDip plugin under `--variants` paths.
    if !std::path::Path::new(name_or_path).exists() {
        if let Some(found) = jdip::find_in(search, wanted) {
            let (_, v) = found?;
            return v.model.build(&format!("jdip:{wanted}"));
        }
    }
    let names = || BUNDLED.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ");
    if !std::path::Path::new(name_or_path).exists() {
        // A misspelt name is the usual cause: say so, not the OS error.
        return Err(VariantError {
            file: name_or_path.to_string(),
            line: 0,
            message: format!(
                "no bundled variant of that name and no such file; bundled variants: {}",
                names()
            ),
        });
    }
    match files::read_text(std::path::Path::new(name_or_path)) {
        Ok(text) => parse(&text, name_or_path),
        Err(e) => Err(VariantError {
            file: name_or_path.to_string(),
            line: 0,
            message: format!("cannot read the variant file ({e}); bundled variants: {}", names()),
        }),
    }
}

/// The standard map of Diplomacy with the 1901 starting position.
pub fn standard() -> Variant {
    // The embedded text is checked by the tests, so this cannot fail.
    parse(STANDARD, &bundled_file("standard")).unwrap_or_else(|e| panic!("bundled standard variant: {e}"))
}

fn bundled_file(name: &str) -> String {
    format!("variants/{name}.variant")
}
