//! `settle`, the end of every phase, for orders an adapter read and
//! checked in its own dialect: the same phase as `Game::process` plays
//! from the same orders submitted as text (adjudicated as read), at random
//! reachable phases of several variants; and `order_problem`, why one
//! order cannot be given.

use dip_core::random::{random_orders, Rng};
use dip_core::{Illegal, Order, OrderKind, PhaseKind, State};
use dip_play::{order_problem, settle, Game, Loaded, PlayOptions, Refusal, Variants};
use dip_text::{format_order, parse_order_with, Style};
use proptest::prelude::*;
use std::sync::{Arc, OnceLock};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// A few variants of different kinds: the standard board, a variant
/// with other rules, a jDip plugin's and a foreign format's.
fn loaded() -> &'static Vec<Arc<Loaded>> {
    static ALL: OnceLock<Vec<Arc<Loaded>>> = OnceLock::new();
    ALL.get_or_init(|| {
        let variants = Variants::new();
        let mut names: Vec<String> = ["standard", "ancmed", "chaos"].iter().map(|n| n.to_string()).collect();
        for path in ["examples/jdip/tiny#Tiny Isle", "examples/variants/duel.map"] {
            names.push(format!("{ROOT}/{path}"));
        }
        names
            .iter()
            .map(|n| variants.get(n).unwrap_or_else(|e| panic!("{n}: {e}")))
            .collect()
    })
}

/// Plays `phases` phases of random orders from the variant's start, each
/// twice: through a `Game` that reads the orders as text, and through
/// `settle` from the orders themselves. The outcome (every order's
/// verdict, the moves, the dislodged and disbanded units, builds), the
/// position after and the winner must be the same.
fn settle_plays_as_process(loaded: &Arc<Loaded>, seed: u64, phases: usize) {
    let map = loaded.map();
    let rules = loaded.variant().rules;
    let as_read = PlayOptions {
        as_read: true,
        ..PlayOptions::default()
    };
    let mut rng = Rng::with_seed(seed);
    let mut state: State = loaded.variant().start.clone();
    for n in 0..phases {
        let given = random_orders(map, &state, &rules, &mut rng);
        // In the order the game reads its submissions: power by power.
        let orders: Vec<Order> = map
            .power_ids()
            .flat_map(|p| given.iter().filter(move |o| o.power == p).copied())
            .collect();
        let mut game = Game::from_state(loaded.clone(), state.clone()).with_options(as_read);
        for p in map.power_ids() {
            let text: String = orders
                .iter()
                .filter(|o| o.power == p)
                // Each of dip's forms in turn (MILA's, with no nation,
                // the words dip-py reads; DATC's with the nation; …).
                .map(|o| format_order(map, o, Style::ALL[n % Style::ALL.len()]) + "\n")
                .collect();
            if !text.is_empty() {
                game.submit(p, &text);
            }
        }
        let played = game.process();
        let settled = settle(map, &rules, &state, &orders, &[]);
        let phase = state.phase;
        assert_eq!(
            format!("{:?}", settled.outcome),
            format!("{:?}", played.outcome),
            "{}: {phase}",
            map.name
        );
        assert_eq!(settled.next, played.next, "{}: {phase}", map.name);
        assert_eq!(settled.winner, played.winner, "{}: {phase}", map.name);
        // The winner as the rules define it: the first power with the
        // victory's centres, each power's counted on its own.
        let need = map.victory_centers();
        let first = map.power_ids().find(|&p| settled.next.center_count(map, p) >= need);
        assert_eq!(settled.winner, first, "{}: {phase}", map.name);
        if settled.winner.is_some() {
            break;
        }
        state = settled.next;
    }
}

#[test]
fn settle_plays_the_phases_of_a_game_as_process_does() {
    for loaded in loaded() {
        settle_plays_as_process(loaded, 1, 12);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn settle_plays_random_phases_as_process_does(which in 0usize..64, seed in any::<u64>(), phases in 1usize..16) {
        let all = loaded();
        settle_plays_as_process(&all[which % all.len()], seed, phases);
    }
}

fn standard() -> Arc<Loaded> {
    loaded()[0].clone()
}

fn read(loaded: &Loaded, state: &State, power: &str, text: &str) -> Order {
    let p = loaded.map().find_power(power).unwrap();
    let o = parse_order_with(loaded.vocabulary(), text, Some(p)).unwrap();
    assert!(state.phase.kind == PhaseKind::Movement || !matches!(o.kind, OrderKind::Hold(_)));
    o
}

#[test]
fn order_problem_says_why_an_order_cannot_be_given_in_the_phase() {
    let loaded = standard();
    let (map, rules) = (loaded.map(), loaded.variant().rules);
    let start = &loaded.variant().start;
    let problem =
        |state: &State, power: &str, text: &str| order_problem(map, &rules, state, &read(&loaded, state, power, text));
    // Movement: a move that cannot be made, a unit of another power.
    assert_eq!(problem(start, "France", "A par-bur"), None);
    assert_eq!(
        problem(start, "France", "A par-mos"),
        Some(Refusal::Illegal(Illegal::Unreachable))
    );
    assert_eq!(
        problem(start, "France", "A mun-bur"),
        Some(Refusal::Illegal(Illegal::ForeignUnit))
    );
    // A retreat phase: Germany's army in Burgundy dislodged from Paris.
    let mut game = Game::new(loaded.clone());
    let france = map.find_power("France").unwrap();
    let germany = map.find_power("Germany").unwrap();
    game.submit(germany, "A mun-bur");
    game.process();
    game.submit(france, "A par-pic\nA mar-gas");
    game.process();
    game.submit(france, "A pic-bur\nA gas S A pic-bur");
    game.process();
    let retreat = game.state().clone();
    assert_eq!(retreat.phase.kind, PhaseKind::Retreat);
    assert_eq!(problem(&retreat, "Germany", "A bur-ruh"), None);
    assert_eq!(
        problem(&retreat, "Germany", "A bur-pic"),
        Some(Refusal::Illegal(Illegal::RetreatNotPossible))
    );
    assert_eq!(
        problem(&retreat, "France", "A bur-ruh"),
        Some(Refusal::Illegal(Illegal::ForeignUnit))
    );
    assert_eq!(
        Refusal::Illegal(Illegal::Unreachable).describe(),
        Illegal::Unreachable.describe()
    );
    assert_eq!(Refusal::NotExecuted.describe(), "not executed");
}

#[test]
fn settle_finds_the_power_with_the_victory_centres() {
    let loaded = standard();
    let (map, rules) = (loaded.map(), loaded.variant().rules);
    let mut state = loaded.variant().start.clone();
    assert_eq!(settle(map, &rules, &state, &[], &[]).winner, None);
    let france = map.find_power("France").unwrap();
    let need = map.victory_centers();
    // France's three home centres and enough others.
    let others: Vec<_> = map
        .supply_centers()
        .iter()
        .copied()
        .filter(|&sc| state.owner(sc) != Some(france))
        .take(need - 3)
        .collect();
    for sc in others {
        state.set_owner(sc, Some(france));
    }
    assert!(state.center_count(map, france) >= need);
    assert_eq!(settle(map, &rules, &state, &[], &[]).winner, Some(france));
}
