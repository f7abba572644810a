//! Animations: a phase played out (units sliding to their destinations,
//! failed moves bouncing back, dislodged units pushed aside, retreats,
//! builds and disbands fading in and out) and whole games, as animated PNG
//! or as a self-contained HTML page with step and play controls.

use crate::raster::{self, RasterError};
use crate::svg::{esc, Options, Picture, Piece};
use dip_core::{OrderKind, PhaseOutcome, ProvinceId, State, Unit};
use resvg::tiny_skia::Transform;
use std::fmt::Write;

/// One adjudicated phase: the position, what happened, the position after.
#[derive(Clone, Copy, Debug)]
pub struct Step<'a> {
    pub before: &'a State,
    pub outcome: &'a PhaseOutcome,
    pub after: &'a State,
}

impl<'a> Step<'a> {
    /// The steps of a game: `states` holds each phase's position and the
    /// one after the last, one more than `outcomes`.
    pub fn sequence(states: &'a [State], outcomes: &'a [PhaseOutcome]) -> Vec<Step<'a>> {
        outcomes
            .iter()
            .zip(states.windows(2))
            .map(|(outcome, pair)| Step {
                before: &pair[0],
                outcome,
                after: &pair[1],
            })
            .collect()
    }
}

/// Timing of an animation.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// In-between pictures per phase (0: orders and results only).
    pub tween: usize,
    /// How long the orders of a phase are shown, in milliseconds.
    pub hold_ms: u32,
    /// How long each in-between picture is shown.
    pub tween_ms: u32,
    /// How long the last position is shown.
    pub end_ms: u32,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            tween: 6,
            hold_ms: 1600,
            tween_ms: 70,
            end_ms: 2500,
        }
    }
}

/// One picture of an animation.
#[derive(Clone, Debug)]
pub struct Frame<'a> {
    /// The position whose owners, centres and panel are drawn.
    pub state: &'a State,
    /// Orders drawn on this picture.
    pub outcome: Option<&'a PhaseOutcome>,
    pub pieces: Vec<Piece>,
    pub delay_ms: u32,
    /// A phase starts here (the HTML page steps between these).
    pub key: bool,
}

/// The pictures of an animation of `steps` (each step's `before` should be
/// the previous step's `after`).
pub fn frames<'a>(pic: &Picture, steps: &[Step<'a>], timing: &Timing) -> Vec<Frame<'a>> {
    let mut out = Vec::new();
    for step in steps {
        out.push(Frame {
            state: step.before,
            outcome: Some(step.outcome),
            pieces: pic.pieces(step.before),
            delay_ms: timing.hold_ms,
            key: true,
        });
        for k in 1..=timing.tween {
            let t = k as f32 / (timing.tween + 1) as f32;
            out.push(Frame {
                state: step.before,
                outcome: None,
                pieces: motion(pic, step, t),
                delay_ms: timing.tween_ms,
                key: false,
            });
        }
    }
    if let Some(last) = steps.last() {
        out.push(Frame {
            state: last.after,
            outcome: None,
            pieces: pic.pieces(last.after),
            delay_ms: timing.end_ms,
            key: true,
        });
    }
    out
}

fn lerp(a: (f32, f32), b: (f32, f32), t: f32) -> (f32, f32) {
    (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
}

/// Smooth start and stop.
fn ease(t: f32) -> f32 {
    t * t * (3.0 - 2.0 * t)
}

/// Where every unit is at time `t` (0–1) of a phase.
pub fn motion(pic: &Picture, step: &Step, t: f32) -> Vec<Piece> {
    let e = ease(t.clamp(0.0, 1.0));
    let map = pic.map();
    let before = step.before;
    let mut out = Vec::new();
    match step.outcome {
        PhaseOutcome::Movement(m) => {
            let dislodged = |p: ProvinceId| m.dislodged.iter().any(|d| map.province_of(d.unit.region) == p);
            for (p, u) in before.units() {
                let start = pic.unit_at(&u);
                let mut piece = Piece {
                    unit: u,
                    at: start,
                    dislodged: false,
                    opacity: 1.0,
                };
                if let Some(&(_, to)) = m.moves.iter().find(|(from, _)| *from == p) {
                    piece.at = lerp(start, pic.unit_at(&Unit { region: to, ..u }), e);
                } else if dislodged(p) {
                    let aside = pic.aside(&u);
                    piece.at = lerp(start, aside, e);
                    piece.dislodged = t > 0.5;
                    if m.disbanded.contains(&p) {
                        piece.opacity = 1.0 - e;
                    }
                } else if let Some(dest) = failed_move(step.outcome, p) {
                    let to = pic.province_point(dest);
                    piece.at = lerp(start, to, 0.3 * (t * std::f32::consts::PI).sin());
                }
                out.push(piece);
            }
        }
        PhaseOutcome::Retreat(r) => {
            for (_, u) in before.units() {
                out.push(Piece {
                    unit: u,
                    at: pic.unit_at(&u),
                    dislodged: false,
                    opacity: 1.0,
                });
            }
            for (p, d) in before.all_dislodged() {
                let aside = pic.aside(&d.unit);
                let mut piece = Piece {
                    unit: d.unit,
                    at: aside,
                    dislodged: true,
                    opacity: 1.0,
                };
                match r.retreats.iter().find(|(from, _)| *from == p) {
                    Some(&(_, to)) => {
                        piece.at = lerp(aside, pic.unit_at(&Unit { region: to, ..d.unit }), e);
                        piece.dislodged = t < 0.5;
                    }
                    None => piece.opacity = 1.0 - e,
                }
                out.push(piece);
            }
        }
        PhaseOutcome::Adjustment(a) => {
            for (p, u) in before.units() {
                let gone = a.disbanded.contains(&p) || a.civil_disorder.contains(&p);
                out.push(Piece {
                    unit: u,
                    at: pic.unit_at(&u),
                    dislodged: false,
                    opacity: if gone { 1.0 - e } else { 1.0 },
                });
            }
            for u in &a.built {
                out.push(Piece {
                    unit: *u,
                    at: pic.unit_at(u),
                    dislodged: false,
                    opacity: e,
                });
            }
        }
    }
    out
}

/// The destination of the failed move of the unit in `p`, if it tried one.
fn failed_move(outcome: &PhaseOutcome, p: ProvinceId) -> Option<ProvinceId> {
    outcome.orders().iter().find_map(|r| match r.order.kind {
        OrderKind::Move(u, d, _) if u.province == p && !r.verdict.succeeded() => Some(d.province),
        _ => None,
    })
}

/// The SVG of one frame.
pub fn frame_svg(pic: &Picture, f: &Frame, opts: &Options) -> String {
    pic.svg_frame(f.state, f.outcome, &f.pieces, opts)
}

/// An animated PNG of the frames (plays forever). The map is drawn once;
/// each frame draws only what changes over it, and stores only the
/// rectangle that differs from the frame before.
pub fn apng(pic: &Picture, frames: &[Frame], opts: &Options) -> Result<Vec<u8>, RasterError> {
    if frames.is_empty() {
        return Err(RasterError::Size(0, 0));
    }
    let base = pic.base_pixmap(opts)?;
    let (w, h) = (base.width(), base.height());
    let mut out = Vec::new();
    let err = |e: png::EncodingError| RasterError::Png(e.to_string());
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        enc.set_animated(frames.len() as u32, 0).map_err(err)?;
        let mut wr = enc.write_header().map_err(err)?;
        let open = pic.svg_open(opts);
        let mut prev: Option<Vec<u8>> = None;
        let mut background: Option<(*const State, resvg::tiny_skia::Pixmap)> = None;
        for f in frames {
            // The position's layer is drawn once a phase.
            let key = f.state as *const State;
            if background.as_ref().is_none_or(|(k, _)| *k != key) {
                let mut pm = base.clone();
                let layer = format!("{open}{}</svg>", pic.svg_position(f.state, opts, false));
                resvg::render(&raster::tree(&layer)?, Transform::identity(), &mut pm.as_mut());
                background = Some((key, pm));
            }
            let Some((_, bg)) = &background else { continue };
            let mut pm = bg.clone();
            let layer = format!("{open}{}</svg>", pic.svg_moment(f.state, f.outcome, &f.pieces, opts));
            resvg::render(&raster::tree(&layer)?, Transform::identity(), &mut pm.as_mut());
            let (x0, y0, x1, y1) = match &prev {
                None => (0, 0, w, h),
                Some(p) => changed(p, pm.data(), w, h),
            };
            wr.set_frame_delay(f.delay_ms.min(65_535) as u16, 1000).map_err(err)?;
            wr.set_blend_op(png::BlendOp::Source).map_err(err)?;
            wr.set_dispose_op(png::DisposeOp::None).map_err(err)?;
            wr.reset_frame_position().map_err(err)?;
            wr.set_frame_dimension(x1 - x0, y1 - y0).map_err(err)?;
            wr.set_frame_position(x0, y0).map_err(err)?;
            let data = pm.data();
            let mut part = Vec::with_capacity(((x1 - x0) * (y1 - y0) * 4) as usize);
            for y in y0..y1 {
                let row = (y * w) as usize * 4;
                for px in data[row + x0 as usize * 4..row + x1 as usize * 4].chunks_exact(4) {
                    part.extend_from_slice(&straight(px));
                }
            }
            wr.write_image_data(&part).map_err(err)?;
            let mut data = std::mem::take(&mut prev).unwrap_or_default();
            data.clear();
            data.extend_from_slice(pm.data());
            prev = Some(data);
        }
        wr.finish().map_err(err)?;
    }
    Ok(out)
}

/// A premultiplied RGBA pixel with straight alpha.
fn straight(px: &[u8]) -> [u8; 4] {
    let a = px[3];
    if a == 255 || a == 0 {
        return [px[0], px[1], px[2], a];
    }
    let un = |c: u8| ((c as u32 * 255 + a as u32 / 2) / a as u32).min(255) as u8;
    [un(px[0]), un(px[1]), un(px[2]), a]
}

/// The smallest rectangle (x0, y0, x1, y1) holding every pixel that
/// differs; one pixel when none does.
fn changed(a: &[u8], b: &[u8], w: u32, h: u32) -> (u32, u32, u32, u32) {
    let (w, h) = (w as usize, h as usize);
    let row_differs = |y: usize| a[y * w * 4..(y + 1) * w * 4] != b[y * w * 4..(y + 1) * w * 4];
    let Some(y0) = (0..h).find(|&y| row_differs(y)) else {
        return (0, 0, 1, 1);
    };
    let y1 = (0..h).rev().find(|&y| row_differs(y)).unwrap_or(y0) + 1;
    let col_differs =
        |x: usize| (y0..y1).any(|y| a[(y * w + x) * 4..(y * w + x) * 4 + 4] != b[(y * w + x) * 4..(y * w + x) * 4 + 4]);
    let x0 = (0..w).find(|&x| col_differs(x)).unwrap_or(0);
    let x1 = (0..w).rev().find(|&x| col_differs(x)).unwrap_or(x0) + 1;
    (x0 as u32, y0 as u32, x1 as u32, y1 as u32)
}

/// A self-contained HTML page: the map once, each frame as a layer over
/// it, with buttons to step between phases and to play.
pub fn html(pic: &Picture, frames: &[Frame], opts: &Options, title: &str) -> String {
    let mut s = String::with_capacity(200_000 + frames.len() * 30_000);
    let _ = write!(
        s,
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{t}</title>
<style>
body{{font-family:"DejaVu Sans",Verdana,sans-serif;margin:0;background:#e9e6df;color:#222}}
header{{display:flex;gap:.5em;align-items:center;padding:.5em 1em;background:#2b3545;color:#fff}}
header button{{font-size:1em;padding:.2em .8em}}
#map svg{{display:block;max-width:100%;height:auto}}
</style></head><body>
<header><button id="first" title="first phase">⏮</button><button id="prev" title="previous phase (←)">◀</button><button id="play" title="play (space)">▶ play</button><button id="next" title="next phase (→)">▶</button><button id="last" title="last phase">⏭</button><span id="where"></span></header>
<div id="map">"#,
        t = esc(title)
    );
    s.push_str(&pic.svg_open(opts));
    s.push_str(&pic.svg_base(opts));
    // Each position's layer once, each frame's units and orders over it.
    let mut pos = 0usize;
    let mut last: Option<*const State> = None;
    for (i, f) in frames.iter().enumerate() {
        let key = f.state as *const State;
        if last != Some(key) {
            if last.is_some() {
                pos += 1;
            }
            last = Some(key);
            let _ = write!(
                s,
                r#"<g class="pos" id="pos{pos}"{}>"#,
                if i == 0 { "" } else { r#" display="none""# }
            );
            s.push_str(&pic.svg_position(f.state, opts, true));
            s.push_str("</g>\n");
        }
        let _ = write!(
            s,
            r#"<g class="frame" data-pos="{pos}" data-delay="{}" data-key="{}"{}>"#,
            f.delay_ms,
            u8::from(f.key),
            if i == 0 { "" } else { r#" display="none""# }
        );
        s.push_str(&pic.svg_moment(f.state, f.outcome, &f.pieces, opts));
        s.push_str("</g>\n");
    }
    s.push_str("</svg></div>\n");
    s.push_str(
        r#"<script>
const frames=[...document.querySelectorAll('g.frame')];
let cur=0,timer=null;
const keys=frames.map((f,i)=>f.dataset.key==='1'?i:-1).filter(i=>i>=0);
function show(i){frames[cur].setAttribute('display','none');document.getElementById('pos'+frames[cur].dataset.pos).setAttribute('display','none');
 cur=Math.max(0,Math.min(frames.length-1,i));frames[cur].removeAttribute('display');document.getElementById('pos'+frames[cur].dataset.pos).removeAttribute('display');
 const k=keys.filter(x=>x<=cur).length;document.getElementById('where').textContent='phase '+k+' of '+keys.length;}
function stop(){if(timer){clearTimeout(timer);timer=null;}document.getElementById('play').textContent='▶ play';}
function tick(){if(cur>=frames.length-1){stop();return;}show(cur+1);timer=setTimeout(tick,+frames[cur].dataset.delay);}
function play(){if(timer){stop();return;}if(cur>=frames.length-1)show(0);document.getElementById('play').textContent='⏸ pause';timer=setTimeout(tick,+frames[cur].dataset.delay);}
function nextKey(){stop();const k=keys.find(x=>x>cur);show(k===undefined?frames.length-1:k);}
function prevKey(){stop();const k=keys.filter(x=>x<cur).pop();show(k===undefined?0:k);}
document.getElementById('play').onclick=play;
document.getElementById('next').onclick=nextKey;
document.getElementById('prev').onclick=prevKey;
document.getElementById('first').onclick=()=>{stop();show(0);};
document.getElementById('last').onclick=()=>{stop();show(frames.length-1);};
document.addEventListener('keydown',e=>{if(e.key==='ArrowRight')nextKey();else if(e.key==='ArrowLeft')prevKey();else if(e.key===' '){e.preventDefault();play();}});
show(0);
</script></body></html>
"#,
    );
    s
}
