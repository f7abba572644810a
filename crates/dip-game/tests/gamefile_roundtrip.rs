//! GAME.TXT reads back exactly: the position `write_game` writes (the
//! DipWork export's, `dip run`'s NEWGAME.TXT, the board's zip) is the one
//! `GameFile::state` reads, at random reachable positions of every bundled
//! variant (units on coasts, dislodged units, standoffs, owners).

use dip_core::random::{random_orders, Rng};
use dip_core::{game, State};
use dip_game::gamefile::{write_game, GameFile};
use dip_play::Variants;
use std::path::Path;

fn assert_reads_back(vocab: &dip_text::Vocabulary, state: &State, what: &str) {
    let text = write_game(&["NAME test".to_string()], vocab, state, &[]);
    let file = GameFile::read(&text, Path::new("GAME.TXT")).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
    let back = file.state(vocab).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
    assert_eq!(&back, state, "{what}: GAME.TXT read back differs\n{text}");
}

#[test]
fn game_files_of_every_bundled_variant_read_back() {
    let variants = Variants::new();
    for name in variants.bundled_names() {
        let loaded = variants.get(name).unwrap();
        let v = loaded.variant();
        let vocab = loaded.vocabulary();
        for seed in 0..2 {
            let mut rng = Rng::with_seed(seed);
            let mut state = v.start.clone();
            for n in 0..14 {
                assert_reads_back(vocab, &state, &format!("{name} seed {seed} phase {n} {}", state.phase));
                if game::winner(&v.map, &state).is_some() {
                    break;
                }
                let orders = random_orders(&v.map, &state, &v.rules, &mut rng);
                let outcome = game::adjudicate(&v.map, &state, &orders, &v.rules);
                state = game::advance(&v.map, &state, &outcome);
            }
        }
    }
}

/// A game record (`dip`'s `.rec`, the board's save, the DipWork export's
/// HISTORY.REC) reads back as the record written, for random games of
/// every bundled variant.
#[test]
fn records_of_every_bundled_variant_read_back() {
    use dip_game::record::{GameRecord, PhaseRecord};
    let variants = Variants::new();
    for name in variants.bundled_names() {
        let loaded = variants.get(name).unwrap();
        let v = loaded.variant();
        let mut rng = Rng::with_seed(7);
        let mut state = v.start.clone();
        let mut rec = GameRecord {
            name: format!("{name} game"),
            variant: name.to_string(),
            rules: v.rules.to_text(),
            phases: Vec::new(),
        };
        for _ in 0..10 {
            if game::winner(&v.map, &state).is_some() {
                break;
            }
            let orders = random_orders(&v.map, &state, &v.rules, &mut rng);
            let outcome = game::adjudicate(&v.map, &state, &orders, &v.rules);
            rec.phases.push(PhaseRecord {
                state: state.clone(),
                orders,
            });
            state = game::advance(&v.map, &state, &outcome);
        }
        let text = rec.to_text(&loaded);
        let back = GameRecord::from_text(&v.map, &text, "game.rec").unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        assert_eq!(back, rec, "{name}: the record read back differs\n{text}");
    }
}
