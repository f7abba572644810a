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

/// The longest team password.
pub const PASSWORD_LENGTH: usize = 40;

/// A team game's passwords: three, each 1 to 40 characters without control
/// characters, different from each other (without regard to case, as
/// [`join_team`] compares them). The error gives the index of the first
/// bad one (3 when there are too few).
pub fn check_passwords(passwords: &[String]) -> Result<(), (usize, String)> {
    let what = "a team game needs three different team passwords of 1 to 40 characters";
    for (i, p) in passwords.iter().enumerate().take(3) {
        let p = p.trim();
        if p.is_empty() || p.chars().count() > PASSWORD_LENGTH || p.chars().any(char::is_control) {
            return Err((i, format!("team {} password {}: {what}", i + 1, crate::file::quote(p))));
        }
        if passwords[..i].iter().any(|q| q.trim().eq_ignore_ascii_case(p)) {
            return Err((
                i,
                format!(
                    "team {} password {} is another team's: {what}",
                    i + 1,
                    crate::file::quote(p)
                ),
            ));
        }
    }
    if passwords.len() != 3 {
        return Err((passwords.len().min(3), format!("{} passwords: {what}", passwords.len())));
    }
    Ok(())
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
        let p = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(check_passwords(&p(&["red", "blue", "green"])), Ok(()));
        assert_eq!(check_passwords(&p(&["red", "blue"])).unwrap_err().0, 2);
        assert_eq!(check_passwords(&p(&["red", "RED ", "green"])).unwrap_err().0, 1);
        assert_eq!(check_passwords(&p(&["red", "blue", ""])).unwrap_err().0, 2);
        assert_eq!(check_passwords(&p(&["red", "blue", "green", "x"])).unwrap_err().0, 3);
    }
}
