//! The SVG picture of a position: provinces, owners, centres, units, orders
//! with their results, a title and a centre-count panel.

use crate::colour::{Palette, Rgb};
use crate::shapes::{path_data, Shapes};
use dip_core::{
    CoastSpec, Dest, Dislodged, Map, OrderKind, PhaseOutcome, PowerId, ProvinceId, RegionId, State, Terrain, Unit,
    UnitRef,
};
use dip_variants::Variant;
use std::fmt::Write;

mod base;
mod build;
mod document;
mod names;
mod order_marks;
mod orders;
mod panel;
mod points;
mod text;
mod units;
use names::*;
use order_marks::*;
use text::*;

pub(crate) use names::{label_chars, name_box};
pub use points::{ASIDE, ICON};
pub use text::{esc, fmt};

/// How colours are drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Powers in their colours.
    #[default]
    Colour,
    /// Colours turned to greys of the same lightness.
    Grey,
    /// Black on white; owners as hatching, one angle per power.
    BlackWhite,
}

impl Mode {
    pub fn parse(s: &str) -> Option<Mode> {
        match s.to_ascii_lowercase().as_str() {
            "colour" | "color" => Some(Mode::Colour),
            "grey" | "gray" => Some(Mode::Grey),
            "bw" | "black-white" | "blackwhite" | "mono" => Some(Mode::BlackWhite),
            _ => None,
        }
    }
}

/// What to draw and how big.
#[derive(Clone, Debug)]
pub struct Options {
    /// Size factor: 1 gives one pixel per canvas unit (plus title and panel).
    pub scale: f32,
    pub mode: Mode,
    /// The title; `None` gives the variant's title and the phase.
    pub title: Option<String>,
    /// Province names.
    pub names: bool,
    /// The centre-count panel on the right.
    pub panel: bool,
    /// Each owned centre labelled with its owner (DIP's "Show centre owners").
    pub centre_owners: bool,
    /// The powers' colours in place of the variant's, by power index
    /// (DIP's "Unit colours"); `None` keeps the variant's.
    pub colours: Vec<Option<crate::colour::Rgb>>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            scale: 1.0,
            mode: Mode::Colour,
            title: None,
            names: true,
            panel: true,
            centre_owners: false,
            colours: Vec::new(),
        }
    }
}

impl Options {
    /// The scale for a print resolution: the canvas is drawn 96 units to the inch at 1×.
    pub fn with_dpi(mut self, dpi: f32) -> Self {
        self.scale = dpi / 96.0;
        self
    }
}

/// Height of the title bar and width of the panel, in canvas units.
pub const TITLE_H: f32 = 44.0;
pub const PANEL_W: f32 = 230.0;

/// A variant's picture, built once and drawn for any number of positions.
pub struct Picture<'a> {
    pub variant: &'a Variant,
    pub shapes: Shapes,
    /// Unit and name point per province.
    points: Vec<(f32, f32)>,
    /// Unit point per region.
    region_points: Vec<(f32, f32)>,
    /// A fleet's own point per region, where the map gives one
    /// (Realpolitik's special fleet position).
    fleet_points: Vec<Option<(f32, f32)>>,
    /// Where each province's name goes.
    name_points: Vec<(f32, f32)>,
    /// Where a centre's marker goes, when the map says (a jDip map's
    /// SUPPLY_CENTER points); else beside the name.
    centre_points: Vec<Option<(f32, f32)>>,
    /// The base drawn once, for [`Picture::png`]: (scale, mode, panel, pixels).
    base_pixels: std::sync::Mutex<Option<(f32, Mode, bool, resvg::tiny_skia::Pixmap)>>,
    /// A map picture drawn under everything (DipWork's blank map), when given.
    background: Option<Background>,
    /// The variant's unit pictures as `data:` URIs of PNGs with their
    /// size in pixels, indexed by power × number of unit types + unit
    /// type; `None`: the generated icon.
    unit_images: Vec<Option<UnitImage>>,
}

/// A unit picture ready to draw.
#[derive(Clone)]
struct UnitImage {
    uri: String,
    width: u32,
    height: u32,
}

/// The side of the square a unit picture is fitted into (the generated icons' size).
pub const UNIT_PICTURE_SIDE: f32 = 28.0;

/// Whether `variant` asks for large icons (Realpolitik's flag 8, `picture
/// icons large`: "icons are not transformed to standard size"): its unit
/// pictures are drawn at their own size, one map pixel a picture pixel.
pub fn large_icons(variant: &Variant) -> bool {
    variant
        .pictures
        .iter()
        .any(|(k, v)| k == "icons" && v.eq_ignore_ascii_case("large"))
}

/// The variant's unit pictures as `data:` URIs (BMPs, icons and TIFs turned into PNGs;
/// a picture that cannot be read keeps the generated icon).
fn unit_images(variant: &Variant) -> Vec<Option<UnitImage>> {
    let map = &variant.map;
    let types = map.unit_types().len();
    let mut v = vec![None; map.powers().len() * types];
    for u in &variant.unit_pictures {
        let i = u.power.index() * types + u.unit_type.index();
        let png = if u.bytes.starts_with(b"\x89PNG") {
            crate::raster::decode_png(&u.bytes)
                .ok()
                .map(|pm| (u.bytes.clone(), pm.width(), pm.height()))
        } else {
            crate::raster::decode_picture(&u.bytes)
                .and_then(|pm| Ok((crate::raster::encode_png(&pm)?, pm.width(), pm.height())))
                .ok()
        };
        if let (Some(slot), Some((png, width, height))) = (v.get_mut(i), png) {
            *slot = Some(UnitImage {
                uri: format!("data:image/png;base64,{}", crate::raster::base64(&png)),
                width,
                height,
            });
        }
    }
    v
}

/// A map picture: its PNG bytes (for SVG) and its pixels (for PNG).
struct Background {
    png: Vec<u8>,
    pixels: resvg::tiny_skia::Pixmap,
}

/// One unit to draw, possibly between two places (animation).
#[derive(Clone, Copy, Debug)]
pub struct Piece {
    pub unit: Unit,
    pub at: (f32, f32),
    /// A dislodged unit: drawn at full size on a red disc, beside the
    /// unit that took its place (both can be seen and clicked).
    pub dislodged: bool,
    pub opacity: f32,
}
