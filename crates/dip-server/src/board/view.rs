//! The board as the page reads it (`GET /api/v1/boards/{id}`): the
//! position, every unit with its legal orders (the page orders for every
//! power by clicking), the orders entered with the reader's verdict, the
//! season's report, the history. `?at=N` shows played phase N the same
//! way, with its orders' results.

use super::{Board, Stage};
use dip_core::{CoastSpec, Dest, Map, Order, OrderKind, PhaseKind, PhaseOutcome, PowerId, Reason, State, Verdict};
use dip_game::report::{Line, Report};
use dip_play::{Played, Submission};
use dip_text::{Fate, Style, Vocabulary};
use serde_json::{json, Value as Json};

/// The order as the board writes it: DIP's form (`ENG F(Edi) S A(Lon) -
/// NTH`, `GER build A(Kie)`), read back by every order reader of dip.
pub fn order_text(vocab: &Vocabulary, state: &State, o: &Order) -> String {
    dip_text::format_order_in(vocab, state, o, Style::Dip)
}

fn place(map: &Map, p: dip_core::ProvinceId) -> String {
    map.province(p).abbr.clone()
}

fn coast(map: &Map, d: &Dest) -> Option<String> {
    match d.coast {
        CoastSpec::Coast(r) => map.region(r).coast.clone(),
        _ => None,
    }
}

/// A legal order as the page's click handling reads it: its kind, where
/// it goes, what it supports or convoys, and its text.
pub fn describe(vocab: &Vocabulary, state: &State, o: &Order) -> Json {
    let mut v = describe_kind(vocab, state, o);
    // How the page draws it (assets/draw.js), the moment it is clicked.
    v["draw"] = crate::drawn::order(vocab.map(), state, o);
    v
}

fn describe_kind(vocab: &Vocabulary, state: &State, o: &Order) -> Json {
    use OrderKind as K;
    let map = vocab.map();
    let text = order_text(vocab, state, o);
    let power = &map.power(o.power).name;
    match &o.kind {
        K::Hold(_) => json!({"kind": "hold", "text": text, "power": power}),
        K::Move(_, d, via) => {
            json!({"kind": "move", "to": place(map, d.province), "coast": coast(map, d), "via": via, "text": text, "power": power})
        }
        K::SupportHold(_, t) => {
            json!({"kind": "support", "target": place(map, t.province), "to": place(map, t.province), "text": text, "power": power})
        }
        K::SupportMove(_, t, d) => {
            json!({"kind": "support", "target": place(map, t.province), "to": place(map, d.province), "text": text, "power": power})
        }
        K::Convoy(_, t, d) => {
            json!({"kind": "convoy", "target": place(map, t.province), "to": place(map, d.province), "text": text, "power": power})
        }
        K::Retreat(_, d) => {
            json!({"kind": "retreat", "to": place(map, d.province), "coast": coast(map, d), "text": text, "power": power})
        }
        K::Disband(_) => json!({"kind": "disband", "text": text, "power": power}),
        K::Build(u) => json!({
            "kind": "build", "province": place(map, u.province),
            "unit": u.kind.map(|k| map.unit_type(k).letter.to_string()),
            "coast": match u.coast { CoastSpec::Coast(r) => map.region(r).coast.clone(), _ => None },
            "text": text, "power": power,
        }),
        K::Waive => json!({"kind": "waive", "text": text, "power": power}),
    }
}

/// Every unit (dislodged ones too) with the orders it may be given now.
fn units(board: &Board, state: &State, orderable: bool) -> (Vec<Json>, Vec<Json>) {
    let game = &board.game;
    let vocab = game.loaded().vocabulary();
    let map = game.map();
    let rules = game.rules();
    let kind = state.phase.kind;
    let mut units = Vec::new();
    let unit_json = |power: PowerId, u: &dip_core::Unit, dislodged: bool, orders: Vec<Json>| {
        json!({
            "power": map.power(power).name,
            "type": map.unit_type(u.kind).letter.to_string(),
            "province": place(map, map.province_of(u.region)),
            "region": map.region_name(u.region),
            "dislodged": dislodged,
            "orders": orders,
        })
    };
    let adjustments: Vec<Vec<Order>> = if kind == PhaseKind::Adjustment && orderable {
        map.power_ids()
            .map(|p| dip_core::legal::adjustment_orders(map, state, p))
            .collect()
    } else {
        Vec::new()
    };
    for (p, u) in state.units() {
        let orders: Vec<Json> = if !orderable {
            Vec::new()
        } else {
            match kind {
                PhaseKind::Movement => dip_core::legal::legal_orders(map, state, rules, p)
                    .iter()
                    .map(|o| describe(vocab, state, o))
                    .collect(),
                PhaseKind::Retreat => Vec::new(),
                PhaseKind::Adjustment => adjustments[u.power.index()]
                    .iter()
                    .filter(|o| matches!(o.kind, OrderKind::Disband(me) if me.province == p))
                    .map(|o| describe(vocab, state, o))
                    .collect(),
            }
        };
        units.push(unit_json(u.power, &u, false, orders));
    }
    for (p, d) in state.all_dislodged() {
        let orders: Vec<Json> = if orderable && kind == PhaseKind::Retreat {
            dip_core::legal::legal_orders(map, state, rules, p)
                .iter()
                .map(|o| describe(vocab, state, o))
                .collect()
        } else {
            Vec::new()
        };
        units.push(unit_json(d.unit.power, &d.unit, true, orders));
    }
    let builds = adjustments
        .iter()
        .flatten()
        .filter(|o| matches!(o.kind, OrderKind::Build(_) | OrderKind::Waive))
        .map(|o| describe(vocab, state, o))
        .collect();
    (units, builds)
}

/// The orders entered (or, for a played phase, given), one per line with
/// the reader's verdict; with the results when `outcome` is given.
fn orders(vocab: &Vocabulary, state: &State, submissions: &[Submission], outcome: Option<&PhaseOutcome>) -> Vec<Json> {
    let map = vocab.map();
    let mut out = Vec::new();
    for s in submissions {
        for l in &s.check.lines {
            if l.fate == Fate::Inserted || l.line == 0 {
                continue;
            }
            let power = s.power.or(l.order.map(|o| o.power)).or(l.read.map(|o| o.power));
            let Some(power) = power else { continue };
            let read = l.order.as_ref().or(l.read.as_ref());
            let worst = l.worst();
            let error = match (l.fate, worst) {
                (Fate::Deleted, _) | (Fate::Changed, _) => worst.map(|c| {
                    let message = l
                        .notes
                        .iter()
                        .rev()
                        .find(|n| n.code == c)
                        .map(|n| n.message.clone())
                        .unwrap_or_default();
                    json!({"number": c.number(), "message": message})
                }),
                _ => None,
            };
            let result = outcome.and_then(|oc| {
                let o = l.order?;
                let r = oc.orders().iter().find(|r| r.order == o)?;
                Some(result_word(&r.verdict))
            });
            out.push(json!({
                "power": map.power(power).name,
                "line": l.line,
                "text": l.text,
                "order": read.map(|o| order_text(vocab, state, o)),
                "unit": read.and_then(unit_province).map(|p| place(map, p)),
                "draw": read.map(|o| crate::drawn::order(map, state, o)),
                "error": error,
                "result": result,
            }));
        }
        for (line, text) in &s.refused {
            out.push(json!({
                "power": s.power.map(|p| map.power(p).name.clone()),
                "line": line, "text": text, "order": null, "unit": null,
                "error": {"number": 400, "message": "the line names another nation"},
                "result": null,
            }));
        }
    }
    out
}

/// The province of the unit an order is for.
pub fn unit_province(o: &Order) -> Option<dip_core::ProvinceId> {
    use OrderKind as K;
    match o.kind {
        K::Hold(u)
        | K::Move(u, _, _)
        | K::SupportHold(u, _)
        | K::SupportMove(u, _, _)
        | K::Convoy(u, _, _)
        | K::Retreat(u, _)
        | K::Disband(u) => Some(u.province),
        K::Build(u) => Some(u.province),
        K::Waive => None,
    }
}

fn result_word(v: &Verdict) -> &'static str {
    match v {
        Verdict::Done { success: true, .. } => "succeeds",
        Verdict::Done { success: false, .. } => "fails",
        Verdict::Illegal(_) => "illegal",
        Verdict::Duplicate => "void",
    }
}

/// Why, in words, for the report.
fn reason_words(map: &Map, v: &Verdict, dislodged: bool) -> String {
    let name = |p: dip_core::ProvinceId| {
        let a = &map.province(p).abbr;
        a[..1].to_ascii_uppercase() + &a[1..]
    };
    let mut s = match v {
        Verdict::Illegal(i) => format!("illegal: {}", i.describe()),
        Verdict::Duplicate => "void: another order for the unit".into(),
        Verdict::Done { reason, .. } => match reason {
            Reason::Held | Reason::Moved | Reason::SupportGiven | Reason::ConvoyGiven | Reason::Retreated => {
                String::new()
            }
            Reason::Bounced => "bounced".into(),
            Reason::BeatenHeadToHead => "beaten head to head".into(),
            Reason::NoConvoy => "no convoy".into(),
            Reason::OwnUnit => "own unit in the way".into(),
            Reason::SupportCut(p) => format!("cut from {}", name(*p)),
            Reason::SupportVoid => "the supported order was not given".into(),
            Reason::ConvoyVoid => "no army took the convoy".into(),
            Reason::ConvoyDisrupted => "convoy disrupted".into(),
            Reason::ConvoyParadox => "convoy paradox".into(),
            Reason::Dislodged(p) => format!("dislodged from {}", name(*p)),
            Reason::RetreatClash => "retreat clash: disbanded".into(),
            Reason::Disbanded => "disbanded".into(),
            Reason::Built => "built".into(),
            Reason::Waived => "waived".into(),
            Reason::NotExecuted => "not executed".into(),
        },
    };
    if dislodged && !s.contains("dislodged") {
        if !s.is_empty() {
            s.push_str("; ");
        }
        s.push_str("dislodged");
    }
    s
}

/// The report lines of a played phase, in DIP's form.
pub fn phase_lines(vocab: &Vocabulary, p: &Played) -> Vec<Line> {
    let map = vocab.map();
    // The lines nobody wrote (a hold for a missing order) are marked.
    let inserted: Vec<Order> = p
        .check
        .lines
        .iter()
        .filter(|l| l.fate == Fate::Inserted)
        .filter_map(|l| l.order)
        .collect();
    let automatic: Vec<&Order> = p.automatic.iter().map(|(o, _, _)| o).collect();
    let mut lines: Vec<Line> = p
        .outcome
        .orders()
        .iter()
        .map(|r| {
            let auto = inserted.contains(&r.order) || automatic.contains(&&r.order);
            Line {
                nation: map.power(r.order.power).name.clone(),
                order: order_text(vocab, &p.state, &r.order),
                failed: !r.verdict.succeeded(),
                attacked_from: None,
                code: None,
                note: reason_words(map, &r.verdict, r.dislodged),
                automatic: auto,
            }
        })
        .collect();
    // Units disbanded for want of a retreat (no retreat phase was held).
    if let PhaseOutcome::Movement(m) = &p.outcome {
        for d in &m.dislodged {
            let prov = map.province_of(d.unit.region);
            if m.disbanded.contains(&prov) {
                let o = Order::new(
                    d.unit.power,
                    OrderKind::Disband(dip_core::UnitRef::new(Some(d.unit.kind), prov)),
                );
                lines.push(Line {
                    nation: map.power(d.unit.power).name.clone(),
                    order: order_text(vocab, &p.state, &o),
                    failed: false,
                    attacked_from: None,
                    code: None,
                    note: "no retreat possible: disbanded".into(),
                    automatic: true,
                });
            }
        }
    }
    lines.sort_by(|a, b| a.nation.cmp(&b.nation));
    lines
}

/// The phases of the season the board is in (or has just finished): the
/// played phases at the end of the history that belong to it and lead,
/// without an edit in between, to the position now. Returns the index of
/// the first.
pub fn season_start(board: &Board) -> usize {
    let h = board.game.history();
    let now = board.game.state();
    let Some(last) = h.last() else { return 0 };
    // An edit after the last phase: the season starts at the position now.
    if last.next != *now {
        return h.len();
    }
    let season = if board.finished {
        (last.state.phase.year, last.state.phase.season)
    } else {
        (now.phase.year, now.phase.season)
    };
    let mut i = h.len();
    while i > 0 {
        let p = &h[i - 1];
        if (p.state.phase.year, p.state.phase.season) != season {
            break;
        }
        if i < h.len() && h[i].state != p.next {
            break;
        }
        i -= 1;
    }
    i
}

/// The report of played phases (DIP's text of a season).
pub fn report(board: &Board, phases: &[Played]) -> Report {
    let game = &board.game;
    let vocab = game.loaded().vocabulary();
    let map = game.map();
    let mut r = Report {
        game: board.shown_title(),
        variant: game.variant().title.clone(),
        players: board
            .names
            .iter()
            .filter(|(_, n)| !n.is_empty())
            .map(|(p, n)| (p.clone(), n.clone()))
            .collect(),
        ..Report::default()
    };
    let state_now = phases.last().map(|p| &p.next).unwrap_or(game.state());
    r.season = match phases.first() {
        Some(p) => season_title(&p.state),
        None => season_title(game.state()),
    };
    for p in phases {
        let lines = phase_lines(vocab, p);
        match p.state.phase.kind {
            PhaseKind::Movement => r.orders.extend(lines),
            PhaseKind::Retreat => r.retreats.extend(lines),
            PhaseKind::Adjustment => r.builds.extend(lines),
        }
    }
    r.centers = map
        .power_ids()
        .map(|p| {
            let cs = state_now
                .centers_of(map, p)
                .map(|c| {
                    let a = &map.province(c).abbr;
                    a[..1].to_ascii_uppercase() + &a[1..]
                })
                .collect();
            let units = state_now.units().filter(|(_, u)| u.power == p).count();
            (map.power(p).name.clone(), cs, units)
        })
        .collect();
    r.next = state_now.phase.long().to_string();
    r
}

/// `Spring 1901`, `Autumn 1901` (DIP's seasons).
pub fn season_title(s: &State) -> String {
    let season = match s.phase.season {
        dip_core::Season::Spring => "Spring",
        dip_core::Season::Fall => "Autumn",
    };
    format!("{season} {}", s.phase.year)
}

fn rows(report: &Report) -> Vec<Json> {
    let mut out = Vec::new();
    for (table, lines) in report.tables() {
        let title = if table == "Orders" { "Moves" } else { table };
        for l in lines {
            let result = if l.automatic {
                format!("{} (not ordered)", if l.failed { "fails" } else { "done" })
            } else if l.failed {
                if l.note.is_empty() {
                    "fails".to_string()
                } else {
                    format!("fails: {}", l.note)
                }
            } else if l.note.is_empty() {
                "succeeds".to_string()
            } else {
                format!("succeeds; {}", l.note)
            };
            out.push(
                json!({"table": title, "nation": l.nation, "order": l.order, "result": result, "success": !l.failed}),
            );
        }
    }
    out
}

/// The board at `at` (a played phase) or now.
pub fn view(board: &Board, at: Option<usize>, local_folder: Option<&str>) -> Json {
    let game = &board.game;
    let vocab = game.loaded().vocabulary();
    let map = game.map();
    let history = game.history();
    let at = at.filter(|&i| i < history.len());
    let (state, stage, subs, outcome, report_phases): (&State, Stage, &[Submission], Option<&PhaseOutcome>, &[Played]) =
        match at {
            Some(i) => {
                let p = &history[i];
                (
                    &p.state,
                    Stage::of_kind(p.state.phase.kind),
                    &p.submissions,
                    Some(&p.outcome),
                    &history[i..=i],
                )
            }
            None => (
                game.state(),
                board.stage(),
                game.submissions(),
                None,
                &history[season_start(board)..],
            ),
        };
    // A finished season takes no orders until Next season.
    let orderable = stage != Stage::Finished;
    let (units, builds) = units(board, state, orderable);
    let powers = powers_json(board, state);
    let provinces = provinces_json(map, state);
    let report = report(board, report_phases);
    let report_title = match at {
        Some(i) => format!("{} — results", history[i].state.phase.long()),
        None if report_phases.is_empty() => format!("{} — report", season_title(state)),
        None => format!("{} — report", report.season),
    };
    let season = match state.phase.season {
        dip_core::Season::Spring => "spring",
        dip_core::Season::Fall => "fall",
    };
    json!({
        "id": null,
        "version": board.version,
        "picture": board.picture,
        "title": board.title,
        "shown_title": board.shown_title(),
        "variant": {"name": game.variant().name, "title": game.variant().title},
        "rules": game.rules().to_text(),
        "names": board.names,
        "at": at,
        "phase": state.phase.short(),
        "phase_title": state.phase.long().to_string(),
        "now_phase": game.state().phase.short(),
        "kind": match state.phase.kind { PhaseKind::Movement => "movement", PhaseKind::Retreat => "retreat", PhaseKind::Adjustment => "adjustment" },
        "season": season,
        "year": state.phase.year,
        "stage": stage.name(),
        "powers": powers,
        "unit_types": map.unit_types().iter().map(|t| json!({"letter": t.letter.to_string(), "name": t.name})).collect::<Vec<_>>(),
        "provinces": provinces,
        "units": units,
        "builds": builds,
        "orders": orders(vocab, state, subs, outcome),
        "report_title": report_title,
        "report_rows": rows(&report),
        "report_text": dip_game::plain::dip_export(&report),
        "history": history.iter().map(|p| json!({"phase": p.state.phase.short(), "title": p.state.phase.long().to_string()})).collect::<Vec<_>>(),
        "can_undo": board.can_undo(),
        "file": board.file,
        "file_format": board.format.map(|f| f.name()),
        "suggested_name": super::files::suggested_name(board),
        "folder": local_folder,
        "winner": dip_core::game::winner(map, game.state()).map(|w| map.power(w).name.clone()),
    })
}

/// Each power as the page shows it: names, colour, centres, units and,
/// in an adjustment phase, builds (+) or disbands (−) due.
fn powers_json(board: &Board, state: &State) -> Vec<Json> {
    let game = &board.game;
    let map = game.map();
    let palette = dip_render::colour::Palette::new(game.variant(), dip_render::Mode::Colour);
    map.power_ids()
        .map(|p| {
            let pw = map.power(p);
            json!({
                "name": pw.name, "abbr": pw.abbr, "adjective": pw.adjective,
                "colour": palette.power(p),
                "centres": state.center_count(map, p),
                "units": state.units().filter(|(_, u)| u.power == p).count(),
                "balance": if state.phase.kind == PhaseKind::Adjustment { dip_core::adjustment::balance(map, state, p) } else { 0 },
            })
        })
        .collect()
}

/// Each province as the page shows it: names, sea or land, supply
/// centre and owner, closed by a standoff, its regions.
fn provinces_json(map: &Map, state: &State) -> Vec<Json> {
    map.province_ids()
        .map(|p| {
            let pr = map.province(p);
            let regions: Vec<String> = pr.regions.iter().map(|&r| map.region_name(r)).collect();
            json!({
                "abbr": pr.abbr, "name": pr.name,
                "sea": pr.terrain == dip_core::Terrain::Sea,
                "supply": pr.supply_center,
                "owner": state.owner(p).map(|o| map.power(o).name.clone()),
                "closed": state.standoffs.contains(p.index()),
                "regions": regions,
            })
        })
        .collect()
}
