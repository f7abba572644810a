//! When things happened, as the files keep them: Event_Day, "the daynum
//! that Game_Event occurred", and each seat's Player_Moved, "daynum that
//! the player last took a turn" (the door's data-file documentation).
//! Day numbers ([`crate::daynum`]) are kept in ten-thousandths of a day,
//! the four decimals the files are written with.

use serde::{Deserialize, Serialize};

/// A day number in ten-thousandths of a day (8.64 s).
pub type Ticks = i64;

/// Ticks per day.
pub const PER_DAY: f64 = 10_000.0;

/// A day number as ticks (to the nearest 8.64 s; saturating, NaN is 0).
pub fn ticks(day: f64) -> Ticks {
    (day * PER_DAY).round() as Ticks
}

/// Ticks as a day number.
pub fn day(t: Ticks) -> f64 {
    t as f64 / PER_DAY
}

/// When the game's Game_Event happened and when each seat last took a
/// turn; `None` where nobody said (a game stored before dip kept them).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Days {
    pub event: Option<Ticks>,
    /// Index = seat − 1.
    pub moved: [Option<Ticks>; 6],
}

impl Days {
    /// The days a file holds: its Event_Day and each player's
    /// Player_Moved (seats without a player stay `None`).
    pub fn of_file(dat: &crate::DatFile) -> Days {
        let mut moved = [None; 6];
        for (i, s) in dat.seats.iter().enumerate().take(6) {
            if s.name.is_some() {
                moved[i] = Some(ticks(s.last_moved));
            }
        }
        Days {
            event: Some(ticks(dat.event_day)),
            moved,
        }
    }

    /// A seat took a turn (or its turn passed) at `day`.
    pub fn moved(&mut self, seat: u8, day: f64) {
        if let Some(m) = self.moved.get_mut((seat as usize).wrapping_sub(1)) {
            *m = Some(ticks(day));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_the_files_four_decimals() {
        assert_eq!(ticks(1671.6039), 16_716_039);
        assert_eq!(day(16_716_039), 1671.6039);
        assert_eq!(ticks(f64::NAN), 0);
        assert_eq!(ticks(f64::MAX), i64::MAX);
    }
}
