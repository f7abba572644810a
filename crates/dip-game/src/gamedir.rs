//! A game directory and DipWork's pipeline over it: scanner → parser →
//! conflicter → winterer → output, each stage writing a readable stage
//! file; NEWGAME.TXT, PLAIN.TXT and ERRORS.TXT at the end.

use crate::gamefile::{title_phase, write_game, GameError, GameFile};
use crate::params::{ParamError, ParamFile, Params};
use crate::plain::{dip_export_with, html, json, markdown, plain, PlainStyle};
use crate::report::{Line, Report};
use crate::stagefile::{self, Earlier};
use dip_core::{game, Map, Order, OrderKind, PhaseKind, PhaseOutcome, Reason, Ruleset, State, UnitRef, Verdict};
use dip_play::{PlayOptions, Played, Variants};
use dip_text::{read_orders, CheckOptions, Code, LineResult, ReadLine, TurnReport, Vocabulary};
use dip_variants::files::Encoding;
use std::path::{Path, PathBuf};

/// Anything that stops a run: a file that cannot be read or written, or
/// bad content (with file and line).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    #[error(transparent)]
    Game(#[from] GameError),
    #[error(transparent)]
    Param(#[from] ParamError),
    #[error("{0}")]
    Other(String),
}

/// Which stages to run (DipWork's `/s /p /c /w /op`).
#[derive(Clone, Debug, Default)]
pub struct Stages {
    pub scan: bool,
    pub parse: bool,
    pub conflict: bool,
    pub winter: bool,
    /// Mapper: the turn's map with its orders (MAP.svg; MAP.png too with
    /// the parameter `MAPPNG ja`).
    pub map: bool,
    /// Write PLAIN.TXT (and the other reports) from this stage file
    /// (`CONFLICTED`, `WINTERED`; default WINTERED).
    pub output: Option<String>,
    /// Play the turn although there is no orders file (every unit holds,
    /// or is disbanded in a retreat phase). Without it a missing orders
    /// file stops the run.
    pub no_orders: bool,
    /// DipWork's `/debug1` (1: every order with its result and reason)
    /// and `/debug2` (2: also every file read and every parameter found).
    pub debug: u8,
}

impl Stages {
    pub fn all() -> Stages {
        Stages {
            scan: true,
            parse: true,
            conflict: true,
            winter: true,
            map: true,
            output: Some("WINTERED".into()),
            no_orders: false,
            debug: 0,
        }
    }
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct RunResult {
    /// Files written, in order.
    pub written: Vec<PathBuf>,
    /// Lines for the screen (corrections, suggested retreats).
    pub messages: Vec<String>,
    /// What the game master must not miss (nations that sent nothing, a
    /// turn played without orders): for standard error and ERRORS.TXT.
    pub warnings: Vec<String>,
    pub report: Report,
    /// DipWork's SLOWMOTION: milliseconds to wait after each screen line
    /// (0 none, -1 wait for a key); the CLI honours it on a terminal.
    pub slowmotion: i64,
}

fn read(path: &Path) -> Result<String, RunError> {
    crate::files::read_text(path).map_err(RunError::Other)
}

/// Writes a file; a file the user may have edited (GAME.TXT) is never
/// written here, and outputs are replaced whole.
fn write(path: &Path, text: &str, written: &mut Vec<PathBuf>) -> Result<(), RunError> {
    write_in(Form::default(), path, text, written)
}

/// How GAME.TXT was written, kept in what dip writes back: its encoding
/// and its line ends (DOS's CR LF); ORDERS.TXT's when GAME.TXT is plain
/// ASCII.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Form {
    pub encoding: Encoding,
    pub crlf: bool,
}

impl Form {
    /// Text (with `\n` line ends) as the bytes of this form.
    pub fn bytes(self, text: &str) -> Vec<u8> {
        if self.crlf {
            let text = text.replace("\r\n", "\n").replace('\n', "\r\n");
            crate::files::encode(&text, self.encoding)
        } else {
            crate::files::encode(text, self.encoding)
        }
    }
}

/// Writes a DipWork text file in the encoding the game's GAME.TXT came in
/// (Latin-1 or DOS stay so; umlauts in names and orders survive).
fn write_in(form: Form, path: &Path, text: &str, written: &mut Vec<PathBuf>) -> Result<(), RunError> {
    std::fs::write(path, form.bytes(text)).map_err(|e| RunError::Io(path.display().to_string(), e))?;
    written.push(path.to_path_buf());
    Ok(())
}

/// An opened game: its files, parameters, variant and position.
pub struct GameDir {
    pub dir: PathBuf,
    /// How GAME.TXT was written (encoding, line ends); NEWGAME.TXT and
    /// the reports keep it.
    pub form: Form,
    pub game: GameFile,
    pub orders_text: String,
    /// Why there are no orders (no orders file, or a directory in its
    /// place); `None` when the orders file was read.
    pub orders_missing: Option<String>,
    /// The orders file that was read.
    pub orders_path: Option<PathBuf>,
    pub params: Params,
    pub variant: dip_variants::Variant,
    /// The variant's file or folder VARIANTPATH led to; `None` for a
    /// bundled variant named.
    pub variant_path: Option<PathBuf>,
}

impl GameDir {
    /// Opens `dir`; `project` is PROJECT.TXT (default: the parent folder's, if any).
    pub fn open(dir: &Path, project: Option<&Path>, variants: &Variants) -> Result<GameDir, RunError> {
        GameDir::open_with(dir, project, None, variants)
    }

    pub fn open_with(
        dir: &Path,
        project: Option<&Path>,
        game: Option<(&str, &Path)>,
        variants: &Variants,
    ) -> Result<GameDir, RunError> {
        if !dir.is_dir() {
            return Err(RunError::Other(format!(
                "{}: no such game directory (expected a folder with GAME.TXT and ORDERS.TXT)",
                dir.display()
            )));
        }
        let project_file = match project {
            Some(p) => Some(p.to_path_buf()),
            None => dir.parent().map(|p| p.join("PROJECT.TXT")).filter(|p| p.is_file()),
        };
        let project = match &project_file {
            Some(p) => Some(ParamFile::parse(&read(p)?, p.clone())),
            None => None,
        };
        let fname = |key: &str, default: &str| {
            project
                .as_ref()
                .and_then(|p| p.get(key))
                .map(|e| e.value.clone())
                .unwrap_or_else(|| default.to_string())
        };
        // Every FN* name is looked up in any case, as on DOS (the manual's
        // PROJECT.TXT writes `FNGAME game.txt` for GAME.TXT).
        let game_path = crate::files::dos_file(dir, &fname("FNGAME", "GAME.TXT"));
        let orders_path = crate::files::dos_file(dir, &fname("FNORDERS", "ORDERS.TXT"));
        let (mut game, form, game_ascii) = Self::read_game(game, &game_path)?;
        let read_from = orders_path.is_file().then(|| orders_path.clone());
        let (orders_text, orders_missing, orders_encoding) = Self::read_orders_text(&orders_path)?;
        let form = Self::written_form(form, game_ascii, read_from.is_some(), &orders_text, orders_encoding);
        let orders = ParamFile::parse(&orders_text, orders_path);
        game.orders_year = orders
            .get("YEAR")
            .filter(|e| !e.value.trim().is_empty())
            .map(|e| (orders.path.clone(), e.line, e.value.clone()));
        let resolved = Self::resolve_variant(
            dir,
            project.as_ref(),
            project_file.as_deref(),
            &game,
            &game_path,
            variants,
        )?;
        let (variant, found, params_file) = (resolved.variant, resolved.path, resolved.params_file);
        game.start_year = Some(variant.start.phase.year);
        // Seismic play: the map edits applied so far, in phase order.
        let mut variant = variant;
        for (phase, path) in map_edits(dir)? {
            let text = read(&path)?;
            let (edited, _) = dip_variants::seismic::apply(&variant, &text, &path.display().to_string())
                .map_err(|e| RunError::Other(format!("{e} (map edit after {})", phase.short())))?;
            variant = edited;
        }
        let mut files = vec![orders, game.params.clone()];
        // A DipWork variant folder: its VARIANT.TXT holds game parameters
        // too (and the MENULIST), looked up after GAME.TXT.
        let variant_txt = params_file;
        if let Some(p) = variant_txt {
            files.push(ParamFile::parse(&read(&p)?, p));
        }
        files.extend(project);
        Ok(GameDir {
            dir: dir.to_path_buf(),
            form,
            game,
            orders_text,
            orders_missing,
            orders_path: read_from,
            params: Params { files },
            variant,
            variant_path: found,
        })
    }

    /// GAME.TXT (or the text given for it): the game file, how it is
    /// written, and whether it is plain ASCII.
    fn read_game(game: Option<(&str, &Path)>, game_path: &Path) -> Result<(GameFile, Form, bool), RunError> {
        Ok(match game {
            Some((text, path)) => (
                GameFile::read(text, path)?,
                Form {
                    encoding: Encoding::Utf8,
                    crlf: text.contains("\r\n"),
                },
                false,
            ),
            None => {
                let (text, encoding) = crate::files::read_text_encoded(game_path).map_err(RunError::Other)?;
                let crlf = text.contains("\r\n");
                (
                    GameFile::read(&text, game_path)?,
                    Form { encoding, crlf },
                    text.is_ascii(),
                )
            }
        })
    }

    /// ORDERS.TXT's text and encoding, or why there is none (empty text).
    fn read_orders_text(orders_path: &Path) -> Result<(String, Option<String>, Encoding), RunError> {
        Ok(if orders_path.is_file() {
            let (text, enc) = crate::files::read_text_encoded(orders_path).map_err(RunError::Other)?;
            (text, None, enc)
        } else if orders_path.exists() {
            let why = format!("{} is not a file", orders_path.display());
            (String::new(), Some(why), Encoding::Utf8)
        } else {
            let why = format!("{} does not exist", orders_path.display());
            (String::new(), Some(why), Encoding::Utf8)
        })
    }

    /// How what dip writes back is written: GAME.TXT's form, unless it is
    /// plain ASCII and so says nothing of the code page.
    fn written_form(
        form: Form,
        game_ascii: bool,
        orders_read: bool,
        orders_text: &str,
        orders_encoding: Encoding,
    ) -> Form {
        // A GAME.TXT in plain ASCII (as `dip new` writes it) says nothing
        // of the game master's code page: the orders file, as the players'
        // umlauts came in, does, and so do its DOS line ends.
        let form = if game_ascii && orders_read {
            Form {
                encoding: orders_encoding,
                crlf: form.crlf || orders_text.contains("\r\n"),
            }
        } else {
            form
        };
        // Plain ASCII with DOS's line ends (CR LF) is a DOS game: what dip
        // writes keeps to DOS's code page 850, so PLAIN.TXT's dash is `-`
        // there, not UTF-8 bytes that DOS shows as garbage.
        if game_ascii && orders_text.is_ascii() && form.crlf && form.encoding == Encoding::Utf8 {
            Form {
                encoding: Encoding::Dos,
                ..form
            }
        } else {
            form
        }
    }

    /// The variant GAME.TXT's VARIANTPATH names, found beside the game, the
    /// project or among the bundled ones.
    fn resolve_variant(
        dir: &Path,
        project: Option<&ParamFile>,
        project_file: Option<&Path>,
        game: &GameFile,
        game_path: &Path,
        variants: &Variants,
    ) -> Result<crate::variantpath::Resolved, RunError> {
        let vpath = game.params.get("VARIANTPATH").ok_or_else(|| GameError {
            file: game_path.display().to_string(),
            line: 1,
            message: "no VARIANTPATH (a bundled variant such as `standard`, or a path)".into(),
        })?;
        // FNVARIANT (DipWork's `FN VARIANT`, in PROJECT.TXT): the name of
        // the variant folder's parameter file, VARIANT.TXT by default.
        let fnvariant = project
            .and_then(|p| {
                p.get("FNVARIANT").map(|e| e.value.trim().to_string()).or_else(|| {
                    p.get("FN")
                        .and_then(|e| e.value.trim().strip_prefix("VARIANT").map(|v| v.trim().to_string()))
                })
            })
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| "VARIANT.TXT".to_string());
        let project_dir = project_file.and_then(Path::parent);
        crate::variantpath::resolve(dir, project_dir, &vpath.value, &fnvariant, variants).map_err(|e| {
            RunError::from(GameError {
                file: game_path.display().to_string(),
                line: vpath.line,
                message: format!("VARIANTPATH: {e}"),
            })
        })
    }

    /// The rules: the variant's, then `RULES`, then DipWork's switches.
    pub fn rules(&self) -> Result<Ruleset, RunError> {
        let mut rules = match self.params.find("RULES") {
            Some((f, e)) => Ruleset::parse(&e.value)
                .map_err(|err| RunError::Other(format!("{}:{}: RULES: {err}", f.path.display(), e.line)))?,
            None => self.variant.rules,
        };
        for key in [
            "SELF_CUT_OK",
            "IX_3_INTERPRETATION",
            "IX_7_INTERPRETATION",
            "CONVOY_CUTS",
            "PARTIAL_CUT_POSSIBLE",
            "X_INTERPRETATION",
        ] {
            if let Some((f, e)) = self.params.find(key) {
                rules
                    .set(key, &e.value)
                    .map_err(|err| RunError::Other(format!("{}:{}: {err}", f.path.display(), e.line)))?;
            }
        }
        Ok(rules)
    }

    pub fn vocabulary(&self) -> Result<Vocabulary<'_>, RunError> {
        words(self, &self.variant.map)
    }
}

/// The words a game's orders are read with: the variant's, its lists,
/// and the game's `EXACT_MATCH` and `SPELLCHECK`.
fn words<'m>(g: &GameDir, map: &'m Map) -> Result<Vocabulary<'m>, RunError> {
    let mut v = Vocabulary::new(map);
    // The variant's own words (nation spellings, unit and order words).
    v.apply_lists(&g.variant.word_lists(), true)
        .map_err(|e| RunError::Other(format!("the variant's word lists: {e}")))?;
    if g.params.find("EXACT_MATCH").is_some() {
        v = v.with_exact_match(g.params.boolean("EXACT_MATCH", false)?);
    }
    let n = g.params.number("SPELLCHECK", 3)?;
    v = v.with_spellcheck(n.max(0) as usize);
    Ok(v)
}

/// DIP_RUN's `/fieldtest` answer for one name: the province (or coast)
/// the name stands for in orders (`PeS`, `Lpl`, `North Sea`), with all the
/// variant knows of it.
pub fn field_test(variant: &dip_variants::Variant, vocab: &Vocabulary, name: &str) -> String {
    let map = &variant.map;
    let Some(place) = vocab.place(name.trim()) else {
        return format!("no province `{}` in {}\n", name.trim(), variant.title);
    };
    let abbr = &map.province(place.province).abbr;
    let mut text = dip_variants::lint::show(variant, abbr).unwrap_or_default();
    if let Some(coast) = place.coast.and_then(|r| map.region(r).coast.clone()) {
        text.push_str(&format!("coast      {} (`{}` is this coast)\n", coast, name.trim()));
    }
    text
}

/// The map edits of a game (`history/PHASE-NAME.edits`, PHASE as `F1903M`),
/// in the order of their phases.
pub fn map_edits(dir: &Path) -> Result<Vec<(dip_core::Phase, PathBuf)>, RunError> {
    let hist = dir.join("history");
    if !hist.is_dir() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    let entries = std::fs::read_dir(&hist).map_err(|e| RunError::Io(hist.display().to_string(), e))?;
    for e in entries.flatten() {
        let path = e.path();
        let name = e.file_name().to_string_lossy().to_string();
        if !name.ends_with(".edits") {
            continue;
        }
        let phase = name
            .split('-')
            .next()
            .and_then(crate::replay::parse_phase_name)
            .ok_or_else(|| {
                RunError::Other(format!(
                    "{}: the name must start with the phase, e.g. F1903M-quake.edits",
                    path.display()
                ))
            })?;
        out.push((phase, path));
    }
    out.sort();
    Ok(out)
}

/// `dip quake`: changes the game's map (Seismic play) with an edit file.
/// The edited map is linted; the position is carried over and GAME.TXT
/// rewritten (the old one kept as a backup); the edit file joins the game's
/// history as `history/PHASE-NAME.edits`. Returns the linter's findings.
pub fn quake(dir: &Path, edits: &Path, name: &str, variants: &Variants) -> Result<Vec<String>, RunError> {
    let g = GameDir::open(dir, None, variants)?;
    let vocab = g.vocabulary()?;
    let state = g.game.state(&vocab)?;
    let text = read(edits)?;
    let (edited, findings) = dip_variants::seismic::apply(&g.variant, &text, &edits.display().to_string())
        .map_err(|e| RunError::Other(e.to_string()))?;
    let moved = dip_variants::seismic::remap_state(&g.variant, &edited, &state)
        .map_err(|e| RunError::Other(format!("{}: {e}", edits.display())))?;
    let new_vocab = Vocabulary::new(&edited.map);
    let players: Vec<Option<String>> = edited
        .map
        .power_ids()
        .map(|p| g.game.player(&vocab, p).map(String::from))
        .collect();
    let new_game = write_game(&g.game.header, &new_vocab, &moved, &players);
    let game = g.game.path.clone();
    keep_backup(dir, &g.params, &game)?;
    let hist = dir.join("history");
    std::fs::create_dir_all(&hist).map_err(|e| RunError::Io(hist.display().to_string(), e))?;
    let target = hist.join(format!("{}-{name}.edits", state.phase.short()));
    if target.exists() {
        return Err(RunError::Other(format!(
            "{} exists: choose another name",
            target.display()
        )));
    }
    // The new GAME.TXT is written beside the old one first, so that the
    // edit never joins the history without the game that goes with it.
    // In the encoding and with the line ends it came in.
    let staged = crate::files::stage(&game, &g.form.bytes(&new_game)).map_err(RunError::Other)?;
    if let Err(e) = std::fs::write(&target, &text) {
        let _ = std::fs::remove_file(&staged);
        return Err(RunError::Io(target.display().to_string(), e));
    }
    crate::files::commit(&staged, &game).map_err(RunError::Other)?;
    Ok(findings.iter().map(|f| f.to_string()).collect())
}

/// `A Vie-Gal`, `F Stp/sc-Bot`, `A Boh S A Bud-Vie`: DipWork's short form
/// (dip-text's [`Style::Report`](dip_text::Style::Report)), in the
/// variant's own names (`F PeS-BOT` in a DipWork variant).
pub fn short(map: &Map, o: &Order) -> String {
    dip_text::format_order(map, o, dip_text::Style::Report)
}

fn reason_text(map: &Map, r: Reason) -> String {
    match r {
        Reason::Bounced => "bounced".into(),
        Reason::BeatenHeadToHead => "lost head-to-head".into(),
        Reason::NoConvoy => "no convoy".into(),
        Reason::OwnUnit => "own unit there".into(),
        Reason::SupportCut(p) => format!("cut from {}", dip_text::capitalised_abbr(map, p)),
        Reason::SupportVoid => "void: no such order".into(),
        Reason::ConvoyVoid => "void: no such move".into(),
        Reason::ConvoyDisrupted => "disrupted".into(),
        Reason::ConvoyParadox => "paradox: holds".into(),
        Reason::Dislodged(p) => format!("dislodged from {}", dip_text::capitalised_abbr(map, p)),
        Reason::RetreatClash => "two retreats to one province: disbanded".into(),
        Reason::NotExecuted => "not executed".into(),
        other => format!("{other:?}").to_ascii_lowercase(),
    }
}

/// Report lines of one phase.
/// Lines for what happened without an order: units removed by civil
/// disorder and builds not used (waived).
fn automatic_lines(map: &Map, state: &State, outcome: &PhaseOutcome, table: &mut Vec<Line>) {
    let PhaseOutcome::Adjustment(a) = outcome else {
        return;
    };
    let orders: Vec<Order> = a.orders.iter().map(|r| r.order).collect();
    for &p in &a.civil_disorder {
        let Some(u) = state.unit(p) else { continue };
        let o = Order::new(u.power, OrderKind::Disband(UnitRef::new(Some(u.kind), p)));
        table.push(Line {
            nation: map.power(u.power).name.clone(),
            order: short(map, &o),
            failed: false,
            attacked_from: None,
            code: Some(Code::MissingOrder.number()),
            note: "too few disbands: removed by the civil disorder rule".into(),
            automatic: true,
        });
    }
    for power in map.power_ids() {
        let balance = dip_core::adjustment::balance(map, state, power);
        if balance <= 0 {
            continue;
        }
        let used = a
            .orders
            .iter()
            .filter(|r| r.order.power == power && r.verdict.succeeded())
            .filter(|r| matches!(r.order.kind, OrderKind::Build(_)))
            .count() as i32;
        let waived_by_order = orders
            .iter()
            .filter(|o| o.power == power && matches!(o.kind, OrderKind::Waive))
            .count() as i32;
        let open = map
            .supply_centers()
            .iter()
            .filter(|&&c| dip_core::adjustment::can_build_in(map, state, power, c))
            .count() as i32;
        let unused = (balance.min(open) - used - waived_by_order).max(0);
        for _ in 0..unused {
            table.push(Line {
                nation: map.power(power).name.clone(),
                order: "waive".into(),
                failed: false,
                attacked_from: None,
                code: Some(Code::MissingOrder.number()),
                note: "build not ordered: waived".into(),
                automatic: true,
            });
        }
    }
}

/// Units dislodged with no retreat open, disbanded at once by the
/// movement phase (no retreat phase is held for them): a line each in the
/// retreats, so that no unit leaves the board unreported.
pub(crate) fn no_retreat_lines(map: &Map, run: &Played) -> Vec<Line> {
    let PhaseOutcome::Movement(m) = &run.outcome else {
        return Vec::new();
    };
    m.dislodged
        .iter()
        .filter(|d| m.disbanded.contains(&map.province_of(d.unit.region)))
        .map(|d| {
            let p = map.province_of(d.unit.region);
            let o = Order::new(d.unit.power, OrderKind::Disband(UnitRef::new(Some(d.unit.kind), p)));
            Line {
                nation: map.power(d.unit.power).name.clone(),
                order: short(map, &o),
                failed: false,
                attacked_from: Some(dip_text::capitalised_abbr(map, d.attacker_from)),
                code: None,
                note: "dislodged with no retreat open: disbanded".into(),
                automatic: true,
            }
        })
        .collect()
}

pub(crate) fn lines_of(map: &Map, run: &Played, orders_out: &mut Vec<Line>) {
    let from = orders_out.len();
    table_lines(map, run, orders_out);
    // Every automatic change says so on its line (no-moves-received).
    for l in &mut orders_out[from..] {
        if l.code == Some(Code::MissingOrder.number()) && l.note.is_empty() {
            l.note = "no order received: holds".into();
        }
        if l.code == Some(Code::NoRetreat.number()) && l.note.is_empty() {
            l.note = "no retreat received: disbanded".into();
        }
    }
    automatic_lines(map, &run.state, &run.outcome, orders_out);
}

/// Every table of a report in NATIONLIST's order: the lines the rules
/// added (civil disorder, waived builds, units disbanded for want of a
/// retreat) beside the nation's own, not after every nation that ordered.
pub(crate) fn in_nation_order(map: &Map, report: &mut Report) {
    let rank = |l: &Line| map.find_power(&l.nation).map_or(usize::MAX, |p| p.index());
    for table in [&mut report.orders, &mut report.retreats, &mut report.builds] {
        table.sort_by_key(rank);
    }
}

fn table_lines(map: &Map, run: &Played, orders_out: &mut Vec<Line>) {
    // Nations in the variant's order (inserted holds would come last).
    let mut reports: Vec<&dip_core::OrderReport> = run.outcome.orders().iter().collect();
    reports.sort_by_key(|r| r.order.power);
    for r in reports {
        let nation = map.power(r.order.power).name.clone();
        let (failed, note) = match r.verdict {
            Verdict::Done { success, reason } => (
                !success,
                if success {
                    String::new()
                } else {
                    reason_text(map, reason)
                },
            ),
            Verdict::Illegal(e) => (true, e.describe().to_string()),
            Verdict::Duplicate => (true, "void: another order for the unit".into()),
        };
        let line = run.check.lines.iter().find(|l| l.order == Some(r.order));
        // An order nobody gave: a hold the parser inserted (12), a retreat
        // the winterer suggested or a disband for want of one (104).
        let added = run.automatic.iter().find(|(o, ..)| *o == r.order);
        let automatic = added.is_some() || line.is_some_and(|l| l.fate == dip_text::Fate::Inserted);
        let line = if added.is_some() { None } else { line };
        // A retreat clash is DipWork's 103, whatever the parser noted.
        let clash = (dip_text::result_code(r) == Some(Code::RetreatClash)).then_some(Code::RetreatClash.number());
        let code = clash.or_else(|| {
            added
                .map(|(_, c, _)| c.number())
                .or_else(|| line.and_then(LineResult::worst).map(|c| c.number()))
                .or(failed.then_some(Code::Unsuccessful.number()))
        });
        let note = match added {
            Some((.., why)) if note.is_empty() => why.clone(),
            _ => note,
        };
        // DipWork underlines every order with an error of 100 or more, also
        // one the parser changed into a hold (111, 113, 109 ...): it did not
        // do what was written. A missing unit type (300) that dip read with
        // the unit standing there is carried out, not failed, but still
        // underlined (`Line::underlined`); what the winterer did for a
        // missing retreat (104) is marked instead.
        let failed = failed || (!automatic && code.is_some_and(|c| c >= 100 && c != Code::UnitTypeExpected.number()));
        // The order the parser changed says why (`cannot retreat to
        // Bohemia: the attack came from there`).
        let note = match line.and_then(|l| l.notes.iter().max_by_key(|n| n.code.number())) {
            Some(n) if note.is_empty() && n.code.number() >= 100 => n.message.clone(),
            _ => note,
        };
        // A line that was no order (press) holds and shows as `F Nth xxx?`.
        let press = line.is_some_and(|l| l.press) && matches!(r.order.kind, OrderKind::Hold(_));
        let attacked_from = match (&run.outcome, r.order.kind) {
            (PhaseOutcome::Retreat(_), OrderKind::Retreat(u, _) | OrderKind::Disband(u)) => run
                .state
                .dislodged(u.province)
                .map(|d| dip_text::capitalised_abbr(map, d.attacker_from)),
            // A unit the moves dislodge: its attacker too (`<` in PLAIN.TXT).
            (PhaseOutcome::Movement(m), _) => r.order.unit().and_then(|u| {
                m.dislodged
                    .iter()
                    .find(|d| d.unit.power == r.order.power && map.province_of(d.unit.region) == u.province)
                    .map(|d| dip_text::capitalised_abbr(map, d.attacker_from))
            }),
            _ => None,
        };
        let mut order = short(map, &r.order);
        if press {
            if let Some(unit) = order.strip_suffix(" H") {
                order = format!("{unit} xxx?");
            }
        }
        orders_out.push(Line {
            nation,
            order,
            failed,
            attacked_from,
            code,
            note,
            automatic,
        });
    }
}

pub(crate) fn centers(map: &Map, state: &State) -> Vec<(String, Vec<String>, usize)> {
    map.power_ids()
        .map(|p| {
            let cs = state
                .centers_of(map, p)
                .map(|c| dip_text::capitalised_abbr(map, c))
                .collect();
            (
                map.power(p).name.clone(),
                cs,
                state.units().filter(|(_, u)| u.power == p).count(),
            )
        })
        .collect()
}

fn scanned_text(map: &Map, phase: &dip_core::Phase, lines: &[ReadLine]) -> String {
    let mut out = format!(
        "# dip stage: scanned (ORDERS.TXT as read)\n{}# line | nation | order as read | notes | text\n",
        stagefile::phase_line(phase)
    );
    for l in lines {
        let nation = l.power.map(|p| map.power(p).name.clone()).unwrap_or_else(|| "?".into());
        let order = match (l.power, l.scanned.order) {
            (Some(p), Some(k)) => short(map, &Order::new(p, k)),
            (None, Some(k)) => short(map, &Order::new(dip_core::PowerId(0), k)),
            (_, None) => "(no order)".into(),
        };
        let notes: Vec<String> = l.scanned.notes.iter().map(|n| n.to_string()).collect();
        out.push_str(&format!(
            "{} | {nation} | {order} | {} | {}\n",
            l.line,
            notes.join("; "),
            l.text
        ));
    }
    out
}

fn parsed_text(map: &Map, phase: &dip_core::Phase, runs: &[&TurnReport]) -> String {
    let mut out = format!(
        "# dip stage: parsed (standard orders after DipWork's checks)\n{}# line | fate | order | notes | text\n",
        stagefile::phase_line(phase)
    );
    for check in runs {
        for l in &check.lines {
            let order = l
                .order
                .map(|o| format!("{}: {}", map.power(o.power).name, short(map, &o)))
                .unwrap_or_else(|| "(deleted)".into());
            let notes: Vec<String> = l.notes.iter().map(|n| n.to_string()).collect();
            out.push_str(&format!(
                "{} | {:?} | {order} | {} | {}\n",
                l.line,
                l.fate,
                notes.join("; "),
                l.text
            ));
        }
    }
    out
}

/// The orders file as read: it must hold at least one order (unless
/// `--no-orders`) and end with `END`, and each nation that sent nothing is named.
fn nmr_checks(
    map: &Map,
    start: &State,
    lines: &[ReadLine],
    text: &str,
    path: &Path,
    no_orders: bool,
    out: &mut RunResult,
) -> Result<(), RunError> {
    if crate::nmr::no_order_at_all(lines) {
        if !no_orders {
            return Err(RunError::Other(format!(
                "no orders: {} holds no order; nothing was played. Write the orders there, or run with --no-orders to play the turn with no orders at all (every unit holds)",
                path.display()
            )));
        }
        out.warnings.push(format!(
            "warning: no orders in {}: every unit holds (--no-orders)",
            path.display()
        ));
        return Ok(());
    }
    crate::nmr::check_end(text, path)?;
    let silent = crate::nmr::silent_nations(map, start, lines);
    out.warnings.extend(crate::nmr::silent_warning(map, start, &silent));
    Ok(())
}

/// Runs the requested stages over a game directory: the scanner (the
/// orders read), the parser (the phases played, their errors), the
/// mapper, the conflicter (the first phase's results) and the winterer
/// (the phases after it, the new game), then the reports.
pub fn run(dir: &Path, stages: &Stages, project: Option<&Path>, variants: &Variants) -> Result<RunResult, RunError> {
    let g = GameDir::open(dir, project, variants)?;
    let vocab = g.vocabulary()?;
    let rules = g.rules()?;
    // EXACT_MATCH is a switch of ORDERS.TXT only (DipWork's manual): the
    // position in GAME.TXT is read whatever its case.
    let start = g.game.state(&vocab.clone().with_exact_match(false))?;
    let inferred = g.game.phase()?.1;
    crate::year::check_orders_year(&g.params.files[0], &start.phase, g.game.start_year.unwrap_or(1901))?;
    let three_phase = g.params.boolean("THREEPHASE", false)?;
    let opts = CheckOptions {
        nsu_checking_off: g.params.boolean("NSU_CHECKING_OFF", false)?,
        ..CheckOptions::default()
    };
    let mut out = RunResult {
        slowmotion: g.params.number("SLOWMOTION", 1)?,
        ..RunResult::default()
    };
    if opts.nsu_checking_off {
        out.messages.push(
            "NSU_CHECKING_OFF: no missing-order or no-such-unit checks; orders for units not in GAME.TXT place them (for testing only)"
                .into(),
        );
    }
    out.messages.extend(inferred);
    out.messages.extend(g.game.nations_by_place(&vocab));
    out.messages
        .extend(g.variant.notes.iter().map(|n| format!("variant: {n}")));
    let earlier = earlier_stage(dir, stages, &g, &start, &mut out)?;
    let lines = scanner(dir, stages, &g, &vocab, &start, &earlier, &mut out)?;
    let want_parse = stages.parse || stages.conflict || stages.winter || stages.map;
    if !want_parse {
        return finish_output(&g, stages, out);
    }
    let (state, runs) = parser(&g, stages, rules, opts, three_phase, &start, lines, &mut out)?;
    write_parsed(dir, &g, &vocab, &start, &earlier, &runs, &mut out)?;
    if !(stages.conflict || stages.winter || stages.map) {
        return finish_output(&g, stages, out);
    }
    if stages.map {
        mapper(dir, &g, &runs[0], &mut out)?;
    }
    let conflicted = conflicter(dir, &g, &vocab, &runs[0], &mut out)?;
    out.report = if stages.winter {
        winterer(dir, &g, &vocab, rules, conflicted, &runs, &state, &mut out)?
    } else {
        conflicted
    };
    finish_output(&g, stages, out)
}

/// A stage run without the stages before it reads their file, as the
/// game master may have corrected it; that file is not written again.
/// One that is stale (of another phase, or older than the orders) is not
/// read, and said so.
fn earlier_stage(
    dir: &Path,
    stages: &Stages,
    g: &GameDir,
    start: &State,
    out: &mut RunResult,
) -> Result<Option<(Earlier, PathBuf, String)>, RunError> {
    let earlier = if stages.scan {
        None
    } else if stages.parse {
        Some(Earlier::Scanned)
    } else if stages.conflict || stages.winter || stages.map {
        Some(Earlier::Parsed)
    } else {
        None
    }
    .filter(|e| dir.join(e.file_name()).is_file());
    Ok(match earlier {
        Some(e) => {
            let path = dir.join(e.file_name());
            let text = read(&path)?;
            match stagefile::stale(&path, &text, &start.phase, g.orders_path.as_deref()) {
                None => Some((e, path, text)),
                Some(why) => {
                    out.messages
                        .push(format!("{} not read: {why}; the orders file is read", path.display()));
                    None
                }
            }
        }
        None => None,
    })
}

/// The scanner: the orders read (from the earlier stage's file, else the
/// orders file, which must hold orders unless `--no-orders`); SCANNED.TXT.
fn scanner(
    dir: &Path,
    stages: &Stages,
    g: &GameDir,
    vocab: &Vocabulary,
    start: &State,
    earlier: &Option<(Earlier, PathBuf, String)>,
    out: &mut RunResult,
) -> Result<Vec<ReadLine>, RunError> {
    let map = &g.variant.map;
    let plays = stages.scan || stages.parse || stages.conflict || stages.winter || stages.map;
    if let (true, None, Some(why)) = (plays, earlier, &g.orders_missing) {
        if !stages.no_orders {
            return Err(RunError::Other(format!(
                "no orders: {why}; nothing was played. Put the orders there, or run with --no-orders to play the turn with no orders at all (every unit holds)"
            )));
        }
        out.warnings
            .push(format!("warning: no orders ({why}): every unit holds (--no-orders)"));
    }
    if stages.debug >= 2 {
        debug_files(g, &mut out.messages);
    }
    let lines = match earlier {
        Some((e, path, text)) => {
            out.messages.push(format!(
                "orders read from {} (the earlier stage's file, as it stands now)",
                path.display()
            ));
            stagefile::orders_of(vocab, *e, path, text).map_err(RunError::Other)?
        }
        None => read_orders(vocab, &g.orders_text, None),
    };
    if let (true, None, Some(path)) = (plays, earlier, &g.orders_path) {
        nmr_checks(map, start, &lines, &g.orders_text, path, stages.no_orders, out)?;
    }
    if stages.scan {
        write_in(
            g.form,
            &dir.join("SCANNED.TXT"),
            &scanned_text(map, &start.phase, &lines),
            &mut out.written,
        )?;
    }
    Ok(lines)
}

/// The parser: the phases of this run, the first, then (unless
/// three-phase) the retreats and adjustments that follow, from the same
/// orders file (dip-play's game with DipWork's options); the position
/// after them.
#[allow(clippy::too_many_arguments)]
fn parser(
    g: &GameDir,
    stages: &Stages,
    rules: Ruleset,
    opts: CheckOptions,
    three_phase: bool,
    start: &State,
    lines: Vec<ReadLine>,
    out: &mut RunResult,
) -> Result<(State, Vec<Played>), RunError> {
    let map = &g.variant.map;
    let loaded = dip_play::Loaded::try_with(std::sync::Arc::new(g.variant.clone()), |map, _| words(g, map))?;
    let mut game = dip_play::Game::from_state(std::sync::Arc::new(loaded), start.clone())
        .with_rules(rules)
        .with_options(PlayOptions {
            check: opts,
            suggest_retreats: true,
            carry_lines: true,
            two_phase_retreats: !three_phase && stages.winter,
            ..PlayOptions::default()
        });
    game.submit_lines(&g.orders_text, lines);
    let mut runs: Vec<Played> = Vec::new();
    loop {
        let run = game.process().clone();
        out.messages.extend(run.messages.iter().cloned());
        out.messages.extend(run.suggested.iter().cloned());
        if stages.debug >= 1 {
            debug_phase(map, &run, &mut out.messages);
        }
        runs.push(run);
        let stop = three_phase || !stages.winter || game.state().phase.kind == PhaseKind::Movement || runs.len() >= 3;
        if stop {
            break;
        }
    }
    // An order no phase of this run can use is said so, never dropped.
    for l in game.unused_lines() {
        out.messages.push(format!(
            "line {}: {} [{}] not an order of {}: ignored",
            l.line,
            l.text,
            Code::WrongPhase.number(),
            runs.iter()
                .map(|r| title_phase(&r.state.phase))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok((game.state().clone(), runs))
}

/// The parser's files: ERRORS.TXT (the warnings first, then every
/// changed or deleted order, with its full text) and PARSED.TXT (unless
/// it was read).
fn write_parsed(
    dir: &Path,
    g: &GameDir,
    vocab: &Vocabulary,
    start: &State,
    earlier: &Option<(Earlier, PathBuf, String)>,
    runs: &[Played],
    out: &mut RunResult,
) -> Result<(), RunError> {
    let mut errors: String = out.warnings.iter().map(|w| format!("{w}\n")).collect();
    for r in runs {
        errors.push_str(&r.check.errors_text(vocab, dip_text::Style::Datc));
    }
    for m in &out.messages {
        errors.push_str(m);
        errors.push('\n');
    }
    write_in(
        g.form,
        &named_file(dir, &g.params, "FNERRORS", "ERRORS.TXT")?,
        &errors,
        &mut out.written,
    )?;
    if !matches!(earlier, Some((Earlier::Parsed, ..))) {
        write_in(
            g.form,
            &dir.join("PARSED.TXT"),
            &parsed_text(
                &g.variant.map,
                &start.phase,
                &runs.iter().map(|r| &r.check).collect::<Vec<_>>(),
            ),
            &mut out.written,
        )?;
    }
    Ok(())
}

/// The players of the game, by power.
fn players(g: &GameDir, vocab: &Vocabulary) -> Vec<Option<String>> {
    g.variant
        .map
        .power_ids()
        .map(|p| g.game.player(vocab, p).map(String::from))
        .collect()
}

/// A report's header: the game, the season played, the next one.
fn header(g: &GameDir, players: &[Option<String>], season: &State, next: &State) -> Report {
    let map = &g.variant.map;
    Report {
        game: g.params.text(
            "NAME",
            &g.dir
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default(),
        ),
        variant: g.params.text("VARNAME", &g.variant.title),
        season: {
            let t = title_phase(&season.phase);
            g.params
                .string("YEAR")
                .filter(|y| !y.is_empty())
                .map(|y| format!("{t} ({y})"))
                .unwrap_or(t)
        },
        zat: g.params.text("ZAT", ""),
        master: g.params.text("MASTER", ""),
        players: map
            .power_ids()
            .filter_map(|p| players[p.index()].clone().map(|n| (map.power(p).name.clone(), n)))
            .collect(),
        next: title_phase(&next.phase),
        ..Report::default()
    }
}

/// The mapper: the first phase's position with its orders and results.
/// DipWork's mapper drew onto the blank map FNMAP names, in the game's
/// folder (else the variant's); the blank map is never written over.
fn mapper(dir: &Path, g: &GameDir, first: &Played, out: &mut RunResult) -> Result<(), RunError> {
    let opts = dip_render::Options::default();
    let blank = blank_map(g)?;
    let picture = match &blank {
        Some((path, bytes)) => {
            dip_render::Picture::with_background(&g.variant, dip_render::Shapes::for_variant(&g.variant), bytes.clone())
                .map_err(|e| RunError::Other(format!("{}: FNMAP: {e}", path.display())))?
        }
        None => dip_render::Picture::new(&g.variant),
    };
    let svg = picture.svg(&first.state, Some(&first.outcome), &opts);
    write(&dir.join("MAP.svg"), &svg, &mut out.written)?;
    if let Some((path, _)) = &blank {
        // A picture drawn on a picture: MAP.png too, always.
        let png = picture
            .png(&first.state, Some(&first.outcome), &opts)
            .map_err(|e| RunError::Other(format!("MAP.png: {e}")))?;
        let out_path = dir.join("MAP.png");
        std::fs::write(&out_path, png).map_err(|e| RunError::Io(out_path.display().to_string(), e))?;
        out.written.push(out_path);
        out.messages
            .push(format!("mapper: drawn on the blank map {}", path.display()));
    } else if g.params.boolean("MAPPNG", false)? {
        let png = dip_render::raster::png(&svg).map_err(|e| RunError::Other(format!("MAP.png: {e}")))?;
        let path = dir.join("MAP.png");
        std::fs::write(&path, png).map_err(|e| RunError::Io(path.display().to_string(), e))?;
        out.written.push(path);
    }
    Ok(())
}

/// The conflicter: CONFLICTED.TXT, the first phase's results.
fn conflicter(
    dir: &Path,
    g: &GameDir,
    vocab: &Vocabulary,
    first: &Played,
    out: &mut RunResult,
) -> Result<Report, RunError> {
    let map = &g.variant.map;
    // The position the first phase led to, as the game played it.
    let after_first = &first.next;
    let mut conflicted = header(g, &players(g, vocab), &first.state, after_first);
    let target = match first.outcome {
        PhaseOutcome::Movement(_) => &mut conflicted.orders,
        PhaseOutcome::Retreat(_) => &mut conflicted.retreats,
        PhaseOutcome::Adjustment(_) => &mut conflicted.builds,
    };
    lines_of(map, first, target);
    conflicted.retreats.extend(no_retreat_lines(map, first));
    conflicted.centers = centers(map, after_first);
    in_nation_order(map, &mut conflicted);
    write_in(
        g.form,
        &dir.join("CONFLICTED.TXT"),
        &format!("# dip stage: conflicted\n{}", conflicted.to_stage_text()),
        &mut out.written,
    )?;
    Ok(conflicted)
}

/// The winterer: the phases after the first added to the conflicter's
/// report, WINTERED.TXT, NEWGAME.TXT (the new position, then every order
/// with its result) and TURN.REC (this turn's phases for the game's
/// record; `accept` appends them to HISTORY.REC).
#[allow(clippy::too_many_arguments)]
fn winterer(
    dir: &Path,
    g: &GameDir,
    vocab: &Vocabulary,
    rules: Ruleset,
    conflicted: Report,
    runs: &[Played],
    state: &State,
    out: &mut RunResult,
) -> Result<Report, RunError> {
    let map = &g.variant.map;
    let mut report = conflicted;
    for r in runs.iter().skip(1) {
        let target = match r.outcome {
            PhaseOutcome::Movement(_) => &mut report.orders,
            PhaseOutcome::Retreat(_) => &mut report.retreats,
            PhaseOutcome::Adjustment(_) => &mut report.builds,
        };
        lines_of(map, r, target);
        report.retreats.extend(no_retreat_lines(map, r));
    }
    report.next = match game::winner(map, state) {
        Some(w) => format!(
            "Game over: {} wins with {} centres",
            map.power(w).name,
            state.center_count(map, w)
        ),
        None => title_phase(&state.phase),
    };
    report.centers = centers(map, state);
    in_nation_order(map, &mut report);
    write_in(
        g.form,
        &dir.join("WINTERED.TXT"),
        &format!("# dip stage: wintered\n{}", report.to_stage_text()),
        &mut out.written,
    )?;
    write_in(
        g.form,
        &named_file(dir, &g.params, "FNNEWGAME", "NEWGAME.TXT")?,
        &newgame_text(g, vocab, state, &report)?,
        &mut out.written,
    )?;
    let turn = crate::record::GameRecord {
        name: report.game.clone(),
        variant: g
            .game
            .params
            .get("VARIANTPATH")
            .map(|e| e.value.clone())
            .unwrap_or_default(),
        rules: rules.to_text(),
        phases: runs
            .iter()
            .map(|r| crate::record::PhaseRecord {
                state: r.state.clone(),
                orders: r.outcome.orders().iter().map(|o| o.order).collect(),
            })
            .collect(),
    };
    write(&dir.join("TURN.REC"), &turn.to_text(map), &mut out.written)?;
    Ok(report)
}

/// NEWGAME.TXT: the new position, then every order of the turn with its
/// result (and its error number with `ERROR_NR_OUTPUT`).
fn newgame_text(g: &GameDir, vocab: &Vocabulary, state: &State, report: &Report) -> Result<String, RunError> {
    let mut newgame = write_game(&g.game.header, vocab, state, &players(g, vocab));
    let numbers = g.params.boolean("ERROR_NR_OUTPUT", false)?;
    newgame.push_str(&format!("\n# Orders of {} with their results\n", report.season));
    let all = || report.orders.iter().chain(&report.retreats).chain(&report.builds);
    for l in all() {
        let text = if l.underlined() {
            format!("[{}]", l.marked_order())
        } else {
            l.marked_order()
        };
        let code = match (numbers, l.code) {
            (true, Some(c)) => format!(" {{{c}}}"),
            _ => String::new(),
        };
        newgame.push_str(&format!("# {}: {text}{code}\n", l.nation));
    }
    if all().any(|l| l.automatic) {
        newgame.push_str(&format!("# {}\n", crate::report::AUTOMATIC_LEGEND));
    }
    Ok(newgame)
}

/// The blank map FNMAP names (DipWork: `standard.tif`, in the game's
/// folder, where the manual has it copied; dip also looks in the variant's
/// folder), any case: (path, bytes). `None` without FNMAP; a named file
/// that is nowhere is an error.
fn blank_map(g: &GameDir) -> Result<Option<(PathBuf, Vec<u8>)>, RunError> {
    let Some((f, e)) = g.params.find("FNMAP") else {
        return Ok(None);
    };
    let name = e.value.trim();
    let variant_dir = g
        .variant_path
        .as_deref()
        .map(|p| if p.is_dir() { p } else { p.parent().unwrap_or(p) });
    let found = [Some(g.dir.as_path()), variant_dir]
        .into_iter()
        .flatten()
        .find_map(|base| dip_variants::files::find_dos_path(base, name).filter(|p| p.is_file()))
        .ok_or_else(|| {
            RunError::Other(format!(
                "{}:{}: FNMAP {name}: no such picture in {} (DipWork's mapper draws onto a blank map copied into the game's folder)",
                f.path.display(),
                e.line,
                g.dir.display()
            ))
        })?;
    let bytes = crate::files::read_bytes_capped(&found, crate::files::MAX_BINARY_BYTES).map_err(RunError::Other)?;
    Ok(Some((found, bytes)))
}

/// `/debug1`: the phase's orders as adjudicated, each with its result.
fn debug_phase(map: &Map, run: &Played, messages: &mut Vec<String>) {
    let mut lines = Vec::new();
    lines_of(map, run, &mut lines);
    messages.push(format!("debug1: {}", title_phase(&run.state.phase)));
    for l in lines {
        let result = if l.failed { "fails" } else { "succeeds" };
        let code = l.code.map(|c| format!(" [{c}]")).unwrap_or_default();
        let note = if l.note.is_empty() {
            String::new()
        } else {
            format!(": {}", l.note)
        };
        messages.push(format!("debug1:   {}: {} {result}{code}{note}", l.nation, l.order));
    }
}

/// `/debug2`: every file the run reads its parameters from, and every
/// parameter with the file and line it was found on.
fn debug_files(g: &GameDir, messages: &mut Vec<String>) {
    for f in &g.params.files {
        messages.push(format!("debug2: read {}", f.path.display()));
        for e in &f.entries {
            messages.push(format!(
                "debug2:   {} = {} ({}:{})",
                e.key,
                e.value,
                f.path.display(),
                e.line
            ));
        }
    }
}

/// The stage file `--output` names: a stage (`CONFLICTED`, `wintered`,
/// DipWork's `WINTERED.ORD`) or any file, in the game directory or as a
/// path of its own.
fn stage_file(dir: &Path, name: &str) -> Result<PathBuf, RunError> {
    let given = Path::new(name);
    for p in [dir.join(given), given.to_path_buf()] {
        if p.is_file() {
            return Ok(p);
        }
    }
    let stem = given
        .file_stem()
        .map(|s| s.to_string_lossy().to_ascii_uppercase())
        .unwrap_or_default();
    // DipWork's DOS names: CONFLCED.ORD is the conflicter's file (8.3).
    let stem = match stem.as_str() {
        "CONFLCED" => "CONFLICTED".to_string(),
        _ => stem,
    };
    let stage = dir.join(format!("{stem}.TXT"));
    if ["SCANNED", "PARSED", "CONFLICTED", "WINTERED"].contains(&stem.as_str()) && stage.is_file() {
        return Ok(stage);
    }
    Err(RunError::Other(format!(
        "--output={name}: no such stage file in {} (expected CONFLICTED (DipWork's CONFLCED.ORD), WINTERED, or the name of a stage file written by an earlier run)",
        dir.display()
    )))
}

/// The output stage: PLAIN.TXT (and REPORT.md, REPORT.html, REPORT.json)
/// from a stage file.
fn finish_output(g: &GameDir, stages: &Stages, mut out: RunResult) -> Result<RunResult, RunError> {
    let Some(stage) = &stages.output else {
        return Ok(out);
    };
    let file = stage_file(&g.dir, stage)?;
    let text = read(&file)?;
    let report = Report::from_stage_text(&text)
        .map_err(|(line, m)| RunError::Other(format!("{}{}: {m}", file.display(), dip_core::colon_line(&line))))?;
    let style = PlainStyle {
        width: g.params.number("PLAINOUTWIDTH", 80)?.clamp(20, 1000) as usize,
        column: g.params.number("TABCOLUMNWIDTH", 12)?.clamp(4, 200) as usize,
        underline_on: g.params.ascii("UNDERLINE_ON", "[")?,
        underline_off: g.params.ascii("UNDERLINE_OFF", "]")?,
        separator: g.params.ascii("COLUMNSEPCODE", "\t")?,
        line_end: g.params.text("TABLINEENDSTR", ""),
        begin: g.params.text("TABBEGINSTR", ""),
        end: g.params.text("TABENDSTR", ""),
    };
    write_in(
        g.form,
        &named_file(&g.dir, &g.params, "FNPLAINOUT", "PLAIN.TXT")?,
        &plain(&report, &style),
        &mut out.written,
    )?;
    write(&g.dir.join("REPORT.md"), &markdown(&report), &mut out.written)?;
    write(&g.dir.join("REPORT.html"), &html(&report), &mut out.written)?;
    write(&g.dir.join("REPORT.json"), &json(&report), &mut out.written)?;
    // DIP's orders name the supported unit's nation: the turn's position.
    let vocab = g.vocabulary()?.with_exact_match(false);
    let state = g.game.state(&vocab).ok();
    let dip_form = |table: &str, l: &Line| -> Option<String> {
        let power = g.variant.map.find_power(&l.nation)?;
        // Press shown as `F Nth xxx?` is a hold; `+A Vie` a build.
        let text = match (l.order.strip_suffix(" xxx?"), l.order.strip_prefix('+')) {
            (Some(u), _) => Some(format!("{u} H")),
            (None, Some(b)) => Some(format!("build {b}")),
            _ => None,
        };
        let mut o = dip_text::parse_order_with(&vocab, text.as_deref().unwrap_or(&l.order), Some(power)).ok()?;
        // `A Gal-War` in the retreats is a retreat (`RUS A(Gal) retreat War`).
        if let (true, OrderKind::Move(u, to, _)) = (table == "Retreats", o.kind) {
            o.kind = OrderKind::Retreat(u, to);
        }
        Some(match &state {
            Some(s) => dip_text::format_order_in(&vocab, s, &o, dip_text::Style::Dip),
            None => dip_text::format_order_with(&vocab, &o, dip_text::Style::Dip),
        })
    };
    write_in(
        g.form,
        &g.dir.join("EXPORT.TXT"),
        &dip_export_with(&report, &dip_form),
        &mut out.written,
    )?;
    out.report = report;
    Ok(out)
}

/// `dip accept`: NEWGAME.TXT becomes GAME.TXT; the old GAME.TXT is kept as
/// the backup named by FNSAVE (default GAME.BAK, numbered if it exists).
/// Everything is checked first (NEWGAME.TXT read as the game it will be, as
/// `dip run` reads it; TURN.REC and HISTORY.REC read as records whose
/// phases follow each other), the new files are written beside the old
/// ones, and only then are they renamed into place: a failure leaves the
/// game as it was.
pub fn accept(dir: &Path, variants: &Variants) -> Result<PathBuf, RunError> {
    let g = GameDir::open(dir, None, variants)?;
    let newgame = named_file(dir, &g.params, "FNNEWGAME", "NEWGAME.TXT")?;
    let game = g.game.path.clone();
    let text = read(&newgame)?;
    if read(&game)? == text {
        return Err(RunError::Other(format!(
            "{} is the game as it stands (accepted already); run the next turn first",
            newgame.display()
        )));
    }
    // The new file must open as the game, exactly as `dip run` opens it.
    let next = GameDir::open_with(dir, None, Some((&text, &newgame)), variants)?;
    let vocab = next.vocabulary()?;
    next.game.state(&vocab)?;
    next.rules()?;
    // The accepted turn joins the game's record: checked before anything
    // is written.
    let turn = dir.join("TURN.REC");
    let history = dir.join("HISTORY.REC");
    let mut new_history = None;
    if turn.exists() {
        let t = read(&turn)?;
        let map = &g.variant.map;
        let turn_name = turn.display().to_string();
        let turn_rec =
            crate::record::GameRecord::from_text(map, &t, &turn_name).map_err(|e| RunError::Other(e.to_string()))?;
        let add = if history.exists() {
            let h = read(&history)?;
            let hist_name = history.display().to_string();
            let hist_rec = crate::record::GameRecord::from_text(map, &h, &hist_name)
                .map_err(|e| RunError::Other(e.to_string()))?;
            // An accept that stopped between its renames (its journal is
            // there, TURN.REC already at the end of HISTORY.REC) is
            // finished now; without the journal the same turn is refused.
            if journal(dir).is_file() && hist_rec.phases.ends_with(&turn_rec.phases) {
                return finish_accept(dir, &g.params, &game, &newgame, None, &turn, true);
            }
            if let (Some(last), Some(first)) = (hist_rec.phases.last(), turn_rec.phases.first()) {
                crate::record::check_follows(&last.state.phase, &first.state.phase).map_err(|m| {
                    RunError::Other(format!(
                        "{turn_name}: {m} (the last phase of {hist_name}); run the turn again"
                    ))
                })?;
            }
            // Only the phase blocks: the header is already there.
            let start = t.find("\nphase ").map(|i| i + 1).unwrap_or(t.len());
            let mut h = h;
            if !h.ends_with('\n') {
                h.push('\n');
            }
            h.push('\n');
            h.push_str(&t[start..]);
            crate::record::GameRecord::from_text(map, &h, &hist_name).map_err(|e| RunError::Other(e.to_string()))?;
            h
        } else {
            t
        };
        new_history = Some(add);
    }
    finish_accept(dir, &g.params, &game, &newgame, new_history, &turn, false)
}

/// The file that says an `accept` is between its renames.
fn journal(dir: &Path) -> PathBuf {
    dir.join("ACCEPT.JOURNAL")
}

/// The swap of `accept`, everything checked: HISTORY.REC (when it grows)
/// and GAME.TXT are written beside, GAME.BAK kept, then ACCEPT.JOURNAL is
/// written, HISTORY.REC and GAME.TXT renamed into place (GAME.TXT last),
/// TURN.REC and the journal removed. A failure after HISTORY.REC's rename
/// leaves the journal and TURN.REC at the record's end: the next `accept`
/// recognises them and finishes.
fn finish_accept(
    dir: &Path,
    params: &Params,
    game: &Path,
    newgame: &Path,
    new_history: Option<String>,
    turn: &Path,
    turn_done: bool,
) -> Result<PathBuf, RunError> {
    let history = dir.join("HISTORY.REC");
    // Written beside, then renamed: GAME.TXT last.
    let staged_history = match &new_history {
        Some(h) => Some(crate::files::stage(&history, h.as_bytes()).map_err(RunError::Other)?),
        None => None,
    };
    // NEWGAME.TXT's own bytes: its encoding (that of the game) is kept.
    let new_bytes = crate::files::read_bytes_capped(newgame, crate::files::MAX_TEXT_BYTES).map_err(RunError::Other)?;
    let staged_game = crate::files::stage(game, &new_bytes).map_err(|e| {
        if let Some(p) = &staged_history {
            let _ = std::fs::remove_file(p);
        }
        RunError::Other(e)
    })?;
    let backup = keep_backup(dir, params, game).inspect_err(|_| {
        let _ = std::fs::remove_file(&staged_game);
        if let Some(p) = &staged_history {
            let _ = std::fs::remove_file(p);
        }
    })?;
    if let Some(p) = &staged_history {
        let note =
            "dip accept renames HISTORY.REC, then GAME.TXT; if this file stays, run `dip accept` again to finish\n";
        std::fs::write(journal(dir), note).map_err(|e| RunError::Io(journal(dir).display().to_string(), e))?;
        crate::files::commit(p, &history).map_err(RunError::Other)?;
    }
    crate::files::commit(&staged_game, game).map_err(RunError::Other)?;
    if new_history.is_some() || turn_done {
        std::fs::remove_file(turn).map_err(|e| RunError::Io(turn.display().to_string(), e))?;
    }
    if journal(dir).exists() {
        std::fs::remove_file(journal(dir)).map_err(|e| RunError::Io(journal(dir).display().to_string(), e))?;
    }
    Ok(backup)
}

/// A file a parameter names (FNERRORS, FNNEWGAME, FNPLAINOUT, FNSAVE): in
/// the game's folder, never elsewhere, as the parameter may come from
/// ORDERS.TXT, the file players' orders are pasted into.
fn named_file(dir: &Path, params: &Params, key: &str, default: &str) -> Result<PathBuf, RunError> {
    let name = params.text(key, default);
    let name = name.trim();
    // Found in any case (an existing PLAIN.TXT is replaced, not joined
    // by a plain.txt), after the check that keeps it in the folder.
    dip_variants::files::confined(dir, name)
        .map(|_| crate::files::dos_file(dir, name))
        .map_err(|m| {
            let at = params
                .find(key)
                .map(|(f, e)| format!("{}:{}: ", f.path.display(), e.line))
                .unwrap_or_default();
            RunError::Other(format!("{at}{key} {m}"))
        })
}

/// Copies GAME.TXT to the backup named by FNSAVE (default GAME.BAK),
/// numbered when that exists: no backup is ever overwritten.
fn keep_backup(dir: &Path, params: &Params, game: &Path) -> Result<PathBuf, RunError> {
    let save = named_file(dir, params, "FNSAVE", "GAME.BAK")?;
    let mut backup = save.clone();
    let mut n = 1;
    while backup.exists() {
        let mut numbered = save.clone().into_os_string();
        numbered.push(format!(".{n}"));
        backup = PathBuf::from(numbered);
        n += 1;
    }
    std::fs::copy(game, &backup).map_err(|e| RunError::Io(game.display().to_string(), e))?;
    Ok(backup)
}

/// `dip new`: a new game directory at the variant's start. Refuses to
/// overwrite an existing GAME.TXT.
pub fn new_game(dir: &Path, variant: &str, name: &str, variants: &Variants) -> Result<Vec<PathBuf>, RunError> {
    let v = variants.load(variant).map_err(|e| RunError::Other(e.to_string()))?;
    std::fs::create_dir_all(dir).map_err(|e| RunError::Io(dir.display().to_string(), e))?;
    let game = dir.join("GAME.TXT");
    let orders_file = dir.join("ORDERS.TXT");
    for f in [&game, &orders_file] {
        if f.exists() {
            return Err(RunError::Other(format!(
                "{} exists; a new game needs a directory without GAME.TXT and ORDERS.TXT",
                f.display()
            )));
        }
    }
    let vpath = crate::variantpath::for_new_game(dir, variant).map_err(RunError::Other)?;
    let vocab = Vocabulary::new(&v.map);
    let header = vec![
        format!("VARIANTPATH {vpath}"),
        format!("NAME {name}"),
        "MASTER".to_string(),
        format!("VARNAME {}", v.title),
        format!("PHASE {}", title_phase(&v.start.phase)),
    ];
    let mut written = Vec::new();
    write(&game, &write_game(&header, &vocab, &v.start, &[]), &mut written)?;
    let mut orders = String::from("ZAT\n");
    for p in v.map.power_ids() {
        orders.push_str(&format!("NATION {}\n\n", v.map.power(p).name));
    }
    orders.push_str("END\n");
    write(&orders_file, &orders, &mut written)?;
    Ok(written)
}
