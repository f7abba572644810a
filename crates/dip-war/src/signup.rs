//! Sign-up: the player-count ranges of a game in sign-up, votes to start,
//! and joining a team with its password.

use serde::{Deserialize, Serialize};

/// How many players a game may start with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Range {
    pub min: u8,
    pub max: u8,
}

/// The ranges of the data file's Game_Event codes 33–66.
pub const RANGES: [Range; 10] = [
    Range { min: 3, max: 3 },
    Range { min: 3, max: 4 },
    Range { min: 3, max: 5 },
    Range { min: 3, max: 6 },
    Range { min: 4, max: 4 },
    Range { min: 4, max: 5 },
    Range { min: 4, max: 6 },
    Range { min: 5, max: 5 },
    Range { min: 5, max: 6 },
    Range { min: 6, max: 6 },
];

/// The range of a game without one in its code (0 and 3): 3–6 players.
pub const ANY: Range = Range { min: 3, max: 6 };

impl Range {
    /// The two digits of the Game_Event code (3–4 is 34).
    pub fn code(self) -> u32 {
        self.min as u32 * 10 + self.max as u32
    }

    pub fn from_code(code: u32) -> Option<Range> {
        RANGES.iter().copied().find(|r| r.code() == code)
    }

    /// Another player may sign up.
    pub fn can_join(self, players: usize) -> bool {
        players < self.max as usize
    }

    /// The game starts: the minimum is reached and everyone has voted yes,
    /// or the maximum is reached.
    pub fn starts(self, votes: &[bool]) -> bool {
        let n = votes.len();
        n >= self.max as usize || (n >= self.min as usize && votes.iter().all(|&v| v))
    }
}

/// A team game starts as [`ANY`] does, and only with a player in each of
/// the three teams (seats 1–2, 3–4, 5–6).
pub fn team_game_starts(seats: &[(u8, bool)]) -> bool {
    let teams_full = (1..=3u8).all(|t| seats.iter().any(|s| s.0.div_ceil(2) == t));
    let votes: Vec<bool> = seats.iter().map(|s| s.1).collect();
    teams_full && ANY.starts(&votes)
}

/// The seat a player gets for a team password (compared without regard to
/// case or surrounding spaces, as typed at a BBS prompt): the first free
/// seat of that team, or `None` for a wrong password or a full team.
pub fn join_team(passwords: &[String], given: &str, taken: &[u8]) -> Option<u8> {
    let given = given.trim();
    let team = passwords
        .iter()
        .position(|p| !p.trim().is_empty() && p.trim().eq_ignore_ascii_case(given))? as u8
        + 1;
    [team * 2 - 1, team * 2].into_iter().find(|s| !taken.contains(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_votes() {
        let r = Range::from_code(35).unwrap();
        assert_eq!((r.min, r.max), (3, 5));
        assert!(Range::from_code(37).is_none() && Range::from_code(43).is_none());
        assert!(!r.starts(&[true, true]));
        assert!(r.starts(&[true, true, true]));
        assert!(!r.starts(&[true, false, true, true]));
        assert!(r.starts(&[false, false, false, false, false]));
        assert!(r.can_join(4) && !r.can_join(5));
        let six = Range::from_code(66).unwrap();
        assert!(!six.starts(&[true; 5]) && six.starts(&[false; 6]));
    }

    #[test]
    fn teams() {
        let pw = vec!["RED".to_string(), "Blue".to_string(), "green".to_string()];
        assert_eq!(join_team(&pw, "blue", &[]), Some(3));
        assert_eq!(join_team(&pw, "BLUE ", &[3]), Some(4));
        assert_eq!(join_team(&pw, "blue", &[3, 4]), None);
        assert_eq!(join_team(&pw, "black", &[]), None);
        assert!(!team_game_starts(&[(1, true), (2, true), (3, true)]));
        assert!(team_game_starts(&[(1, true), (3, true), (6, true)]));
    }
}
