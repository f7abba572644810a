//! What is written reads back exactly: positions in the position format,
//! and whole games (position, orders, history) in the stored form, for
//! every bundled variant, the jDip plugin variants of the repository's
//! tests and the foreign-format examples, at random reachable positions.

use dip_core::random::{random_orders, Rng};
use dip_core::{game, State};
use dip_play::{read_line, Game, Loaded, Variants};
use dip_text::{format_order, format_position, parse_position, Style};
use proptest::prelude::*;
use std::sync::{Arc, OnceLock};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// The variants, loaded once for every test of this file.
fn loaded() -> &'static (Variants, Vec<Arc<Loaded>>) {
    static ALL: OnceLock<(Variants, Vec<Arc<Loaded>>)> = OnceLock::new();
    ALL.get_or_init(|| {
        let variants = Variants::new();
        let all = every_variant(&variants);
        (variants, all)
    })
}

/// Every variant the tests play: the bundled ones, the jDip plugins' and
/// one of each foreign format.
fn every_variant(variants: &Variants) -> Vec<Arc<Loaded>> {
    let mut names: Vec<String> = variants.bundled_names().iter().map(|n| n.to_string()).collect();
    for path in [
        "examples/jdip/tiny#Tiny Isle",
        "examples/jdip/tiny#Tiny Spring",
        "cases/jdip/islands",
        "examples/variants/mini",
        "examples/variants/tiny-realpolitik/Tiny.var",
        "examples/variants/duel.map",
    ] {
        names.push(format!("{ROOT}/{path}"));
    }
    names
        .iter()
        .map(|n| variants.get(n).unwrap_or_else(|e| panic!("{n}: {e}")))
        .collect()
}

fn assert_reads_back(loaded: &Loaded, state: &State) {
    let map = loaded.map();
    let text = format_position(map, state);
    let back = parse_position(map, &text, "written").unwrap_or_else(|e| panic!("{}: {e}\n{text}", map.name));
    assert_eq!(&back, state, "{}: the position read back differs\n{text}", map.name);
    // Every position a game reaches is one the one constructor builds.
    let built = State::from_position(map, &dip_core::Position::of(state));
    assert_eq!(built.as_ref(), Ok(state), "{}: from_position differs\n{text}", map.name);
}

/// Plays `phases` phases of random orders from the variant's start,
/// checking each position on the way.
fn random_positions(loaded: &Loaded, seed: u64, phases: usize) {
    let v = loaded.variant();
    let mut rng = Rng::with_seed(seed);
    let mut state = v.start.clone();
    for _ in 0..phases {
        assert_reads_back(loaded, &state);
        if game::winner(&v.map, &state).is_some() {
            break;
        }
        let orders = random_orders(&v.map, &state, &v.rules, &mut rng);
        let outcome = game::adjudicate(&v.map, &state, &orders, &v.rules);
        state = game::advance(&v.map, &state, &outcome);
    }
}

#[test]
fn random_positions_of_every_variant_read_back() {
    for loaded in &loaded().1 {
        for seed in 0..2 {
            random_positions(loaded, seed, 16);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_positions_read_back(which in 0usize..64, seed in any::<u64>(), phases in 1usize..24) {
        let all = &loaded().1;
        random_positions(&all[which % all.len()], seed, phases);
    }

    /// A game played from order texts, written down and read back, is the
    /// same game: position, orders waiting, every phase played.
    #[test]
    fn stored_games_read_back(which in 0usize..64, seed in any::<u64>(), phases in 0usize..10) {
        let (variants, all) = loaded();
        let mut game = Game::new(all[which % all.len()].clone());
        let mut rng = Rng::with_seed(seed);
        for n in 0..=phases {
            let map = game.map().clone();
            let orders = random_orders(&map, game.state(), game.rules(), &mut rng);
            for p in map.power_ids() {
                let text: String = orders
                    .iter()
                    .filter(|o| o.power == p)
                    .map(|o| format_order(&map, o, Style::Datc) + "\n")
                    .collect();
                if !text.is_empty() {
                    game.submit(p, &text);
                }
            }
            if n < phases {
                game.process();
            }
        }
        let json = game.to_json();
        let back = Game::from_json(variants, &json).unwrap_or_else(|e| panic!("{e}\n{json}"));
        prop_assert_eq!(back.to_json(), json);
        prop_assert_eq!(back.state(), game.state());
        prop_assert_eq!(back.history().len(), game.history().len());
        for (a, b) in back.history().iter().zip(game.history()) {
            prop_assert_eq!(&a.state, &b.state);
            prop_assert_eq!(&a.check, &b.check);
            prop_assert_eq!(&a.next, &b.next);
        }
        for (a, b) in back.submissions().iter().zip(game.submissions()) {
            prop_assert_eq!(&a.check, &b.check);
        }
    }
}

/// In Chaos the power named "St Petersburg" shares its name with the
/// province: after it built, `St Petersburg: A stp` did not read back, and
/// a game stored as text could not be played on.
#[test]
fn chaos_st_petersburg_builds_and_the_game_plays_on() {
    let variants = Variants::new();
    let mut game = Game::new(variants.get("chaos").unwrap());
    let stp = game.map().find_power("St Petersburg").unwrap();
    let s = game.submit(stp, "Build A stp");
    assert!(s.refused.is_empty(), "{:?}", s.refused);
    game.process();
    let map = game.map();
    let text = format_position(map, game.state());
    assert!(text.contains("St Petersburg: A stp"), "{text}");
    assert_eq!(&parse_position(map, &text, "chaos").unwrap(), game.state());
    let back = Game::from_json(&variants, &game.to_json()).unwrap();
    assert_eq!(back.state(), game.state());
    let mut back = back;
    back.submit(stp, "A stp - mos");
    let played = back.process();
    assert_eq!(played.state.phase.to_string(), "S1901M");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// A game whose orders were read elsewhere (MILA's texts, which name
    /// no nation; lines numbered as their file numbers them) reads back
    /// as the same game: every phase's lines as read, not read again.
    #[test]
    fn stored_games_of_lines_read_elsewhere_read_back(which in 0usize..64, seed in any::<u64>(), phases in 0usize..8, gap in 1usize..4) {
        let (variants, all) = loaded();
        let mut game = Game::new(all[which % all.len()].clone());
        let mut rng = Rng::with_seed(seed);
        for n in 0..=phases {
            let map = game.map().clone();
            let orders = random_orders(&map, game.state(), game.rules(), &mut rng);
            let texts: Vec<String> = orders.iter().map(|o| format_order(&map, o, Style::Mila)).collect();
            if n % 2 == 0 {
                game.submit_read(texts.iter().map(String::as_str).zip(orders.iter().copied()));
            } else {
                let lines = texts
                    .iter()
                    .zip(&orders)
                    .enumerate()
                    .map(|(i, (t, o))| read_line(1 + i * gap, t, *o, Vec::new()))
                    .collect();
                game.submit_lines(&texts.join("\n"), lines);
            }
            if n < phases {
                game.process();
            }
        }
        let json = game.to_json();
        let back = Game::from_json(variants, &json).unwrap_or_else(|e| panic!("{e}\n{json}"));
        prop_assert_eq!(back.to_json(), json);
        prop_assert_eq!(back.state(), game.state());
        prop_assert_eq!(format!("{:?}", back.submissions()), format!("{:?}", game.submissions()));
        prop_assert_eq!(format!("{:?}", back.history()), format!("{:?}", game.history()));
    }
}
