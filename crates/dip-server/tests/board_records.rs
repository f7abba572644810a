//! The board's saved record (`.rec`) and the HISTORY.REC of its DipWork
//! zip are made from the phases the board played, each played once: the
//! text is the one the record's phases give when played again, as it was
//! when saving played every phase a second time.

use dip_core::random::{random_orders, Rng};
use dip_game::record::GameRecord;
use dip_play::{Game, Loaded, Variants};
use dip_server::board::files::{save, Format};
use dip_server::board::Board;
use dip_text::{format_order, Style};
use std::io::Read;

/// A board of `name` played `phases` phases of random orders, with a line
/// of nonsense for each power (deleted by the check, reported).
fn played_board(variants: &Variants, name: &str, seed: u64, phases: usize) -> Board {
    let mut board = Board::new(Game::new(variants.get(name).unwrap()));
    let mut rng = Rng::with_seed(seed);
    for _ in 0..phases {
        let map = board.game.map().clone();
        let orders = random_orders(&map, board.game.state(), board.game.rules(), &mut rng);
        for p in map.power_ids() {
            let mut text: String = orders
                .iter()
                .filter(|o| o.power == p)
                .map(|o| format_order(&map, o, Style::Datc) + "\n")
                .collect();
            text.push_str("A xyz - abc\n");
            board.game.submit(p, &text);
        }
        board.game.process();
    }
    board
}

/// The record read from `text` and played again, as saving did before.
fn played_again(loaded: &Loaded, text: &str) -> String {
    let rec = GameRecord::from_text(loaded.map(), text, "saved.rec").unwrap_or_else(|e| panic!("{e}\n{text}"));
    rec.to_text(&loaded.map().clone())
}

fn history_rec(zip: &[u8]) -> String {
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(zip)).unwrap();
    let name = z
        .file_names()
        .filter_map(Result::ok)
        .find(|n| n.ends_with("HISTORY.REC"))
        .map(|n| n.to_string())
        .expect("HISTORY.REC in the zip");
    let mut text = String::new();
    z.by_name(&name).unwrap().read_to_string(&mut text).unwrap();
    text
}

#[test]
fn a_boards_record_and_dipwork_zip_are_made_from_the_phases_it_played() {
    let variants = Variants::new();
    for name in ["standard", "ancmed", "chaos", "youngstown", "1898", "coldwar"] {
        for seed in 0..2 {
            let board = played_board(&variants, name, seed, 7);
            let loaded = board.game.loaded().clone();
            let rec = String::from_utf8(save(&board, Format::Record, None).unwrap().bytes).unwrap();
            assert_eq!(rec.matches("\nphase ").count(), 7, "{name}: {rec}");
            assert_eq!(rec, played_again(&loaded, &rec), "{name} {seed}: the saved record");
            let zip = save(&board, Format::Dipwork, Some("game")).unwrap().bytes;
            assert_eq!(history_rec(&zip), rec, "{name} {seed}: the zip's HISTORY.REC");
        }
    }
}
