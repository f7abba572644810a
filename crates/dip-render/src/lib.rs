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
//! province shapes); build it once to draw many positions of one variant.

pub mod animate;
pub mod colour;
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
