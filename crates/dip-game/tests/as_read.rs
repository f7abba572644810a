//! Orders already read, played through dip-play's `Game` as read
//! (`AsRead`: records, DIP's season files, `dip adjudicate`, `dip render`),
//! come to what the core's adjudicator and `advance` make of them: moving
//! those readers onto the one pipeline changed no result.

use dip_core::{game, random, Ruleset};
use dip_game::as_read::AsRead;
use dip_game::mila::read_games;
use dip_game::record::from_mila;

#[test]
fn orders_played_as_read_come_to_what_the_core_makes_of_them() {
    let v = dip_variants::standard();
    let rules = Ruleset::parse("datc convoy-adjacent=dptg").unwrap();
    let mut played = 0;
    let mut check = |game: &mut AsRead, state: &dip_core::State, orders: &[dip_core::Order], rules: &Ruleset| {
        let outcome = game::adjudicate(&v.map, state, orders, rules);
        let next = game::advance(&v.map, state, &outcome);
        let p = game.play(state, orders);
        assert_eq!(
            format!("{:?}", p.outcome),
            format!("{outcome:?}"),
            "{}",
            state.phase.short()
        );
        assert_eq!(p.next, next, "{}", state.phase.short());
        played += 1;
    };
    // Every phase of three MILA games: movement, retreats, adjustments.
    let mut as_read = AsRead::on(&v.map, rules);
    for g in read_games(include_bytes!("data/mila-3games.jsonl"), "mila").unwrap() {
        for ph in from_mila(&v.map, &g).unwrap().phases {
            check(&mut as_read, &ph.state, &ph.orders, &rules);
        }
    }
    // Random orders from the start, under the DATC's default rules:
    // illegal orders, convoys, dislodgements and civil disorder too.
    let datc = Ruleset::default();
    let mut as_read = AsRead::on(&v.map, datc);
    let mut rng = random::Rng::with_seed(26);
    let mut state = v.start.clone();
    for _ in 0..60 {
        let orders = random::random_orders(&v.map, &state, &datc, &mut rng);
        check(&mut as_read, &state, &orders, &datc);
        state = as_read.play(&state, &orders).next.clone();
    }
    assert!(played > 90, "{played} phases");
}
