//! The game engine: a position, the actions of a turn and their events.
//!
//! [`Game::apply`] takes one action and either changes the game and returns
//! what happened, or refuses it and changes nothing. Every die thrown is
//! appended to the game's log; [`Game::replay`] plays the same actions
//! against the logged dice and gets the same game. The whole game is
//! serde-serialisable, so a server stores it after every action; the
//! position at the start of the current turn is kept for
//! [`Action::TimeOut`], which rolls an unfinished turn back.

use crate::days::Days;
use crate::map::{self, COUNTRIES};
use crate::rng::Rng;
use crate::rules::{self, Commendation, Hand, Set, MUST_TURN_IN};
use serde::{Deserialize, Serialize};

/// The options of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// Three teams: seats 1–2, 3–4 and 5–6.
    pub teams: bool,
    /// Others see "Player N" instead of a name.
    pub hidden_names: bool,
    /// Any number of fortifications per turn instead of one.
    pub unlimited_fortifications: bool,
}

/// A seat at the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The seat number 1–6 (the DAT file's player number).
    pub number: u8,
    pub name: String,
    pub hand: Hand,
    pub alive: bool,
}

/// Where the current turn is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Placing armies; `resume_attack` after a turn-in forced by taking an
    /// eliminated player's commendations.
    Deploy {
        armies: u32,
        resume_attack: bool,
    },
    Attack,
    /// A country was conquered: move `min..=max` armies in.
    Occupy {
        from: u8,
        to: u8,
        min: u32,
        max: u32,
    },
    Fortify,
    Over,
}

/// Everything but the dice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    pub options: Options,
    pub players: Vec<Player>,
    /// Owner (seat number) per country, index = country − 1.
    pub owner: Vec<u8>,
    /// Armies per country, index = country − 1.
    pub armies: Vec<u32>,
    /// Sets turned in so far (the DAT file's Cmd_Sets).
    pub sets_turned_in: u32,
    /// The seat whose turn it is.
    pub current: u8,
    pub phase: Phase,
    /// A country was conquered this turn (a commendation at its end).
    pub conquered: bool,
    /// Fortifications made this turn.
    pub fortifications: u32,
    /// Turns begun, counting from 1.
    pub turn: u32,
    /// The winning seats once the game is over.
    pub winners: Vec<u8>,
}

/// What a player does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    TurnIn {
        set: Set,
    },
    Deploy {
        country: u8,
        armies: u32,
    },
    Attack {
        from: u8,
        to: u8,
        dice: u8,
    },
    MoveIn {
        armies: u32,
    },
    /// Stop attacking and go on to fortify.
    EndAttack,
    Fortify {
        from: u8,
        to: u8,
        armies: u32,
    },
    /// End the turn (from attacking or fortifying).
    EndTurn,
    /// The turn's time ran out: back to the turn's start, and the next
    /// player's turn.
    TimeOut,
    /// The turn is skipped (by the game master, or because its player
    /// dropped and the next player called in first): back to the turn's
    /// start, and the next player's turn.
    Skip,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    TurnBegan {
        player: u8,
        armies: u32,
    },
    TurnedIn {
        player: u8,
        set: Set,
        armies: u32,
    },
    Deployed {
        country: u8,
        armies: u32,
    },
    Battle {
        from: u8,
        to: u8,
        attack: Vec<u8>,
        defence: Vec<u8>,
        attacker_lost: u32,
        defender_lost: u32,
    },
    Conquered {
        country: u8,
        from: u8,
        by: u8,
    },
    MovedIn {
        from: u8,
        to: u8,
        armies: u32,
    },
    Eliminated {
        player: u8,
        by: u8,
        commendations: Hand,
    },
    Fortified {
        from: u8,
        to: u8,
        armies: u32,
    },
    Commendation {
        player: u8,
        kind: Commendation,
    },
    TimedOut {
        player: u8,
    },
    Skipped {
        player: u8,
    },
    Won {
        players: Vec<u8>,
    },
}

/// Why an action was refused (the game is unchanged).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("the game is over")]
    GameOver,
    #[error("not now: the turn is at {0}")]
    WrongPhase(&'static str),
    #[error("there is no country {0}")]
    NoCountry(u8),
    #[error("{0} is not yours")]
    NotYours(&'static str),
    #[error("{0} is yours or your team's")]
    Friendly(&'static str),
    #[error("{0} and {1} do not border each other")]
    NotAdjacent(&'static str, &'static str),
    #[error("{0} has too few armies")]
    TooFewArmies(&'static str),
    #[error("between {min} and {max} armies")]
    ArmiesOutOfRange { min: u32, max: u32 },
    #[error("attack with 1, 2 or 3 dice")]
    BadDice,
    #[error("you do not hold that set")]
    NoSuchSet,
    #[error("you hold {0} commendations: turn in a set first")]
    MustTurnIn(u32),
    #[error("sets are turned in before deploying")]
    TurnInNow,
    #[error("one fortification per turn")]
    AlreadyFortified,
    #[error("the logged dice ran out")]
    DiceExhausted,
}

/// A problem setting up a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("{0} players: a game has 3 to 6")]
    PlayerCount(usize),
    #[error("seat {0}: seats are 1 to 6, each once")]
    Seat(u8),
    #[error("a team game needs a player in each of the three teams")]
    Teams,
    #[error("{0}")]
    Position(String),
}

/// Where the dice come from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Dice {
    Seeded(Rng),
    /// Replaying a log.
    Scripted {
        rolls: Vec<u8>,
        next: usize,
    },
}

/// A game: the position, the position at the start of the turn, the dice,
/// the log of every die thrown, and when its event happened and each
/// player last moved (the files' Event_Day and Player_Moved).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    pub pos: Position,
    pub turn_start: Position,
    pub dice: Dice,
    pub log: Vec<u8>,
    /// Kept by [`Game::began_at`] and [`Game::apply_at`] (or read from a
    /// file); [`Game::apply`] alone leaves them.
    #[serde(default)]
    pub days: Days,
}

fn cname(c: u8) -> &'static str {
    map::name(c).unwrap_or("?")
}

impl Position {
    fn idx(&self, seat: u8) -> Option<usize> {
        self.players.iter().position(|p| p.number == seat)
    }

    pub fn player(&self, seat: u8) -> Option<&Player> {
        self.players.iter().find(|p| p.number == seat)
    }

    /// A seat's name as `viewer` sees it: with hidden names, everyone but
    /// the viewer is "Player N" (`None` is the game master, who sees all).
    pub fn display_name(&self, seat: u8, viewer: Option<u8>) -> String {
        match self.player(seat) {
            Some(p) if !self.options.hidden_names || viewer.is_none() || viewer == Some(seat) => p.name.clone(),
            _ => format!("Player {seat}"),
        }
    }

    /// The team of a seat in a team game (1–3), else the seat itself.
    pub fn side(&self, seat: u8) -> u8 {
        if self.options.teams {
            seat.div_ceil(2)
        } else {
            seat
        }
    }

    /// The countries a seat holds, as bits.
    pub fn held(&self, seat: u8) -> u64 {
        self.owner
            .iter()
            .enumerate()
            .filter(|(_, &o)| o == seat)
            .fold(0, |b, (i, _)| b | 1 << i)
    }

    pub fn count(&self, seat: u8) -> usize {
        self.owner.iter().filter(|&&o| o == seat).count()
    }

    /// The armies a seat gets at the start of a turn (without sets).
    pub fn reinforcements(&self, seat: u8) -> u32 {
        rules::country_armies(self.count(seat)) + rules::continent_armies(self.held(seat))
    }

    /// The seats (or team) holding the whole world, if any.
    pub fn world_holders(&self) -> Option<Vec<u8>> {
        let first = *self.owner.first()?;
        let side = self.side(first);
        if !self.owner.iter().all(|&o| self.side(o) == side) {
            return None;
        }
        Some(
            self.players
                .iter()
                .filter(|p| self.side(p.number) == side)
                .map(|p| p.number)
                .collect(),
        )
    }

    fn check_country(c: u8) -> Result<usize, RuleError> {
        if (1..=COUNTRIES as u8).contains(&c) {
            Ok(c as usize - 1)
        } else {
            Err(RuleError::NoCountry(c))
        }
    }

    fn phase_name(&self) -> &'static str {
        match self.phase {
            Phase::Deploy { .. } => "deploying",
            Phase::Attack => "attacking",
            Phase::Occupy { .. } => "moving in after a conquest",
            Phase::Fortify => "fortifying",
            Phase::Over => "the end of the game",
        }
    }

    /// The position is a turn just begun, as a DAT file gives it: all of
    /// the turn's reinforcements still to deploy.
    pub fn at_turn_start(&self) -> bool {
        matches!(self.phase, Phase::Deploy { armies, .. } if armies == self.reinforcements(self.current))
            && !self.conquered
            && self.fortifications == 0
    }

    /// Checks that the position is one a game can be in.
    pub fn validate(&self) -> Result<(), String> {
        if !(3..=6).contains(&self.players.len()) {
            return Err(format!("{} players: a game has 3 to 6", self.players.len()));
        }
        if self.owner.len() != COUNTRIES || self.armies.len() != COUNTRIES {
            return Err("the position must have 42 countries".into());
        }
        for (i, p) in self.players.iter().enumerate() {
            if !(1..=6).contains(&p.number) || self.players[..i].iter().any(|q| q.number == p.number) {
                return Err(format!("seat {}: seats are 1 to 6, each once", p.number));
            }
        }
        for c in 0..COUNTRIES {
            if self.idx(self.owner[c]).is_none() {
                return Err(format!(
                    "{} is held by seat {}, who is not playing",
                    cname(c as u8 + 1),
                    self.owner[c]
                ));
            }
            if self.armies[c] == 0 {
                return Err(format!("{} has no armies", cname(c as u8 + 1)));
            }
        }
        if self.idx(self.current).is_none() {
            return Err(format!("seat {} is to move but not playing", self.current));
        }
        Ok(())
    }
}

impl Game {
    /// A new game: the countries dealt at random in turn to the seats, one
    /// army on each, the rest of the starting armies placed at random on
    /// the seat's own countries; seat order is turn order, the first seat
    /// begins.
    pub fn new(options: Options, seats: Vec<(u8, String)>, seed: u64) -> Result<Game, SetupError> {
        let n = seats.len();
        let start = rules::starting_armies(n).ok_or(SetupError::PlayerCount(n))?;
        let mut seats = seats;
        seats.sort_by_key(|s| s.0);
        for (i, s) in seats.iter().enumerate() {
            if !(1..=6).contains(&s.0) || (i > 0 && seats[i - 1].0 == s.0) {
                return Err(SetupError::Seat(s.0));
            }
        }
        if options.teams && (1..=3).any(|t| !seats.iter().any(|s| s.0.div_ceil(2) == t)) {
            return Err(SetupError::Teams);
        }
        let mut rng = Rng::with_seed(seed);
        let mut order: Vec<u8> = (1..=COUNTRIES as u8).collect();
        for i in (1..order.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            order.swap(i, j);
        }
        let mut owner = vec![0u8; COUNTRIES];
        let mut armies = vec![1u32; COUNTRIES];
        for (k, &c) in order.iter().enumerate() {
            owner[c as usize - 1] = seats[k % n].0;
        }
        for s in &seats {
            let mine: Vec<usize> = (0..COUNTRIES).filter(|&c| owner[c] == s.0).collect();
            for _ in 0..start.saturating_sub(mine.len() as u32) {
                let c = mine[rng.below(mine.len() as u64) as usize];
                armies[c] += 1;
            }
        }
        let players: Vec<Player> = seats
            .into_iter()
            .map(|(number, name)| Player {
                number,
                name,
                hand: Hand::default(),
                alive: true,
            })
            .collect();
        let mut pos = Position {
            options,
            current: players[0].number,
            players,
            owner,
            armies,
            sets_turned_in: 0,
            phase: Phase::Over,
            conquered: false,
            fortifications: 0,
            turn: 0,
            winners: Vec::new(),
        };
        let seat = pos.current;
        begin_turn(&mut pos, seat, &mut Vec::new());
        Ok(Game {
            turn_start: pos.clone(),
            pos,
            dice: Dice::Seeded(rng),
            log: Vec::new(),
            days: Days::default(),
        })
    }

    /// A game from a position (an imported file): the turn of `pos.current`
    /// is begun unless the position is already inside a turn.
    pub fn from_position(pos: Position, seed: u64) -> Result<Game, SetupError> {
        pos.validate().map_err(SetupError::Position)?;
        let mut pos = pos;
        if pos.phase == Phase::Over && pos.winners.is_empty() {
            let seat = pos.current;
            begin_turn(&mut pos, seat, &mut Vec::new());
        }
        let mut g = Game {
            turn_start: pos.clone(),
            pos,
            dice: Dice::Seeded(Rng::with_seed(seed)),
            log: Vec::new(),
            days: Days::default(),
        };
        g.settle_deploy();
        Ok(g)
    }

    /// Plays `actions` from `initial` with the dice of `log`.
    pub fn replay(initial: &Game, log: &[u8], actions: &[Action]) -> Result<Game, (usize, RuleError)> {
        let mut g = initial.clone();
        g.dice = Dice::Scripted {
            rolls: log.to_vec(),
            next: 0,
        };
        g.log.clear();
        for (i, &a) in actions.iter().enumerate() {
            g.apply(a).map_err(|e| (i, e))?;
        }
        Ok(g)
    }

    /// The game began at `day` (a day number): its Game_Event ("in
    /// progress") happened then, and, nobody having moved yet, it counts
    /// as every player's last move (so the lowest seat, who begins, is the
    /// one who moved longest ago on the tie).
    pub fn began_at(&mut self, day: f64) {
        self.days.event = Some(crate::days::ticks(day));
        for p in &self.pos.players {
            self.days.moved(p.number, day);
        }
    }

    /// [`Game::apply`] at `day`: the player whose turn it was moved then
    /// (a turn timed out or skipped is that player's turn, passed), and a
    /// game it ends was completed then.
    pub fn apply_at(&mut self, action: Action, day: f64) -> Result<Vec<Event>, RuleError> {
        let me = self.pos.current;
        let events = self.apply(action)?;
        self.days.moved(me, day);
        if self.is_over() {
            self.days.event = Some(crate::days::ticks(day));
        }
        Ok(events)
    }

    pub fn is_over(&self) -> bool {
        self.pos.phase == Phase::Over
    }

    /// Something was done in the current turn (or the game was resumed
    /// from a REC file in the middle of one): only a REC file holds it.
    pub fn turn_in_progress(&self) -> bool {
        !self.is_over() && (self.pos != self.turn_start || !self.pos.at_turn_start())
    }

    fn roll(&mut self, n: usize) -> Result<Vec<u8>, RuleError> {
        let v: Vec<u8> = match &mut self.dice {
            Dice::Seeded(r) => (0..n).map(|_| r.die()).collect(),
            Dice::Scripted { rolls, next } => {
                let end = *next + n;
                let v = rolls.get(*next..end).ok_or(RuleError::DiceExhausted)?.to_vec();
                if v.iter().any(|d| !(1..=6).contains(d)) {
                    return Err(RuleError::DiceExhausted);
                }
                *next = end;
                v
            }
        };
        self.log.extend_from_slice(&v);
        Ok(v)
    }

    /// Plays one action for the player whose turn it is.
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, RuleError> {
        let mut ev = Vec::new();
        let phase = self.pos.phase.clone();
        if phase == Phase::Over {
            return Err(RuleError::GameOver);
        }
        match action {
            Action::TurnIn { set } => self.turn_in(phase, set, &mut ev)?,
            Action::Deploy { country, armies } => self.deploy(phase, country, armies, &mut ev)?,
            Action::Attack { from, to, dice } => self.attack(phase, (from, to), dice, &mut ev)?,
            Action::MoveIn { armies } => self.move_in(phase, armies, &mut ev)?,
            Action::EndAttack => self.end_attack(phase, &mut ev)?,
            Action::Fortify { from, to, armies } => self.fortify(phase, (from, to), armies, &mut ev)?,
            Action::EndTurn => {
                if !matches!(phase, Phase::Attack | Phase::Fortify) {
                    return Err(self.wrong_phase());
                }
                self.end_turn(&mut ev)?;
            }
            Action::TimeOut | Action::Skip => self.pass_turn(action == Action::Skip, &mut ev)?,
        }
        Ok(ev)
    }

    /// The action is not one of this phase.
    fn wrong_phase(&self) -> RuleError {
        RuleError::WrongPhase(self.pos.phase_name())
    }

    /// A set of commendations turned in for armies while deploying.
    fn turn_in(&mut self, phase: Phase, set: Set, ev: &mut Vec<Event>) -> Result<(), RuleError> {
        let me = self.pos.current;
        let Phase::Deploy { armies, resume_attack } = phase else {
            return Err(RuleError::TurnInNow);
        };
        let i = self.pos.idx(me).ok_or(RuleError::GameOver)?;
        if !self.pos.players[i].hand.remove(set) {
            return Err(RuleError::NoSuchSet);
        }
        let value = rules::set_value(self.pos.sets_turned_in);
        self.pos.sets_turned_in = self.pos.sets_turned_in.saturating_add(1);
        self.pos.phase = Phase::Deploy {
            armies: armies.saturating_add(value),
            resume_attack,
        };
        ev.push(Event::TurnedIn {
            player: me,
            set,
            armies: value,
        });
        Ok(())
    }

    /// Armies placed in one of the player's countries.
    fn deploy(&mut self, phase: Phase, country: u8, armies: u32, ev: &mut Vec<Event>) -> Result<(), RuleError> {
        let me = self.pos.current;
        let Phase::Deploy {
            armies: left,
            resume_attack,
        } = phase
        else {
            return Err(self.wrong_phase());
        };
        let c = Position::check_country(country)?;
        let i = self.pos.idx(me).ok_or(RuleError::GameOver)?;
        let held = self.pos.players[i].hand.total();
        if held >= MUST_TURN_IN {
            return Err(RuleError::MustTurnIn(held));
        }
        if self.pos.owner[c] != me {
            return Err(RuleError::NotYours(cname(country)));
        }
        if armies == 0 || armies > left {
            return Err(RuleError::ArmiesOutOfRange { min: 1, max: left });
        }
        self.pos.armies[c] = self.pos.armies[c].saturating_add(armies);
        self.pos.phase = Phase::Deploy {
            armies: left - armies,
            resume_attack,
        };
        ev.push(Event::Deployed { country, armies });
        self.settle_deploy();
        Ok(())
    }

    /// One battle from a country of the player's into a neighbour of
    /// another side, with `dice` dice: a conquest when the defender has
    /// no army left, an elimination when that was its last country.
    fn attack(&mut self, phase: Phase, (from, to): (u8, u8), dice: u8, ev: &mut Vec<Event>) -> Result<(), RuleError> {
        let me = self.pos.current;
        if phase != Phase::Attack {
            return Err(self.wrong_phase());
        }
        let f = Position::check_country(from)?;
        let t = Position::check_country(to)?;
        if self.pos.owner[f] != me {
            return Err(RuleError::NotYours(cname(from)));
        }
        let defender = self.pos.owner[t];
        if self.pos.side(defender) == self.pos.side(me) {
            return Err(RuleError::Friendly(cname(to)));
        }
        if !map::adjacent(from, to) {
            return Err(RuleError::NotAdjacent(cname(from), cname(to)));
        }
        if !(1..=3).contains(&dice) {
            return Err(RuleError::BadDice);
        }
        if self.pos.armies[f] <= dice as u32 {
            return Err(RuleError::TooFewArmies(cname(from)));
        }
        let dd = self.pos.armies[t].min(2) as usize;
        let thrown = self.roll(dice as usize + dd)?;
        let (attack, defence) = thrown.split_at(dice as usize);
        let (la, ld) = rules::battle(attack, defence);
        self.pos.armies[f] -= la;
        self.pos.armies[t] -= ld;
        ev.push(Event::Battle {
            from,
            to,
            attack: attack.to_vec(),
            defence: defence.to_vec(),
            attacker_lost: la,
            defender_lost: ld,
        });
        if self.pos.armies[t] == 0 {
            self.conquer((from, to), (f, t), dice, defender, ev);
        }
        Ok(())
    }

    /// Country `to` (index `t`) taken from `defender`: the armies are to move in (at
    /// least as many as the dice thrown), and a defender left without a
    /// country hands its commendations to the conqueror.
    fn conquer(&mut self, (from, to): (u8, u8), (f, t): (usize, usize), dice: u8, defender: u8, ev: &mut Vec<Event>) {
        let me = self.pos.current;
        self.pos.owner[t] = me;
        self.pos.conquered = true;
        ev.push(Event::Conquered {
            country: to,
            from: defender,
            by: me,
        });
        self.pos.phase = Phase::Occupy {
            from,
            to,
            min: dice as u32,
            max: self.pos.armies[f].saturating_sub(1),
        };
        if self.pos.count(defender) == 0 {
            if let (Some(d), Some(a)) = (self.pos.idx(defender), self.pos.idx(me)) {
                let hand = std::mem::take(&mut self.pos.players[d].hand);
                self.pos.players[d].alive = false;
                self.pos.players[a].hand.merge(hand);
                ev.push(Event::Eliminated {
                    player: defender,
                    by: me,
                    commendations: hand,
                });
            }
        }
    }

    /// Armies moved into the country just conquered; the game is won when
    /// one side holds the world.
    fn move_in(&mut self, phase: Phase, armies: u32, ev: &mut Vec<Event>) -> Result<(), RuleError> {
        let me = self.pos.current;
        let Phase::Occupy { from, to, min, max } = phase else {
            return Err(self.wrong_phase());
        };
        let f = Position::check_country(from)?;
        let t = Position::check_country(to)?;
        if armies < min || armies > max || armies >= self.pos.armies[f] {
            return Err(RuleError::ArmiesOutOfRange { min, max });
        }
        self.pos.armies[f] -= armies;
        self.pos.armies[t] = self.pos.armies[t].saturating_add(armies);
        ev.push(Event::MovedIn { from, to, armies });
        if let Some(w) = self.pos.world_holders() {
            self.pos.phase = Phase::Over;
            self.pos.winners = w.clone();
            ev.push(Event::Won { players: w });
        } else {
            let held = self.pos.player(me).map_or(0, |p| p.hand.total());
            self.pos.phase = if held >= MUST_TURN_IN {
                Phase::Deploy {
                    armies: 0,
                    resume_attack: true,
                }
            } else {
                Phase::Attack
            };
        }
        Ok(())
    }

    /// Attacking done: on to fortifying.
    fn end_attack(&mut self, phase: Phase, ev: &mut Vec<Event>) -> Result<(), RuleError> {
        if phase != Phase::Attack {
            return Err(self.wrong_phase());
        }
        // Dealt now, not at the turn's end: the REC file can say a
        // commendation was earned only while attacking (LastPlay
        // 3), so a fortifying player already holds it.
        self.deal_commendation(ev)?;
        self.pos.phase = Phase::Fortify;
        Ok(())
    }

    /// Armies moved between two neighbouring countries of the player's;
    /// the turn ends with it unless fortifications are unlimited.
    fn fortify(
        &mut self,
        phase: Phase,
        (from, to): (u8, u8),
        armies: u32,
        ev: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let me = self.pos.current;
        if phase != Phase::Fortify {
            return Err(self.wrong_phase());
        }
        let f = Position::check_country(from)?;
        let t = Position::check_country(to)?;
        if self.pos.owner[f] != me {
            return Err(RuleError::NotYours(cname(from)));
        }
        if self.pos.owner[t] != me {
            return Err(RuleError::NotYours(cname(to)));
        }
        if !map::adjacent(from, to) {
            return Err(RuleError::NotAdjacent(cname(from), cname(to)));
        }
        if !self.pos.options.unlimited_fortifications && self.pos.fortifications > 0 {
            return Err(RuleError::AlreadyFortified);
        }
        if armies == 0 || armies >= self.pos.armies[f] {
            return Err(RuleError::ArmiesOutOfRange {
                min: 1,
                max: self.pos.armies[f] - 1,
            });
        }
        self.pos.armies[f] -= armies;
        self.pos.armies[t] = self.pos.armies[t].saturating_add(armies);
        self.pos.fortifications = self.pos.fortifications.saturating_add(1);
        ev.push(Event::Fortified { from, to, armies });
        if !self.pos.options.unlimited_fortifications {
            self.end_turn(ev)?;
        }
        Ok(())
    }

    /// A turn timed out or skipped: undone to its start, and passed on.
    fn pass_turn(&mut self, skipped: bool, ev: &mut Vec<Event>) -> Result<(), RuleError> {
        let me = self.pos.current;
        self.pos = self.turn_start.clone();
        // The turn passes without its commendation: a game resumed
        // from a REC file of a player who had earned one (LastPlay
        // 3) has it marked at its "turn start", and end_turn would
        // deal it.
        self.pos.conquered = false;
        ev.push(if skipped {
            Event::Skipped { player: me }
        } else {
            Event::TimedOut { player: me }
        });
        self.end_turn(ev)
    }

    fn settle_deploy(&mut self) {
        if let Phase::Deploy { armies: 0, .. } = self.pos.phase {
            let held = self.pos.player(self.pos.current).map_or(0, |p| p.hand.total());
            if held < MUST_TURN_IN {
                self.pos.phase = Phase::Attack;
            }
        }
    }

    /// The commendation of a turn with a conquest, once.
    fn deal_commendation(&mut self, ev: &mut Vec<Event>) -> Result<(), RuleError> {
        if !self.pos.conquered {
            return Ok(());
        }
        let me = self.pos.current;
        let d = self.roll(1)?[0];
        let kind = Commendation::from_die(d);
        if let Some(i) = self.pos.idx(me) {
            self.pos.players[i].hand.add(kind);
        }
        self.pos.conquered = false;
        ev.push(Event::Commendation { player: me, kind });
        Ok(())
    }

    /// The seat whose turn comes after the current one: the next living
    /// player in seat order.
    pub fn next_player(&self) -> u8 {
        let me = self.pos.current;
        let n = self.pos.players.len();
        let i = self.pos.idx(me).unwrap_or(0);
        (1..=n)
            .map(|k| &self.pos.players[(i + k) % n])
            .find(|p| p.alive)
            .map_or(me, |p| p.number)
    }

    fn end_turn(&mut self, ev: &mut Vec<Event>) -> Result<(), RuleError> {
        self.deal_commendation(ev)?;
        let next = self.next_player();
        begin_turn(&mut self.pos, next, ev);
        self.turn_start = self.pos.clone();
        Ok(())
    }
}

fn begin_turn(pos: &mut Position, seat: u8, ev: &mut Vec<Event>) {
    pos.current = seat;
    pos.conquered = false;
    pos.fortifications = 0;
    pos.turn = pos.turn.saturating_add(1);
    let armies = pos.reinforcements(seat);
    pos.phase = Phase::Deploy {
        armies,
        resume_attack: false,
    };
    ev.push(Event::TurnBegan { player: seat, armies });
}
