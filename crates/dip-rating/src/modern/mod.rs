//! Modern rating systems beside Analyse's: pairwise Elo for multi-player
//! games, Ghost Rating, TrueSkill and Weng-Lin (Plackett-Luce). Each rates
//! one game at a time and can explain one player's change.
//!
//! Results are given as ranks: 1 is best, equal ranks are ties.

pub mod elo;
pub mod ghost;
pub mod trueskill;
pub mod wenglin;

/// Ranks (1 = best, ties equal) from points (higher = better).
pub fn ranks_from_points(points: &[f64]) -> Vec<u32> {
    points
        .iter()
        .map(|p| 1 + points.iter().filter(|q| *q > p).count() as u32)
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn ranks() {
        assert_eq!(super::ranks_from_points(&[3.0, 5.0, 3.0, 1.0]), vec![2, 1, 2, 4]);
    }
}
