//! A game: the variant, its rules, the position, the orders submitted so
//! far and the phases played. Every way in (a variant's start, a position
//! file, a DipWork game directory, a record, a MILA game, a server's
//! storage) builds one; [`Game::submit`] reads and checks a power's lines,
//! [`Game::process`] plays the phase.

use crate::turn::{retreat_candidates, unit_of, Turn};
use crate::variants::Loaded;
use crate::winter::{play_phase, TurnSoFar};
use dip_core::{Order, PhaseKind, PhaseOutcome, PowerId, ProvinceId, Ruleset, State};
use dip_text::{check_turn, read_orders, CheckOptions, Code, Fate, ReadLine, TurnReport};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

/// How a game plays its phases: the parser's switches and DipWork's
/// suggestions, as options of the one pipeline.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayOptions {
    /// The parser's switches: `NSU_CHECKING_OFF`, orders for another
    /// nation's units.
    pub check: CheckOptions,
    /// DipWork's winterer: a dislodged unit without a usable retreat gets
    /// the right-hand rule's suggestion, reported, or disbands when none
    /// is open. Off, it disbands (no moves received), as on a server where
    /// nobody is there to confirm a suggestion.
    pub suggest_retreats: bool,
    /// One orders text for a whole turn (DipWork's ORDERS.TXT): each phase
    /// reads the lines that are its orders (retreats, builds, movement
    /// orders), and the lines stay for the phases that follow until new
    /// orders are submitted. Off, each phase reads every line submitted
    /// for it, and processing clears them.
    pub carry_lines: bool,
    /// With `carry_lines`: a second order of a unit that is a move is its
    /// retreat when the unit is dislodged without it, not a second
    /// movement order that would make it hold (DipWork's two-phase turn,
    /// unless `THREEPHASE`).
    pub two_phase_retreats: bool,
    /// The orders are adjudicated as read: each one is judged and
    /// reported by the adjudicator (an order that cannot be given is
    /// illegal, with its reason; a convoy path written in a move counts
    /// under `convoy-path=binding`), as the DATC's cases and a game
    /// record's results expect. The parser's check is still made and
    /// reported, but changes no order. Off, the parser's check decides
    /// (DipWork's: what cannot be given is deleted or made a hold).
    pub as_read: bool,
}

/// One power's orders (or a game master's, for any nation), read and
/// checked against the position when submitted.
#[derive(Clone, Debug)]
pub struct Submission {
    /// The power the lines are for; `None`: any nation, each line naming
    /// its own (`France: A par-bur`, `NATION France`).
    pub power: Option<PowerId>,
    /// The text as given.
    pub text: String,
    /// The lines read, numbered from 1 in `text`.
    pub lines: Vec<ReadLine>,
    /// The lines were read elsewhere and given ([`Game::submit_lines`],
    /// [`Game::submit_read`]): `text` alone does not read back to them,
    /// so a stored game keeps them as read.
    pub given: bool,
    /// Lines refused because they name another nation (number, text).
    pub refused: Vec<(usize, String)>,
    /// The lines checked against the position (DipWork's parser, with
    /// DipWork's codes), with the holds the power's units without an
    /// order would get.
    pub check: TurnReport,
}

/// A phase played: the position before, what was submitted, the checked
/// lines, the outcome, the position after.
#[derive(Clone, Debug)]
pub struct Played {
    /// The position the phase was played from.
    pub state: State,
    /// What was submitted for it (empty for a later phase of a DipWork
    /// turn, which reads the turn's lines).
    pub submissions: Vec<Submission>,
    /// A later phase of a turn whose lines were submitted before an
    /// earlier phase (`carry_lines`).
    pub continues_turn: bool,
    /// Every line the phase read, checked (line numbers of the turn's
    /// text; later powers' lines from 1000 × the lines before them).
    pub check: TurnReport,
    pub outcome: PhaseOutcome,
    /// The position after the phase.
    pub next: State,
    /// The winterer's lines: a suggested retreat or a disband for want of
    /// one, for each dislodged unit nobody ordered.
    pub suggested: Vec<String>,
    /// The orders the winterer added, with their code and why.
    pub automatic: Vec<(Order, Code, String)>,
    /// What the turn's reading decided (a second order read as a retreat).
    pub messages: Vec<String>,
    /// The winner after this phase, if the game is over.
    pub winner: Option<PowerId>,
}

/// What [`Game::rewind`] cut off, for [`Game::undo_rewind`].
#[derive(Clone, Debug)]
struct Cut {
    at: usize,
    history: Vec<Played>,
    state: State,
    submissions: Vec<Submission>,
}

/// A game in play. See the crate's documentation.
#[derive(Clone, Debug)]
pub struct Game {
    loaded: Arc<Loaded>,
    rules: Ruleset,
    options: PlayOptions,
    state: State,
    submissions: Vec<Submission>,
    history: Vec<Played>,
    turn: Option<Turn>,
    cut: Option<Cut>,
}

impl Game {
    /// A game at the variant's start, with its rules.
    pub fn new(loaded: Arc<Loaded>) -> Game {
        let state = loaded.variant().start.clone();
        Game::from_state(loaded, state)
    }

    /// A game at `state`, with the variant's rules.
    pub fn from_state(loaded: Arc<Loaded>, state: State) -> Game {
        let rules = loaded.variant().rules;
        Game {
            loaded,
            rules,
            options: PlayOptions::default(),
            state,
            submissions: Vec::new(),
            history: Vec::new(),
            turn: None,
            cut: None,
        }
    }

    /// The same game with other rules (the orders submitted are checked
    /// again under them).
    pub fn with_rules(mut self, rules: Ruleset) -> Game {
        self.rules = rules;
        self.recheck();
        self
    }

    /// The same game with other play options (the orders submitted are
    /// checked again under them).
    pub fn with_options(mut self, options: PlayOptions) -> Game {
        self.options = options;
        self.recheck();
        self
    }

    pub fn loaded(&self) -> &Arc<Loaded> {
        &self.loaded
    }
    pub fn variant(&self) -> &dip_variants::Variant {
        self.loaded.variant()
    }
    pub fn map(&self) -> &dip_core::Map {
        self.loaded.map()
    }
    pub fn rules(&self) -> &Ruleset {
        &self.rules
    }
    pub fn options(&self) -> &PlayOptions {
        &self.options
    }
    /// The position now: the phase to be played next.
    pub fn state(&self) -> &State {
        &self.state
    }
    /// The orders submitted for the phase to be played, in the order given.
    pub fn submissions(&self) -> &[Submission] {
        &self.submissions
    }
    /// The phases played, oldest first.
    pub fn history(&self) -> &[Played] {
        &self.history
    }

    /// Replaces the position (a game master's or a board's edit between
    /// phases: units, owners, the phase). The orders submitted are checked
    /// again against it; a turn in progress ends.
    pub fn set_state(&mut self, state: State) {
        self.state = state;
        self.turn = None;
        self.recheck();
    }

    /// Reads and checks `power`'s order text (any syntax dip reads), in
    /// place of what it submitted before. Lines naming another nation
    /// are refused (see [`Submission::refused`]).
    pub fn submit(&mut self, power: PowerId, text: &str) -> &Submission {
        let (lines, refused) = read_power_lines(self.loaded.vocabulary(), power, text);
        self.put(Some(power), text, lines, refused, false)
    }

    /// Reads and checks a text for any nation (a game master's orders
    /// file: each line names its nation, or a `NATION` header does), in
    /// place of every submission before.
    pub fn submit_any(&mut self, text: &str) -> &Submission {
        let lines = read_orders(self.loaded.vocabulary(), text, None);
        self.submissions.clear();
        self.put(None, text, lines, Vec::new(), false)
    }

    /// Lines read elsewhere (a stage file corrected by hand), for any
    /// nation, in place of every submission before; `text` is what they
    /// were read from.
    pub fn submit_lines(&mut self, text: &str, lines: Vec<ReadLine>) -> &Submission {
        self.submissions.clear();
        self.put(None, text, lines, Vec::new(), true)
    }

    /// Orders read elsewhere (a saved game's, orders a file had), each
    /// with the text it was read from, for any nation in place of every
    /// submission before: numbered from 1, no convoy path written.
    pub fn submit_read<'a>(&mut self, read: impl IntoIterator<Item = (&'a str, Order)>) -> &Submission {
        let mut text = String::new();
        let mut lines = Vec::new();
        for (i, (t, order)) in read.into_iter().enumerate() {
            if i > 0 {
                text.push('\n');
            }
            text.push_str(t);
            lines.push(read_line(i + 1, t, order, Vec::new()));
        }
        self.submit_lines(&text, lines)
    }

    /// Withdraws `power`'s orders.
    pub fn withdraw(&mut self, power: PowerId) {
        self.submissions.retain(|s| s.power != Some(power));
    }

    /// Withdraws every order, and ends a turn in progress.
    pub fn clear_orders(&mut self) {
        self.submissions.clear();
        self.turn = None;
    }

    fn put(
        &mut self,
        power: Option<PowerId>,
        text: &str,
        lines: Vec<ReadLine>,
        refused: Vec<(usize, String)>,
        given: bool,
    ) -> &Submission {
        // New orders begin a new turn.
        self.turn = None;
        let check = self.check_lines(power, &lines);
        let s = Submission {
            power,
            text: text.to_string(),
            lines,
            given,
            refused,
            check,
        };
        match self
            .submissions
            .iter()
            .position(|x| power.is_some() && x.power == power)
        {
            Some(i) => self.submissions[i] = s,
            None => self.submissions.push(s),
        }
        // One submission per power, in power order (any nation's first):
        // the phase reads them in that order whoever sent first.
        self.submissions.sort_by_key(|s| s.power);
        let i = self.submissions.iter().position(|x| x.power == power).unwrap_or(0);
        &self.submissions[i]
    }

    fn check_lines(&self, power: Option<PowerId>, lines: &[ReadLine]) -> TurnReport {
        let mut check = check_turn(
            self.loaded.vocabulary(),
            &self.state,
            &self.rules,
            &self.options.check,
            lines,
        );
        if let Some(p) = power {
            // The holds other powers' units would get are theirs to see.
            check
                .lines
                .retain(|l| l.fate != Fate::Inserted || l.order.is_some_and(|o| o.power == p));
        }
        check
    }

    fn recheck(&mut self) {
        for i in 0..self.submissions.len() {
            let check = self.check_lines(self.submissions[i].power, &self.submissions[i].lines);
            self.submissions[i].check = check;
        }
    }

    /// Every line submitted, numbered for the phase: the first
    /// submission's as written, each later one's from 1000 × the lines
    /// before it.
    fn numbered_lines(&self) -> Vec<ReadLine> {
        number_lines(self.submissions.iter().map(|s| s.lines.as_slice()))
    }

    /// Plays the phase the game is in from the orders submitted (units
    /// without orders hold, dislodged units disband or get the winterer's
    /// suggestion, missing builds are waived, civil disorder removes what
    /// must be removed), moves the game on and returns the played phase.
    pub fn process(&mut self) -> &Played {
        let vocab = self.loaded.vocabulary();
        let map = vocab.map();
        let kind = self.state.phase.kind;
        let opts = self.options;
        let continues_turn = opts.carry_lines && self.turn.is_some();
        let mut turn = match self.turn.take() {
            Some(t) if opts.carry_lines => t,
            _ => Turn {
                lines: self.numbered_lines(),
                first: Some(kind),
                ..Turn::default()
            },
        };
        let mine = if opts.carry_lines {
            turn.lines_for(&self.state, kind)
        } else {
            turn.lines.clone()
        };
        let earlier: Vec<&TurnReport> = turn.checks.iter().collect();
        // One submission for any nation is the phase's lines as they were
        // checked when submitted (a power's hides other powers' holds).
        let checked = match self.submissions.as_slice() {
            [only] if only.power.is_none() && !opts.carry_lines => Some(&only.check),
            _ => None,
        };
        let so_far = TurnSoFar {
            earlier: &earlier,
            lines: &turn.lines,
            checked,
        };
        let play = |lines: &[ReadLine]| play_phase(vocab, &self.rules, &opts, &self.state, lines, &so_far);
        let mut played = play(&mine);
        let first_of_turn = turn.checks.is_empty();
        if opts.carry_lines && opts.two_phase_retreats && first_of_turn && kind == PhaseKind::Movement {
            let (tried, retreat_lines) = two_phase(map, &mine, played, &play);
            played = tried;
            for l in mine.iter().filter(|l| retreat_lines.contains(&l.line)) {
                played.messages.push(format!(
                    "line {}: {} read as the retreat of the dislodged unit (its second order; the first stands for the movement)",
                    l.line, l.text
                ));
            }
            turn.retreat_lines = retreat_lines;
        }
        turn.used.extend(
            mine.iter()
                .map(|l| l.line)
                .filter(|n| !turn.retreat_lines.contains(n) || kind == PhaseKind::Retreat),
        );
        if let PhaseOutcome::Movement(m) = &played.outcome {
            turn.dislodged_after = m
                .dislodged
                .iter()
                .map(|d| map.province_of(d.unit.region))
                .filter(|p| !m.disbanded.contains(p))
                .collect();
        }
        turn.checks.push(played.check.clone());
        played.continues_turn = continues_turn;
        played.submissions = if continues_turn {
            Vec::new()
        } else {
            self.submissions.clone()
        };
        self.state = played.next.clone();
        if opts.carry_lines {
            self.turn = Some(turn);
        } else {
            self.submissions.clear();
        }
        self.history.push(played);
        &self.history[self.history.len() - 1]
    }

    /// Lines with an order that no phase of the turn in progress read
    /// (`carry_lines`): to be reported, never dropped in silence.
    pub fn unused_lines(&self) -> Vec<&ReadLine> {
        self.turn.as_ref().map(Turn::unused).unwrap_or_default()
    }

    /// Steps back to before the played phase `index` (0 is the first): its
    /// position and orders are the game's again; the phases from it on are
    /// kept until the next rewind, so that [`Game::undo_rewind`] restores
    /// them. `false` when there is no such phase.
    pub fn rewind(&mut self, index: usize) -> bool {
        if index >= self.history.len() {
            return false;
        }
        let history = self.history.split_off(index);
        let cut = Cut {
            at: index,
            state: std::mem::replace(&mut self.state, history[0].state.clone()),
            submissions: std::mem::replace(&mut self.submissions, history[0].submissions.clone()),
            history,
        };
        self.turn = None;
        self.recheck();
        self.cut = Some(cut);
        true
    }

    /// Undoes the last [`Game::rewind`], dropping what was played since:
    /// the game is as it was before it. `false` when there is nothing to
    /// undo.
    pub fn undo_rewind(&mut self) -> bool {
        let Some(cut) = self.cut.take() else {
            return false;
        };
        self.history.truncate(cut.at);
        self.history.extend(cut.history);
        self.state = cut.state;
        self.submissions = cut.submissions;
        self.turn = None;
        true
    }

    /// Is a DipWork turn in progress (`carry_lines`: the next phase reads
    /// what is left of the orders submitted before the last phase)?
    pub fn turn_in_progress(&self) -> bool {
        self.turn.is_some()
    }

    /// Can [`Game::undo_rewind`] undo something?
    pub fn can_undo_rewind(&self) -> bool {
        self.cut.is_some()
    }
}

/// The one pipeline for a phase whose lines are all its own (a server's
/// phase, a case, a board): `lines` checked against `state` (DipWork's
/// parser), adjudicated, advanced. [`Game::process`] runs it; a caller
/// that keeps its own vocabulary may run it directly.
pub fn play_lines(
    vocab: &dip_text::Vocabulary,
    rules: &Ruleset,
    options: &PlayOptions,
    state: &State,
    lines: &[ReadLine],
) -> Played {
    let turn = TurnSoFar {
        earlier: &[],
        lines,
        checked: None,
    };
    play_phase(vocab, rules, options, state, lines, &turn)
}

/// Lines of several submissions as one phase reads them: the first's
/// numbers as written, each later one's from 1000 × the lines before it
/// (unique, for the report's lookups).
pub fn number_lines<'a>(parts: impl IntoIterator<Item = &'a [ReadLine]>) -> Vec<ReadLine> {
    let mut lines: Vec<ReadLine> = Vec::new();
    for part in parts {
        let base = lines.len() * 1000;
        lines.extend(part.iter().cloned().map(|mut l| {
            l.line += base;
            l
        }));
    }
    lines
}

/// A line whose order was read elsewhere (a saved game's order with its
/// own conventions, a test case's line read in the position), as
/// [`Game::submit_lines`] takes it: its number, its text, the order and
/// the convoy path it wrote (the provinces between origin and
/// destination; empty: none).
pub fn read_line(line: usize, text: &str, order: Order, path: Vec<ProvinceId>) -> ReadLine {
    ReadLine {
        line,
        text: text.to_string(),
        power: Some(order.power),
        scanned: dip_text::Scanned {
            power: Some(order.power),
            order: Some(order.kind),
            notes: Vec::new(),
            press: false,
            column: 1,
            path,
        },
    }
}

/// One power's lines, read for that power: a line that names another
/// nation (`France: A par-bur`, or under `NATION France`) is refused.
/// Returns the lines to check and the refused ones (line number, text).
pub fn read_power_lines(
    vocab: &dip_text::Vocabulary,
    power: PowerId,
    text: &str,
) -> (Vec<ReadLine>, Vec<(usize, String)>) {
    let mut keep = Vec::new();
    let mut refused = Vec::new();
    for mut l in read_orders(vocab, text, Some(power)) {
        if l.power.is_some_and(|p| p != power) {
            refused.push((l.line, l.text));
            continue;
        }
        l.power = Some(power);
        keep.push(l);
    }
    (keep, refused)
}

/// A two-phase turn takes the retreats from the same text: a second order
/// for a unit that is a move (`A Gal S A Bud`, `A Gal-War`) is its retreat
/// when the unit is dislodged without it. Tries without the candidates
/// until the ones left out are exactly those of dislodged units.
fn two_phase(
    map: &dip_core::Map,
    mine: &[ReadLine],
    mut played: Played,
    play: &dyn Fn(&[ReadLine]) -> Played,
) -> (Played, BTreeSet<usize>) {
    let mut tried_lines = retreat_candidates(mine);
    let unit_of_line: HashMap<usize, ProvinceId> = mine
        .iter()
        .filter_map(|l| Some((l.line, l.scanned.order.as_ref().and_then(unit_of)?.province)))
        .collect();
    while !tried_lines.is_empty() {
        let without: Vec<ReadLine> = mine
            .iter()
            .filter(|l| !tried_lines.contains(&l.line))
            .cloned()
            .collect();
        let tried = play(&without);
        let dislodged: HashSet<ProvinceId> = match &tried.outcome {
            PhaseOutcome::Movement(m) => m.dislodged.iter().map(|d| map.province_of(d.unit.region)).collect(),
            _ => HashSet::new(),
        };
        let keep: BTreeSet<usize> = tried_lines
            .iter()
            .copied()
            .filter(|n| unit_of_line.get(n).is_some_and(|p| dislodged.contains(p)))
            .collect();
        if keep.len() == tried_lines.len() {
            played = tried;
            break;
        }
        tried_lines = keep;
    }
    (played, tried_lines)
}
