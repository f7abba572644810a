//! `dip daide`: a game for DAIDE bots, at once, with embedded storage, as
//! the DAIDE servers bot authors use; the record and maps are written
//! when it ends.

use anyhow::{bail, Context};
use dip_server::daide::{self, BotGame, DaideConfig};
use dip_server::{AppState, ServeConfig};
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args)]
pub struct Args {
    /// The variant: a bundled one (`dip variant list`), a variant file or
    /// folder of any format dip reads (`variants/pure.variant`, a DipWork
    /// folder, a jDip plugin), or a jDip plugin's variant by name with
    /// `--variants`.
    #[arg(long, default_value = "standard")]
    variant: String,
    /// TCP port the bots connect to.
    #[arg(long, default_value_t = 16713)]
    port: u16,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// Deadline of every phase (`10s`, `5m`); without one a phase waits
    /// until every bot has ordered. `0`: zero-second deadlines, a phase is
    /// processed as soon as every bot that is still connected has
    /// ordered, at once when nobody has to order.
    #[arg(long, value_name = "DURATION")]
    deadline: Option<String>,
    /// AOA: any order that reads as one is accepted (THX MBV); orders that
    /// are not legal are played as holds.
    #[arg(long)]
    any_orders_accepted: bool,
    /// DSD: the deadline stops while a bot whose orders are due is
    /// disconnected (needs --deadline).
    #[arg(long)]
    deadline_stops_on_disconnection: bool,
    /// NPR: no press in retreat phases (needs --press).
    #[arg(long)]
    no_press_in_retreats: bool,
    /// NPB: no press in build phases (needs --press).
    #[arg(long)]
    no_press_in_builds: bool,
    /// PTL: no press in the last SECONDS before a movement deadline
    /// (needs --press and --deadline).
    #[arg(long, value_name = "SECONDS")]
    press_time_limit: Option<u32>,
    /// Press level: 0 (none), 10, 20 or 30.
    #[arg(long, default_value_t = 0, value_parser = press_level)]
    press: u32,
    /// End the game as a draw of the survivors after this year.
    #[arg(long, value_name = "YEAR", value_parser = dip_core::parse_year)]
    end_after: Option<i32>,
    /// Where the database, the record and the maps go (default: a new
    /// folder under the system's temporary folder).
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
}

fn press_level(s: &str) -> Result<u32, String> {
    match s {
        "0" | "10" | "20" | "30" => Ok(s.parse().unwrap_or(0)),
        _ => Err(format!("`{s}`: the press level is 0, 10, 20 or 30")),
    }
}

pub fn run(a: Args, from: &dip_play::Variants) -> anyhow::Result<ExitCode> {
    // A phase that fails to process pauses the game: say why (it said
    // nothing before).
    crate::serve::log_to_stderr();
    let zero = a.deadline.as_deref().is_some_and(is_zero);
    if let Some(d) = a.deadline.as_deref().filter(|d| !is_zero(d)) {
        if let Err(e) = dip_server::time::parse_duration(d) {
            bail!("--deadline: {e} (or 0: process as soon as every bot has ordered)");
        }
    }
    let timed = a.deadline.is_some() && !zero;
    if a.deadline_stops_on_disconnection && !timed {
        bail!("--deadline-stops-on-disconnection needs a --deadline of one second or more");
    }
    if let Some(ptl) = a.press_time_limit {
        if a.press == 0 || !timed {
            bail!("--press-time-limit needs --press and a --deadline of one second or more");
        }
        if ptl > 8191 {
            bail!("--press-time-limit: at most 8191 seconds");
        }
    }
    if (a.no_press_in_retreats || a.no_press_in_builds) && a.press == 0 {
        bail!("--no-press-in-retreats and --no-press-in-builds need --press");
    }
    // The variants the game's server plays: bundled ones and this one.
    let variants = dip_server::variants::for_server();
    // Found where the command line says: bundled names, files, and jDip
    // plugins under `--variants`.
    match dip_server::variants::register(&variants, &a.variant, from) {
        Err(e) => {
            eprintln!("dip: {e}");
            return Ok(ExitCode::from(2));
        }
        Ok(l) => {
            if let Err(e) = daide::playable(l.variant()) {
                eprintln!("dip: --variant {}: {e}", a.variant);
                return Ok(ExitCode::from(2));
            }
            // A last year before the first movement would end the game
            // after its first phase (Modern begins in 1994, Chaos with
            // the builds of 1900).
            let start = l.variant().start.phase;
            let first = start.year + i32::from(start.kind == dip_core::PhaseKind::Adjustment);
            if let Some(end) = a.end_after.filter(|&end| end < first) {
                eprintln!(
                    "dip: --end-after {end}: the first movements of {} are in {first}; expected a year from {first} on",
                    l.variant().name
                );
                return Ok(ExitCode::from(2));
            }
        }
    }
    let data = a.data.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("dip-daide-{}-{:04x}", std::process::id(), fastrand_u16()))
    });
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    rt.block_on(play(a, data, variants))
}

/// `0`, `0s`: zero-second deadlines.
fn is_zero(d: &str) -> bool {
    let d = d.trim();
    let digits = d.strip_suffix(['s', 'm', 'h', 'd']).unwrap_or(d);
    !digits.is_empty() && digits.bytes().all(|b| b == b'0')
}

fn fastrand_u16() -> u16 {
    (std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0)
        & 0xffff) as u16
}

async fn play(a: Args, data: PathBuf, variants: dip_play::Variants) -> anyhow::Result<ExitCode> {
    let config = ServeConfig {
        data: data.clone(),
        ..ServeConfig::default()
    };
    let db = tokio::task::block_in_place(|| dip_server::open_db(&config)).context("opening the storage")?;
    let mut state = AppState::new(db);
    state.variants = variants;
    let loaded = dip_server::variants::get(&state.variants, &a.variant).map_err(anyhow::Error::msg)?;
    let id = daide::create_bot_game(
        &state,
        BotGame {
            name: format!("DAIDE {}", loaded.variant().name.chars().take(90).collect::<String>()),
            variant: a.variant.clone(),
            deadline: a.deadline.clone().filter(|d| !is_zero(d)),
            press: a.press,
            port: a.port,
            rules: dip_server::game::DaideRules {
                zero_deadline: a.deadline.as_deref().is_some_and(is_zero),
                any_orders_accepted: a.any_orders_accepted,
                deadline_stops_on_disconnection: a.deadline_stops_on_disconnection,
                no_press_in_retreats: a.no_press_in_retreats,
                no_press_in_builds: a.no_press_in_builds,
                press_time_limit: a.press_time_limit,
            },
        },
    )
    .await
    .map_err(|e| anyhow::anyhow!("creating the game: {}", e.message))?;
    let dconf = DaideConfig {
        press_level: a.press.max(10),
        end_after_year: a.end_after,
        ..DaideConfig::default()
    };
    let (addr, _hub, listener) = daide::listen(state.clone(), id, SocketAddr::new(a.host, a.port), dconf)
        .await
        .with_context(|| format!("listening on port {}", a.port))?;
    let ticker = {
        let state = state.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_millis(100)).await;
                state.process_due().await;
            }
        })
    };
    let powers = loaded.variant().map.powers().len();
    println!(
        "dip daide: {} game on {addr}: waiting for {powers} bots (Ctrl-C stops)",
        loaded.variant().name
    );
    let stopped = tokio::select! {
        _ = listener => false,
        _ = tokio::signal::ctrl_c() => true,
    };
    ticker.abort();
    // The bots get their OFF before the process goes.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let written = write_record(&state, id, &data).await?;
    if stopped {
        println!("dip daide: stopped");
    } else {
        println!("dip daide: the game is over");
    }
    for (what, path) in written {
        println!("dip daide: {what}: {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// The game as MILA JSON (`dip replay` reads it) and a map of every phase.
async fn write_record(
    state: &AppState,
    id: i64,
    dir: &std::path::Path,
) -> anyhow::Result<Vec<(&'static str, PathBuf)>> {
    let (variants, pictures) = (state.variants.clone(), state.pictures.clone());
    let (mila, maps, result) = state
        .read(move |tx| {
            let mila = dip_server::history::export_mila(tx, &variants, id)?;
            let maps_of = dip_server::history::Maps {
                variants: &variants,
                pictures: &pictures,
            };
            let mut maps = Vec::new();
            let loaded = dip_server::game::load(tx, id, dip_server::game::Lock::None)?.loaded(&variants)?;
            for s in dip_server::history::stored(tx, &loaded, id)? {
                let svg = dip_server::history::map_svg(
                    tx,
                    maps_of,
                    id,
                    dip_server::history::MapRequest {
                        phase: Some(&s.phase),
                        ..Default::default()
                    },
                )?;
                maps.push((format!("{:03}-{}.svg", s.index, s.phase), svg));
            }
            maps.push((
                "final.svg".to_string(),
                dip_server::history::map_svg(tx, maps_of, id, Default::default())?,
            ));
            let g = dip_server::game::load(tx, id, dip_server::game::Lock::None)?;
            Ok::<_, dip_server::error::ApiError>((mila, maps, g.result))
        })
        .await
        .map_err(|e| anyhow::anyhow!("reading the game: {}", e.message))?;
    let record = dir.join("game.jsonl");
    std::fs::write(&record, format!("{mila}\n")).with_context(|| record.display().to_string())?;
    let map_dir = dir.join("maps");
    std::fs::create_dir_all(&map_dir).with_context(|| map_dir.display().to_string())?;
    for (name, svg) in maps {
        let p = map_dir.join(name);
        std::fs::write(&p, svg).with_context(|| p.display().to_string())?;
    }
    if let Some(r) = result {
        println!("dip daide: result: {r}");
    }
    Ok(vec![
        ("record (MILA JSON, `dip replay` reads it)", record),
        ("maps", map_dir),
        ("database", dir.join("dip.sqlite")),
    ])
}
