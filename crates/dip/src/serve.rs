//! `dip serve`: host games (dip-server does the work; this starts it).

use anyhow::Context;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args)]
pub struct Args {
    /// Address and port to listen on.
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR:PORT")]
    listen: SocketAddr,
    /// Folder for the embedded SQLite database (created if missing).
    #[arg(long, default_value = "dip-data", value_name = "DIR")]
    data: PathBuf,
    /// Store in PostgreSQL instead: `postgres://user@host:port/db` (several
    /// `dip serve` processes may share one database).
    #[arg(long, value_name = "URL")]
    database: Option<String>,
    /// How often deadlines are checked, in milliseconds.
    #[arg(long, default_value_t = 250, value_name = "MS", value_parser = clap::value_parser!(u64).range(10..=60_000))]
    tick: u64,
    /// TCP ports for games created with `"daide": true`, e.g. 16713-16799:
    /// each such game gets one, where DAIDE bots connect (docs/daide.md).
    #[arg(long, value_name = "FIRST-LAST", value_parser = dip_server::daide::parse_port_range)]
    daide_ports: Option<std::ops::RangeInclusive<u16>>,
    /// The address the DAIDE ports listen on (default: the address of
    /// --listen; 0.0.0.0 opens them to other machines).
    #[arg(long, value_name = "ADDR", requires = "daide_ports")]
    daide_listen: Option<std::net::IpAddr>,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    // The server's warnings and errors (a phase that failed to process, a
    // database error) go to standard error.
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(tracing::Level::WARN)
        .try_init();
    let config = dip_server::ServeConfig {
        listen: a.listen,
        data: a.data,
        database: a.database,
        tick: Duration::from_millis(a.tick),
        daide_ports: a.daide_ports,
        daide_listen: a.daide_listen,
    };
    let storage = match &config.database {
        Some(_) => "PostgreSQL".to_string(),
        None => format!("{}", config.data.join("dip.sqlite").display()),
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    rt.block_on(dip_server::serve(config, |addr| {
        println!("dip serve: http://{addr}/ (storage: {storage}; Ctrl-C stops)");
    }))
    .context("dip serve")?;
    println!("dip serve: stopped");
    Ok(ExitCode::SUCCESS)
}
