//! `dip cases FILE...`

use anyhow::Result;
use dip_cases::{parse_file, Runner, Settings};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Case files (dip's `.cases` format or the jDip/godip DATC text format).
    #[arg(required = true)]
    files: Vec<std::path::PathBuf>,
    /// Variant for cases that name none: a bundled name or a path.
    #[arg(long)]
    variant: Option<String>,
    /// Rules for cases that name none: a preset and/or KEY=VALUE options.
    #[arg(long)]
    rules: Option<String>,
    /// Print every case, not only the failing ones.
    #[arg(short, long)]
    verbose: bool,
}

pub fn run(args: Args, variants: &dip_play::Variants) -> Result<ExitCode> {
    let mut runner = Runner::new(Settings {
        variant: args.variant,
        rules: args.rules,
        variants: variants.clone(),
    });
    let (mut passed, mut failed) = (0, 0);
    // Cases that could not be run (their variant unreadable): exit 2.
    let mut unusable = 0;
    for path in &args.files {
        let name = path.display().to_string();
        let text = match dip_game::files::read_text(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("dip: {e}");
                return Ok(ExitCode::from(2));
            }
        };
        let cases = match parse_file(&text, &name) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("dip: {e}");
                return Ok(ExitCode::from(2));
            }
        };
        for case in &cases {
            let r = runner.run(case);
            if r.passed() {
                passed += 1;
                if args.verbose {
                    println!("ok   {} {}", r.id, r.title);
                }
            } else if r.unusable {
                unusable += 1;
                for f in &r.failures {
                    eprintln!("dip: case {}: {f}", r.id);
                }
            } else {
                failed += 1;
                println!("FAIL {} {} ({}:{})", r.id, r.title, r.file, r.line);
                for f in &r.failures {
                    println!("     {f}");
                }
            }
        }
    }
    if unusable > 0 {
        println!("{passed} passed, {failed} failed, {unusable} could not be run");
        return Ok(ExitCode::from(2));
    }
    println!("{passed} passed, {failed} failed");
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
