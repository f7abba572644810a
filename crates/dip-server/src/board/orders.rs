//! Orders entered on the board: typed or clicked lines for any power, in
//! any syntax dip reads (`ENG F(Edi) S A(Lon) - NTH`, `F edi s a lon-nth`,
//! `England: F Edinburgh Supports A London -> North Sea`), DIP's Import
//! (a text file: the lines that look like orders) and Paste (one
//! country's lines; those that cannot be read are handed back to mend).
//! Each power's lines are its submission to the kernel's game, which
//! reads and checks them; a new line for a unit replaces its earlier one.

use super::{Board, BoardError, BoardResult};
use dip_core::{OrderKind, PowerId, ProvinceId, State};
use dip_text::{read_orders, ReadLine, Vocabulary};

/// What entering some lines did.
#[derive(Debug, Default)]
pub struct Entered {
    /// Lines entered.
    pub added: usize,
    /// Lines left out (Import: not orders; Paste: not read whole), as
    /// written.
    pub unread: Vec<String>,
}

/// How the lines came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// Typed or clicked: every line is entered, with the reader's verdict.
    Typed,
    /// DIP's Import: only lines that look like orders.
    Import,
    /// DIP's Paste: lines read whole are entered, the others handed back.
    Paste,
}

/// The unit a line orders (its province), as scanned.
fn unit_of(l: &ReadLine) -> Option<ProvinceId> {
    let k = l.scanned.order.as_ref()?;
    dip_core::Order::new(PowerId(0), *k).unit().map(|u| u.province)
}

/// Whose order a line without a nation is: the owner of its unit (a
/// dislodged one in a retreat), of the centre it builds on, or the
/// power whose home it is.
fn owner_of(vocab: &Vocabulary, state: &State, l: &ReadLine) -> Option<PowerId> {
    let map = vocab.map();
    let k = l.scanned.order.as_ref()?;
    let p = unit_of(l)?;
    match k {
        OrderKind::Build(_) => state.owner(p).or_else(|| map.province(p).homes.iter().next()),
        OrderKind::Retreat(..) | OrderKind::Disband(_) if state.dislodged(p).is_some() => {
            state.dislodged(p).map(|d| d.unit.power)
        }
        _ => state
            .unit(p)
            .map(|u| u.power)
            .or_else(|| state.dislodged(p).map(|d| d.unit.power)),
    }
}

/// The lines `power` has entered.
fn lines_of(board: &Board, power: PowerId) -> Vec<String> {
    board
        .game
        .submissions()
        .iter()
        .find(|s| s.power == Some(power))
        .map(|s| {
            s.text
                .lines()
                .map(str::to_string)
                .filter(|l| !l.trim().is_empty())
                .collect()
        })
        .unwrap_or_default()
}

fn submit(board: &mut Board, power: PowerId, lines: &[String]) {
    if lines.is_empty() {
        board.game.withdraw(power);
    } else {
        board.game.submit(power, &lines.join("\n"));
    }
}

/// Enters `text` (one line or many). `power`: the country of lines that
/// name none (else each line's unit's owner).
pub fn enter(board: &mut Board, text: &str, power: Option<PowerId>, how: How) -> BoardResult<Entered> {
    if board.finished {
        return Err(BoardError::new(
            "the season is finished: Next season first, then enter the next moves",
        ));
    }
    let loaded = board.game.loaded().clone();
    let vocab = loaded.vocabulary();
    let state = board.game.state().clone();
    let mut out = Entered::default();
    // Each line read alone, as written: its nation, else the given one.
    let mut wanted: Vec<(PowerId, String, Option<ProvinceId>, bool)> = Vec::new();
    for raw in text.lines() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if line.len() > 500 {
            return Err(BoardError::new(format!(
                "a line of {} characters is no order (at most 500)",
                line.len()
            )));
        }
        let Some(read) = read_orders(vocab, line, power).into_iter().next() else {
            // A comment, a parameter or END: nothing to enter.
            if how != How::Typed {
                out.unread.push(line.to_string());
            }
            continue;
        };
        let is_order = read.scanned.order.is_some();
        let clean = is_order && read.scanned.notes.iter().all(|n| n.code.is_correction());
        match how {
            How::Import if !is_order => continue,
            How::Paste if !clean => {
                out.unread.push(line.to_string());
                continue;
            }
            _ => {}
        }
        let Some(who) = read.power.or_else(|| owner_of(vocab, &state, &read)) else {
            if how == How::Import {
                continue;
            }
            return Err(BoardError::new(format!(
                "`{line}`: whose order is it? Name the country (`ENG F(Edi) - NTH`) or choose it"
            )));
        };
        let waive = matches!(read.scanned.order, Some(OrderKind::Waive));
        wanted.push((who, line.to_string(), unit_of(&read), waive));
    }
    if wanted.is_empty() {
        if how == How::Typed {
            return Err(BoardError::new("no order to enter"));
        }
        return Ok(out);
    }
    board.remember();
    let mut touched: Vec<PowerId> = Vec::new();
    let mut texts: Vec<(PowerId, Vec<String>)> = Vec::new();
    for (who, line, unit, waive) in wanted {
        let i = match texts.iter().position(|(p, _)| *p == who) {
            Some(i) => i,
            None => {
                texts.push((who, lines_of(board, who)));
                texts.len() - 1
            }
        };
        let lines = &mut texts[i].1;
        // A unit's new order replaces its earlier one.
        if let (Some(u), false) = (unit, waive) {
            lines.retain(|l| {
                read_orders(vocab, l, Some(who))
                    .first()
                    .and_then(unit_of)
                    .is_none_or(|p| p != u)
            });
        }
        lines.push(line);
        out.added += 1;
        if !touched.contains(&who) {
            touched.push(who);
        }
    }
    for (who, lines) in texts {
        submit(board, who, &lines);
    }
    board.ordered();
    Ok(out)
}

/// Deletes `power`'s line `line` (1-based, as the view numbers them).
pub fn delete(board: &mut Board, power: PowerId, line: usize) -> BoardResult<()> {
    if board.finished {
        return Err(BoardError::new("the season is finished: its orders are played"));
    }
    let text = board
        .game
        .submissions()
        .iter()
        .find(|s| s.power == Some(power))
        .map(|s| s.text.clone())
        .unwrap_or_default();
    let all: Vec<&str> = text.lines().collect();
    if line == 0 || line > all.len() {
        return Err(BoardError::new(format!(
            "{} has no order on line {line}",
            board.game.map().power(power).name
        )));
    }
    board.remember();
    let rest: Vec<String> = all
        .iter()
        .enumerate()
        .filter(|(i, l)| *i + 1 != line && !l.trim().is_empty())
        .map(|(_, l)| l.to_string())
        .collect();
    submit(board, power, &rest);
    board.ordered();
    Ok(())
}
