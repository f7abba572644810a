//! DIP's editing (its Game menu's Edit units, Edit provinces, Edit
//! season, Edit title, Edit names, and File's New and Blank): each edit
//! makes a new position for the kernel's game, the history kept; Undo
//! takes it back.

use super::{Board, BoardError, BoardResult, Boards, Stage};
use dip_core::{Dislodged, Map, Phase, PhaseKind, ProvinceId, RegionId, Season, State, Unit, UnitTypeId};
use dip_play::Game;
use serde::Deserialize;
use std::collections::BTreeMap;

/// One edit, as the page sends it.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Edit {
    /// Add a unit or change one (power, type, coast, dislodged or not).
    Unit {
        province: String,
        power: String,
        #[serde(rename = "type")]
        kind: String,
        #[serde(default)]
        region: Option<String>,
        #[serde(default)]
        dislodged: bool,
        /// The unit changed is the dislodged one of the province.
        #[serde(default)]
        was_dislodged: bool,
    },
    /// Remove the unit (or the dislodged unit) of a province.
    Remove {
        province: String,
        #[serde(default)]
        dislodged: bool,
    },
    /// A unit dragged to another province or coast: `x`, `y` where it was
    /// dropped on the map (the nearest coast it may stand on is taken).
    Move {
        from: String,
        to: String,
        #[serde(default)]
        x: Option<f32>,
        #[serde(default)]
        y: Option<f32>,
        #[serde(default)]
        dislodged: bool,
    },
    /// A province's owner (its supply centre) and whether it is open for
    /// retreats.
    Province {
        province: String,
        /// Absent: unchanged; `null`: nobody.
        #[serde(default, deserialize_with = "some_option")]
        owner: Option<Option<String>>,
        #[serde(default)]
        open: Option<bool>,
    },
    /// The season, year and stage.
    Season {
        season: String,
        year: i64,
        stage: String,
    },
    Title {
        title: String,
    },
    /// The players' names by power; empty removes one.
    Names {
        names: BTreeMap<String, String>,
    },
    /// File ▸ New: the variant's start.
    New {
        #[serde(default)]
        variant: Option<String>,
    },
    /// File ▸ Blank: no units on the map.
    Blank,
}

fn some_option<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Ok(Some(Option::deserialize(d)?))
}

fn province(board: &Board, name: &str) -> BoardResult<ProvinceId> {
    let map = board.game.map();
    map.find_province(name.trim())
        .or_else(|| {
            map.province_ids()
                .find(|&p| map.province(p).abbr.eq_ignore_ascii_case(name.trim()))
        })
        .ok_or_else(|| BoardError::new(format!("no province `{name}` on this map")))
}

fn text_ok(what: &str, s: &str, max: usize) -> BoardResult<()> {
    if s.chars().count() > max {
        return Err(BoardError::new(format!("the {what} is longer than {max} characters")));
    }
    if s.chars().any(|c| c.is_control()) {
        return Err(BoardError::new(format!("the {what} holds a control character")));
    }
    Ok(())
}

/// Applies an edit. Nothing changes when it is refused.
pub fn apply(boards: &Boards, board: &mut Board, edit: Edit) -> BoardResult<()> {
    match edit {
        Edit::Unit {
            province,
            power,
            kind,
            region,
            dislodged,
            was_dislodged,
        } => edit_unit(
            board,
            &province,
            &power,
            &kind,
            region.as_deref(),
            (dislodged, was_dislodged),
        ),
        Edit::Remove { province, dislodged } => remove_unit(board, &province, dislodged),
        Edit::Move {
            from,
            to,
            x,
            y,
            dislodged,
        } => move_unit(boards, board, (&from, &to), x.zip(y), dislodged),
        Edit::Province { province, owner, open } => edit_province(board, &province, owner, open),
        Edit::Season { season, year, stage } => set_season(board, &season, year, &stage),
        Edit::Title { title } => set_title(board, title),
        Edit::Names { names } => set_names(board, names),
        Edit::New { variant } => new_game(boards, board, variant.as_deref()),
        Edit::Blank => blank(board),
    }
}

/// The edited position becomes the board's, the one before kept for Undo.
fn replace_position(board: &mut Board, state: State) -> BoardResult<()> {
    board.remember();
    board.set_state(state);
    Ok(())
}

/// Edit units: a unit added or changed; `dislodged` says whether it is
/// to be dislodged and whether it was.
fn edit_unit(
    board: &mut Board,
    p: &str,
    power: &str,
    kind: &str,
    region: Option<&str>,
    (dislodged, was_dislodged): (bool, bool),
) -> BoardResult<()> {
    let map = board.game.map();
    let state = board.game.state().clone();
    let p = province(board, p)?;
    let power = board.power(power)?;
    let ut = map
        .find_unit_type(kind)
        .ok_or_else(|| BoardError::new(format!("no unit type `{kind}` in this variant")))?;
    let region = standing_region(map, p, ut, region)?;
    apply_unit(
        board,
        state,
        p,
        Unit {
            power,
            kind: ut,
            region,
        },
        dislodged,
        was_dislodged,
    )
}

/// Where a unit of type `ut` stands in province `p`: the region (or
/// coast) named, else the first it may stand in.
fn standing_region(map: &Map, p: ProvinceId, ut: UnitTypeId, region: Option<&str>) -> BoardResult<RegionId> {
    let region =
        match region.filter(|r| !r.is_empty()) {
            Some(r) => {
                let found =
                    map.province(p).regions.iter().copied().find(|&x| {
                        map.region_name(x).eq_ignore_ascii_case(r) || map.region(x).coast.as_deref() == Some(r)
                    });
                found.ok_or_else(|| BoardError::new(format!("`{r}` is not in {}", map.province(p).name)))?
            }
            None => map.regions_for(p, ut).next().ok_or_else(|| {
                BoardError::new(format!(
                    "{} cannot stand in {}",
                    map.unit_type(ut).name,
                    map.province(p).name
                ))
            })?,
        };
    if !map.allows(region, ut) {
        // A fleet on a split coast's land, an army at sea: the
        // unit's own region in the province, if there is one.
        let alt = map.regions_for(p, ut).next();
        return match alt {
            Some(r) if region == map.main_region(p) => Ok(r),
            _ => Err(BoardError::new(format!(
                "{} cannot stand in {}",
                map.unit_type(ut).name,
                map.region_name(region)
            ))),
        };
    }
    Ok(region)
}

/// Edit units: the unit (or the dislodged unit) of a province removed.
fn remove_unit(board: &mut Board, p: &str, dislodged: bool) -> BoardResult<()> {
    let map = board.game.map();
    let mut state = board.game.state().clone();
    let p = province(board, p)?;
    let gone = if dislodged {
        state.take_dislodged(p).map(|_| ())
    } else {
        state.remove(p).map(|_| ())
    };
    if gone.is_none() {
        return Err(BoardError::new(format!(
            "no unit to remove in {}",
            map.province(p).name
        )));
    }
    replace_position(board, state)
}

/// A unit dragged from one province to another (or to another coast of
/// its own), dropped at `at` on the map.
fn move_unit(
    boards: &Boards,
    board: &mut Board,
    (from, to): (&str, &str),
    at: Option<(f32, f32)>,
    dislodged: bool,
) -> BoardResult<()> {
    let map = board.game.map();
    let mut state = board.game.state().clone();
    let from = province(board, from)?;
    let to = province(board, to)?;
    let unit = if dislodged {
        state.dislodged(from).map(|d| d.unit)
    } else {
        state.unit(from)
    }
    .ok_or_else(|| BoardError::new(format!("no unit in {}", map.province(from).name)))?;
    let at = at.filter(|(x, y)| x.is_finite() && y.is_finite());
    let region =
        super::render::nearest_region(&boards.pictures, board.game.loaded(), to, unit.kind, at).ok_or_else(|| {
            BoardError::new(format!(
                "{} cannot stand in {}",
                map.unit_type(unit.kind).name,
                map.province(to).name
            ))
        })?;
    if from == to && region == unit.region {
        return Ok(());
    }
    if from != to && state.unit(to).is_some() && !dislodged {
        return Err(BoardError::new(format!(
            "{} has a unit already: remove it first",
            map.province(to).name
        )));
    }
    let moved = Unit { region, ..unit };
    if dislodged {
        if state.dislodged(to).is_some() && from != to {
            return Err(BoardError::new(format!(
                "{} has a dislodged unit already",
                map.province(to).name
            )));
        }
        let d = state
            .take_dislodged(from)
            .ok_or_else(|| BoardError::new(format!("no dislodged unit in {}", map.province(from).name)))?;
        state.set_dislodged(map, Dislodged { unit: moved, ..d });
    } else {
        state.remove(from);
        state.place(map, moved);
    }
    replace_position(board, state)
}

/// Edit provinces: a supply centre's owner (`Some(None)`: nobody), and
/// whether the province is open for retreats.
fn edit_province(board: &mut Board, p: &str, owner: Option<Option<String>>, open: Option<bool>) -> BoardResult<()> {
    let map = board.game.map();
    let mut state = board.game.state().clone();
    let p = province(board, p)?;
    if let Some(owner) = owner {
        if !map.province(p).supply_center {
            return Err(BoardError::new(format!("{} is no supply centre", map.province(p).name)));
        }
        let o = match owner.as_deref().map(str::trim).filter(|o| !o.is_empty()) {
            Some(o) => Some(board.power(o)?),
            None => None,
        };
        state.set_owner(p, o);
    }
    if let Some(open) = open {
        if open {
            state.standoffs.remove(p.index());
        } else {
            state.standoffs.insert(p.index());
        }
    }
    replace_position(board, state)
}

/// Edit season: the season, year and stage of the position. Season, year
/// and stage name a phase (`autumn 1905 retreat`), read by dip's one
/// reader of phase names; the form's letters (`s`, `f`, `a` for autumn)
/// become words first, and "season finished" reads as the season's moves.
fn set_season(board: &mut Board, season: &str, year: i64, stage: &str) -> BoardResult<()> {
    let mut state = board.game.state().clone();
    let season = match season.trim().to_ascii_lowercase().as_str() {
        "spring" | "s" => "spring",
        "fall" | "autumn" | "f" | "a" => "fall",
        s => return Err(BoardError::new(format!("season `{s}`: spring or autumn"))),
    };
    let stage = Stage::parse(stage).ok_or_else(|| {
        BoardError::new(format!(
            "stage `{stage}`: before moves, before retreats, before adjustments or season finished"
        ))
    })?;
    let kind = match stage {
        Stage::Moves | Stage::Finished => "movement",
        Stage::Retreats => "retreat",
        Stage::Adjustments => "adjustment",
    };
    let read: Phase = format!("{season} {year} {kind}")
        .parse()
        .map_err(|e| BoardError::new(format!("{season} {year}, {kind}: {e}")))?;
    let (season, year, kind) = (read.season, read.year, read.kind);
    // "Season finished": the position at the end of the season,
    // which is the start of the next.
    let phase = if stage == Stage::Finished {
        match season {
            Season::Spring => Phase::new(year, Season::Fall, kind),
            Season::Fall => Phase::new(year.saturating_add(1).min(dip_core::MAX_YEAR), Season::Spring, kind),
        }
    } else {
        Phase::new(year, season, kind)
    };
    board.remember();
    state.phase = phase;
    board.set_state(state);
    board.finished = stage == Stage::Finished;
    Ok(())
}

/// Edit title.
fn set_title(board: &mut Board, title: String) -> BoardResult<()> {
    text_ok("title", &title, 200)?;
    board.remember();
    board.title = title.trim().to_string();
    board.changed();
    Ok(())
}

/// Edit names: the players' names by power; an empty one removes it.
fn set_names(board: &mut Board, names: BTreeMap<String, String>) -> BoardResult<()> {
    let map = board.game.map();
    let mut keep = BTreeMap::new();
    for (power, name) in names {
        text_ok("name", &name, 100)?;
        let p = board.power(&power)?;
        let name = name.trim().to_string();
        if !name.is_empty() {
            keep.insert(map.power(p).name.clone(), name);
        }
    }
    board.remember();
    board.names = keep;
    board.changed();
    Ok(())
}

/// File ▸ New: the start of the variant named, or of the board's own.
fn new_game(boards: &Boards, board: &mut Board, variant: Option<&str>) -> BoardResult<()> {
    let loaded = match variant.filter(|v| !v.trim().is_empty()) {
        Some(v) => boards.variant(v)?,
        None => board.game.loaded().clone(),
    };
    board.remember();
    board.game = Game::new(loaded);
    board.title.clear();
    board.names.clear();
    board.finished = false;
    board.file = None;
    board.format = None;
    board.changed();
    Ok(())
}

/// File ▸ Blank: no units on the map, in the spring of the variant's
/// first year, the rules kept.
fn blank(board: &mut Board) -> BoardResult<()> {
    let map = board.game.map();
    let start = board.game.variant().start.phase;
    let blank = State::empty(map, Phase::new(start.year, Season::Spring, PhaseKind::Movement));
    let loaded = board.game.loaded().clone();
    let rules = *board.game.rules();
    board.remember();
    board.game = Game::from_state(loaded, blank).with_rules(rules);
    board.finished = false;
    board.file = None;
    board.format = None;
    board.changed();
    Ok(())
}

fn apply_unit(
    board: &mut Board,
    mut state: State,
    p: ProvinceId,
    unit: Unit,
    dislodged: bool,
    was_dislodged: bool,
) -> BoardResult<()> {
    let map = board.game.map();
    if was_dislodged && !dislodged && state.unit(p).is_some() {
        return Err(BoardError::new(format!(
            "{} has a unit already: the dislodged unit cannot stand there too",
            map.province(p).name
        )));
    }
    if was_dislodged {
        state.take_dislodged(p);
    } else if dislodged {
        state.remove(p);
    }
    if dislodged {
        // A unit made dislodged by hand: attacked from its own province,
        // so that no neighbour is closed to its retreat.
        let from = state.dislodged(p).map(|d| d.attacker_from).unwrap_or(p);
        state.set_dislodged(
            map,
            Dislodged {
                unit,
                attacker_from: from,
                by_convoy: false,
            },
        );
    } else {
        state.place(map, unit);
    }
    replace_position(board, state)
}
