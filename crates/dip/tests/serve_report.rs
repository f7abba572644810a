//! The server's report of a phase is `dip run`'s: the same game directory
//! (the server's DipWork export) and the same orders, run by `dip run`,
//! give the report text the server stored.

mod serve_common;

use dip_core::random::Rng;
use serde_json::json;
use serve_common::{temp_dir, Client, Server};
use std::path::Path;
use std::process::Command;

/// Each power's order lines, by the power's name.
type Orders = std::collections::BTreeMap<String, Vec<String>>;

/// The files of a tar archive (the export), by name.
fn untar(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 512 <= bytes.len() && bytes[at] != 0 {
        let head = &bytes[at..at + 512];
        let name = String::from_utf8_lossy(&head[..100]).trim_end_matches('\0').to_string();
        let size =
            usize::from_str_radix(String::from_utf8_lossy(&head[124..136]).trim_matches(['\0', ' ']), 8).unwrap();
        out.push((name, bytes[at + 512..at + 512 + size].to_vec()));
        at += 512 + size.div_ceil(512) * 512;
    }
    out
}

/// France and Germany's first year makes a retreat (Burgundy); the other
/// orders are dip's random legal ones.
fn scripted(phase: &str, power: &str) -> Option<Vec<String>> {
    let lines: &[&str] = match (phase, power) {
        ("S1901M", "France") => &["A par-bur", "A mar H", "F bre H"],
        ("S1901M", "Germany") => &["A mun-ruh", "A ber-mun", "F kie H"],
        ("F1901M", "France") => &["A bur H", "A mar H", "F bre H"],
        ("F1901M", "Germany") => &["A ruh S A mun-bur", "A mun-bur", "F kie H"],
        _ => return None,
    };
    Some(lines.iter().map(|l| l.to_string()).collect())
}

/// Every power's orders of a phase: dip's random legal ones, France's and
/// Germany's scripted; Italy's left out in S1902M (its units hold, and the
/// server's report ends with a section that says so). The orders, and
/// whether Italy's were left out.
fn orders_of(loaded: &dip_play::Loaded, state: &dip_core::State, rng: &mut Rng) -> (Orders, bool) {
    let (map, rules) = (&loaded.variant().map, loaded.variant().rules);
    let phase = state.phase.short();
    let mut by_power = Orders::new();
    for o in dip_core::random::random_orders(map, state, &rules, rng) {
        let text = dip_text::format_order(map, &o, dip_text::Style::Mila);
        by_power.entry(map.power(o.power).name.clone()).or_default().push(text);
    }
    for p in ["France", "Germany"] {
        if let Some(lines) = scripted(&phase, p) {
            by_power.insert(p.to_string(), lines);
        }
    }
    let missed = phase == "S1902M" && by_power.remove("Italy").is_some();
    (by_power, missed)
}

/// `dip run`'s PLAIN.TXT of the phase: the game directory as the server
/// exports it before the phase, with the orders in ORDERS.TXT.
fn report_of_dip_run(c: &Client, id: i64, dir: &Path, phase: &str, by_power: &Orders) -> String {
    let (tar, status) = {
        let mut r = ureq::get(&format!("{}/api/v1/games/{id}/export?format=dipwork", c.base))
            .call()
            .unwrap();
        (r.body_mut().read_to_vec().unwrap(), r.status())
    };
    assert_eq!(status, 200);
    let game_dir = dir.join(format!("game-{phase}"));
    std::fs::create_dir_all(&game_dir).unwrap();
    for (name, bytes) in untar(&tar) {
        if name.ends_with("/GAME.TXT") {
            std::fs::write(game_dir.join("GAME.TXT"), bytes).unwrap();
        }
    }
    let mut orders_txt = String::from("THREEPHASE ja\n");
    for (power, lines) in by_power {
        orders_txt.push_str(&format!("NATION {power}\n{}\n", lines.join("\n")));
    }
    orders_txt.push_str("END\n");
    std::fs::write(game_dir.join("ORDERS.TXT"), orders_txt).unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_dip"))
        .args(["run", game_dir.to_str().unwrap(), "--all"])
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "dip run: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    std::fs::read_to_string(game_dir.join("PLAIN.TXT")).unwrap()
}

/// The server's report of the phase: the same orders through the API,
/// processed by the game master.
fn report_of_the_server(c: &Client, id: i64, tokens: &[(String, String)], phase: &str, by_power: &Orders) -> String {
    for (power, lines) in by_power {
        let token = &tokens.iter().find(|(p, _)| p == power).unwrap().1;
        let (s, v) = c.call(
            "PUT",
            &format!("/api/v1/games/{id}/orders"),
            Some(token),
            Some(json!({"orders": lines, "phase": phase})),
        );
        assert_eq!(s, 200, "{v}");
    }
    let gm = &tokens[0].1;
    let (s, v) = c.call(
        "POST",
        &format!("/api/v1/games/{id}/process"),
        Some(gm),
        Some(json!({})),
    );
    assert_eq!(s, 200, "{v}");
    let (_, detail) = c.call("GET", &format!("/api/v1/games/{id}/phases/{phase}"), None, None);
    detail["report"].as_str().unwrap().to_string()
}

#[test]
fn the_servers_report_of_a_phase_is_the_report_of_dip_run() {
    let dir = temp_dir("serve-report");
    let d = dir.to_str().unwrap().to_string();
    let server = Server::start(&["--data", &d]);
    let c = server.client();
    let (id, tokens) = c.seven(json!({"name": "Report check"}));
    let loaded = dip_server::variants::get(&dip_server::variants::for_server(), "standard").unwrap();
    let (map, rules) = (&loaded.variant().map, loaded.variant().rules);
    let mut state = loaded.variant().start.clone();
    let mut rng = Rng::with_seed(7);
    let mut kinds = std::collections::BTreeSet::new();
    // Until every kind of phase was compared (W1901A is skipped when
    // nobody gains or loses a centre).
    while kinds.len() < 3 && state.phase.year < 1905 {
        let phase = state.phase.short();
        let (by_power, missed) = orders_of(&loaded, &state, &mut rng);
        let plain = report_of_dip_run(&c, id, &dir, &phase, &by_power);
        let report = report_of_the_server(&c, id, &tokens, &phase, &by_power);
        let (tables, automatic) = match report.split_once("\nNo orders received (automatic changes)\n") {
            Some((t, a)) => (t, a),
            None => (report.as_str(), ""),
        };
        assert_eq!(
            tables, plain,
            "{phase}: the server's report (left), dip run's PLAIN.TXT (right)"
        );
        if missed {
            assert!(
                automatic
                    .lines()
                    .any(|l| l.starts_with("Italy: ") && l.contains("no order received")),
                "{report}"
            );
        } else {
            assert_eq!(automatic, "", "{phase}: {report}");
        }
        let orders: Vec<(dip_core::PowerId, String)> = by_power
            .iter()
            .map(|(p, l)| (map.find_power(p).unwrap(), l.join("\n")))
            .collect();
        state = dip_game::phase::play(loaded.vocabulary(), &rules, &state, &orders, &Default::default()).next;
        kinds.insert(phase.chars().last().unwrap());
    }
    assert_eq!(
        kinds,
        ['A', 'M', 'R'].into_iter().collect(),
        "every kind of phase compared"
    );
    drop(server);
    let _ = std::fs::remove_dir_all(dir);
}
