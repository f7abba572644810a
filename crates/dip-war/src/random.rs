//! A random player: legal actions chosen at random, attacking often
//! enough that games end. For tests and `dip war bench`.

use crate::game::{Action, Game, Phase, Position};
use crate::map::{self, COUNTRIES};
use crate::rng::Rng;

pub fn action(game: &Game, rng: &mut Rng) -> Option<Action> {
    let pos = &game.pos;
    match pos.phase {
        Phase::Over => None,
        Phase::Deploy { armies: left, .. } => deploy(pos, left, rng),
        Phase::Attack => Some(attack(pos, rng)),
        Phase::Occupy { min, max, .. } => {
            let n = if rng.chance(9, 10) {
                max
            } else {
                min + rng.below(max.saturating_sub(min) as u64 + 1) as u32
            };
            Some(Action::MoveIn { armies: n })
        }
        Phase::Fortify => Some(fortify(pos, rng)),
    }
}

/// The player to move's view of the countries.
struct Sides<'a> {
    pos: &'a Position,
}

impl Sides<'_> {
    fn mine(&self, c: u8) -> bool {
        self.pos.owner[c as usize - 1] == self.pos.current
    }
    fn enemy(&self, c: u8) -> bool {
        self.pos.side(self.pos.owner[c as usize - 1]) != self.pos.side(self.pos.current)
    }
    fn armies(&self, c: u8) -> u32 {
        self.pos.armies[c as usize - 1]
    }
}

/// Turns in a set (always when the hand is full), else deploys `left`
/// armies, mostly all on the strongest country on a border.
fn deploy(pos: &Position, left: u32, rng: &mut Rng) -> Option<Action> {
    let s = Sides { pos };
    let all = 1..=COUNTRIES as u8;
    let hand = pos.player(pos.current)?.hand;
    let sets = hand.sets();
    if !sets.is_empty() && (hand.total() >= crate::rules::MUST_TURN_IN || rng.chance(1, 2)) {
        return Some(Action::TurnIn {
            set: sets[rng.below(sets.len() as u64) as usize],
        });
    }
    let border: Vec<u8> = all
        .clone()
        .filter(|&c| s.mine(c) && map::neighbours(c).any(|n| s.enemy(n)))
        .collect();
    let pool: Vec<u8> = if border.is_empty() {
        all.filter(|&c| s.mine(c)).collect()
    } else {
        border
    };
    if pool.is_empty() || left == 0 {
        return None;
    }
    // Mostly pile everything on the strongest border country.
    let c = if rng.chance(4, 5) {
        pool.iter().copied().max_by_key(|&c| s.armies(c)).unwrap_or(pool[0])
    } else {
        pool[rng.below(pool.len() as u64) as usize]
    };
    let n = if rng.chance(4, 5) {
        left
    } else {
        1 + rng.below(left as u64) as u32
    };
    Some(Action::Deploy { country: c, armies: n })
}

/// Attacks, mostly with the strongest odds, else ends attacking or the turn.
fn attack(pos: &Position, rng: &mut Rng) -> Action {
    let s = Sides { pos };
    let all = 1..=COUNTRIES as u8;
    let mut attacks: Vec<(u8, u8)> = Vec::new();
    let mut strong: Vec<(u8, u8)> = Vec::new();
    for f in all.filter(|&c| s.mine(c) && s.armies(c) >= 2) {
        for t in map::neighbours(f).filter(|&t| s.enemy(t)) {
            attacks.push((f, t));
            if s.armies(f) > s.armies(t) + 1 || (s.armies(f) >= 4 && s.armies(f) * 2 >= s.armies(t)) {
                strong.push((f, t));
            }
        }
    }
    let pick = if !strong.is_empty() {
        if rng.chance(2, 3) {
            let best = strong
                .iter()
                .copied()
                .max_by_key(|&(f, t)| s.armies(f) as i64 - s.armies(t) as i64);
            vec![best.unwrap_or(strong[0])]
        } else {
            strong
        }
    } else if !attacks.is_empty() && rng.chance(1, 10) {
        attacks
    } else {
        return if rng.chance(1, 2) {
            Action::EndAttack
        } else {
            Action::EndTurn
        };
    };
    let (from, to) = pick[rng.below(pick.len() as u64) as usize];
    Action::Attack {
        from,
        to,
        dice: (s.armies(from) - 1).min(3) as u8,
    }
}

/// Moves armies between own countries away from the front, or ends the turn.
fn fortify(pos: &Position, rng: &mut Rng) -> Action {
    let s = Sides { pos };
    let all = 1..=COUNTRIES as u8;
    let moves: Vec<(u8, u8)> = all
        .filter(|&c| s.mine(c) && s.armies(c) >= 2 && !map::neighbours(c).any(|n| s.enemy(n)))
        .flat_map(|f| map::neighbours(f).filter(|&t| s.mine(t)).map(move |t| (f, t)))
        .collect();
    if moves.is_empty() || rng.chance(1, 3) {
        return Action::EndTurn;
    }
    let (from, to) = moves[rng.below(moves.len() as u64) as usize];
    Action::Fortify {
        from,
        to,
        armies: s.armies(from) - 1,
    }
}

/// Plays a game to its end (or `max_actions`), returning the actions.
pub fn play(game: &mut Game, rng: &mut Rng, max_actions: usize) -> Vec<Action> {
    let mut actions = Vec::new();
    for _ in 0..max_actions {
        let Some(a) = action(game, rng) else { break };
        if game.apply(a).is_ok() {
            actions.push(a);
        }
    }
    actions
}

/// What [`bench`] measured.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct BenchReport {
    pub games: usize,
    pub players: usize,
    pub seconds: f64,
    pub games_per_second: f64,
    pub mean_actions: f64,
    pub mean_turns: f64,
    pub mean_dice: f64,
}

/// Plays `games` random games of `players` to the end (game `i` dealt with
/// seed `seed + i`), timing deal, random player and engine together.
/// `clock` returns seconds (the caller's clock: this crate does no I/O).
pub fn bench(games: usize, players: usize, seed: u64, clock: impl Fn() -> f64) -> Result<BenchReport, String> {
    use crate::game::Options;
    let names: Vec<(u8, String)> = (1..=players as u8).map(|n| (n, format!("Player {n}"))).collect();
    let opts = Options {
        teams: false,
        hidden_names: false,
        unlimited_fortifications: false,
    };
    let (mut actions, mut turns, mut dice) = (0usize, 0u64, 0usize);
    let start = clock();
    for i in 0..games {
        let s = seed.wrapping_add(i as u64);
        let mut g = Game::new(opts.clone(), names.clone(), s).map_err(|e| e.to_string())?;
        let mut rng = Rng::with_seed(s ^ 0x5EED);
        let played = play(&mut g, &mut rng, 1_000_000);
        if !g.is_over() {
            return Err(format!("game {i} (seed {s}) did not end in {} actions", played.len()));
        }
        actions += played.len();
        turns += g.pos.turn as u64;
        dice += g.log.len();
    }
    let seconds = clock() - start;
    let n = games.max(1) as f64;
    Ok(BenchReport {
        games,
        players,
        seconds,
        games_per_second: games as f64 / seconds.max(1e-9),
        mean_actions: actions as f64 / n,
        mean_turns: turns as f64 / n,
        mean_dice: dice as f64 / n,
    })
}
