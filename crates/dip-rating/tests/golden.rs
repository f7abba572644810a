//! TrueSkill and Weng-Lin (Plackett-Luce) against the reference packages
//! (`trueskill` 0.4.5, `openskill` 6.2.0 on PyPI): the numbers in
//! testdata/ratings-golden.txt were produced by scripts/ratings-golden.py.

use dip_rating::modern::{trueskill, wenglin};

struct Case {
    model: String,
    ranks: Vec<u32>,
    before: Vec<(f64, f64)>,
    after: Vec<(f64, f64)>,
    line: usize,
}

fn pairs(s: &str) -> Vec<(f64, f64)> {
    s.split_whitespace()
        .map(|p| {
            let (m, s) = p.split_once(':').expect("mu:sigma");
            (m.parse().expect("mu"), s.parse().expect("sigma"))
        })
        .collect()
}

fn cases() -> Vec<Case> {
    let text = include_str!("../testdata/ratings-golden.txt");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| {
            let f: Vec<&str> = l.split(" | ").collect();
            Case {
                model: f[0].to_string(),
                ranks: f[1].split(',').map(|r| r.parse().expect("rank")).collect(),
                before: pairs(f[2]),
                after: pairs(f[3]),
                line: i + 1,
            }
        })
        .collect()
}

fn check(c: &Case, got: &[(f64, f64)]) {
    for (k, (g, w)) in got.iter().zip(&c.after).enumerate() {
        assert!(
            (g.0 - w.0).abs() < 1e-9 && (g.1 - w.1).abs() < 1e-9,
            "ratings-golden.txt:{} ({}), player {k}: got {g:?}, reference {w:?}",
            c.line,
            c.model
        );
    }
}

#[test]
fn trueskill_equals_reference() {
    let env = trueskill::TrueSkill::default();
    let mut n = 0;
    for c in cases().iter().filter(|c| c.model == "trueskill") {
        let rs: Vec<trueskill::Rating> = c
            .before
            .iter()
            .map(|&(mu, sigma)| trueskill::Rating { mu, sigma })
            .collect();
        // through the skillratings crate, and through dip's own factor graph
        let got = env.rate(&rs, &c.ranks).expect("rated");
        check(c, &got.iter().map(|r| (r.mu, r.sigma)).collect::<Vec<_>>());
        let own = env.rate_own(&rs, &c.ranks).expect("rated");
        check(c, &own.iter().map(|r| (r.mu, r.sigma)).collect::<Vec<_>>());
        for (i, o) in own.iter().enumerate() {
            let e = env.explain(&rs, &c.ranks, i).expect("explained");
            assert_eq!((e.after.mu, e.after.sigma), (o.mu, o.sigma));
        }
        n += 1;
    }
    assert!(n >= 50, "only {n} TrueSkill cases");
}

#[test]
fn plackett_luce_equals_reference() {
    let m = wenglin::PlackettLuce {
        mu: 25.0,
        sigma: 25.0 / 3.0,
        beta: 25.0 / 6.0,
        kappa: 0.0001,
        tau: 25.0 / 300.0,
    };
    let mut n = 0;
    for c in cases().iter().filter(|c| c.model == "plackett-luce") {
        let rs: Vec<wenglin::Rating> = c
            .before
            .iter()
            .map(|&(mu, sigma)| wenglin::Rating { mu, sigma })
            .collect();
        let got = m.rate(&rs, &c.ranks);
        check(c, &got.iter().map(|r| (r.mu, r.sigma)).collect::<Vec<_>>());
        for (i, g) in got.iter().enumerate() {
            assert_eq!(m.explain(&rs, &c.ranks, i).after, *g);
        }
        n += 1;
    }
    assert_eq!(n, 60);
}
