//! Pairwise Elo for multi-player games: every pair of players in a game is
//! one Elo match (1 for the better rank, ½ for a tie, 0 for the worse), and
//! a player's change is K/(N−1) times the sum of (result − expectation) over
//! the opponents, so a game moves a rating as much as one two-player match.

/// Parameters: K factor and the rating scale (400 in chess).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Elo {
    pub k: f64,
    pub scale: f64,
}

impl Default for Elo {
    fn default() -> Self {
        Elo { k: 32.0, scale: 400.0 }
    }
}

/// One opponent's part in a player's change.
#[derive(Debug, Clone, PartialEq)]
pub struct EloTerm {
    pub opponent: usize,
    pub expected: f64,
    pub actual: f64,
    pub change: f64,
}

impl Elo {
    /// Probability that a player rated `a` beats one rated `b`.
    pub fn expected(&self, a: f64, b: f64) -> f64 {
        1.0 / (1.0 + 10f64.powf((b - a) / self.scale))
    }

    /// The change of player `i`, opponent by opponent.
    pub fn explain(&self, ratings: &[f64], ranks: &[u32], i: usize) -> Vec<EloTerm> {
        let n = ratings.len();
        if n < 2 {
            return Vec::new();
        }
        let k = self.k / (n - 1) as f64;
        (0..n)
            .filter(|&j| j != i)
            .map(|j| {
                let expected = self.expected(ratings[i], ratings[j]);
                let actual = match ranks[i].cmp(&ranks[j]) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                };
                EloTerm {
                    opponent: j,
                    expected,
                    actual,
                    change: k * (actual - expected),
                }
            })
            .collect()
    }

    /// New ratings after one game.
    pub fn rate(&self, ratings: &[f64], ranks: &[u32]) -> Vec<f64> {
        (0..ratings.len())
            .map(|i| ratings[i] + self.explain(ratings, ranks, i).iter().map(|t| t.change).sum::<f64>())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_players_is_classic_elo() {
        // the textbook case: 1613 vs 1573... an equal pair gains K/2
        let e = Elo::default();
        let r = e.rate(&[1500.0, 1500.0], &[1, 2]);
        assert!((r[0] - 1516.0).abs() < 1e-12 && (r[1] - 1484.0).abs() < 1e-12);
    }

    #[test]
    fn zero_sum_and_explained() {
        let e = Elo::default();
        let ratings = [1600.0, 1500.0, 1450.0, 1500.0];
        let ranks = [2, 1, 3, 3];
        let r = e.rate(&ratings, &ranks);
        assert!((r.iter().sum::<f64>() - ratings.iter().sum::<f64>()).abs() < 1e-9);
        let t = e.explain(&ratings, &ranks, 0);
        assert_eq!(t.len(), 3);
        assert!((t.iter().map(|x| x.change).sum::<f64>() - (r[0] - 1600.0)).abs() < 1e-12);
        assert_eq!(t[0].actual, 0.0);
    }
}
