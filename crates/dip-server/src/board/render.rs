//! The board's pictures: the map as the page shows it (DIP's Map menu:
//! colour, grey levels, black and white, the centre count, the centres'
//! owners, the units' colours; the last stage's results drawn over the
//! position), exported as SVG, PNG or BMP (DIP's Export bitmap), and the
//! last move or the whole game animated.

use super::{Board, BoardError, BoardResult};
use dip_core::{PhaseOutcome, State};
use dip_play::Loaded;
use dip_render::colour::Rgb;
use dip_render::{Mode, Options, Picture};
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

self_cell::self_cell!(
    /// A variant's picture (its shapes and points), built once and kept
    /// with the variant it borrows.
    pub struct Drawn {
        owner: Arc<Loaded>,
        #[covariant]
        dependent: Picture,
    }
);

/// The pictures of the variants boards play, built once each.
#[derive(Clone, Default)]
pub struct Pictures {
    cache: Arc<Mutex<HashMap<usize, Arc<Drawn>>>>,
}

impl Pictures {
    /// Builds the picture of a variant now (`dip board` before it says it
    /// listens: its first page is then drawn at once).
    pub fn warm(&self, loaded: &Arc<Loaded>) {
        self.get(loaded);
    }

    pub fn get(&self, loaded: &Arc<Loaded>) -> Arc<Drawn> {
        let key = Arc::as_ptr(loaded) as usize;
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        cache
            .entry(key)
            .or_insert_with(|| Arc::new(Drawn::new(loaded.clone(), |l| Picture::new(l.variant()))))
            .clone()
    }
}

impl Drawn {
    pub fn picture(&self) -> &Picture<'_> {
        self.borrow_dependent()
    }
}

/// The Map menu's settings, as the page sends them.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct MapQuery {
    /// `colour`, `grey`, `bw`.
    pub mode: Option<String>,
    /// The centre count (`0` hides it).
    pub panel: Option<String>,
    /// The centres' owners as labels (`1`).
    pub owners: Option<String>,
    /// The last stage's results over the position (`0` hides them).
    pub results: Option<String>,
    /// The powers' colours, by power, `rrggbb` or empty, comma-separated.
    pub colours: Option<String>,
    /// A played phase instead of now.
    pub at: Option<usize>,
    /// With the page's click targets.
    pub clickable: Option<String>,
    /// As a file to save (`Content-Disposition: attachment`).
    pub download: Option<String>,
    /// Scale of a bitmap (default 1).
    pub scale: Option<f32>,
    /// A kept board's read-only link.
    pub share: Option<String>,
}

fn on(v: &Option<String>, default: bool) -> bool {
    match v.as_deref() {
        Some("1") | Some("true") | Some("on") => true,
        Some("0") | Some("false") | Some("off") => false,
        _ => default,
    }
}

impl MapQuery {
    pub fn options(&self, board: &Board) -> BoardResult<Options> {
        let mode = match self.mode.as_deref() {
            None | Some("") => Mode::Colour,
            Some(m) => {
                Mode::parse(m).ok_or_else(|| BoardError::new(format!("mode `{m}`: expected colour, grey or bw")))?
            }
        };
        let n = board.game.map().powers().len();
        let mut colours = vec![None; n];
        if let Some(c) = &self.colours {
            for (i, hex) in c.split(',').enumerate().take(n) {
                let hex = hex.trim().trim_start_matches('#');
                if hex.is_empty() {
                    continue;
                }
                colours[i] = Some(
                    Rgb::parse(&format!("#{hex}"))
                        .ok_or_else(|| BoardError::new(format!("colour `{hex}`: expected rrggbb")))?,
                );
            }
        }
        let scale = self.scale.unwrap_or(1.0);
        if !(0.1..=4.0).contains(&scale) {
            return Err(BoardError::new(format!("scale {scale}: from 0.1 to 4")));
        }
        let at = self.at.and_then(|i| board.game.history().get(i));
        let phase = at.map(|p| p.state.phase).unwrap_or(board.game.state().phase);
        Ok(Options {
            scale,
            mode,
            title: Some(format!("{} — {}", board.shown_title(), phase.long())),
            names: true,
            panel: on(&self.panel, true),
            centre_owners: on(&self.owners, false),
            colours,
        })
    }
}

/// What a picture of the board shows: a position, the orders drawn on it
/// with their results, and where the units stand.
struct Scene<'a> {
    state: &'a State,
    /// The orders and results drawn, and the position they were given in.
    orders: Option<(&'a State, &'a PhaseOutcome)>,
}

/// The last stage played, when it led to the position now without an
/// edit (its results are drawn over the position, as DIP showed a
/// season's moves until Next season).
fn last_results(board: &Board) -> Option<(&State, &PhaseOutcome)> {
    if !board.show_results {
        return None;
    }
    let last = board.game.history().last()?;
    (last.next == *board.game.state()).then_some((&last.state, &last.outcome))
}

fn scene<'a>(board: &'a Board, q: &MapQuery) -> Scene<'a> {
    match q.at.and_then(|i| board.game.history().get(i)) {
        // A played phase: its orders and results where they were given.
        Some(p) => Scene {
            state: &p.state,
            orders: Some((&p.state, &p.outcome)),
        },
        None => Scene {
            state: board.game.state(),
            orders: if on(&q.results, true) {
                last_results(board)
            } else {
                None
            },
        },
    }
}

/// The map as SVG (with the page's click targets when asked).
pub fn svg(pictures: &Pictures, board: &Board, q: &MapQuery) -> BoardResult<String> {
    let drawn = pictures.get(board.game.loaded());
    let pic = drawn.borrow_dependent();
    let opts = q.options(board)?;
    let sc = scene(board, q);
    // The click targets under the units, so that a unit's icon is clicked
    // as itself where it lies over a neighbour; the orders and marks over
    // them let clicks through (`.moment` in the stylesheet).
    Ok(pic.svg_scene(sc.state, sc.orders, &opts, on(&q.clickable, false)))
}

/// The map as PNG.
pub fn png(pictures: &Pictures, board: &Board, q: &MapQuery) -> BoardResult<Vec<u8>> {
    let q = MapQuery {
        clickable: None,
        ..q.clone()
    };
    let svg = svg(pictures, board, &q)?;
    dip_render::raster::png(&svg).map_err(|e| BoardError::new(format!("the map as PNG: {e}")))
}

/// The map as a Windows bitmap (DIP's Export bitmap).
pub fn bmp(pictures: &Pictures, board: &Board, q: &MapQuery) -> BoardResult<Vec<u8>> {
    let q = MapQuery {
        clickable: None,
        ..q.clone()
    };
    let svg = svg(pictures, board, &q)?;
    let pm = dip_render::raster::pixmap(&svg).map_err(|e| BoardError::new(format!("the map as BMP: {e}")))?;
    Ok(dip_render::raster::encode_bmp(&pm, None))
}

/// DIP's Animate move (the last stage played) and Animate game (every
/// phase), as an animated PNG.
pub fn animation(pictures: &Pictures, board: &Board, whole: bool, q: &MapQuery) -> BoardResult<Vec<u8>> {
    let h = board.game.history();
    if h.is_empty() {
        return Err(BoardError::new("nothing resolved yet: no move to animate"));
    }
    let from = if whole { 0 } else { h.len() - 1 };
    let steps: Vec<dip_render::animate::Step> = h[from..]
        .iter()
        .map(|p| dip_render::animate::Step {
            before: &p.state,
            outcome: &p.outcome,
            after: &p.next,
        })
        .collect();
    let drawn = pictures.get(board.game.loaded());
    let pic = drawn.borrow_dependent();
    let mut opts = MapQuery { at: None, ..q.clone() }.options(board)?;
    opts.scale = if whole { 0.6 } else { 0.8 };
    opts.title = Some(board.shown_title());
    let timing = dip_render::animate::Timing {
        tween: if whole { 3 } else { 6 },
        ..dip_render::animate::Timing::default()
    };
    let frames = dip_render::animate::frames(pic, &steps, &timing);
    dip_render::animate::apng(pic, &frames, &opts).map_err(|e| BoardError::new(format!("the animation: {e}")))
}

/// Where a unit dropped at (x, y) of the map goes in `province`: the
/// region the unit's type may stand in whose point is nearest (a fleet
/// dropped on Spain's south coast lands there).
pub fn nearest_region(
    pictures: &Pictures,
    loaded: &Arc<Loaded>,
    province: dip_core::ProvinceId,
    ut: dip_core::UnitTypeId,
    at: Option<(f32, f32)>,
) -> Option<dip_core::RegionId> {
    let map = loaded.map();
    let regions: Vec<dip_core::RegionId> = map.regions_for(province, ut).collect();
    let (x, y) = match at {
        Some(p) => p,
        None => return regions.first().copied(),
    };
    let drawn = pictures.get(loaded);
    let pic = drawn.borrow_dependent();
    // The page gives the point in the SVG, under the title bar.
    let y = y - dip_render::svg::TITLE_H;
    regions.into_iter().min_by(|a, b| {
        let d = |r: dip_core::RegionId| {
            let (rx, ry) = pic.region_point(r);
            (rx - x).powi(2) + (ry - y).powi(2)
        };
        d(*a).total_cmp(&d(*b))
    })
}
