//! The rule numbers: starting armies, reinforcements, set values, dice.

use crate::map::Continent;
use serde::{Deserialize, Serialize};

/// Armies each player starts with, by number of players (3–6).
pub fn starting_armies(players: usize) -> Option<u32> {
    match players {
        3 => Some(35),
        4 => Some(30),
        5 => Some(25),
        6 => Some(20),
        _ => None,
    }
}

/// Armies for the countries held: one per three, at least three.
pub fn country_armies(countries: usize) -> u32 {
    (countries as u32 / 3).max(3)
}

/// Continent bonuses for a player who holds `held` (bit `c-1` = country c).
pub fn continent_armies(held: u64) -> u32 {
    Continent::ALL
        .iter()
        .filter(|k| k.countries().all(|c| held & (1 << (c - 1)) != 0))
        .map(|k| k.bonus())
        .sum()
}

/// The armies of the next set when `sets_turned_in` sets have been turned
/// in before it (the file's Cmd_Sets): 4, 6, 8, 10, 12, 15, then 5 more
/// each time.
pub fn set_value(sets_turned_in: u32) -> u32 {
    match sets_turned_in {
        0..=4 => 4 + 2 * sets_turned_in,
        n => 15u32.saturating_add((n - 5).saturating_mul(5)),
    }
}

/// The three kinds of commendation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Commendation {
    General,
    King,
    Queen,
}

impl Commendation {
    pub const ALL: [Commendation; 3] = [Commendation::General, Commendation::King, Commendation::Queen];

    /// The commendation a die draws: 1–2 General, 3–4 King, 5–6 Queen.
    pub fn from_die(d: u8) -> Commendation {
        match d {
            1 | 2 => Commendation::General,
            3 | 4 => Commendation::King,
            _ => Commendation::Queen,
        }
    }
}

/// A set turned in: three alike or one of each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Set {
    Three(Commendation),
    OneOfEach,
}

/// The commendations a player holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hand {
    pub general: u8,
    pub king: u8,
    pub queen: u8,
}

impl Hand {
    pub fn total(&self) -> u32 {
        self.general as u32 + self.king as u32 + self.queen as u32
    }

    pub fn count(&self, c: Commendation) -> u8 {
        match c {
            Commendation::General => self.general,
            Commendation::King => self.king,
            Commendation::Queen => self.queen,
        }
    }

    fn slot(&mut self, c: Commendation) -> &mut u8 {
        match c {
            Commendation::General => &mut self.general,
            Commendation::King => &mut self.king,
            Commendation::Queen => &mut self.queen,
        }
    }

    pub fn add(&mut self, c: Commendation) {
        let s = self.slot(c);
        *s = s.saturating_add(1);
    }

    pub fn merge(&mut self, other: Hand) {
        self.general = self.general.saturating_add(other.general);
        self.king = self.king.saturating_add(other.king);
        self.queen = self.queen.saturating_add(other.queen);
    }

    pub fn has(&self, set: Set) -> bool {
        match set {
            Set::Three(c) => self.count(c) >= 3,
            Set::OneOfEach => self.general >= 1 && self.king >= 1 && self.queen >= 1,
        }
    }

    /// The sets this hand could turn in now.
    pub fn sets(&self) -> Vec<Set> {
        let mut v: Vec<Set> = Commendation::ALL
            .iter()
            .map(|&c| Set::Three(c))
            .filter(|&s| self.has(s))
            .collect();
        if self.has(Set::OneOfEach) {
            v.push(Set::OneOfEach);
        }
        v
    }

    /// Removes a set; false (and no change) if the hand lacks it.
    pub fn remove(&mut self, set: Set) -> bool {
        if !self.has(set) {
            return false;
        }
        match set {
            Set::Three(c) => *self.slot(c) -= 3,
            Set::OneOfEach => {
                self.general -= 1;
                self.king -= 1;
                self.queen -= 1;
            }
        }
        true
    }
}

/// Holding this many commendations forces a turn-in before deploying.
pub const MUST_TURN_IN: u32 = 5;

/// One battle: the losses (attacker, defender) for the dice thrown. Dice
/// are compared highest with highest; ties go to the defender.
pub fn battle(attack: &[u8], defence: &[u8]) -> (u32, u32) {
    let mut a: Vec<u8> = attack.to_vec();
    let mut d: Vec<u8> = defence.to_vec();
    a.sort_unstable_by(|x, y| y.cmp(x));
    d.sort_unstable_by(|x, y| y.cmp(x));
    let (mut la, mut ld) = (0, 0);
    for (x, y) in a.iter().zip(d.iter()) {
        if x > y {
            ld += 1;
        } else {
            la += 1;
        }
    }
    (la, ld)
}

/// Every outcome of a battle by exhaustive enumeration of the 6^n throws:
/// `(attacker losses, defender losses, number of throws)`, and the total.
pub fn odds(attack_dice: usize, defence_dice: usize) -> (Vec<(u32, u32, u64)>, u64) {
    let n = attack_dice + defence_dice;
    let total = 6u64.pow(n as u32);
    let mut counts: Vec<(u32, u32, u64)> = Vec::new();
    let mut dice = vec![1u8; n];
    for _ in 0..total {
        let r = battle(&dice[..attack_dice], &dice[attack_dice..]);
        match counts.iter_mut().find(|c| (c.0, c.1) == r) {
            Some(c) => c.2 += 1,
            None => counts.push((r.0, r.1, 1)),
        }
        for d in dice.iter_mut() {
            if *d < 6 {
                *d += 1;
                break;
            }
            *d = 1;
        }
    }
    counts.sort();
    (counts, total)
}
