//! `dip render` and `dip animate`: maps of positions, with orders and
//! results, and animations of phases and whole games (crate dip-render).

use anyhow::{bail, Context, Result};
use dip_core::{Order, PhaseOutcome, Ruleset, State};
use dip_game::as_read::AsRead;
use dip_play::Variants;
use dip_render::animate::{self, Step, Timing};
use dip_render::{Mode, Options, Picture};
use dip_text::{read_orders_strict, Vocabulary};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// How the picture looks (shared by both commands).
#[derive(clap::Args)]
pub struct Look {
    /// Variant: a bundled name or a path.
    #[arg(long, default_value = "standard")]
    variant: String,
    /// Rules: a preset and/or KEY=VALUE options (docs/rules.md).
    #[arg(long)]
    rules: Option<String>,
    /// Size factor (1 = one pixel per map unit: 1430 × 1230 for the standard map).
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    scale: f32,
    /// Print resolution instead of --scale: the map is 96 units to the inch at scale 1.
    #[arg(long, allow_negative_numbers = true)]
    dpi: Option<f32>,
    /// colour, grey or bw (black and white).
    #[arg(long, default_value = "colour")]
    mode: String,
    /// Title instead of the variant's title and the phase.
    #[arg(long)]
    title: Option<String>,
    /// Leave out the province names.
    #[arg(long)]
    no_names: bool,
    /// Leave out the centre-count panel.
    #[arg(long)]
    no_panel: bool,
    /// Province shapes: a `.shapes` file (docs/map-shapes.md) or a Realpolitik
    /// `.rgn` (its scanlines). A Realpolitik variant's own `.rgn` is found by itself.
    #[arg(long)]
    shapes: Option<PathBuf>,
    /// A map picture (PNG, BMP, TIF or Mac PICT) to draw on, as DipWork's mapper drew units
    /// onto a blank map; the variant's `at=` points are its pixels. Default:
    /// the variant's `picture colour` (Realpolitik's ColorMap) when it is one.
    #[arg(long)]
    background: Option<PathBuf>,
    /// A jDip unit symbol pack (`…Symbols.zip`, its folder, or
    /// symbols.svg): units are drawn with its Army, Fleet and Wing symbols
    /// in their power's colour.
    #[arg(long)]
    symbols: Option<PathBuf>,
    /// DIP's renaming file (`fixnames.dat`: `default,new` a line): the new
    /// names are read in the orders files.
    #[arg(long, value_name = "FILE")]
    fixnames: Option<PathBuf>,
}

#[derive(clap::Args)]
pub struct Args {
    /// The game: `start` (the variant's starting position), a position file
    /// (docs/position-format.md), a game directory, its GAME.TXT or
    /// NEWGAME.TXT, a record (.rec), DIP's .dip files or a MILA game.
    #[arg(required_unless_present = "record")]
    position: Option<PathBuf>,
    /// Orders file of the position's phase: drawn as arrows with their results.
    orders: Option<PathBuf>,
    /// A game record (.rec) or a game directory (its HISTORY.REC) instead of files.
    #[arg(long, conflicts_with = "position")]
    record: Option<PathBuf>,
    /// With --record: the phase to draw with its orders (`S1902M`, `F1901R`,
    /// `W1901A`, a number from 1, or `last` for the position after the last phase).
    #[arg(long, default_value = "last")]
    phase: String,
    /// Output: .svg, .png or .bmp (DIP's export); `-` writes SVG to standard output.
    #[arg(short, long, alias = "out", default_value = "-")]
    output: String,
    /// Replace the output file if it exists (never an input).
    #[arg(long)]
    force: bool,
    /// Draw the position after the phase instead (needs ORDERS).
    #[arg(long)]
    after: bool,
    #[command(flatten)]
    look: Look,
}

#[derive(clap::Args)]
pub struct AnimateArgs {
    /// Position file the first phase starts from; `start` for the variant's starting position.
    position: Option<PathBuf>,
    /// A whole game instead: a game record (.rec), a game directory (its
    /// HISTORY.REC), or one of DIP's season files (.dip: the game's other
    /// season files beside it are found by name, as DIP does).
    #[arg(long, conflicts_with = "position")]
    record: Option<PathBuf>,
    /// Orders files, one per phase, adjudicated in turn (an empty file: no orders).
    orders: Vec<PathBuf>,
    /// Output: .png (animated PNG) or .html (page with step and play controls).
    #[arg(short, long, alias = "out")]
    output: String,
    /// Replace the output file if it exists (never an input).
    #[arg(long)]
    force: bool,
    /// Instead of files: this many phases of random orders from the
    /// variant's start (1 to 10000).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    random: Option<u32>,
    /// Seed of --random.
    #[arg(long, default_value_t = 1901)]
    seed: u64,
    /// In-between pictures per phase (0: just orders and results; at most 100).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(0..=100))]
    tween: u32,
    /// Milliseconds each phase's orders are shown (at most 600000).
    #[arg(long, default_value_t = 1600, value_parser = clap::value_parser!(u32).range(0..=600_000))]
    hold_ms: u32,
    #[command(flatten)]
    look: Look,
}

impl Look {
    /// The variant: bundled, native, DipWork, Realpolitik or DPjudge.
    fn variant(&self, variants: &Variants) -> Result<dip_variants::Variant> {
        let mut v = variants.load_any(&self.variant)?;
        // What the variant's files lack (icons, colours): drawn otherwise, said so.
        for n in &v.notes {
            eprintln!("note: {n}");
        }
        if let Some(path) = &self.symbols {
            let pack = dip_variants::jdip::SymbolPack::open(path)?;
            v.unit_pictures = dip_render::jdip::symbol_pictures(&v, &pack);
            if v.unit_pictures.is_empty() {
                bail!("{}: no Army, Fleet or Wing symbol could be drawn", path.display());
            }
        }
        Ok(v)
    }

    /// The picture of the variant with the shapes asked for. `file`: the
    /// variant's file when the game named it (a game directory's
    /// VARIANTPATH), else `--variant`; a Realpolitik variant's `.rgn` and
    /// ColorMap are found beside it.
    fn picture<'a>(
        &self,
        variant: &'a dip_variants::Variant,
        file: Option<&Path>,
        variants: &Variants,
    ) -> Result<Picture<'a>> {
        let file = file.unwrap_or(Path::new(&self.variant));
        // A jDip plugin's variant: its own map, unless other shapes or a
        // picture are asked for.
        if self.shapes.is_none() && self.background.is_none() {
            if let Some(found) = variants.plugin_variant(&self.variant) {
                let (_, jv) = found?;
                if let Some((file, text)) = &jv.svg {
                    return dip_render::jdip::picture(variant, text, file).with_context(|| file.clone());
                }
            }
        }
        let mut path = self.shapes.clone();
        if path.is_none() && file.extension().is_some_and(|e| e.eq_ignore_ascii_case("var")) {
            let rgn = file.with_extension("rgn");
            if rgn.is_file() {
                path = Some(rgn);
            }
        }
        let shapes = match path {
            None => dip_render::Shapes::for_variant(variant),
            Some(path) => {
                let name = path.display().to_string();
                let text = dip_game::files::read_bytes_capped(&path, dip_game::files::MAX_BINARY_BYTES)
                    .map_err(anyhow::Error::msg)?;
                let text = String::from_utf8_lossy(&text);
                if name.to_ascii_lowercase().ends_with(".rgn") {
                    dip_render::Shapes::from_rgn(&variant.map, &text, &name)?
                } else {
                    dip_render::Shapes::parse(&variant.map, &text, &name)?
                }
            }
        };
        // A map picture: asked for, or the variant's own colour picture (a
        // PNG, BMP, TIF or Mac PICT, or a Mac file without extension,
        // relative to the variant file).
        // In black-and-white mode the variant's BWMap comes first.
        let bw = Mode::parse(&self.mode) == Some(Mode::BlackWhite);
        let background = self.background.clone().or_else(|| {
            let dir = file.parent()?;
            // A picture named but missing (a BWMap never shipped) falls
            // back to the colour one.
            let readable = |k: &str| {
                variant.pictures.iter().find_map(|(kind, p)| {
                    let ext = Path::new(p).extension().map(|e| e.to_ascii_lowercase());
                    let known =
                        ext.is_none_or(|e| ["png", "bmp", "tif", "tiff", "pct", "pict"].iter().any(|x| e == *x));
                    Some(dir.join(p)).filter(|p| kind == k && known && p.is_file())
                })
            };
            bw.then(|| readable("bw")).flatten().or_else(|| readable("colour"))
        });
        match background {
            None => Ok(Picture::with_shapes(variant, shapes)),
            Some(bg) => {
                let name = bg.display().to_string();
                let bytes = dip_game::files::read_bytes_capped(&bg, dip_game::files::MAX_BINARY_BYTES)
                    .map_err(anyhow::Error::msg)?;
                Picture::with_background(variant, shapes, bytes).with_context(|| name.clone())
            }
        }
    }

    /// The files this look reads: shapes, background, symbols, the
    /// variant's file and the pictures it names (an output may be none of them).
    fn inputs(&self, variant: &dip_variants::Variant) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = [&self.shapes, &self.background, &self.symbols]
            .into_iter()
            .flatten()
            .cloned()
            .collect();
        let file = Path::new(&self.variant);
        if file.exists() {
            v.push(file.to_path_buf());
            let dir = file.parent().unwrap_or(Path::new(""));
            v.extend(variant.pictures.iter().map(|(_, rel)| dir.join(rel)));
            v.push(file.with_extension("rgn"));
        }
        v
    }

    fn options(&self) -> Result<Options> {
        let mode =
            Mode::parse(&self.mode).with_context(|| format!("--mode {}: expected colour, grey or bw", self.mode))?;
        let mut o = Options {
            scale: self.scale,
            mode,
            title: self.title.clone(),
            names: !self.no_names,
            panel: !self.no_panel,
            ..Options::default()
        };
        if let Some(d) = self.dpi {
            // Scale 10 is 960 dpi: the message names the option given.
            if !(d > 0.0 && d <= 960.0) {
                bail!("--dpi must be above 0 and at most 960 (got {d})");
            }
            o = o.with_dpi(d);
        }
        if !(o.scale > 0.0 && o.scale <= 10.0) {
            bail!("the scale must be above 0 and at most 10 (got {})", o.scale);
        }
        Ok(o)
    }
}

/// Reads an orders file as `dip adjudicate` does (the files `dip orders
/// check` reads, every line a clean order); every bad line is reported.
fn read_orders(map: &dip_core::Map, state: &State, path: &Path, fixnames: Option<&Path>) -> Result<Vec<Order>> {
    let name = path.display().to_string();
    let text = dip_game::source::read_orders_file(path, state.phase.kind).map_err(anyhow::Error::msg)?;
    let mut vocab = Vocabulary::new(map).with_spellcheck(0);
    crate::fixnames::apply(&mut vocab, fixnames)?;
    read_orders_strict(&vocab, Some(state), &text).map_err(|errors| {
        let lines: Vec<String> = errors
            .iter()
            .map(|e| {
                let col = if e.column > 0 {
                    format!(":{}", e.column)
                } else {
                    String::new()
                };
                format!("{name}:{}{col}: {}: `{}`", e.line, e.message, e.text)
            })
            .collect();
        anyhow::anyhow!("{}", lines.join("\n"))
    })
}

/// The files a position, record or game directory argument reads.
fn files_of(path: &Path) -> Vec<PathBuf> {
    if path.is_dir() {
        vec![path.join("GAME.TXT"), path.join("HISTORY.REC")]
    } else if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("dip")) {
        dip_game::dipfile::game_files(path)
    } else {
        vec![path.to_path_buf()]
    }
}

/// Refuses an output that is one of the inputs, or an existing file
/// without `--force`; standard output (`-`) is always fine.
fn check_output(output: &str, inputs: &[PathBuf], force: bool) -> Result<()> {
    if output == "-" {
        return Ok(());
    }
    let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    dip_game::files::check_targets(&[Path::new(output)], &inputs, force).map_err(anyhow::Error::msg)
}

/// Writes an output checked by [`check_output`], whole or not at all.
fn write_output(output: &str, bytes: &[u8]) -> Result<()> {
    dip_game::files::replace(Path::new(output), bytes).map_err(anyhow::Error::msg)
}

/// Writes the picture of `state` (with `outcome`'s orders) as SVG or PNG.
fn draw(
    pic: &Picture,
    state: &State,
    outcome: Option<&PhaseOutcome>,
    opts: &Options,
    output: &str,
    dpi: Option<f32>,
) -> Result<()> {
    let lower = output.to_ascii_lowercase();
    if output == "-" || lower.ends_with(".svg") {
        let svg = pic.svg(state, outcome, opts);
        if output == "-" {
            print!("{svg}");
        } else {
            write_output(output, svg.as_bytes())?;
        }
    } else if lower.ends_with(".png") {
        let pm = pic.pixmap(state, outcome, &pic.pieces(state), opts)?;
        let png = dip_render::raster::encode_png_at_dpi(&pm, dpi)?;
        write_output(output, &png)?;
    } else if lower.ends_with(".bmp") {
        // DIP's export: a Windows bitmap.
        let pm = pic.pixmap(state, outcome, &pic.pieces(state), opts)?;
        let bmp = dip_render::raster::encode_bmp(&pm, dpi);
        write_output(output, &bmp)?;
    } else {
        bail!("{output}: expected a file name ending in .svg, .png or .bmp, or - for SVG on standard output");
    }
    Ok(())
}

/// Reads a whole game: a record, a game directory's HISTORY.REC, DIP's
/// season files or a MILA saved game.
fn read_record(path: &Path, variants: &Variants) -> Result<dip_game::source::Recorded> {
    Ok(dip_game::source::open_record(path, variants)?)
}

/// Every phase of a record adjudicated: the positions (one more than the
/// outcomes: the position after the last phase) and the outcomes.
fn replay(
    variant: &dip_variants::Variant,
    rec: &dip_game::record::GameRecord,
) -> Result<(Vec<State>, Vec<PhaseOutcome>)> {
    let rules = Ruleset::parse(&rec.rules).unwrap_or(variant.rules);
    let mut game = AsRead::on(&variant.map, rules);
    let mut states = Vec::new();
    let mut outcomes = Vec::new();
    let mut last = None;
    for ph in &rec.phases {
        let played = game.play(&ph.state, &ph.orders);
        states.push(ph.state.clone());
        outcomes.push(played.outcome.clone());
        last = Some(played.next.clone());
    }
    match last {
        Some(next) => states.push(next),
        None => bail!("the record has no phases"),
    }
    Ok((states, outcomes))
}

pub fn run(args: Args, variants: &Variants) -> Result<ExitCode> {
    // A record given as the position with a phase: the same as --record.
    let record = args.record.clone().or_else(|| {
        args.position
            .clone()
            .filter(|p| !args.phase.eq_ignore_ascii_case("last") && args.orders.is_none() && whole_game(p))
    });
    if let Some(path) = &record {
        let rec = read_record(path, variants)?;
        let variant = &rec.variant;
        let mut inputs = files_of(path);
        inputs.extend(args.look.inputs(variant));
        check_output(&args.output, &inputs, args.force)?;
        let opts = args.look.options()?;
        let (states, outcomes) = replay(variant, &rec.record)?;
        let pic = args.look.picture(variant, rec.variant_path.as_deref(), variants)?;
        let index = dip_game::source::phase_index(&rec.record, &args.phase)?;
        let (state, outcome) = match index {
            None => (&states[outcomes.len()], None),
            Some(i) if args.after => (&states[i + 1], None),
            Some(i) => (&states[i], Some(&outcomes[i])),
        };
        draw(&pic, state, outcome, &opts, &args.output, args.look.dpi)?;
        return Ok(ExitCode::SUCCESS);
    }
    let Some(position) = &args.position else {
        bail!("give a position file (or `start`), or --record");
    };
    // A position file, a game directory, GAME.TXT/NEWGAME.TXT, a record
    // or a MILA game: the game names its own variant.
    // A phase asked of a single position is refused, as `dip adjudicate`
    // refuses it, rather than drawing the file's own phase in silence.
    let phase = Some(args.phase.as_str()).filter(|p| !p.eq_ignore_ascii_case("last"));
    let (variant, state, game_rules, file) = if position.as_os_str() == "start" {
        if let Some(p) = phase {
            bail!("--phase {p}: `start` is a single position, not a game with phases (give a record, a game directory, DIP's .dip files or a MILA game)");
        }
        let v = args.look.variant(variants)?;
        let s = v.start.clone();
        (v, s, None, None)
    } else {
        let opened = dip_game::source::open_at(position, &args.look.variant, phase, variants)?;
        if let Some(n) = &opened.note {
            eprintln!("dip render: {n}");
        }
        (opened.variant, opened.state, opened.rules, opened.variant_path)
    };
    let map = &variant.map;
    let mut inputs: Vec<PathBuf> = args.orders.iter().cloned().collect();
    if position.as_os_str() != "start" {
        inputs.extend(files_of(position));
    }
    inputs.extend(args.look.inputs(&variant));
    check_output(&args.output, &inputs, args.force)?;
    let opts = args.look.options()?;
    // --rules, else the game's own (a game directory's switches), else the variant's.
    let rules = match &args.look.rules {
        Some(r) => Ruleset::parse(r)?,
        None => game_rules.unwrap_or(variant.rules),
    };
    let pic = args.look.picture(&variant, file.as_deref(), variants)?;
    match &args.orders {
        None => {
            if args.after {
                bail!("--after needs an orders file");
            }
            draw(&pic, &state, None, &opts, &args.output, args.look.dpi)?;
        }
        Some(path) => {
            let orders = read_orders(map, &state, path, args.look.fixnames.as_deref())?;
            let mut game = AsRead::on(map, rules);
            let played = game.play(&state, &orders);
            if args.after {
                draw(&pic, &played.next, None, &opts, &args.output, args.look.dpi)?;
            } else {
                draw(&pic, &state, Some(&played.outcome), &opts, &args.output, args.look.dpi)?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A game of its own phases, not a single position: a game directory, a
/// record, DIP's season files or a MILA game.
fn whole_game(p: &Path) -> bool {
    let l = p.to_string_lossy().to_ascii_lowercase();
    p.is_dir()
        || [".rec", ".dip", ".json", ".jsonl", ".gz"]
            .iter()
            .any(|e| l.ends_with(e))
}

pub fn animate(args: AnimateArgs, variants: &Variants) -> Result<ExitCode> {
    // `dip animate GAME` without orders files: the whole game.
    let record = args.record.clone().or_else(|| {
        args.position
            .clone()
            .filter(|p| args.orders.is_empty() && args.random.is_none() && whole_game(p))
    });
    let recorded = match &record {
        Some(path) => Some(read_record(path, variants)?),
        None => None,
    };
    // The first position of orders files: any game (a game directory,
    // GAME.TXT, a record, a MILA game) or a position file.
    let opened = match (&recorded, &args.position, args.random) {
        (None, Some(pos), None) if pos.as_os_str() != "start" => {
            let o = dip_game::source::open(pos, &args.look.variant, variants)?;
            if let Some(n) = &o.note {
                eprintln!("dip animate: {n}");
            }
            Some(o)
        }
        _ => None,
    };
    let (variant, file, game_rules) = match (&recorded, &opened) {
        (Some(r), _) => (
            r.variant.clone(),
            r.variant_path.clone(),
            Ruleset::parse(&r.record.rules).ok(),
        ),
        (None, Some(o)) => (o.variant.clone(), o.variant_path.clone(), o.rules),
        _ => (args.look.variant(variants)?, None, None),
    };
    let mut inputs: Vec<PathBuf> = args.orders.clone();
    inputs.extend(args.record.iter().flat_map(|r| files_of(r)));
    inputs.extend(args.position.iter().filter(|p| p.as_os_str() != "start").cloned());
    inputs.extend(args.look.inputs(&variant));
    check_output(&args.output, &inputs, args.force)?;
    let opts = args.look.options()?;
    let rules = match &args.look.rules {
        Some(r) => Ruleset::parse(r)?,
        None => game_rules.unwrap_or(variant.rules),
    };
    let (states, outcomes) = match &recorded {
        Some(r) => replay(&variant, &r.record)?,
        None => animated_phases(&args, opened.as_ref(), &variant, &rules)?,
    };
    let steps = Step::sequence(&states, &outcomes);
    let timing = Timing {
        tween: args.tween as usize,
        hold_ms: args.hold_ms,
        ..Timing::default()
    };
    let pic = args.look.picture(&variant, file.as_deref(), variants)?;
    let frames = animate::frames(&pic, &steps, &timing);
    let out = &args.output;
    let lower = out.to_ascii_lowercase();
    if lower.ends_with(".png") || lower.ends_with(".apng") {
        let bytes = animate::apng(&pic, &frames, &opts)?;
        write_output(out, &bytes)?;
    } else if lower.ends_with(".html") || lower.ends_with(".htm") {
        let first = states.first().map(|s| s.phase.long().to_string()).unwrap_or_default();
        let last = states.last().map(|s| s.phase.long().to_string()).unwrap_or_default();
        let title = format!("{}: {first} to {last}", variant.title);
        write_output(out, animate::html(&pic, &frames, &opts, &title).as_bytes())?;
    } else {
        bail!("{out}: expected a file name ending in .png (animated PNG) or .html");
    }
    eprintln!("{out}: {} phases, {} pictures", steps.len(), frames.len());
    Ok(ExitCode::SUCCESS)
}

/// The positions and outcomes, phase by phase, of `--random N` phases or
/// of a position and one orders file per phase.
fn animated_phases(
    args: &AnimateArgs,
    opened: Option<&dip_game::source::Opened>,
    variant: &dip_variants::Variant,
    rules: &Ruleset,
) -> Result<(Vec<State>, Vec<PhaseOutcome>)> {
    let map = &variant.map;
    let mut states: Vec<State> = Vec::new();
    let mut outcomes: Vec<PhaseOutcome> = Vec::new();
    let mut game = AsRead::on(map, *rules);
    match (args.random, &args.position) {
        (Some(n), _) => {
            let mut rng = dip_core::random::Rng::with_seed(args.seed);
            states.push(variant.start.clone());
            for _ in 0..n {
                let s = states.last().cloned().unwrap_or_else(|| variant.start.clone());
                let orders = dip_core::random::random_orders(map, &s, rules, &mut rng);
                let played = game.play(&s, &orders);
                states.push(played.next.clone());
                outcomes.push(played.outcome.clone());
            }
        }
        (None, Some(_)) => {
            if args.orders.is_empty() {
                bail!("give one orders file per phase after the position (or a game directory, record or MILA game for the whole game)");
            }
            states.push(match opened {
                Some(o) => o.state.clone(),
                None => variant.start.clone(),
            });
            for path in &args.orders {
                let s = states.last().cloned().unwrap_or_else(|| variant.start.clone());
                let orders = read_orders(map, &s, path, args.look.fixnames.as_deref())?;
                let played = game.play(&s, &orders);
                states.push(played.next.clone());
                outcomes.push(played.outcome.clone());
            }
        }
        (None, None) => {
            bail!("give a position and orders files, a game (directory, record or MILA game), --record, or --random N")
        }
    }
    Ok((states, outcomes))
}
