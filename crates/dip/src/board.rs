//! `dip board [FILE]`: DIP's program in the browser, for one person on
//! this machine (docs/board.md). dip-server's board does the work; this
//! opens the file, starts the server on 127.0.0.1 and prints its address.

use anyhow::{bail, Context};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// What to open: a position file, one of DIP's .dip files (its
    /// season series beside it), a DipWork game directory or its GAME.TXT,
    /// a MILA saved game, a dip record, or a variant (a bundled name, a
    /// variant file or folder, a jDip plugin's variant) for its start.
    /// Without it: the standard map's start.
    #[arg(value_name = "FILE")]
    file: Option<String>,
    /// Where to listen: an address of this machine's loopback only
    /// (default: 127.0.0.1 on a free port).
    #[arg(long, value_name = "ADDR:PORT")]
    listen: Option<SocketAddr>,
    /// Do not open a browser: only print the address.
    #[arg(long)]
    no_open: bool,
    /// The variant of a position file (other files name their own).
    #[arg(long, default_value = "standard", value_name = "NAME|PATH")]
    variant: String,
    /// The folder Save writes into (default: FILE's folder, else the
    /// current folder); the board never writes outside it.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// Opens a browser on `url` where there is one (a desktop session).
fn open_browser(url: &str) {
    let (cmd, args): (&str, Vec<&str>) = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(windows) {
        ("cmd", vec!["/C", "start", "", url])
    } else {
        if std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
            return;
        }
        ("xdg-open", vec![url])
    };
    let _ = std::process::Command::new(cmd)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
}

pub fn run(a: Args, variants: &dip_play::Variants) -> anyhow::Result<ExitCode> {
    let listen = a.listen.unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 0)));
    if !listen.ip().is_loopback() {
        bail!("--listen {listen}: the board listens on this machine's loopback address only (127.0.0.1 or ::1)");
    }
    let folder = match (&a.dir, &a.file) {
        (Some(d), _) => d.clone(),
        (None, Some(f)) if Path::new(f).is_dir() => Path::new(f).to_path_buf(),
        (None, Some(f)) if Path::new(f).exists() => Path::new(f)
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from(".")),
        _ => PathBuf::from("."),
    };
    if !folder.is_dir() {
        bail!("--dir {}: no such folder", folder.display());
    }
    let token = dip_server::board::new_token();
    let boards = dip_server::board::Boards::new(
        variants.clone(),
        dip_server::board::Settings {
            folder: Some(folder.canonicalize().unwrap_or(folder)),
            token,
            local: true,
        },
        dip_server::board::Limits::default(),
    );
    let board = match &a.file {
        Some(f) => dip_server::board::files::open_path(&boards, Path::new(f), &a.variant),
        None => boards.start("standard"),
    }
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut board = board;
    if board.file.is_none() {
        // Save writes back to the file opened, when it is a .dip file.
        board.file = a
            .file
            .as_deref()
            .filter(|f| f.to_ascii_lowercase().ends_with(".dip"))
            .and_then(|f| Path::new(f).file_name())
            .map(|n| n.to_string_lossy().to_string());
    }
    // The variant's picture (its shapes and names) is built before the
    // address is given: the first page is then drawn at once.
    boards.pictures.warm(board.game.loaded());
    let home = boards.insert(board);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .with_context(|| format!("listening on {listen}"))?;
        let addr = listener.local_addr().context("the address listened on")?;
        let url = format!("http://{addr}/board/{home}");
        println!("dip board: {url} (Ctrl-C stops)");
        if !a.no_open {
            open_browser(&url);
        }
        let app = dip_server::board::routes::local_app(boards, home);
        axum_serve(listener, app).await
    })?;
    println!("dip board: stopped");
    Ok(ExitCode::SUCCESS)
}

async fn axum_serve(listener: tokio::net::TcpListener, app: axum::Router) -> anyhow::Result<()> {
    dip_server::serve_router(listener, app).await.context("dip board")
}
