//! dip-render: maps of Diplomacy positions as SVG and PNG, with orders and
//! their results, and animations of moves and whole games.
//!
//! ```
//! let v = dip_variants::standard();
//! let svg = dip_render::render(&v, &v.start, None, &dip_render::Options::default());
//! assert!(svg.starts_with("<svg"));
//! let png = dip_render::render_png(&v, &v.start, None, &dip_render::Options::default()).unwrap();
//! assert_eq!(&png[1..4], b"PNG");
//! ```
//!
//! A [`Picture`] holds what does not change between positions (the
//! province shapes, unit and name points); build it once to draw many
//! positions of one variant.
//!
//! # Design
//!
//! - A picture is three layers, drawn in order: the *base* (sea, land,
//!   province outlines defined once as `<path id="pN">` and drawn with
//!   `<use>`, names), the *position* (owned provinces multiplied over the
//!   base so that its borders and names show through, centres, title,
//!   panel) and the *moment* (standoffs, orders, units). An animation draws
//!   the base once, each position once, and only the moment per frame; the
//!   HTML page holds the base once and the other layers as groups it shows
//!   in turn.
//! - The SVG is written by hand (strings), and read back by usvg only to
//!   make pixels; resvg draws with the bundled DejaVu fonts and no system
//!   font, so a PNG is the same on every machine.
//! - Shapes come from a `.shapes` file (the standard map's, ancmed's and World's are
//!   generated from Natural Earth by `scripts/natural-earth-maps.sh`), from a
//!   Realpolitik `.rgn`, or are grown around the provinces' points
//!   ([`regions`]); a variant without points is laid out from its
//!   adjacency first ([`shapes::layout`]). Every variant can be drawn.
//! - Nothing panics on a variant or a position: missing points, shapes or
//!   colours fall back to defaults.

#![forbid(unsafe_code)]

pub mod animate;
mod clicks;
pub mod colour;
pub mod jdip;
pub mod pict;
pub mod raster;
pub mod regions;
pub mod shapes;
pub mod svg;

pub use raster::RasterError;
pub use shapes::Shapes;
pub use svg::{Mode, Options, Picture};

use dip_core::{PhaseOutcome, State};
use dip_variants::Variant;

/// The SVG of a position, with the orders and results of `outcome` when
/// given (the units are drawn where they stood when the orders were given).
pub fn render(variant: &Variant, state: &State, outcome: Option<&PhaseOutcome>, opts: &Options) -> String {
    Picture::new(variant).svg(state, outcome, opts)
}

/// The PNG of the same picture.
pub fn render_png(
    variant: &Variant,
    state: &State,
    outcome: Option<&PhaseOutcome>,
    opts: &Options,
) -> Result<Vec<u8>, RasterError> {
    raster::png(&render(variant, state, outcome, opts))
}
