//! Weng-Lin Bayesian rating with the Plackett-Luce model (Weng & Lin 2011,
//! Algorithm 4), as the `openskill` package on PyPI computes it (model
//! `PlackettLuce`, one player per team, no weights, no margin, no sigma
//! limit). τ and κ are explicit parameters; the golden tests set both.

/// A rating: mean and standard deviation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    pub mu: f64,
    pub sigma: f64,
}

/// Model parameters (openskill's defaults: mu 25, sigma 25/3, beta 25/6,
/// kappa 0.0001, tau 25/300).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlackettLuce {
    pub mu: f64,
    pub sigma: f64,
    pub beta: f64,
    pub kappa: f64,
    pub tau: f64,
}

impl Default for PlackettLuce {
    fn default() -> Self {
        PlackettLuce {
            mu: 25.0,
            sigma: 25.0 / 3.0,
            beta: 25.0 / 6.0,
            kappa: 0.0001,
            tau: 25.0 / 300.0,
        }
    }
}

/// One player's change, with its parts.
#[derive(Debug, Clone, PartialEq)]
pub struct WengLinExplain {
    pub before: Rating,
    /// Sigma after adding τ.
    pub sigma_dynamic: f64,
    /// c = sqrt(Σ (σ² + β²)) over all players.
    pub c: f64,
    /// Per rank group q at or above this player's rank: (players in the
    /// group, the player's share exp(μ/c)/Σ_{r≥r(q)} exp(μ/c), its term of
    /// Ω before scaling).
    pub terms: Vec<(Vec<usize>, f64, f64)>,
    /// Ω (drives the mean) and Δ (shrinks the deviation).
    pub omega: f64,
    pub delta: f64,
    pub after: Rating,
}

impl PlackettLuce {
    pub fn rating(&self) -> Rating {
        Rating {
            mu: self.mu,
            sigma: self.sigma,
        }
    }

    /// New ratings after one game (ranks: 1 = best, equal = tie).
    pub fn rate(&self, ratings: &[Rating], ranks: &[u32]) -> Vec<Rating> {
        (0..ratings.len())
            .map(|i| self.explain(ratings, ranks, i).after)
            .collect()
    }

    /// Why player `i`'s rating changed.
    pub fn explain(&self, ratings: &[Rating], ranks: &[u32], i: usize) -> WengLinExplain {
        let n = ratings.len();
        let sig: Vec<f64> = ratings
            .iter()
            .map(|r| (r.sigma * r.sigma + self.tau * self.tau).sqrt())
            .collect();
        let s2: Vec<f64> = sig.iter().map(|s| s * s).collect();
        let b2 = self.beta * self.beta;
        let mut c2 = 0.0;
        // the reference sums in the order of the ranking
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&k| ranks[k]);
        for &k in &order {
            c2 += s2[k] + b2;
        }
        let c = c2.sqrt();
        let e: Vec<f64> = ratings.iter().map(|r| (r.mu / c).exp()).collect();
        // sum_q[q] = Σ over players r with rank(r) ≥ rank(q) of exp(μ_r/c)
        let sum_q = |q: usize| -> f64 {
            let mut s = 0.0;
            for &r in &order {
                if ranks[r] >= ranks[q] {
                    s += e[r];
                }
            }
            s
        };
        let a = |q: usize| ranks.iter().filter(|&&r| r == ranks[q]).count() as f64;
        let mut omega = 0.0;
        let mut delta = 0.0;
        let mut terms: Vec<(Vec<usize>, f64, f64)> = Vec::new();
        for &q in &order {
            if ranks[q] > ranks[i] {
                continue;
            }
            let share = e[i] / sum_q(q);
            delta += share * (1.0 - share) / a(q);
            let t = if q == i { (1.0 - share) / a(q) } else { -share / a(q) };
            omega += t;
            match terms.iter_mut().find(|x| ranks[x.0[0]] == ranks[q]) {
                Some(x) => {
                    x.0.push(q);
                    x.2 += t;
                }
                None => terms.push((vec![q], share, t)),
            }
        }
        omega *= s2[i] / c;
        delta *= s2[i] / (c * c);
        let gamma = s2[i].sqrt() / c;
        delta *= gamma;
        // one player per team: the player's share of the team variance is 1
        let mu = ratings[i].mu + omega;
        let sigma = sig[i] * (1.0 - delta).max(self.kappa).sqrt();
        WengLinExplain {
            before: ratings[i],
            sigma_dynamic: sig[i],
            c,
            terms,
            omega,
            delta,
            after: Rating { mu, sigma },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winner_gains_zero_sum_for_equal_players() {
        let m = PlackettLuce::default();
        let r = m.rate(&[m.rating(); 3], &[1, 2, 3]);
        assert!(r[0].mu > 25.0 && r[2].mu < 25.0);
        let total: f64 = r.iter().map(|x| x.mu).sum();
        assert!((total - 75.0).abs() < 1e-9);
    }

    #[test]
    fn explain_terms_add_up() {
        let m = PlackettLuce::default();
        let rs = [
            Rating { mu: 30.0, sigma: 5.0 },
            Rating { mu: 25.0, sigma: 8.0 },
            Rating { mu: 20.0, sigma: 3.0 },
        ];
        let e = m.explain(&rs, &[2, 1, 3], 0);
        let sum: f64 = e.terms.iter().map(|t| t.2).sum();
        assert!((sum * e.sigma_dynamic.powi(2) / e.c - e.omega).abs() < 1e-12);
        assert_eq!(e.terms.len(), 2);
    }
}
