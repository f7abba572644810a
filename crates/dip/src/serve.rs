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
    /// HTTP connections served at once; more wait until one closes.
    #[arg(long, default_value_t = 512, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_connections: u32,
    /// Seconds a request's head may take (also how long a kept-alive
    /// connection may wait for its next request).
    #[arg(long, default_value = "10", value_name = "SECONDS", value_parser = seconds)]
    header_timeout: Duration,
    /// Seconds a request's body may take.
    #[arg(long, default_value = "30", value_name = "SECONDS", value_parser = seconds)]
    body_timeout: Duration,
    /// Seconds a connection may go with no byte sent either way.
    #[arg(long, default_value = "60", value_name = "SECONDS", value_parser = seconds)]
    idle_timeout: Duration,
    /// Passwords hashed at once (each takes about 19 MiB while it runs);
    /// default: the number of cores.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    hash_threads: Option<u32>,
    /// Log-ins and sign-ups that may wait for a hashing thread; more are
    /// answered 503 at once.
    #[arg(long, default_value_t = 32, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=100_000))]
    hash_queue: u32,
    /// Log-ins and sign-ups per minute from one client address (IPv6: one
    /// /64); more are answered 429.
    #[arg(long, default_value_t = 60, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    logins_per_minute: u32,
    /// Mark every cookie `Secure`: the server is reached over HTTPS only
    /// (behind a proxy). Without it, answers through a proxy that sends
    /// `X-Forwarded-Proto: https` are marked.
    #[arg(long)]
    secure_cookies: bool,
}

/// A number of seconds, fractions allowed (0.5).
fn seconds(s: &str) -> Result<Duration, String> {
    let v: f64 = s.parse().map_err(|_| format!("`{s}`: a number of seconds"))?;
    if !(0.01..=86_400.0).contains(&v) {
        return Err(format!("`{s}`: between 0.01 and 86400 seconds"));
    }
    Ok(Duration::from_secs_f64(v))
}

/// Each Argon2 hash takes a 19 MiB block. glibc's malloc raises its mmap
/// threshold past such a block once one is freed, so later ones come from
/// its arenas and stay there; threads wander between arenas, and 34
/// log-ins on two hashing threads left 441 MB resident (8 arenas of 38–57
/// MB). A fixed threshold keeps every block of 4 MiB or more in a mapping
/// of its own, returned when freed: the same log-ins peak at about 60 MB.
fn return_big_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tuning value; it runs before any thread
    // but this one exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 4 << 20);
    }
}

/// The server's warnings and errors (a phase that failed to process, a
/// game paused after three failures, a database error) to standard error,
/// for `dip serve` and `dip daide` alike.
pub fn log_to_stderr() {
    use std::io::IsTerminal;
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        // Colours only on a terminal, no escape codes in a log file.
        .with_ansi(std::io::stderr().is_terminal())
        .with_max_level(tracing::Level::WARN)
        .try_init();
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    log_to_stderr();
    return_big_blocks();
    let config = dip_server::ServeConfig {
        listen: a.listen,
        data: a.data,
        database: a.database,
        tick: Duration::from_millis(a.tick),
        daide_ports: a.daide_ports,
        daide_listen: a.daide_listen,
        http: dip_server::listen::HttpLimits {
            max_connections: a.max_connections as usize,
            header_timeout: a.header_timeout,
            body_timeout: a.body_timeout,
            idle_timeout: a.idle_timeout,
        },
        hashing: dip_server::hashing::HashLimits {
            threads: a
                .hash_threads
                .map_or(dip_server::hashing::HashLimits::default().threads, |n| n as usize),
            queue: a.hash_queue as usize,
            per_address_per_minute: a.logins_per_minute,
        },
        secure_cookies: a.secure_cookies,
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
    .context("cannot start the server")?;
    println!("dip serve: stopped");
    Ok(ExitCode::SUCCESS)
}
