//! `dip variant`: list the bundled variants, lint a variant, show one
//! province (DipWork's field test), convert between formats.

use anyhow::{anyhow, Result};
use dip_play::Variants;
use dip_variants::formats::{self, Format};
use std::path::Path;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(clap::Subcommand)]
enum Cmd {
    /// The bundled variants, and those of the jDip plugins given with
    /// `--variants`: name, powers, provinces, centres.
    List {
        /// One JSON object a line (`name`, `powers`, `provinces`,
        /// `centres`, `title`, and `plugin` for a plugin's variant), for
        /// scripts.
        #[arg(long)]
        json: bool,
    },
    /// Lint a variant (a bundled name or a file in any format); exit 1 on
    /// findings, 2 when it cannot be read.
    Check {
        /// A bundled variant's name, or a variant file or folder (native
        /// `.variant`, DipWork folder or VARIANT.TXT, Realpolitik `.var`,
        /// DPjudge `.map`).
        path: String,
    },
    /// Everything known about one province of a variant.
    Show {
        /// A bundled variant's name, or a variant file or folder.
        path: String,
        /// The province (abbreviation or name).
        name: String,
    },
    /// Apply map edits (Seismic play) to a variant and write the result (native).
    Apply {
        /// A bundled variant's name, or a variant file or folder.
        path: String,
        /// The map edits (docs/variant-format.md, "Map edits").
        edits: String,
        /// Output file (default: stdout); never the variant or the edits.
        #[arg(short = 'o', long = "output", alias = "out")]
        out: Option<String>,
        /// Replace an existing output file.
        #[arg(long)]
        force: bool,
    },
    /// Write a generated grid map (for benchmarks) in the native format.
    Generate {
        /// Number of provinces (1 to 20000; the map's border tables grow with the square).
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=MAX_PROVINCES))]
        provinces: u32,
        /// Number of powers (1 to 1000).
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=1000))]
        powers: u32,
        /// Seed of the random layout: the same seed gives the same map.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output file (default: stdout).
        #[arg(short = 'o', long = "output", alias = "out")]
        out: Option<String>,
        /// Replace an existing output file.
        #[arg(long)]
        force: bool,
    },
    /// Convert a variant to another format.
    Convert {
        /// A bundled variant's name, or a variant file or folder.
        path: String,
        /// The format to write.
        #[arg(long, value_parser = ["native", "dipwork", "dpjudge", "realpolitik", "jdip"])]
        to: String,
        /// Output file (native, dpjudge) or folder (dipwork, realpolitik, jdip);
        /// default: stdout for native and dpjudge. Existing files are
        /// replaced only with --force, and never the input.
        #[arg(short = 'o', long = "output", alias = "out")]
        out: Option<String>,
        /// Replace existing output files.
        #[arg(long)]
        force: bool,
    },
}

/// The largest map `generate` makes.
const MAX_PROVINCES: i64 = 20_000;

/// Refuses to write over the input (`inputs`: files or folders read), and
/// over any existing file without `force`.
fn check_targets(targets: &[&Path], inputs: &[&Path], force: bool) -> Result<()> {
    dip_game::files::check_targets(targets, inputs, force).map_err(anyhow::Error::msg)
}

/// Writes one output file after [`check_targets`].
fn write_output(out: &str, text: &str, inputs: &[&Path], force: bool) -> Result<()> {
    let o = Path::new(out);
    check_targets(&[o], inputs, force)?;
    dip_game::files::replace(o, text.as_bytes()).map_err(anyhow::Error::msg)
}

/// Unit pictures that cannot be drawn (a broken file, or too big): maps
/// would quietly draw the generated icon instead, so `check` says so.
fn unit_picture_findings(v: &dip_variants::Variant) -> Vec<String> {
    v.unit_pictures
        .iter()
        .filter_map(|u| {
            let e = dip_render::raster::decode_picture(&u.bytes).err()?;
            Some(format!(
                "unit picture {} ({} {}): {e}; maps draw the generated icon instead",
                u.path,
                v.map.power(u.power).name,
                v.map.unit_type(u.unit_type).name
            ))
        })
        .collect()
}

/// Says so when a bundled name hides a variant of that name in a plugin
/// given with `--variants` (the bundled one is used).
pub fn warn_hidden(name: &str, variants: &Variants) {
    for spec in variants.hidden_by_bundled(name) {
        eprintln!("note: `{name}` is dip's bundled variant; for the plugin's, write `--variant '{spec}'`");
    }
}

pub fn run(args: Args, variants: &Variants) -> Result<ExitCode> {
    match args.command {
        Cmd::List { json } => list(json, variants),
        Cmd::Check { path } => check(path, variants),
        Cmd::Show { path, name } => show(path, name, variants),
        Cmd::Generate {
            provinces,
            powers,
            seed,
            out,
            force,
        } => generate(provinces, powers, seed, out, force),
        Cmd::Apply {
            path,
            edits,
            out,
            force,
        } => apply(path, edits, out, force, variants),
        Cmd::Convert { path, to, out, force } => convert(path, to, out, force, variants),
    }
}

/// `list`: the bundled variants, then those of the plugins given.
fn list(json: bool, variants: &Variants) -> Result<ExitCode> {
    let row = |name: &str, v: &dip_variants::Variant, plugin: Option<&str>| {
        if json {
            let mut o = serde_json::json!({
                "name": name,
                "powers": v.map.powers().len(),
                "provinces": v.map.num_provinces(),
                "centres": v.map.supply_centers().len(),
                "title": v.title,
            });
            if let Some(p) = plugin {
                o["plugin"] = serde_json::Value::from(p);
            }
            println!("{o}");
        } else {
            println!(
                "{:<14} {:>6} {:>9} {:>7}  {}{}",
                name,
                v.map.powers().len(),
                v.map.num_provinces(),
                v.map.supply_centers().len(),
                v.title,
                plugin.map(|p| format!(" (jDip: {p})")).unwrap_or_default()
            );
        }
    };
    if !json {
        println!(
            "{:<14} {:>6} {:>9} {:>7}  title",
            "name", "powers", "provinces", "centres"
        );
    }
    for (name, _) in dip_variants::bundled() {
        let v = variants.load(name)?;
        row(name, &v, None);
    }
    let mut failed = false;
    for plugin in variants.plugin_paths() {
        let p = match dip_variants::jdip::Plugin::open(&plugin) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                failed = true;
                continue;
            }
        };
        for (name, _) in &p.variants {
            match p.variant(name).and_then(|jv| jv.model.build(&p.path)) {
                Ok(v) => row(name, &v, Some(&p.path)),
                Err(e) => {
                    eprintln!("{e}");
                    failed = true;
                }
            }
        }
    }
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// `check`: lints the variant by names, then the built map.
fn check(path: String, variants: &Variants) -> Result<ExitCode> {
    let bundled = dip_variants::bundled()
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case(path.trim()));
    warn_hidden(&path, variants);
    if !bundled && !Path::new(&path).exists() && variants.plugin_variant(&path).is_none() {
        eprintln!("dip: {path}: no such file and no bundled variant of that name");
        return Ok(ExitCode::from(2));
    }
    // By names first (every dangling border, duplicate name and
    // impossible unit), then the built map.
    let mut findings: Vec<String> = Vec::new();
    match variants.read_model(&path) {
        Ok((m, _)) => findings.extend(dip_variants::lint::lint_model(&m).iter().map(|f| f.to_string())),
        // Not a variant dip can read: unusable input, not a finding.
        Err(e) if e.is_unreadable() => {
            eprintln!("dip: {e}");
            return Ok(ExitCode::from(2));
        }
        Err(e) => {
            println!("{e}");
            println!("{path}: 1 finding");
            return Ok(ExitCode::from(1));
        }
    }
    let v = match variants.load_any(&path) {
        Ok(v) => Some(v),
        Err(e) => {
            if findings.is_empty() {
                findings.push(e.to_string());
            }
            None
        }
    };
    if let Some(v) = &v {
        findings.extend(dip_variants::lint::lint(v).iter().map(|f| f.to_string()));
        findings.extend(unit_picture_findings(v));
        // What the reader of a foreign format replaced (a picture
        // list or icons not found, an unknown colour).
        findings.extend(v.notes.iter().cloned());
    }
    for f in &findings {
        println!("{path}: {f}");
    }
    // A jDip plugin: what was read and is not enforced (borders by
    // season, phase or order, convoyable coasts, inactive powers).
    if let Some(Ok((_, jv))) = variants.plugin_variant(&path) {
        for n in &jv.notes {
            println!("note: {n}");
        }
    }
    match v {
        Some(v) if findings.is_empty() => {
            println!(
                "{path}: ok ({} powers, {} provinces, {} centres)",
                v.map.powers().len(),
                v.map.num_provinces(),
                v.map.supply_centers().len()
            );
            Ok(ExitCode::SUCCESS)
        }
        _ => {
            println!("{path}: {} findings", findings.len());
            Ok(ExitCode::from(1))
        }
    }
}

/// `show`: one province of a variant.
fn show(path: String, name: String, variants: &Variants) -> Result<ExitCode> {
    warn_hidden(&path, variants);
    let v = variants.load_any(&path)?;
    let text = dip_variants::lint::show(&v, &name).ok_or_else(|| anyhow!("no province `{name}` in {path}"))?;
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}

/// `generate`: writes a generated grid map.
fn generate(provinces: u32, powers: u32, seed: u64, out: Option<String>, force: bool) -> Result<ExitCode> {
    let m = dip_variants::generate::grid(provinces as usize, powers as usize, seed);
    let v = m.build("generated")?;
    let native = dip_variants::to_native(&v);
    match out {
        Some(o) => write_output(&o, &native, &[], force)?,
        None => print!("{native}"),
    }
    Ok(ExitCode::SUCCESS)
}

/// `apply`: applies map edits to a variant and writes the result.
fn apply(path: String, edits: String, out: Option<String>, force: bool, variants: &Variants) -> Result<ExitCode> {
    let v = variants.load_any(&path)?;
    let text = dip_game::files::read_text(Path::new(&edits)).map_err(anyhow::Error::msg)?;
    let (nv, findings) = dip_variants::seismic::apply(&v, &text, &edits)?;
    for f in &findings {
        eprintln!("{edits}: {f}");
    }
    let native = dip_variants::to_native(&nv);
    match out {
        Some(o) => write_output(&o, &native, &[Path::new(&path), Path::new(&edits)], force)?,
        None => print!("{native}"),
    }
    Ok(if findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `convert`: writes the variant in another format.
fn convert(path: String, to: String, out: Option<String>, force: bool, variants: &Variants) -> Result<ExitCode> {
    let format = Format::parse(&to)
        .ok_or_else(|| anyhow!("unknown format `{to}` (native, dipwork, dpjudge, realpolitik or jdip)"))?;
    warn_hidden(&path, variants);
    let (model, _) = variants.read_model(&path)?;
    // Check that it builds before writing anything.
    model.build(&path)?;
    let lost = formats::lost_in(&model, format);
    if !lost.is_empty() {
        eprintln!(
            "note: the {} format cannot carry {} border(s), home centre(s) or border rule(s), e.g. {}",
            format.name(),
            lost.len(),
            lost.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
        );
    }
    match out {
        None if format == Format::Native => print!("{}", model.to_native()),
        None if format == Format::DpJudge => print!("{}", dip_variants::dpjudge::write(&model)),
        None => {
            return Err(anyhow!(
                "-o FOLDER is needed for the {} format (it writes several files)",
                format.name()
            ))
        }
        Some(o) => {
            let files = formats::outputs(&model, format, Path::new(&o));
            let pictures = match format {
                Format::Realpolitik => crate::map_pictures::for_realpolitik(&model, &path, Path::new(&o))?,
                _ => Vec::new(),
            };
            let targets: Vec<&Path> = files
                .iter()
                .map(|(f, _)| f.as_path())
                .chain(pictures.iter().map(|(f, _)| f.as_path()))
                .collect();
            check_targets(&targets, &[Path::new(&path)], force)?;
            if matches!(format, Format::DipWork | Format::Realpolitik | Format::Jdip) {
                std::fs::create_dir_all(&o).map_err(|e| anyhow!("cannot create {o}: {e}"))?;
            }
            let texts = files.iter().map(|(f, t)| (f, t.as_bytes()));
            for (f, bytes) in texts.chain(pictures.iter().map(|(f, b)| (f, b.as_slice()))) {
                dip_game::files::replace(f, bytes).map_err(anyhow::Error::msg)?;
                eprintln!("wrote {}", f.display());
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
