//! jDip's variant plugins (docs/jdip-plugin.md): a folder holding
//! `variants.xml`, or the `.zip` (`…Variant.zip`, `…Variants.zip`) as
//! jDip's users get it. `variants.xml` names one or more variants; each
//! names an adjacency file (provinces, coasts, borders) and map graphics
//! (an SVG whose `jdipNS:PROVINCE_DATA` gives the unit points and whose
//! `MouseLayer` gives the province shapes).
//!
//! What the engine can carry is read into a [`Model`]: provinces and
//! coasts, armies' and fleets' borders, wings (a third unit type that moves
//! to every touching province), borders that always forbid some unit types
//! (their edges are left out), borders by season, phase, year, unit or
//! order type and difficult passable borders (the model's border rules),
//! convoyable coasts, starting time, victory, build rule, powers, centres
//! and units. What it cannot (game length, years without capture) is kept
//! in [`JdipVariant::notes`] and reported, never silently dropped.
//!
//! Everything is read through size caps; a zip entry larger than
//! [`MAX_ENTRY_BYTES`] is refused before it is unpacked. Errors name the
//! file (`plugin.zip!/variants.xml`) and line.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use dip_core::map::{BuildRule, EdgeFlags, OrderClass, Terrain, UnitType, Years};
use dip_core::{PhaseKind, Season};

use crate::model::{MBorderRule, MEdge, MPower, MProvince, MUnit, Model};
use crate::VariantError;

mod adjacency;
mod border;
mod fields;
mod find;
mod read;
mod svg_map;
mod svg_paths;
mod symbols;
mod variant_xml;
mod write;
mod write_svg;
use adjacency::read_adjacency;
use border::*;
use fields::*;
use read::*;
use svg_map::*;
use svg_paths::*;
use variant_xml::read_variant;
use write::*;
use write_svg::*;

pub use fields::safe_name;
pub use find::{find_in, hidden_by_bundled, is_plugin, is_plugin_path, load_path, lookup_in, plugin_paths};
pub use svg_map::{drawable_svg, svg_centre_points, svg_shapes, NamedPoints, NamedShapes, ViewBox, MAX_MAP_SIDE};
pub use symbols::SymbolPack;
pub use write::write;

/// The largest file read from a plugin (variants.xml, adjacency, SVG): 32 MiB.
pub const MAX_ENTRY_BYTES: u64 = 32 << 20;
/// The largest plugin zip read: 256 MiB.
pub const MAX_ZIP_BYTES: u64 = 256 << 20;
/// The most XML nodes of one file (roxmltree's limit).
const MAX_NODES: u32 = 2_000_000;

fn err(file: &str, line: usize, message: impl Into<String>) -> VariantError {
    VariantError {
        file: file.to_string(),
        line,
        message: message.into(),
    }
}

/// The files of a plugin: a folder on disk, or the entries of a zip (kept
/// in memory, unpacked one at a time on demand).
pub struct Plugin {
    /// The path the user gave (folder or zip).
    pub path: String,
    source: Source,
    /// Where `variants.xml` is inside the plugin (`""` or `sub/`).
    prefix: String,
    /// `variants.xml` as text.
    pub variants_xml: String,
    /// The variants it names: (name, aliases).
    pub variants: Vec<(String, Vec<String>)>,
}

enum Source {
    Dir(PathBuf),
    Zip(Vec<u8>),
    Memory(Vec<(String, Vec<u8>)>),
}

impl std::fmt::Debug for Plugin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plugin")
            .field("path", &self.path)
            .field("variants", &self.variants)
            .finish()
    }
}

/// A variant of a plugin, read.
#[derive(Clone, Debug)]
pub struct JdipVariant {
    pub model: Model,
    /// The map's SVG: (file name for messages, text), when the plugin has one.
    pub svg: Option<(String, String)>,
    /// The preferred unit symbol pack named by the plugin (`preferredUnitStyle`).
    pub unit_style: Option<String>,
    /// The borders by season, phase, year, order type or with a
    /// `baseMoveModifier`, as read: (province, border). Each is one of the
    /// model's `border_rules`, which the engine enforces.
    pub borders: Vec<(String, Border)>,
    /// The provinces marked `isConvoyableCoast` (the coasts among them are
    /// the model's `convoy_coasts`, where fleets convoy).
    pub convoyable_coasts: Vec<String>,
    /// Everything read and not carried into the model, one line each.
    pub notes: Vec<String>,
}

/// One `BORDER` of an adjacency file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Border {
    pub id: String,
    pub description: String,
    /// Locations the border applies to units coming from (empty: all).
    pub from: Vec<String>,
    pub unit_types: Vec<String>,
    pub order_types: Vec<String>,
    pub year: String,
    pub season: String,
    pub phase: String,
    pub base_move_modifier: String,
    /// Line in the adjacency file.
    pub line: usize,
}

impl Border {
    /// Forbids the unit types always (no season, phase, year or order condition).
    fn unconditional(&self) -> bool {
        self.order_types.is_empty()
            && self.year.trim().is_empty()
            && self.season.trim().is_empty()
            && self.phase.trim().is_empty()
            && self.base_move_modifier.trim().is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_read_as_before_in_every_form() {
        let turn = |t: &str| parse_turn(t).map(|p| p.to_string());
        for (text, short) in [
            ("Spring, 1914, Movement", "S1914M"),
            ("Fall, 1901, Retreat", "F1901R"),
            ("Winter, 1901, Adjustment", "W1901A"),
            ("winter 1901", "W1901A"),
            ("Autumn 1901", "F1901M"),
            ("1901", "S1901M"),
            ("1901, Retreat", "S1901R"),
            ("Movement 1901 Fall", "F1901M"),
            ("S 1901 M", "S1901M"),
            ("f,1901,r", "F1901R"),
            ("W 1901 A", "W1901A"),
            ("Fall 1901 build", "W1901A"),
            ("Spring, 500BC, Movement", "S-500M"),
            ("Winter, 44bc", "W-44A"),
        ] {
            assert_eq!(turn(text).as_deref(), Ok(short), "{text}");
        }
        for bad in [
            "Spring, Movement",
            "",
            "Spring, 1901, Soon",
            "Spring, BC",
            "Spring 1901x",
        ] {
            assert!(parse_turn(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn spring_adjustment_and_winter_movement_turns_are_refused() {
        // Read before as spring adjustments (a phase dip writes as
        // `W1901A`, which reads back as fall's) and as winter's builds.
        for bad in [
            "Spring, 1901, Adjustment",
            "S 1901 A",
            "Winter, 1901, Movement",
            "W 1901 R",
        ] {
            assert!(parse_turn(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn locations() {
        assert_eq!(location("stp-nc"), ("stp".into(), Some("nc".into())));
        assert_eq!(location("STP/SC"), ("stp".into(), Some("sc".into())));
        assert_eq!(location("bul"), ("bul".into(), None));
        assert_eq!(location("mid-atlantic"), ("mid-atlantic".into(), None));
    }

    #[test]
    fn path_data() {
        let r = path_rings("M 10,10 l 10 0 v 10 H 10 z m 100 100 L 120 100 120 120 z");
        assert_eq!(r.len(), 2);
        assert_eq!(r[0], vec![(10.0, 10.0), (20.0, 10.0), (20.0, 20.0), (10.0, 20.0)]);
        assert_eq!(r[1][0], (110.0, 110.0));
        assert!(path_rings("M 1e400 0 L 1 1 L 2 2 z").is_empty());
        // A cubic curve is followed, not cut short: its middle point is on it.
        let r = path_rings("M 0 0 C 0 40 40 40 40 0 z");
        assert_eq!(r[0].len(), 9);
        assert_eq!(r[0][4], (20.0, 30.0));
        // S reflects the previous control point; relative curves too.
        let r = path_rings("M 0 0 c 0 40 40 40 40 0 s 40 -40 40 0 z");
        assert_eq!(r[0][12], (60.0, -30.0));
        let r = path_rings("M 0 0 Q 20 40 40 0 T 80 0 z");
        assert_eq!(r[0][4], (20.0, 20.0));
        assert_eq!(r[0][12], (60.0, -20.0));
    }

    #[test]
    fn abbreviations_stay_unique() {
        let a = power_abbrs(&["Austria".into(), "Austrasia".into(), "A-Ank".into(), "".into()]);
        assert_eq!(a, vec!["AUS", "AUS1", "AAN", "P"]);
    }
}
