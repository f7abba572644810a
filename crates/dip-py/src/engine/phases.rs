//! Phase names as MILA writes them: `S1901M` (the year in four digits at
//! least) and `SPRING 1901 MOVEMENT`.

use dip_core::{Phase, PhaseCase, PhaseKind, Season};

/// `S1901M`, `F0001R` as MILA writes them: the year in at least four
/// digits (`S0001M` on ancmed, where `Phase::short` writes `S1M`).
pub fn short_phase(p: &Phase) -> String {
    let s = match (p.season, p.kind) {
        (_, PhaseKind::Adjustment) => 'W',
        (Season::Spring, _) => 'S',
        (Season::Fall, _) => 'F',
    };
    let k = match p.kind {
        PhaseKind::Movement => 'M',
        PhaseKind::Retreat => 'R',
        PhaseKind::Adjustment => 'A',
    };
    // Made once a phase: by hand, for the usual years, rather than by `format!`.
    if (0..10_000).contains(&p.year) {
        let y = p.year as u32;
        let digit = |d: u32| char::from(b'0' + (d % 10) as u8);
        return [s, digit(y / 1000), digit(y / 100), digit(y / 10), digit(y), k]
            .iter()
            .collect();
    }
    format!("{s}{:04}{k}", p.year)
}

/// `S1901M` → a phase; the year in any number of digits (`S0001M`, `S1M`),
/// the letters in capitals (MILA's rule), by dip's one reader of phases.
pub fn parse_phase(name: &str) -> Option<Phase> {
    Phase::parse_short_as(name, PhaseCase::Upper)
}

/// `SPRING 1901 MOVEMENT` (MILA's long phase name).
pub fn long_phase(p: &Phase) -> String {
    let s = match (p.season, p.kind) {
        (_, PhaseKind::Adjustment) => "WINTER",
        (Season::Spring, _) => "SPRING",
        (Season::Fall, _) => "FALL",
    };
    let k = match p.kind {
        PhaseKind::Movement => "MOVEMENT",
        PhaseKind::Retreat => "RETREATS",
        PhaseKind::Adjustment => "ADJUSTMENTS",
    };
    format!("{s} {} {k}", p.year)
}

/// `SPRING 1901 MOVEMENT` → a phase.
pub fn parse_long_phase(name: &str) -> Option<Phase> {
    let w: Vec<&str> = name.split_whitespace().collect();
    if w.len() != 3 {
        return parse_phase(name);
    }
    let s = match w[0].to_ascii_uppercase().as_str() {
        "SPRING" => 'S',
        "FALL" => 'F',
        "WINTER" => 'W',
        _ => return None,
    };
    let k = w[2].to_ascii_uppercase().chars().next()?;
    parse_phase(&format!("{s}{}{k}", w[1]))
}
