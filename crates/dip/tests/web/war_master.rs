//! A Global War team game as its game master runs it from the page:
//! team passwords with commas, and the skip of a dropped turn, a button
//! the players neither see nor can use.

use super::private::signed_up;
use super::*;

/// The game master (the creator, not playing) makes a team game on /war
/// with passwords holding commas: each is kept whole and seats its player
/// in its team (the form once split them at the commas). When the game
/// runs, the game master's page has a Skip button and it passes the turn
/// (the API's `POST …/skip` had no button); a player's page has none, and
/// a player who posts the skip from the page, with its CSRF token, is
/// refused and changes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn war_game_master_skips_from_the_page_and_team_passwords_keep_commas_in_chromium() {
    let d = driver();
    let data = temp_dir("web-war-master");
    let server = Server::start(&["--data", data.to_str().unwrap()]);
    let base = server.base.clone();
    let api = server.client();
    const PASSWORDS: [&str; 3] = ["red, white", "a,b,c", ",lead"];

    let gm = signed_up(&d, &base, "wargm").await;
    gm.goto(&format!("{base}/war")).await.unwrap();
    fill(&gm, "#new-war input[name=name]", "Teams at war").await;
    find(&gm, "#new-war input[name=teams]").await.click().await.unwrap();
    for (t, p) in PASSWORDS.iter().enumerate() {
        fill(&gm, &format!("#new-war input[name=password{}]", t + 1), p).await;
    }
    find(&gm, "#new-war button[type=submit]").await.click().await.unwrap();
    until(&gm, "the game page", "return !!document.getElementById('join')").await;
    let url = gm.current_url().await.unwrap();
    let id: i64 = url.path().rsplit('/').next().unwrap().parse().unwrap();
    let gm_token = api.login("wargm");
    let (_, g) = api.call("GET", &format!("/api/v1/war/games/{id}"), Some(&gm_token), None);
    assert_eq!(g["options"]["passwords"], json!(PASSWORDS), "{g}");
    assert_eq!(g["game_master"], true, "{g}");
    // Signing up: no skip yet.
    assert_eq!(
        eval(&gm, "return !!document.getElementById('skip')").await,
        json!(false)
    );
    let players = ["warred", "warabc", "warlead"];
    let (to_move, next, mover) = teams_seat_their_players(&api, id, &gm_token, &players, &PASSWORDS);
    a_players_page_cannot_skip(&d, &base, &api, id, &gm_token, players[0], to_move).await;
    // The game master's page: the button names the player to move, and
    // passes the turn.
    gm.goto(&format!("{base}/war/{id}")).await.unwrap();
    until(&gm, "the skip button", "return !!document.getElementById('skip')").await;
    let label = find(&gm, "#skip").await.text().await.unwrap();
    assert_eq!(label, format!("Skip {mover}'s turn"));
    screenshot(&gm, "war-skip.png").await;
    find(&gm, "#skip").await.click().await.unwrap();
    gm.accept_alert().await.unwrap();
    until(
        &gm,
        "the skip in the log",
        &format!(
            "return [...document.querySelectorAll('#log li')].some(li => li.textContent === {})",
            json!(format!("{mover}'s turn was skipped and rolled back"))
        ),
    )
    .await;
    let (_, g) = api.call("GET", &format!("/api/v1/war/games/{id}"), Some(&gm_token), None);
    assert_eq!(g["turn"]["seat"], next, "{g}");
    gm.close().await.unwrap();
    drop(server);
    let _ = std::fs::remove_dir_all(data);
}

/// Each player's password, commas and all, seats them in its team; a
/// password cut at its comma is no team's. All vote, and the game runs:
/// the seat to move, the next, and the name of the player to move.
fn teams_seat_their_players(
    api: &Client,
    id: i64,
    gm_token: &str,
    players: &[&str; 3],
    passwords: &[&str; 3],
) -> (u64, u64, String) {
    let mut tokens = Vec::new();
    for (n, p) in players.iter().zip(passwords) {
        let t = api.user(n);
        let (s, v) = api.call(
            "POST",
            &format!("/api/v1/war/games/{id}/join"),
            Some(&t),
            Some(json!({"password": p})),
        );
        assert_eq!(s, 200, "{v}");
        tokens.push(t);
    }
    // A password cut at its comma is no team's.
    let t = api.user("warcut");
    let (s, v) = api.call(
        "POST",
        &format!("/api/v1/war/games/{id}/join"),
        Some(&t),
        Some(json!({"password": "a"})),
    );
    assert_eq!(s, 403, "{v}");
    for t in &tokens {
        let (s, v) = api.call(
            "POST",
            &format!("/api/v1/war/games/{id}/vote"),
            Some(t),
            Some(json!({"vote": true})),
        );
        assert_eq!(s, 200, "{v}");
    }
    let (_, g) = api.call("GET", &format!("/api/v1/war/games/{id}"), Some(gm_token), None);
    assert_eq!(g["status"], "active", "{g}");
    for (team, n) in players.iter().enumerate() {
        let seat = g["seats"].as_array().unwrap().iter().find(|s| s["name"] == *n).unwrap();
        assert_eq!(seat["team"], team + 1, "{n}: {g}");
    }
    let to_move = g["turn"]["seat"].as_u64().unwrap();
    let next = g["turn"]["next_seat"].as_u64().unwrap();
    let mover = g["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["seat"] == to_move)
        .unwrap()["name"]
        .as_str()
        .unwrap()
        .to_string();
    (to_move, next, mover)
}

/// A player's page: no button, and the skip posted from it, with its
/// CSRF token, is refused and changes nothing.
async fn a_players_page_cannot_skip(
    d: &Driver,
    base: &str,
    api: &Client,
    id: i64,
    gm_token: &str,
    name: &str,
    to_move: u64,
) {
    let player = browser(d, 1200, 900).await;
    log_in(&player, base, name).await;
    player.goto(&format!("{base}/war/{id}")).await.unwrap();
    until(
        &player,
        "the running game",
        "return document.querySelector('main.war')?.dataset.status === 'active'",
    )
    .await;
    assert_eq!(
        eval(&player, "return !!document.getElementById('skip')").await,
        json!(false)
    );
    let answer = player
        .execute_async(
            &format!(
                "const done = arguments[arguments.length - 1];
                 const csrf = document.querySelector('meta[name=\"csrf\"]').content;
                 fetch('/api/v1/war/games/{id}/skip', {{method: 'POST', credentials: 'same-origin',
                     headers: {{'content-type': 'application/json', 'x-csrf-token': csrf}}, body: '{{}}'}})
                   .then(r => r.text().then(t => done(r.status + ' ' + t)));"
            ),
            vec![],
        )
        .await
        .unwrap();
    let answer = answer.as_str().unwrap();
    assert!(answer.starts_with("403 "), "{answer}");
    assert!(answer.contains("only the game master"), "{answer}");
    let (_, g) = api.call("GET", &format!("/api/v1/war/games/{id}"), Some(gm_token), None);
    assert_eq!(g["turn"]["seat"], to_move, "the refused skip changed the game: {g}");
    player.close().await.unwrap();
}
