//! A hosted game's MILA export, read back by `dip record import` on the
//! game's own variant and written again by `dip record export`.

mod serve_common;

use serde_json::{json, Value};
use serve_common::{temp_dir, Server};
use std::process::Command;

fn dip(args: &[&str], dir: &std::path::Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dip"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// The export said `"map": "standard"` whatever the game's variant, and
/// the import read every game on the standard map: an ancmed game was
/// refused, or read as a standard one.
#[test]
fn a_mila_export_of_an_ancmed_game_was_read_as_a_standard_game() {
    let dir = temp_dir("serve-export");
    let server = Server::start(&["--data", dir.join("data").to_str().unwrap()]);
    let c = server.client();
    let powers = ["Carthage", "Egypt", "Greece", "Persia", "Rome"];
    let tokens: Vec<String> = powers.iter().map(|p| c.user(&format!("ancient-{p}"))).collect();
    let (s, v) = c.call(
        "POST",
        "/api/v1/games",
        Some(&tokens[0]),
        Some(json!({"name": "Ancient", "variant": "ancmed"})),
    );
    assert_eq!(s, 201, "{v}");
    let id = v["id"].as_i64().unwrap();
    for (p, t) in powers.iter().zip(&tokens) {
        let (s, v) = c.call(
            "POST",
            &format!("/api/v1/games/{id}/join"),
            Some(t),
            Some(json!({"power": p})),
        );
        assert_eq!(s, 200, "{v}");
    }
    // Every power moves its first unit somewhere it may go; two phases.
    for _ in 0..2 {
        for t in &tokens {
            let (_, legal) = c.call("GET", &format!("/api/v1/games/{id}/legal"), Some(t), None);
            let order = legal["units"][0]["orders"]
                .as_array()
                .and_then(|o| o.iter().find(|o| o["kind"] == "move"))
                .map(|o| o["text"].clone())
                .unwrap_or(Value::Null);
            let (s, v) = c.call(
                "PUT",
                &format!("/api/v1/games/{id}/orders"),
                Some(t),
                Some(json!({"orders": [order], "phase": legal["phase"]})),
            );
            assert_eq!(s, 200, "{v}");
        }
        let (s, v) = c.call("POST", &format!("/api/v1/games/{id}/process"), Some(&tokens[0]), None);
        assert_eq!(s, 200, "{v}");
    }
    let (s, exported) = c.call("GET", &format!("/api/v1/games/{id}/export?format=mila"), None, None);
    assert_eq!(s, 200, "{exported}");
    assert_eq!(exported["map"], "ancmed");
    std::fs::write(dir.join("game.json"), exported.to_string()).unwrap();

    let o = dip(&["record", "import", "game.json", "-o", "records"], &dir);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rec = std::fs::read_to_string(dir.join(format!("records/dip-{id}.rec"))).unwrap();
    assert!(rec.contains("\nvariant ancmed\n"), "{rec}");
    let o = dip(&["record", "export", &format!("records/dip-{id}.rec")], &dir);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let again: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(again["map"], "ancmed");
    assert_eq!(again["phases"], exported["phases"], "the same game, phase by phase");

    // `dip replay` skipped a game on another map, said "0 phases agree,
    // 0 differ" and exited 0: it replays it on its variant now.
    let o = dip(&["replay", "game.json"], &dir);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        out.contains(" phases agree, 0 differ") && !out.starts_with("0 phases"),
        "{out}"
    );
    // A unit moved by hand in the record is found.
    let mut tampered = exported.clone();
    let units = &mut tampered["phases"][1]["state"]["units"];
    let (power, list) = units.as_object_mut().unwrap().iter_mut().next().unwrap();
    let moved = list[0].as_str().unwrap().to_string();
    let _ = power;
    list[0] = json!(format!("{}X", &moved[..moved.len() - 1]));
    std::fs::write(dir.join("tampered.json"), tampered.to_string()).unwrap();
    let o = dip(&["replay", "tampered.json"], &dir);
    assert_ne!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stdout));

    // A map dip has no variant of is named, and nothing is written.
    let mut other = exported.clone();
    other["map"] = json!("atlantis");
    std::fs::write(dir.join("other.json"), other.to_string()).unwrap();
    let o = dip(&["record", "import", "other.json", "-o", "others"], &dir);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("game 1") && err.contains("map `atlantis`"), "{err}");
    assert!(!dir.join("others").exists());
    drop(server);
    let _ = std::fs::remove_dir_all(dir);
}
