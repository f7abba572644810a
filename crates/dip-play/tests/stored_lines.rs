//! Games whose orders were read elsewhere ([`Game::submit_lines`],
//! [`Game::submit_read`]: a record's, a MILA game's, a case's, a DipWork
//! stage file's lines) are written down and read back as the same game:
//! position, orders waiting, every phase played, the turn in progress.

use dip_core::Order;
use dip_play::{read_line, Game, PlayOptions, Variants};
use dip_text::parse_order;

/// Everything a game is, compared whole: its rules, options, position,
/// the orders waiting, every phase played, the lines of a turn in
/// progress, and the next phase each plays from here.
fn assert_same_game(back: &Game, game: &Game) {
    assert_eq!(back.to_json(), game.to_json());
    assert_eq!(back.rules(), game.rules());
    assert_eq!(back.options(), game.options());
    assert_eq!(back.state(), game.state());
    assert_eq!(
        format!("{:#?}", back.submissions()),
        format!("{:#?}", game.submissions())
    );
    assert_eq!(format!("{:#?}", back.history()), format!("{:#?}", game.history()));
    assert_eq!(
        format!("{:?}", back.unused_lines()),
        format!("{:?}", game.unused_lines())
    );
    let (mut a, mut b) = (back.clone(), game.clone());
    assert_eq!(format!("{:#?}", a.process()), format!("{:#?}", b.process()));
}

fn order(game: &Game, text: &str) -> Order {
    parse_order(game.map(), text, None).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// MILA's texts name no nation: read again as a game master's text, every
/// line was an order without a nation, and the game read back was
/// another game.
#[test]
fn a_game_of_lines_read_elsewhere_reads_back_as_the_same_game() {
    let variants = Variants::new();
    let mut game = Game::new(variants.get("standard").unwrap()).with_options(PlayOptions {
        as_read: true,
        ..PlayOptions::default()
    });
    let spring = [
        ("A PAR - BUR", order(&game, "France: A par - bur")),
        ("F LON - NTH", order(&game, "England: F lon - nth")),
        ("A LVP - YOR", order(&game, "England: A lvp - yor")),
    ];
    game.submit_read(spring.iter().map(|(t, o)| (*t, *o)));
    game.process();
    // Lines numbered as their file numbers them, one with a convoy path.
    let nth = game.map().find_province("nth").unwrap();
    let fall = vec![
        read_line(7, "A BUR - MUN", order(&game, "France: A bur - mun"), Vec::new()),
        read_line(
            12,
            "A YOR - NWY VIA",
            order(&game, "England: A yor - nwy via convoy"),
            vec![nth],
        ),
        read_line(
            13,
            "F NTH C A YOR - NWY",
            order(&game, "England: F nth C A yor - nwy"),
            Vec::new(),
        ),
    ];
    game.submit_lines("A BUR - MUN\nA YOR - NWY VIA\nF NTH C A YOR - NWY", fall.clone());
    game.process();
    // Orders waiting, read elsewhere too.
    game.submit_lines(
        "A MUN H",
        vec![read_line(3, "A MUN H", order(&game, "France: A mun H"), Vec::new())],
    );
    let back = Game::from_json(&variants, &game.to_json()).unwrap();
    assert_same_game(&back, &game);
}

/// DipWork's game directory submits a stage file's lines for the whole
/// turn (`carry_lines`): read back after the movement, the game had
/// forgotten the turn in progress and read its lines again.
#[test]
fn a_turn_in_progress_of_lines_read_elsewhere_reads_back_as_the_same_game() {
    let variants = Variants::new();
    let mut game = Game::new(variants.get("standard").unwrap()).with_options(PlayOptions {
        carry_lines: true,
        two_phase_retreats: true,
        suggest_retreats: true,
        ..PlayOptions::default()
    });
    let map = game.map().clone();
    let texts = [
        "GER A MUN-BUR",
        "GER A BER-KIE",
        "FRA F BRE-MAO",
        "FRA A MAR S A PAR-BUR",
    ];
    let lines = texts
        .iter()
        .enumerate()
        .map(|(i, t)| read_line(i + 4, t, parse_order(&map, t, None).unwrap(), Vec::new()))
        .collect();
    game.submit_lines(&texts.join("\n"), lines);
    game.process();
    let back = Game::from_json(&variants, &game.to_json()).unwrap();
    assert_same_game(&back, &game);
}
