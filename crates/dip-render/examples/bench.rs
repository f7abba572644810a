//! Rendering speed: `cargo run --release -p dip-render --example bench`.
//!
//! Times (median of runs) a standard-map PNG at 1× of Spring 1901 with its
//! orders (SVG written, drawn, PNG encoded; the picture's shapes are read
//! once beforehand), and a 40-phase animated PNG of a random game with and
//! without in-between pictures.

#![forbid(unsafe_code)]

use dip_core::game;
use dip_core::{PhaseOutcome, State};
use dip_render::animate::{self, Step, Timing};
use dip_render::{Options, Picture};
use std::time::{Duration, Instant};

/// CPU time of this thread in milliseconds (Linux), so that other work on
/// a busy machine does not count; 0 elsewhere.
fn cpu_ms() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|n| n.parse::<f64>().ok()))
        .map_or(0.0, |ns| ns / 1e6)
}

fn main() {
    let v = dip_variants::standard();
    let pos = include_str!("../../../examples/spring-1901/position.txt");
    let ord = include_str!("../../../examples/spring-1901/orders.txt");
    let state = dip_text::parse_position(&v.map, pos, "position.txt").expect("position");
    let orders: Vec<_> = ord
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|l| dip_text::parse_order(&v.map, l, None).expect("order"))
        .collect();
    let outcome = game::adjudicate(&v.map, &state, &orders, &v.rules);
    let t = Instant::now();
    let pic = Picture::new(&v);
    let setup = t.elapsed();
    let opts = Options::default();
    time_png(&pic, &state, &outcome, &opts, setup);
    time_parts(&pic, &state, &outcome, &opts);
    time_png_kept(&pic, &state, &outcome, &opts);
    let (states, outs) = random_game(&v);
    let steps = Step::sequence(&states, &outs);
    time_animations(&pic, &steps, &opts);
}

/// A standard-map PNG at 1× from the SVG, 30 times.
fn time_png(pic: &Picture, state: &State, outcome: &PhaseOutcome, opts: &Options, setup: Duration) {
    let mut times = Vec::new();
    let mut size = 0;
    let cpu0 = cpu_ms();
    for _ in 0..30 {
        let t = Instant::now();
        let svg = pic.svg(state, Some(outcome), opts);
        let png = dip_render::raster::png(&svg).expect("png");
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        size = png.len();
    }
    let cpu = (cpu_ms() - cpu0) / 30.0;
    times.sort_by(f64::total_cmp);
    println!(
        "standard map, Spring 1901 with orders, PNG at 1x (1430x1230): CPU {cpu:.1} ms; wall median {:.1} ms, min {:.1} ms, {} KB; picture setup {:.1} ms",
        times[times.len() / 2],
        times[0],
        size / 1024,
        setup.as_secs_f64() * 1000.0
    );
}

/// Where the time goes (median of each part).
fn time_parts(pic: &Picture, state: &State, outcome: &PhaseOutcome, opts: &Options) {
    // Where the time goes (median of each part).
    let mut parts = [Vec::new(), Vec::new(), Vec::new(), Vec::new()];
    for _ in 0..15 {
        let t = Instant::now();
        let svg = pic.svg(state, Some(outcome), opts);
        parts[0].push(t.elapsed().as_secs_f64() * 1000.0);
        let t = Instant::now();
        let tree = dip_render::raster::tree(&svg).expect("svg");
        parts[1].push(t.elapsed().as_secs_f64() * 1000.0);
        let t = Instant::now();
        let size = tree.size();
        let mut pm = resvg::tiny_skia::Pixmap::new(size.width() as u32, size.height() as u32).expect("pixmap");
        resvg::render(&tree, resvg::tiny_skia::Transform::identity(), &mut pm.as_mut());
        parts[2].push(t.elapsed().as_secs_f64() * 1000.0);
        let t = Instant::now();
        let _ = dip_render::raster::encode_png(&pm).expect("png");
        parts[3].push(t.elapsed().as_secs_f64() * 1000.0);
    }
    let med = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let [a, b, c, d] = &mut parts;
    println!(
        "  parts: SVG {:.1} ms, read {:.1} ms, draw {:.1} ms, PNG encode {:.1} ms",
        med(a),
        med(b),
        med(c),
        med(d)
    );
}

/// The same with the base picture kept (`Picture::png`).
fn time_png_kept(pic: &Picture, state: &State, outcome: &PhaseOutcome, opts: &Options) {
    let mut kept = Vec::new();
    let cpu0 = cpu_ms();
    for _ in 0..30 {
        let t = Instant::now();
        let png = pic.png(state, Some(outcome), opts).expect("png");
        kept.push(t.elapsed().as_secs_f64() * 1000.0);
        assert!(!png.is_empty());
    }
    let cpu = (cpu_ms() - cpu0) / 30.0;
    kept.sort_by(f64::total_cmp);
    println!(
        "same with the base kept (Picture::png, second and later pictures): CPU {cpu:.1} ms; wall median {:.1} ms, min {:.1} ms",
        kept[kept.len() / 2],
        kept[0]
    );
}

/// 40 phases of random orders from the start: the positions and outcomes.
fn random_game(v: &dip_variants::Variant) -> (Vec<State>, Vec<PhaseOutcome>) {
    let mut rng = dip_core::random::Rng::with_seed(1901);
    let mut states = vec![v.start.clone()];
    let mut outs = Vec::new();
    for _ in 0..40 {
        let s = states.last().cloned().unwrap_or_else(|| v.start.clone());
        let o = dip_core::random::random_orders(&v.map, &s, &v.rules, &mut rng);
        let out = game::adjudicate(&v.map, &s, &o, &v.rules);
        states.push(game::advance(&v.map, &s, &out));
        outs.push(out);
    }
    (states, outs)
}

/// A 40-phase animated PNG with and without in-between pictures, and the
/// HTML page.
fn time_animations(pic: &Picture, steps: &[Step], opts: &Options) {
    for tween in [0, 6] {
        let t = Instant::now();
        let frames = animate::frames(
            pic,
            steps,
            &Timing {
                tween,
                ..Timing::default()
            },
        );
        let bytes = animate::apng(pic, &frames, opts).expect("apng");
        println!(
            "40-phase animated PNG at 1x, {} in-between pictures a phase: {} frames in {:.2} s, {} KB",
            tween,
            frames.len(),
            t.elapsed().as_secs_f64(),
            bytes.len() / 1024
        );
    }
    let t = Instant::now();
    let frames = animate::frames(pic, steps, &Timing::default());
    let html = animate::html(pic, &frames, opts, "bench");
    println!(
        "40-phase HTML page: {:.0} ms, {} KB",
        t.elapsed().as_secs_f64() * 1000.0,
        html.len() / 1024
    );
}
