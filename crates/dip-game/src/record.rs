//! Whole-game records: every phase of a game with its position, orders and
//! results, in a readable text file (docs/game-record.md); the base for
//! history, maps and animations. Imported from and exported to MILA's saved
//! games.

use crate::as_read::{AsRead, PlayedOn};
use crate::mila::{SavedGame, SavedPhase, SavedState};
use dip_core::{Map, Order, OrderKind, OrderReport, PhaseOutcome, Ruleset, State, Verdict};
use dip_play::Played;
use dip_text::{format_order, format_position, parse_order_with, parse_position, Style, Vocabulary};
use std::collections::BTreeMap;

/// One phase: the position it starts from and the orders given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseRecord {
    pub state: State,
    pub orders: Vec<Order>,
}

/// A game from its first phase to its last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub name: String,
    /// The variant's name (bundled) or path.
    pub variant: String,
    /// The rules as `Ruleset::parse` reads them.
    pub rules: String,
    pub phases: Vec<PhaseRecord>,
}

/// A record that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: {message}", dip_core::colon_line(.line))]
pub struct RecordError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

fn verdict_words(v: &Verdict) -> &'static str {
    match v {
        Verdict::Done { success: true, .. } => "succeeds",
        Verdict::Done { success: false, .. } => "fails",
        Verdict::Illegal(_) | Verdict::Duplicate => "illegal",
    }
}

impl GameRecord {
    /// The record as text: a header, then one block per phase (the
    /// position, then `orders` with each order's result), played on `on`
    /// (a shared variant, or the map alone).
    pub fn to_text(&self, on: &impl PlayedOn) -> String {
        let rules = Ruleset::parse(&self.rules).unwrap_or_default();
        let mut game = AsRead::on(on, rules);
        let played: Vec<Played> = self
            .phases
            .iter()
            .map(|ph| game.play(&ph.state, &ph.orders).clone())
            .collect();
        self.to_text_played(on.map(), &played)
    }

    /// As [`GameRecord::to_text`], with the phases already played
    /// (`played[i]` is `self.phases[i]` played, as the caller played it to
    /// make the record): no phase is adjudicated again. A phase past
    /// `played` is written with its orders alone, without results.
    pub fn to_text_played(&self, map: &Map, played: &[Played]) -> String {
        let mut out = format!(
            "# dip game record\ngame {}\nvariant {}\nrules {}\n",
            self.name, self.variant, self.rules
        );
        for (i, ph) in self.phases.iter().enumerate() {
            out.push('\n');
            let pos = format_position(map, &ph.state);
            for line in pos.lines().filter(|l| !l.starts_with("variant ")) {
                out.push_str(line);
                out.push('\n');
            }
            out.push_str("orders\n");
            match played.get(i) {
                Some(played) => {
                    for r in played.outcome.orders() {
                        out.push_str(&format!(
                            "  {} : {}{}\n",
                            format_order(map, &r.order, Style::Datc),
                            verdict_words(&r.verdict),
                            if r.dislodged { " dislodged" } else { "" }
                        ));
                    }
                }
                None => {
                    for o in &ph.orders {
                        out.push_str(&format!("  {}\n", format_order(map, o, Style::Datc)));
                    }
                }
            }
            out.push_str("end\n");
        }
        out
    }

    /// Reads a record; positions and orders are checked against the map.
    pub fn from_text(map: &Map, text: &str, file: &str) -> Result<GameRecord, RecordError> {
        let err = |line: usize, message: String| RecordError {
            file: file.to_string(),
            line,
            message,
        };
        let mut rec = GameRecord {
            name: String::new(),
            variant: "standard".into(),
            rules: "datc".into(),
            phases: Vec::new(),
        };
        let vocab = Vocabulary::new(map).with_spellcheck(0);
        let lines: Vec<&str> = text.lines().collect();
        let mut i = 0;
        while i < lines.len() {
            let line = lines[i].split('#').next().unwrap_or("").trim();
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "" => i += 1,
                "game" => {
                    rec.name = rest.trim().to_string();
                    i += 1;
                }
                "variant" => {
                    rec.variant = rest.trim().to_string();
                    i += 1;
                }
                "rules" => {
                    Ruleset::parse(rest).map_err(|e| err(i + 1, e.to_string()))?;
                    rec.rules = rest.trim().to_string();
                    i += 1;
                }
                "phase" => {
                    // The position runs to `orders`; the orders to `end`.
                    let start = i;
                    let mut j = i;
                    while j < lines.len() && lines[j].trim() != "orders" {
                        j += 1;
                    }
                    if j == lines.len() {
                        return Err(err(start + 1, "a phase without `orders` and `end`".into()));
                    }
                    let pos_text = lines[start..j].join("\n");
                    let mut state = parse_position(map, &pos_text, file).map_err(|e| err(start + e.line, e.message))?;
                    if !pos_text.lines().any(|l| l.trim() == "owners") {
                        for &sc in map.supply_centers() {
                            state.set_owner(sc, None);
                        }
                    }
                    let mut orders = Vec::new();
                    j += 1;
                    while j < lines.len() && lines[j].trim() != "end" {
                        let t = lines[j].split('#').next().unwrap_or("").trim();
                        if !t.is_empty() {
                            // The result after the last ` : ` is informative.
                            let order_text = match t.rfind(" : ") {
                                Some(k) => &t[..k],
                                None => t,
                            };
                            let o =
                                parse_order_with(&vocab, order_text, None).map_err(|e| err(j + 1, e.to_string()))?;
                            orders.push(o);
                        }
                        j += 1;
                    }
                    if j == lines.len() {
                        return Err(err(start + 1, "a phase without `end`".into()));
                    }
                    if let Some(prev) = rec.phases.last() {
                        check_follows(&prev.state.phase, &state.phase).map_err(|m| err(start + 1, m))?;
                    }
                    rec.phases.push(PhaseRecord { state, orders });
                    i = j + 1;
                }
                other => {
                    return Err(err(
                        i + 1,
                        format!(
                            "unknown keyword `{}` (expected game, variant, rules or phase)",
                            crate::files::excerpt(other)
                        ),
                    ))
                }
            }
        }
        Ok(rec)
    }

    /// Plays the game on: the position after the last phase.
    pub fn last_state(&self, on: &impl PlayedOn) -> Option<State> {
        let rules = Ruleset::parse(&self.rules).unwrap_or_default();
        let ph = self.phases.last()?;
        Some(AsRead::on(on, rules).play(&ph.state, &ph.orders).next.clone())
    }
}

/// The variant a record names (`variant NAME`, a MILA game's `map`): a
/// bundled variant, a variant of a jDip plugin under `--variants`, or a
/// file beside the record (or below its folder). An absolute path or `..`
/// is refused: a record from elsewhere reads no other file of the machine.
pub fn record_variant(
    record: &std::path::Path,
    name: &str,
    variants: &dip_play::Variants,
) -> Result<dip_variants::Variant, String> {
    let name = name.trim();
    if dip_variants::bundled()
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case(name))
    {
        return variants.load(name).map_err(|e| e.to_string());
    }
    // A plugin's variant is named, never a path (the plugins are the user's).
    if !name.contains(['/', '\\']) {
        if let Some(found) = dip_variants::jdip::find_in(variants.search_paths(), name) {
            let (_, v) = found.map_err(|e| e.to_string())?;
            return v.model.build(&format!("jdip:{name}")).map_err(|e| e.to_string());
        }
    }
    let dir = record.parent().unwrap_or(std::path::Path::new(""));
    // A game directory's TURN.REC and HISTORY.REC name the variant as its
    // GAME.TXT's VARIANTPATH does, so it is looked up the same way: the
    // project folder, then the game's.
    let in_game_dir = dip_variants::files::find_dos_path(dir, "GAME.TXT").is_some_and(|p| p.is_file());
    if in_game_dir {
        return crate::variantpath::resolve(dir, None, name, "VARIANT.TXT", variants).map(|r| r.variant);
    }
    let path = dip_variants::files::confined(dir, name).map_err(|m| format!("{}: variant {m}", record.display()))?;
    variants.load_any(&path.to_string_lossy()).map_err(|e| e.to_string())
}

/// The variant named in a record's text (`standard` when none is named).
pub fn variant_of_text(
    record: &std::path::Path,
    text: &str,
    variants: &dip_play::Variants,
) -> Result<dip_variants::Variant, String> {
    let name = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("variant "))
        .unwrap_or("standard");
    record_variant(record, name, variants)
}

/// A record's phases go forward in time: each after the one before it
/// (phases without orders may be left out), never the same phase twice, and
/// never a whole year skipped.
pub fn check_follows(prev: &dip_core::Phase, next: &dip_core::Phase) -> Result<(), String> {
    if next <= prev {
        return Err(format!(
            "phase {} after {}: the phases of a record must be in time order, each once",
            next.short(),
            prev.short()
        ));
    }
    if i64::from(next.year) > i64::from(prev.year) + 1 {
        return Err(format!(
            "phase {} after {}: a whole year is missing",
            next.short(),
            prev.short()
        ));
    }
    Ok(())
}

/// MILA's phase name: four digits at least (`S0001M`), as MILA names the
/// phases of maps that start before 1000.
fn mila_phase_name(state: &State) -> String {
    let short = state.phase.short();
    match (short.chars().next(), short.chars().last()) {
        (Some(season), Some(kind)) if (0..1000).contains(&state.phase.year) => {
            format!("{season}{:04}{kind}", state.phase.year)
        }
        _ => short,
    }
}

/// dip's bundled variants whose map MILA knows by another name.
const MILA_NAMES: [(&str, &str); 1] = [("fleetrome", "standard_fleet_rome")];

/// The `map` of a MILA saved game of this dip variant: MILA's name of the
/// map where it has one under another name, the variant's name otherwise
/// (`standard`, `ancmed`, `modern`, `pure`, `world`, … are the same in both).
pub fn mila_map_name(variant: &str) -> String {
    MILA_NAMES
        .iter()
        .find(|(dip, _)| dip.eq_ignore_ascii_case(variant))
        .map_or(variant, |(_, mila)| mila)
        .to_string()
}

/// The name of the dip variant a MILA saved game's `map` names: by MILA's
/// name or dip's, `standard` when it names none.
fn variant_name_of(map: &str) -> String {
    let map = map.trim();
    if map.is_empty() {
        return "standard".into();
    }
    let name = MILA_NAMES
        .iter()
        .find(|(_, mila)| mila.eq_ignore_ascii_case(map))
        .map_or(map, |(dip, _)| dip);
    dip_variants::bundled()
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map_or(name, |(n, _)| n)
        .to_string()
}

/// The bundled variant a MILA saved game's `map` names ([`from_mila`]
/// reads the game on its map). Only bundled variants: a file from
/// elsewhere does not make dip read other files.
pub fn mila_variant(map: &str, variants: &dip_play::Variants) -> Result<dip_variants::Variant, String> {
    let name = variant_name_of(map);
    if !dip_variants::bundled().iter().any(|(n, _)| *n == name) {
        return Err(format!(
            "map `{}`: dip has no variant of this name (dip's variants: {}; MILA's {} is dip's {})",
            map.trim().escape_debug(),
            dip_variants::bundled()
                .iter()
                .map(|(n, _)| *n)
                .collect::<Vec<_>>()
                .join(", "),
            MILA_NAMES[0].1,
            MILA_NAMES[0].0,
        ));
    }
    variants.load(&name).map_err(|e| e.to_string())
}

/// MILA's unit text: `A PAR`, `F STP/SC`.
fn mila_unit(map: &Map, u: &dip_core::Unit) -> String {
    format!(
        "{} {}",
        map.unit_type(u.kind).letter,
        map.region_name(u.region).to_ascii_uppercase()
    )
}

/// The rules a record made from a MILA game is adjudicated by: DATC, and
/// MILA's reading of a move to an adjacent province (over land unless the
/// order says `VIA`).
pub const MILA_RULES: &str = "datc convoy-adjacent=dptg";

/// A record from a MILA saved game, on `map`: the map of the variant its
/// `map` names ([`mila_variant`]), which the record names too.
///
/// Every phase is adjudicated again and must agree with the file: each
/// order's recorded result, the units dislodged, an order's unit in the
/// position, and the next phase's units, centres and retreats. A game
/// that disagrees (a tampered file, or one of another engine's rules) is
/// refused with the first phase that differs and what differs, rather
/// than made into a record whose positions do not follow from its orders.
pub fn from_mila(map: &Map, g: &SavedGame) -> Result<GameRecord, String> {
    let vocab = Vocabulary::new(map).with_spellcheck(0);
    let mut phases = Vec::new();
    for (i, ph) in g.phases.iter().enumerate() {
        let prev = i.checked_sub(1).map(|j| &g.phases[j]);
        let state = crate::replay::state_from(&vocab, ph, prev)?;
        // The record reader refuses phases out of order: so does the import,
        // rather than write a record that cannot be read back.
        if let Some(before) = phases.last().map(|p: &PhaseRecord| p.state.phase) {
            check_follows(&before, &state.phase).map_err(|m| format!("phase {} of the file: {m}", i + 1))?;
        }
        let orders = crate::replay::orders_of(&vocab, ph)?
            .into_iter()
            .map(|(_, o)| o)
            .collect();
        phases.push(PhaseRecord { state, orders });
    }
    let rules = Ruleset::parse(MILA_RULES).map_err(|e| e.to_string())?;
    let replay = crate::replay::replay_game(map, &rules, g)?;
    if let Some(d) = replay.differ.first() {
        return Err(format!(
            "phase {}: the recorded results or positions do not follow from the orders ({}){}",
            d.phase,
            d.problems.join("; "),
            match replay.differ.len() {
                1 => String::new(),
                n => format!(", and {} more phases differ", n - 1),
            }
        ));
    }
    // The last saved phase has no orders yet: keep it only if it has some.
    if phases.last().is_some_and(|p| p.orders.is_empty())
        && g.phases
            .last()
            .is_some_and(|p| p.orders.values().all(|o| o.as_ref().is_none_or(Vec::is_empty)))
    {
        phases.pop();
    }
    Ok(GameRecord {
        name: g.id.clone(),
        variant: variant_name_of(&g.map),
        rules: MILA_RULES.into(),
        phases,
    })
}

/// A MILA saved game from a record: each phase's position, orders and
/// result tags, and the position after the last phase, played on `on`
/// (a shared variant, or the map alone).
pub fn to_mila(on: &impl PlayedOn, rec: &GameRecord) -> SavedGame {
    let rules = Ruleset::parse(&rec.rules).unwrap_or_default();
    let map = on.map();
    let mut phases = Vec::new();
    let mut last = None;
    let mut game = AsRead::on(on, rules);
    for ph in &rec.phases {
        let played = game.play(&ph.state, &ph.orders);
        phases.push(saved_phase(map, &rules, &ph.state, &played.outcome));
        last = Some(played.next.clone());
    }
    saved_game(map, &rules, rec, phases, last)
}

/// As [`to_mila`], with the record's phases already played (`played[i]`
/// is `rec.phases[i]` played, as the caller played it to make the
/// record): no phase is adjudicated again.
pub fn to_mila_played(map: &Map, rec: &GameRecord, played: &[Played]) -> SavedGame {
    let rules = Ruleset::parse(&rec.rules).unwrap_or_default();
    let phases = rec
        .phases
        .iter()
        .zip(played)
        .map(|(ph, p)| saved_phase(map, &rules, &ph.state, &p.outcome))
        .collect();
    saved_game(map, &rules, rec, phases, played.last().map(|p| p.next.clone()))
}

/// One played phase as MILA saves it.
fn saved_phase(map: &Map, rules: &Ruleset, state: &State, outcome: &PhaseOutcome) -> SavedPhase {
    let (orders, results) = mila_orders_and_results(map, outcome);
    SavedPhase {
        name: mila_phase_name(state),
        state: mila_saved_state(map, rules, state),
        orders,
        results,
    }
}

/// The saved game: the played phases, and the position after the last.
fn saved_game(
    map: &Map,
    rules: &Ruleset,
    rec: &GameRecord,
    mut phases: Vec<SavedPhase>,
    last: Option<State>,
) -> SavedGame {
    if let Some(s) = last {
        phases.push(SavedPhase {
            name: mila_phase_name(&s),
            state: mila_saved_state(map, rules, &s),
            orders: BTreeMap::new(),
            results: BTreeMap::new(),
        });
    }
    SavedGame {
        id: rec.name.clone(),
        map: mila_map_name(&rec.variant),
        rules: vec![],
        phases,
    }
}

/// A position as MILA saves it: each power's units (a dislodged one
/// with `*`), centres, and where each dislodged unit may retreat.
fn mila_saved_state(map: &Map, rules: &Ruleset, s: &State) -> SavedState {
    let mut units: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut centers: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut retreats: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for p in map.power_ids() {
        let name = map.power(p).name.to_ascii_uppercase();
        let mut own: Vec<String> = s
            .units()
            .filter(|(_, u)| u.power == p)
            .map(|(_, u)| mila_unit(map, &u))
            .collect();
        centers.insert(
            name.clone(),
            s.centers_of(map, p)
                .map(|c| map.province(c).abbr.to_ascii_uppercase())
                .collect(),
        );
        let mut r = BTreeMap::new();
        for (_, d) in s.all_dislodged().filter(|(_, d)| d.unit.power == p) {
            own.push(format!("*{}", mila_unit(map, &d.unit)));
            let to = dip_core::retreat::retreat_options(map, s, rules, &d)
                .into_iter()
                .map(|r| map.region_name(r).to_ascii_uppercase())
                .collect();
            r.insert(mila_unit(map, &d.unit), to);
        }
        units.insert(name.clone(), own);
        retreats.insert(name, r);
    }
    SavedState {
        units,
        centers,
        retreats,
    }
}

/// Orders and results as MILA saves them: every power's orders (an empty
/// list for none), and each order's result tags under its unit.
#[allow(clippy::type_complexity)]
fn mila_orders_and_results(
    map: &Map,
    outcome: &PhaseOutcome,
) -> (BTreeMap<String, Option<Vec<String>>>, BTreeMap<String, Vec<String>>) {
    let mut orders: BTreeMap<String, Option<Vec<String>>> = BTreeMap::new();
    for p in map.power_ids() {
        orders.insert(map.power(p).name.to_ascii_uppercase(), Some(Vec::new()));
    }
    let mut results: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for r in outcome.orders() {
        let text = format_order(map, &r.order, Style::Mila);
        if let Some(Some(list)) = orders.get_mut(&map.power(r.order.power).name.to_ascii_uppercase()) {
            list.push(text.clone());
        }
        let key = text.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
        if !matches!(r.order.kind, OrderKind::Waive) {
            results.insert(key, mila_result_tags(r));
        }
    }
    (orders, results)
}

/// MILA's result tags of one order: why it failed, and whether its unit
/// was dislodged.
fn mila_result_tags(r: &OrderReport) -> Vec<String> {
    let mut tags = Vec::new();
    match r.verdict {
        Verdict::Done { success: false, reason } => tags.push(
            match reason {
                dip_core::Reason::SupportCut(_) => "cut",
                dip_core::Reason::SupportVoid | dip_core::Reason::ConvoyVoid => "void",
                dip_core::Reason::NoConvoy => "no convoy",
                dip_core::Reason::RetreatClash | dip_core::Reason::Disbanded => "disband",
                _ => "bounce",
            }
            .to_string(),
        ),
        Verdict::Illegal(_) | Verdict::Duplicate => tags.push("void".into()),
        _ => {}
    }
    if r.dislodged {
        tags.push("dislodged".into());
    }
    tags
}

/// A position as a Realpolitik game file (`.gam`): the start of a new game
/// from this position in Realpolitik or any program that reads its files.
pub fn to_gam(variant: &dip_variants::Variant, state: &State) -> String {
    let mut v = variant.clone();
    v.start = state.clone();
    let m = dip_variants::Model::from_variant(&v);
    dip_variants::realpolitik::write(&m)
        .into_iter()
        .find(|(name, _)| name.ends_with(".gam"))
        .map(|(_, text)| text)
        .unwrap_or_default()
}
