//! `dip variant`: list the bundled variants, lint a variant, show one
//! province (DipWork's field test), convert between formats.

use anyhow::{anyhow, Result};
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
    /// The bundled variants: name, powers, provinces, centres.
    List,
    /// Lint a variant (a bundled name or a file in any format); exit 1 on findings.
    Check { path: String },
    /// Everything known about one province of a variant.
    Show { path: String, name: String },
    /// Apply map edits (Seismic play) to a variant and write the result (native).
    Apply {
        path: String,
        edits: String,
        #[arg(long, short)]
        out: Option<String>,
    },
    /// Write a generated grid map (for benchmarks) in the native format.
    Generate {
        #[arg(long, default_value_t = 200)]
        provinces: usize,
        #[arg(long, default_value_t = 20)]
        powers: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, short)]
        out: Option<String>,
    },
    /// Convert a variant to another format (native, dipwork, dpjudge).
    Convert {
        path: String,
        /// The format to write.
        #[arg(long)]
        to: String,
        /// Output file (native, dpjudge) or folder (dipwork); default: stdout for native.
        #[arg(long, short)]
        out: Option<String>,
    },
}

pub fn run(args: Args) -> Result<ExitCode> {
    match args.command {
        Cmd::List => {
            println!(
                "{:<14} {:>6} {:>9} {:>7}  title",
                "name", "powers", "provinces", "centres"
            );
            for (name, _) in dip_variants::bundled() {
                let v = dip_variants::load(name)?;
                println!(
                    "{:<14} {:>6} {:>9} {:>7}  {}",
                    name,
                    v.map.powers().len(),
                    v.map.num_provinces(),
                    v.map.supply_centers().len(),
                    v.title
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Check { path } => {
            // By names first (every dangling border, duplicate name and
            // impossible unit), then the built map.
            let mut findings: Vec<String> = Vec::new();
            match formats::read_model(&path) {
                Ok((m, _)) => findings.extend(dip_variants::lint::lint_model(&m).iter().map(|f| f.to_string())),
                Err(e) => {
                    println!("{e}");
                    return Ok(ExitCode::from(1));
                }
            }
            let v = match formats::load_any(&path) {
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
            }
            for f in &findings {
                println!("{path}: {f}");
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
        Cmd::Show { path, name } => {
            let v = formats::load_any(&path)?;
            let text = dip_variants::lint::show(&v, &name).ok_or_else(|| anyhow!("no province `{name}` in {path}"))?;
            print!("{text}");
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Generate {
            provinces,
            powers,
            seed,
            out,
        } => {
            let m = dip_variants::generate::grid(provinces, powers, seed);
            let v = m.build("generated")?;
            let native = dip_variants::to_native(&v);
            match out {
                Some(o) => std::fs::write(&o, native)?,
                None => print!("{native}"),
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Apply { path, edits, out } => {
            let v = formats::load_any(&path)?;
            let text = std::fs::read_to_string(&edits).map_err(|e| anyhow!("{edits}: {e}"))?;
            let (nv, findings) = dip_variants::seismic::apply(&v, &text, &edits)?;
            for f in &findings {
                eprintln!("{edits}: {f}");
            }
            let native = dip_variants::to_native(&nv);
            match out {
                Some(o) => std::fs::write(&o, native)?,
                None => print!("{native}"),
            }
            Ok(if findings.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Cmd::Convert { path, to, out } => {
            let format = Format::parse(&to)
                .ok_or_else(|| anyhow!("unknown format `{to}` (native, dipwork, dpjudge or realpolitik)"))?;
            let (model, _) = formats::read_model(&path)?;
            // Check that it builds before writing anything.
            model.build(&path)?;
            let lost = formats::lost_in(&model, format);
            if !lost.is_empty() {
                eprintln!(
                    "note: the {} format cannot carry {} border(s) or home centre(s), e.g. {}",
                    format.name(),
                    lost.len(),
                    lost.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
                );
            }
            match out {
                None if format == Format::Native => print!("{}", model.to_native()),
                None if format == Format::DpJudge => print!("{}", dip_variants::dpjudge::write(&model)),
                None => return Err(anyhow!("--out FOLDER is needed for the {} format", format.name())),
                Some(o) => {
                    for f in formats::write(&model, format, Path::new(&o))? {
                        eprintln!("wrote {}", f.display());
                    }
                }
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
