//! Draws a bundled variant's start: `cargo run -p dip-render --example preview -- standard out.png`.

#![forbid(unsafe_code)]

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let v = dip_variants::load(args.get(1).map(String::as_str).unwrap_or("standard")).expect("variant");
    let out = args.get(2).cloned().unwrap_or_else(|| "target/preview.png".into());
    let png = dip_render::render_png(&v, &v.start, None, &dip_render::Options::default()).expect("png");
    std::fs::write(&out, png).expect("write");
}
