//! Ghost Rating (webDiplomacy's classic formula, webdiplomacy.net/ghostRatings.php):
//! every player's expected share of the game is their rating over the sum of
//! the ratings; the actual share is 1 for a solo, 0 for a loss, 1/k for a
//! k-way draw under draw-size scoring, or centres²/Σ centres² under
//! sum-of-squares; the change is x·(actual − expected) with
//! x = Σ ratings / (17.5 · press weight · variant weight). New players start
//! at 100.

/// How a game's result is shared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Share {
    DrawSize,
    SumOfSquares,
}

/// One player's change after one game, with its parts.
#[derive(Debug, Clone, PartialEq)]
pub struct GhostExplain {
    pub x: f64,
    pub expected: f64,
    pub actual: f64,
    pub change: f64,
}

/// Parameters: press and variant weight modifiers (1 for full press on the
/// standard map).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ghost {
    pub press_weight: f64,
    pub variant_weight: f64,
}

impl Default for Ghost {
    fn default() -> Self {
        Ghost {
            press_weight: 1.0,
            variant_weight: 1.0,
        }
    }
}

/// A game's end for Ghost Rating: centres, who is in the draw, who soloed.
#[derive(Debug, Clone, PartialEq)]
pub struct GhostGame {
    pub centres: Vec<u32>,
    pub in_draw: Vec<bool>,
    pub solo: Option<usize>,
    pub share: Share,
}

impl GhostGame {
    /// The actual share of every player (sums to 1).
    pub fn actual(&self) -> Vec<f64> {
        let n = self.centres.len();
        if let Some(w) = self.solo {
            return (0..n).map(|i| if i == w { 1.0 } else { 0.0 }).collect();
        }
        match self.share {
            Share::DrawSize => {
                let k = self.in_draw.iter().filter(|d| **d).count() as f64;
                self.in_draw
                    .iter()
                    .map(|&d| if d && k > 0.0 { 1.0 / k } else { 0.0 })
                    .collect()
            }
            Share::SumOfSquares => {
                let s: f64 = self
                    .centres
                    .iter()
                    .zip(&self.in_draw)
                    .filter(|(_, d)| **d)
                    .map(|(c, _)| (*c as f64).powi(2))
                    .sum();
                self.centres
                    .iter()
                    .zip(&self.in_draw)
                    .map(|(c, d)| if *d && s > 0.0 { (*c as f64).powi(2) / s } else { 0.0 })
                    .collect()
            }
        }
    }
}

impl Ghost {
    pub fn explain(&self, ratings: &[f64], game: &GhostGame, i: usize) -> GhostExplain {
        let sum: f64 = ratings.iter().sum();
        let x = sum / (17.5 * self.press_weight * self.variant_weight);
        let expected = ratings[i] / sum;
        let actual = game.actual()[i];
        GhostExplain {
            x,
            expected,
            actual,
            change: x * (actual - expected),
        }
    }

    pub fn rate(&self, ratings: &[f64], game: &GhostGame) -> Vec<f64> {
        (0..ratings.len())
            .map(|i| ratings[i] + self.explain(ratings, game, i).change)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seven_new_players_two_way_draw() {
        // all at 100: x = 700/17.5 = 40; expected 1/7; drawers get 1/2
        let g = GhostGame {
            centres: vec![17, 17, 0, 0, 0, 0, 0],
            in_draw: vec![true, true, false, false, false, false, false],
            solo: None,
            share: Share::DrawSize,
        };
        let r = Ghost::default().rate(&[100.0; 7], &g);
        assert!((r[0] - (100.0 + 40.0 * (0.5 - 1.0 / 7.0))).abs() < 1e-12);
        assert!((r[2] - (100.0 - 40.0 / 7.0)).abs() < 1e-12);
        assert!((r.iter().sum::<f64>() - 700.0).abs() < 1e-9);
    }

    #[test]
    fn sum_of_squares_share() {
        let g = GhostGame {
            centres: vec![10, 6, 0],
            in_draw: vec![true, true, false],
            solo: None,
            share: Share::SumOfSquares,
        };
        let a = g.actual();
        assert!((a[0] - 100.0 / 136.0).abs() < 1e-12 && a[2] == 0.0);
    }
}
