//! TrueSkill for free-for-all games (one player per team), following the
//! factor graph and message schedule of the reference implementation (the
//! `trueskill` package on PyPI, 0.4.5, with its own statistics backend), so
//! that results agree with it to 1e-9: Gaussian priors with dynamics τ,
//! performance likelihoods with variance β², team differences between
//! neighbours in the ranking, truncation factors for wins and draws, and the
//! same iteration (at most 10 sweeps, stopping when the largest change is at
//! most `min_delta`).
#![allow(clippy::needless_range_loop)]

/// A rating: mean and standard deviation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    pub mu: f64,
    pub sigma: f64,
}

/// Environment: the reference package's parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrueSkill {
    pub mu: f64,
    pub sigma: f64,
    pub beta: f64,
    pub tau: f64,
    pub draw_probability: f64,
    pub min_delta: f64,
}

impl Default for TrueSkill {
    /// mu 25, sigma 25/3, beta 25/6, tau 25/300, draw probability 0.10.
    fn default() -> Self {
        TrueSkill {
            mu: 25.0,
            sigma: 25.0 / 3.0,
            beta: 25.0 / 6.0,
            tau: 25.0 / 300.0,
            draw_probability: 0.10,
            min_delta: 0.0001,
        }
    }
}

/// Why a rating changed.
#[derive(Debug, Clone, PartialEq)]
pub struct TrueSkillExplain {
    pub before: Rating,
    /// Sigma after adding the dynamics τ.
    pub sigma_dynamic: f64,
    /// The game's message about this player's skill (mean, deviation):
    /// the posterior is the prior times this message.
    pub message: Rating,
    pub after: Rating,
    /// Sweeps of the message schedule.
    pub sweeps: u32,
}

/// The game cannot be rated in double precision (the reference package
/// raises FloatingPointError in the same cases).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("TrueSkill: cannot calculate this game in double precision")]
pub struct FloatError;

// ----- statistics, as in the reference backend ------------------------------

fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + z / 2.0);
    let r = t
        * (-z * z - 1.26551223
            + t * (1.00002368
                + t * (0.37409196
                    + t * (0.09678418
                        + t * (-0.18628806
                            + t * (0.27886807
                                + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))))
            .exp();
    if x < 0.0 {
        2.0 - r
    } else {
        r
    }
}

// the reference's constants, kept as they are so that results agree
#[allow(clippy::approx_constant)]
fn erfcinv(y: f64) -> f64 {
    if y >= 2.0 {
        return -100.0;
    }
    if y <= 0.0 {
        return 100.0;
    }
    let zero_point = y < 1.0;
    let y = if zero_point { y } else { 2.0 - y };
    let t = (-2.0 * (y / 2.0).ln()).sqrt();
    let mut x = -0.70711 * ((2.30753 + t * 0.27061) / (1.0 + t * (0.99229 + t * 0.04481)) - t);
    for _ in 0..2 {
        let err = erfc(x) - y;
        x += err / (1.128_379_167_095_512_6 * (-(x * x)).exp() - x * err);
    }
    if zero_point {
        x
    } else {
        -x
    }
}

fn cdf(x: f64) -> f64 {
    0.5 * erfc(-x / 2f64.sqrt())
}

fn pdf(x: f64) -> f64 {
    1.0 / (2.0 * std::f64::consts::PI).sqrt() * (-(x * x) / 2.0).exp()
}

fn ppf(x: f64) -> f64 {
    -(2f64.sqrt()) * erfcinv(2.0 * x)
}

fn v_win(diff: f64, m: f64) -> f64 {
    let x = diff - m;
    let d = cdf(x);
    if d != 0.0 {
        pdf(x) / d
    } else {
        -x
    }
}

fn v_draw(diff: f64, m: f64) -> f64 {
    let ad = diff.abs();
    let (a, b) = (m - ad, -m - ad);
    let denom = cdf(a) - cdf(b);
    let numer = pdf(b) - pdf(a);
    (if denom != 0.0 { numer / denom } else { a }) * if diff < 0.0 { -1.0 } else { 1.0 }
}

fn w_win(diff: f64, m: f64) -> Result<f64, FloatError> {
    let x = diff - m;
    let v = v_win(diff, m);
    let w = v * (v + x);
    if 0.0 < w && w < 1.0 {
        Ok(w)
    } else {
        Err(FloatError)
    }
}

fn w_draw(diff: f64, m: f64) -> Result<f64, FloatError> {
    let ad = diff.abs();
    let (a, b) = (m - ad, -m - ad);
    let denom = cdf(a) - cdf(b);
    if denom == 0.0 {
        return Err(FloatError);
    }
    let v = v_draw(ad, m);
    Ok(v * v + (a * pdf(a) - b * pdf(b)) / denom)
}

// ----- the factor graph -----------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct G {
    pi: f64,
    tau: f64,
}

impl G {
    fn from_mu_sigma(mu: f64, sigma: f64) -> G {
        let pi = sigma.powi(-2);
        G { pi, tau: pi * mu }
    }
    fn mu(self) -> f64 {
        if self.pi == 0.0 {
            0.0
        } else {
            self.tau / self.pi
        }
    }
    fn sigma(self) -> f64 {
        if self.pi != 0.0 {
            (1.0 / self.pi).sqrt()
        } else {
            f64::INFINITY
        }
    }
    fn mul(self, o: G) -> G {
        G {
            pi: self.pi + o.pi,
            tau: self.tau + o.tau,
        }
    }
    fn div(self, o: G) -> G {
        G {
            pi: self.pi - o.pi,
            tau: self.tau - o.tau,
        }
    }
}

/// Variables hold a value; every (variable, factor) edge holds the factor's
/// message to the variable.
struct Graph {
    vals: Vec<G>,
    edge_var: Vec<usize>,
    msgs: Vec<G>,
}

impl Graph {
    fn edge(&mut self, var: usize) -> usize {
        self.edge_var.push(var);
        self.msgs.push(G::default());
        self.msgs.len() - 1
    }
    fn set(&mut self, var: usize, val: G) -> f64 {
        let cur = self.vals[var];
        let pi_delta = (cur.pi - val.pi).abs();
        let delta = if pi_delta == f64::INFINITY {
            0.0
        } else {
            (cur.tau - val.tau).abs().max(pi_delta.sqrt())
        };
        self.vals[var] = val;
        delta
    }
    fn update_message(&mut self, e: usize, msg: G) -> f64 {
        let v = self.edge_var[e];
        let old = self.msgs[e];
        self.msgs[e] = msg;
        let new = self.vals[v].div(old).mul(msg);
        self.set(v, new)
    }
    fn update_value(&mut self, e: usize, val: G) -> f64 {
        let v = self.edge_var[e];
        let old = self.msgs[e];
        self.msgs[e] = val.mul(old).div(self.vals[v]);
        self.set(v, val)
    }
    /// The variable's value without this edge's message.
    fn cavity(&self, e: usize) -> G {
        self.vals[self.edge_var[e]].div(self.msgs[e])
    }
    fn likelihood(&mut self, from: usize, to: usize, variance: f64) -> f64 {
        let msg = self.cavity(from);
        let a = 1.0 / (1.0 + variance * msg.pi);
        self.update_message(
            to,
            G {
                pi: a * msg.pi,
                tau: a * msg.tau,
            },
        )
    }
    /// Sum factor update of `target` from `edges` with `coeffs`.
    fn sum_update(&mut self, target: usize, edges: &[usize], coeffs: &[f64]) -> f64 {
        let mut pi_inv = 0.0f64;
        let mut mu = 0.0;
        for (&e, &c) in edges.iter().zip(coeffs) {
            let div = self.cavity(e);
            mu += c * div.mu();
            if pi_inv == f64::INFINITY {
                continue;
            }
            if div.pi == 0.0 {
                pi_inv = f64::INFINITY;
            } else {
                pi_inv += c * c / div.pi;
            }
        }
        let pi = 1.0 / pi_inv;
        let tau = pi * mu;
        self.update_message(target, G { pi, tau })
    }
}

/// Sum factor: `sum = Σ coeffs[k] · terms[k]`, by edges.
struct SumF {
    sum: usize,
    terms: Vec<usize>,
    coeffs: Vec<f64>,
}

impl SumF {
    fn down(&self, g: &mut Graph) -> f64 {
        g.sum_update(self.sum, &self.terms, &self.coeffs)
    }
    fn up(&self, g: &mut Graph, index: usize) -> f64 {
        let coeff = self.coeffs[index];
        let coeffs: Vec<f64> = self
            .coeffs
            .iter()
            .enumerate()
            .map(|(x, &c)| {
                if coeff == 0.0 {
                    0.0
                } else if x == index {
                    1.0 / coeff
                } else {
                    -c / coeff
                }
            })
            .collect();
        let mut edges = self.terms.clone();
        edges[index] = self.sum;
        g.sum_update(self.terms[index], &edges, &coeffs)
    }
}

impl TrueSkill {
    /// Draw margin for two players.
    fn draw_margin(&self, size: f64) -> f64 {
        ppf((self.draw_probability + 1.0) / 2.0) * size.sqrt() * self.beta
    }

    /// A new player's rating.
    pub fn rating(&self) -> Rating {
        Rating {
            mu: self.mu,
            sigma: self.sigma,
        }
    }

    /// New ratings after a free-for-all game (ranks: 1 = best, equal = tie),
    /// computed by the `skillratings` crate (its multi-team TrueSkill agrees
    /// with the reference package to about 1e-14; see tests/golden.rs). The
    /// factor graph in this module computes the same numbers and is used to
    /// explain them ([`TrueSkill::explain`]).
    pub fn rate(&self, ratings: &[Rating], ranks: &[u32]) -> Result<Vec<Rating>, FloatError> {
        use skillratings::trueskill::{trueskill_multi_team, TrueSkillConfig, TrueSkillRating};
        use skillratings::MultiTeamOutcome;
        if ratings.len() < 2 || ranks.len() != ratings.len() || self.min_delta != 0.0001 {
            return Ok(self.run(ratings, ranks)?.0);
        }
        let teams: Vec<[TrueSkillRating; 1]> = ratings
            .iter()
            .map(|r| {
                [TrueSkillRating {
                    rating: r.mu,
                    uncertainty: r.sigma,
                }]
            })
            .collect();
        let input: Vec<(&[TrueSkillRating], MultiTeamOutcome)> = teams
            .iter()
            .zip(ranks)
            .map(|(t, &r)| (&t[..], MultiTeamOutcome::new(r as usize)))
            .collect();
        let cfg = TrueSkillConfig {
            draw_probability: self.draw_probability,
            beta: self.beta,
            dynamics_factor: self.tau,
        };
        let out = trueskill_multi_team(&input, &cfg, None).map_err(|_| FloatError)?;
        let r: Vec<Rating> = out
            .iter()
            .map(|t| Rating {
                mu: t[0].rating,
                sigma: t[0].uncertainty,
            })
            .collect();
        if r.iter().any(|x| !x.mu.is_finite() || !x.sigma.is_finite()) {
            return Err(FloatError);
        }
        Ok(r)
    }

    /// The same as [`TrueSkill::rate`], by this module's own factor graph.
    pub fn rate_own(&self, ratings: &[Rating], ranks: &[u32]) -> Result<Vec<Rating>, FloatError> {
        Ok(self.run(ratings, ranks)?.0)
    }

    /// Why player `i`'s rating changed.
    pub fn explain(&self, ratings: &[Rating], ranks: &[u32], i: usize) -> Result<TrueSkillExplain, FloatError> {
        let (after, msgs, sweeps) = self.run(ratings, ranks)?;
        let b = ratings[i];
        let sd = (b.sigma * b.sigma + self.tau * self.tau).sqrt();
        Ok(TrueSkillExplain {
            before: b,
            sigma_dynamic: sd,
            message: msgs[i],
            after: after[i],
            sweeps,
        })
    }

    /// Ratings after the game, each player's message from its performance
    /// (for [`TrueSkill::explain`]) and the number of sweeps.
    #[allow(clippy::type_complexity)]
    fn run(&self, ratings: &[Rating], ranks: &[u32]) -> Result<(Vec<Rating>, Vec<Rating>, u32), FloatError> {
        let n = ratings.len();
        if n < 2 || ranks.len() != n {
            return Ok((
                ratings.to_vec(),
                vec![
                    Rating {
                        mu: 0.0,
                        sigma: f64::INFINITY
                    };
                    n
                ],
                0,
            ));
        }
        let mut f = FreeForAll::new(ranks, self.draw_margin(2.0));
        f.down(self, ratings);
        let sweeps = f.sweep(self.min_delta)?;
        f.up(self);
        let (out, msgs) = f.ratings();
        Ok((out, msgs, sweeps))
    }
}

/// The factor graph of a free-for-all game: one team per player, in the
/// order of the ranks.
///
/// Variables: rating 0..n, performance n..2n, team performance 2n..3n,
/// difference of neighbours 3n..4n-1.
struct FreeForAll {
    g: Graph,
    n: usize,
    /// players by rank
    order: Vec<usize>,
    prior: Vec<usize>,
    /// (rating edge, performance edge) of each player's likelihood factor
    like: Vec<(usize, usize)>,
    team: Vec<SumF>,
    diffs: Vec<SumF>,
    /// the truncation factor's edge of each difference, and whether the
    /// two players tied
    trunc: Vec<(usize, bool)>,
    margin: f64,
}

impl FreeForAll {
    /// The graph with its edges in the order the reference creates factors.
    fn new(ranks: &[u32], margin: f64) -> FreeForAll {
        let n = ranks.len();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| ranks[i]);
        let mut g = Graph {
            vals: vec![G::default(); 4 * n - 1],
            edge_var: Vec::new(),
            msgs: Vec::new(),
        };
        let (rv, pv, tv, dv) = (|k| k, |k| n + k, |k| 2 * n + k, |k| 3 * n + k);
        let prior: Vec<usize> = (0..n).map(|k| g.edge(rv(k))).collect();
        let like: Vec<(usize, usize)> = (0..n).map(|k| (g.edge(rv(k)), g.edge(pv(k)))).collect();
        let team: Vec<SumF> = (0..n)
            .map(|k| {
                let sum = g.edge(tv(k));
                let t = g.edge(pv(k));
                SumF {
                    sum,
                    terms: vec![t],
                    coeffs: vec![1.0],
                }
            })
            .collect();
        let diffs: Vec<SumF> = (0..n - 1)
            .map(|k| {
                let sum = g.edge(dv(k));
                let a = g.edge(tv(k));
                let b = g.edge(tv(k + 1));
                SumF {
                    sum,
                    terms: vec![a, b],
                    coeffs: vec![1.0, -1.0],
                }
            })
            .collect();
        let trunc: Vec<(usize, bool)> = (0..n - 1)
            .map(|k| (g.edge(dv(k)), ranks[order[k]] == ranks[order[k + 1]]))
            .collect();
        FreeForAll {
            g,
            n,
            order,
            prior,
            like,
            team,
            diffs,
            trunc,
            margin,
        }
    }

    /// The rating, performance and team performance layers, downwards.
    fn down(&mut self, ts: &TrueSkill, ratings: &[Rating]) {
        let g = &mut self.g;
        for k in 0..self.n {
            let r = ratings[self.order[k]];
            let sigma = (r.sigma * r.sigma + ts.tau * ts.tau).sqrt();
            g.update_value(self.prior[k], G::from_mu_sigma(r.mu, sigma));
        }
        for &(m, v) in &self.like {
            g.likelihood(m, v, ts.beta * ts.beta);
        }
        for f in &self.team {
            f.down(g);
        }
    }

    /// Up to 10 sweeps over the differences, down and back, until no
    /// message changes by more than `min_delta`; the number of sweeps.
    fn sweep(&mut self, min_delta: f64) -> Result<u32, FloatError> {
        let len = self.diffs.len();
        let mut sweeps = 0;
        for _ in 0..10 {
            sweeps += 1;
            let mut delta: f64 = 0.0;
            if len == 1 {
                self.diffs[0].down(&mut self.g);
                delta = self.trunc_up(0)?;
            } else {
                for x in 0..len - 1 {
                    self.diffs[x].down(&mut self.g);
                    delta = delta.max(self.trunc_up(x)?);
                    self.diffs[x].up(&mut self.g, 1);
                }
                for x in (1..len).rev() {
                    self.diffs[x].down(&mut self.g);
                    delta = delta.max(self.trunc_up(x)?);
                    self.diffs[x].up(&mut self.g, 0);
                }
            }
            if delta <= min_delta {
                break;
            }
        }
        Ok(sweeps)
    }

    /// The truncation factor of difference `k` (a win or a draw) updates
    /// the difference.
    fn trunc_up(&mut self, k: usize) -> Result<f64, FloatError> {
        let (e, draw) = self.trunc[k];
        let div = self.g.cavity(e);
        let sqrt_pi = div.pi.sqrt();
        let (d, m) = (div.tau / sqrt_pi, self.margin * sqrt_pi);
        let (v, w) = if draw {
            (v_draw(d, m), w_draw(d, m)?)
        } else {
            (v_win(d, m), w_win(d, m)?)
        };
        let denom = 1.0 - w;
        Ok(self.g.update_value(
            e,
            G {
                pi: div.pi / denom,
                tau: (div.tau + sqrt_pi * v) / denom,
            },
        ))
    }

    /// The outer differences, team performances and likelihoods, upwards
    /// to the ratings.
    fn up(&mut self, ts: &TrueSkill) {
        let g = &mut self.g;
        let len = self.diffs.len();
        self.diffs[0].up(g, 0);
        self.diffs[len - 1].up(g, 1);
        for f in &self.team {
            f.up(g, 0);
        }
        for &(m, v) in &self.like {
            g.likelihood(v, m, ts.beta * ts.beta);
        }
    }

    /// Each player's rating and the message from its performance, in the
    /// players' order.
    fn ratings(&self) -> (Vec<Rating>, Vec<Rating>) {
        let mut out = vec![Rating { mu: 0.0, sigma: 0.0 }; self.n];
        let mut msgs = out.clone();
        for k in 0..self.n {
            let val = self.g.vals[k];
            out[self.order[k]] = Rating {
                mu: val.mu(),
                sigma: val.sigma(),
            };
            let m = self.g.msgs[self.like[k].0];
            msgs[self.order[k]] = Rating {
                mu: m.mu(),
                sigma: m.sigma(),
            };
        }
        (out, msgs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistics_backend() {
        // values printed by the reference backend's doctests and by hand
        assert!((cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((ppf(0.55) - 0.12566).abs() < 1e-4);
        assert!((pdf(0.0) - 0.3989422804014327).abs() < 1e-15);
    }

    #[test]
    fn winner_gains_and_sigma_shrinks() {
        let ts = TrueSkill::default();
        let r = ts.rate(&[ts.rating(), ts.rating()], &[1, 2]).unwrap();
        assert!(r[0].mu > 25.0 && r[1].mu < 25.0);
        assert!(r[0].sigma < ts.sigma);
        // the well-known 1 vs 1 result of the reference: 29.396, 7.171
        assert!((r[0].mu - 29.396).abs() < 1e-3 && (r[0].sigma - 7.171).abs() < 1e-3);
    }

    #[test]
    fn explain_combines_prior_and_message() {
        let ts = TrueSkill::default();
        let rs = vec![ts.rating(); 4];
        let e = ts.explain(&rs, &[1, 2, 3, 4], 0).unwrap();
        let prior = G::from_mu_sigma(e.before.mu, e.sigma_dynamic);
        let m = G::from_mu_sigma(e.message.mu, e.message.sigma);
        let post = prior.mul(m);
        assert!((post.mu() - e.after.mu).abs() < 1e-9 && (post.sigma() - e.after.sigma).abs() < 1e-9);
    }
}
