//! DipWork's `YEAR`: a free text naming the turn (the manual's examples:
//! `Frühjahr 1901`, `Herbst 1902`, `F01`, `H/W1904`), read as a phase when
//! GAME.TXT has no `PHASE` line.
//!
//! Seasons in words (English or German) or as DipWork's German letters:
//! `F` Frühjahr (spring), `H` Herbst (fall), `W` Winter (adjustments),
//! `H/W` a fall turn with its winter; `S` is spring too. dip's own short
//! names (`F1903M`, English: F is fall there) are read as such. A year of
//! one or two digits (`03`, `'02`) is in the century of the variant's start.

use dip_core::{Phase, PhaseKind, Season};

/// What was read from a YEAR text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct YearText {
    pub year: Option<i32>,
    /// The year was written with one or two digits.
    pub short_year: bool,
    pub season: Option<Season>,
    pub kind: Option<PhaseKind>,
}

/// Words and digit runs, lower case: `H/W1904` → `h`, `w`, `1904`.
fn tokens(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut digits = false;
    for c in text.to_lowercase().chars() {
        let is_digit = c.is_ascii_digit();
        if c.is_alphanumeric() {
            if !cur.is_empty() && is_digit != digits {
                out.push(std::mem::take(&mut cur));
            }
            digits = is_digit;
            cur.push(c);
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Reads a YEAR text; `start_year` is the variant's first year (for the
/// century of a two-digit year). A year written must be one: out of range
/// is an error, never a quiet start year.
pub fn read(text: &str, start_year: i32) -> Result<YearText, String> {
    if let Some(p) = crate::replay::parse_phase_name(text.trim()) {
        return Ok(YearText {
            year: Some(p.year),
            short_year: false,
            season: Some(p.season),
            kind: Some(p.kind),
        });
    }
    let words = tokens(text);
    let starts = |list: &[&str]| words.iter().any(|w| list.iter().any(|l| w.starts_with(l)));
    let letter = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    let spring = starts(&["spring", "frühjahr", "fruehjahr", "frühling", "fruehling"]) || letter(&["f", "s", "fj"]);
    let fall = starts(&["fall", "autumn", "herbst"]) || letter(&["h"]);
    let winter = starts(&["winter", "build", "adjust", "aufbau", "anpass"]) || letter(&["w"]);
    let retreat = starts(&["retreat", "rückzug", "rueckzug"]);
    // `H/W1904`: the fall turn, its winter played with it.
    let (season, kind) = if fall {
        (Some(Season::Fall), retreat.then_some(PhaseKind::Retreat))
    } else if spring {
        (Some(Season::Spring), retreat.then_some(PhaseKind::Retreat))
    } else if winter {
        (Some(Season::Fall), Some(PhaseKind::Adjustment))
    } else {
        (None, retreat.then_some(PhaseKind::Retreat))
    };
    let number = words.iter().find(|w| w.chars().all(|c| c.is_ascii_digit()));
    let (year, short_year) = match number {
        Some(n) if n.len() <= 2 => {
            let base = start_year - start_year.rem_euclid(100);
            let y = base + n.parse::<i32>().unwrap_or(0);
            (Some(if y < start_year { y + 100 } else { y }), true)
        }
        Some(n) => (Some(dip_core::parse_year(n)?), false),
        None => (None, false),
    };
    Ok(YearText {
        year,
        short_year,
        season,
        kind,
    })
}

impl YearText {
    /// The phase, with the variant's start where the text says nothing,
    /// and a dislodged unit making it a retreat phase.
    pub fn phase(&self, start_year: i32, dislodged: bool) -> Phase {
        let kind = match self.kind {
            Some(k) => k,
            None if dislodged => PhaseKind::Retreat,
            None => PhaseKind::Movement,
        };
        Phase::new(
            self.year.unwrap_or(start_year),
            self.season.unwrap_or(Season::Spring),
            kind,
        )
    }
}

/// DipWork's optional `YEAR` in ORDERS.TXT names the turn the orders are
/// for. When it names another year or season than the game's phase (last
/// turn's file left in place), the orders are refused, never played again.
pub fn check_orders_year(
    orders: &crate::params::ParamFile,
    phase: &Phase,
    start_year: i32,
) -> Result<(), crate::gamefile::GameError> {
    let Some(e) = orders.get("YEAR").filter(|e| !e.value.trim().is_empty()) else {
        return Ok(());
    };
    let err = |message: String| crate::gamefile::GameError {
        file: orders.path.display().to_string(),
        line: e.line,
        message,
    };
    let read = read(&e.value, start_year).map_err(|m| err(format!("YEAR: {m}")))?;
    // A two-digit year names the year within its century.
    let year_differs = read.year.is_some_and(|y| {
        if read.short_year {
            y.rem_euclid(100) != phase.year.rem_euclid(100)
        } else {
            y != phase.year
        }
    });
    let season_differs = read.season.is_some_and(|s| s != phase.season);
    if year_differs || season_differs {
        return Err(err(format!(
            "YEAR `{}` is not the game's turn, {}: these orders are for another turn (correct or remove the YEAR line)",
            e.value.trim(),
            crate::gamefile::title_phase(phase)
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn phase(text: &str) -> String {
        let p = read(text, 1901).unwrap().phase(1901, false);
        crate::gamefile::title_phase(&p)
    }

    #[test]
    fn the_manuals_year_forms_were_read_as_spring_1901_or_year_2() {
        for (text, want) in [
            ("Frühjahr 1901", "Spring 1901 Movement"),
            ("Herbst 1902", "Fall 1902 Movement"),
            ("F01", "Spring 1901 Movement"),
            ("H02", "Fall 1902 Movement"),
            ("H/W1904", "Fall 1904 Movement"),
            ("W1904", "Fall 1904 Adjustment"),
            ("Winter 1904", "Fall 1904 Adjustment"),
            ("Spring 03", "Spring 1903 Movement"),
            ("Frühjahr '02", "Spring 1902 Movement"),
            ("Herbst 1903 Rückzug", "Fall 1903 Retreat"),
            ("F1903M", "Fall 1903 Movement"),
            ("S1902R", "Spring 1902 Retreat"),
        ] {
            assert_eq!(phase(text), want, "{text}");
        }
        // A variant starting in 1898: `F99` is 1899, `H01` 1901.
        assert_eq!(read("F99", 1898).unwrap().year, Some(1899));
        assert_eq!(read("H01", 1898).unwrap().year, Some(1901));
    }
}
