//! Boards under `dip serve`, in-process: anyone's board plays a phase and
//! refuses requests from other sites; a signed-in user's board is kept
//! across a restart, is its owner's to change, and others read it only
//! by its read-only link; files that are not games, oversized uploads and
//! archives that would write outside their folder are refused with the
//! board left as it was; a hosted game's processed phase opens as a board;
//! `dip board`'s Save never writes outside its folder.

mod common;

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use common::TestApp;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

/// The browser's pre-session cookie (signed out).
const NONCE: &str = "0123456789abcdef0123456789abcdef";

/// The token the page of a browser with that cookie sends.
fn csrf() -> String {
    let mut h = axum::http::HeaderMap::new();
    h.insert(header::COOKIE, format!("dip_csrf={NONCE}").parse().unwrap());
    dip_server::csrf::token(&h).0
}

/// A request as the board's page sends it: the pre-session cookie and the CSRF header,
/// the server's own origin; `extra` headers on top (or in place).
async fn send(
    app: &dip_server::AppState,
    method: Method,
    path: &str,
    body: Option<Vec<u8>>,
    extra: &[(&str, &str)],
) -> (StatusCode, Value, Vec<(String, String)>) {
    let mut req = Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, "localhost")
        .header(header::COOKIE, format!("dip_csrf={NONCE}"))
        .header("x-csrf-token", csrf())
        .header(header::ORIGIN, "http://localhost")
        .header("sec-fetch-site", "same-origin");
    for (k, v) in extra {
        req.headers_mut().unwrap().remove(*k);
        if !v.is_empty() {
            req = req.header(*k, *v);
        }
    }
    let json = !extra.iter().any(|(k, _)| *k == "content-type");
    let req = match body {
        Some(b) if json => req
            .header("content-type", "application/json")
            .body(Body::from(b))
            .unwrap(),
        Some(b) => req.body(Body::from(b)).unwrap(),
        None => req.body(Body::empty()).unwrap(),
    };
    let resp = dip_server::app(app.clone()).oneshot(req).await.unwrap();
    let status = resp.status();
    let headers = resp
        .headers()
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_str().unwrap_or("").to_string()))
        .collect();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes().to_vec();
    let v = serde_json::from_slice(&bytes).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
    (status, v, headers)
}

async fn post(app: &dip_server::AppState, path: &str, body: Value, extra: &[(&str, &str)]) -> (StatusCode, Value) {
    let (s, v, _) = send(app, Method::POST, path, Some(serde_json::to_vec(&body).unwrap()), extra).await;
    (s, v)
}

async fn get(app: &dip_server::AppState, path: &str, extra: &[(&str, &str)]) -> (StatusCode, Value) {
    let (s, v, _) = send(app, Method::GET, path, None, extra).await;
    (s, v)
}

fn bearer(t: &str) -> String {
    format!("Bearer {t}")
}

#[tokio::test]
async fn anyones_board_plays_a_phase_and_refuses_other_sites() {
    let app = TestApp::new();
    let (s, v) = post(&app.state, "/api/v1/boards", json!({"variant": "standard"}), &[]).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let base = format!("/api/v1/boards/{id}");

    // Orders for three powers in three syntaxes; the unit's owner orders.
    let (s, v) = post(
        &app.state,
        &format!("{base}/orders"),
        json!({"text": "ENG F(Edi) S F(Lon) - NTH\nF lon-nth\nFrance: A Paris -> Burgundy"}),
        &[],
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let orders: Vec<&str> = v["orders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["order"].as_str().unwrap())
        .collect();
    assert_eq!(
        orders,
        ["ENG F(Edi) S F(Lon) - NTH", "ENG F(Lon) - NTH", "FRA A(Par) - Bur"]
    );

    // Another site, no token, a wrong token: refused, nothing changes.
    for extra in [
        vec![("origin", "http://evil.example")],
        vec![("sec-fetch-site", "cross-site")],
        vec![("x-csrf-token", "")],
        vec![("x-csrf-token", "wrong")],
    ] {
        let (s, v) = post(&app.state, &format!("{base}/resolve"), json!({}), &extra).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{extra:?}: {v}");
    }
    let (_, v) = get(&app.state, &base, &[]).await;
    assert_eq!(v["phase"], "S1901M");

    let (s, v) = post(&app.state, &format!("{base}/resolve"), json!({}), &[]).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        (v["phase"].as_str(), v["stage"].as_str()),
        (Some("F1901M"), Some("finished"))
    );
    let nth: Vec<&Value> = v["units"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["province"] == "nth")
        .collect();
    assert_eq!(nth[0]["power"], "England");

    // Another board of this server is no file: the board plays bundled variants only.
    let (s, _) = get(&app.state, "/api/v1/boards/0123456789abcdef0123456789abcdef", &[]).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_kept_board_survives_a_restart_and_is_its_owners() {
    let app = TestApp::new();
    let anne = app.user("anne").await;
    let bob = app.user("bob").await;
    let a = bearer(&anne);
    let b = bearer(&bob);
    let (s, v) = post(
        &app.state,
        "/api/v1/boards",
        json!({"variant": "standard"}),
        &[("authorization", &a)],
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let base = format!("/api/v1/boards/{id}");
    let (s, v) = post(
        &app.state,
        &format!("{base}/orders"),
        json!({"text": "A par-bur\nA mar S A par-bur"}),
        &[("authorization", &a)],
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = post(
        &app.state,
        &format!("{base}/resolve"),
        json!({}),
        &[("authorization", &a)],
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let share = v["share_url"].as_str().unwrap().rsplit('/').next().unwrap().to_string();
    let (s, _) = post(
        &app.state,
        &format!("{base}/edit"),
        json!({"op": "title", "title": "Anne's plan"}),
        &[("authorization", &a)],
    )
    .await;
    assert_eq!(s, StatusCode::OK);

    // A restart: the board comes back from storage.
    let restarted = dip_server::AppState::new(dip_server::db::Db::sqlite(&app.dir.join("dip.sqlite")).unwrap());
    let (s, v) = get(&restarted, &base, &[("authorization", &a)]).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        (v["phase"].as_str(), v["title"].as_str()),
        (Some("F1901M"), Some("Anne's plan"))
    );
    assert_eq!(v["history"].as_array().unwrap().len(), 1);
    assert!(v["units"]
        .as_array()
        .unwrap()
        .iter()
        .any(|u| u["province"] == "bur" && u["power"] == "France"));

    // Bob neither changes nor reads it; with the read-only link he reads it.
    let (s, _) = post(
        &restarted,
        &format!("{base}/resolve"),
        json!({}),
        &[("authorization", &b)],
    )
    .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, _) = get(&restarted, &base, &[("authorization", &b)]).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, v) = get(&restarted, &format!("{base}?share={share}"), &[("authorization", &b)]).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, page, _) = send(&restarted, Method::GET, &format!("/board/shared/{share}"), None, &[]).await;
    assert_eq!(s, StatusCode::OK);
    let page = page.as_str().unwrap().to_string();
    assert!(
        page.contains("data-readonly=\"true\"") && !page.contains("data-act=\"resolve\""),
        "{page:.400}"
    );
    // A copy is his to play.
    let (s, v) = post(
        &restarted,
        "/api/v1/boards",
        json!({"from": id, "share": share}),
        &[("authorization", &b)],
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let copy = v["id"].as_str().unwrap().to_string();
    let (s, v) = post(
        &restarted,
        &format!("/api/v1/boards/{copy}/next"),
        json!({}),
        &[("authorization", &b)],
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["stage"], "moves");
}

#[tokio::test]
async fn files_that_are_no_games_leave_the_board_as_it_was() {
    let app = TestApp::new();
    let (_, v) = post(&app.state, "/api/v1/boards", json!({}), &[]).await;
    let id = v["id"].as_str().unwrap().to_string();
    let base = format!("/api/v1/boards/{id}");
    post(&app.state, &format!("{base}/orders"), json!({"text": "A par-bur"}), &[]).await;
    let (_, before) = get(&app.state, &base, &[]).await;
    let open = |name: &str, bytes: Vec<u8>| {
        let path = format!("{base}/open?name={name}");
        let app = &app.state;
        async move {
            let (s, v, _) = send(
                app,
                Method::POST,
                &path,
                Some(bytes),
                &[("content-type", "application/octet-stream")],
            )
            .await;
            (s, v)
        }
    };
    // A .dip file with a bad unit line: its line in the message.
    let bad =
        "DIP game file\ngame x\nvariant standard\nrules datc\nphase spring 1901 movement\nunits\n  England: F xyz\n";
    let (s, v) = open("bad_s01.dip", bad.as_bytes().to_vec()).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    let m = v["error"]["message"].as_str().unwrap();
    assert!(m.contains("bad_s01.dip:7"), "{m}");
    assert!(!m.contains("dip-board-"), "no private folder in the message: {m}");
    // Not a game at all.
    let (s, v) = open("notes.txt", b"Dear diary, today I lost Munich.\n".to_vec()).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    // Over 10 MB.
    let (s, v) = open("big.dip", vec![b'x'; 10 * 1024 * 1024 + 1]).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    // A zip whose member would leave its folder.
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    z.start_file("../GAME.TXT", zip::write::SimpleFileOptions::default())
        .unwrap();
    std::io::Write::write_all(&mut z, b"x").unwrap();
    let bytes = z.finish().unwrap().into_inner();
    let (s, v) = open("evil.zip", bytes).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["error"]["message"].as_str().unwrap().contains("outside"), "{v}");
    let (_, after) = get(&app.state, &base, &[]).await;
    assert_eq!(before["version"], after["version"], "the board did not change");
    assert_eq!(before["orders"], after["orders"]);

    // What the board saves opens again: the .dip of the season in progress.
    let (s, body, headers) = send(&app.state, Method::GET, &format!("{base}/save?format=dip"), None, &[]).await;
    assert_eq!(s, StatusCode::OK);
    assert!(
        headers
            .iter()
            .any(|(k, v)| k == "content-disposition" && v.contains("board_s01.dip")),
        "{headers:?}"
    );
    let text = body.as_str().unwrap().to_string();
    assert!(text.contains("\norders\n  FRA A(Par) - Bur\n"), "{text}");
    let (s, v) = open("board_s01.dip", text.into_bytes()).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["orders"][0]["order"], "FRA A(Par) - Bur");
}

#[tokio::test]
async fn a_hosted_games_phase_opens_as_a_board() {
    let app = TestApp::new();
    let (gid, tokens) = app.seven(json!({})).await;
    let (s, v) = app
        .put(
            &format!("/api/v1/games/{gid}/orders"),
            Some(&tokens[2].1),
            json!({"orders": ["A par-bur", "A mar S A par-bur"]}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = app
        .post(&format!("/api/v1/games/{gid}/process"), Some(&tokens[0].1), json!({}))
        .await;
    assert!(s.is_success(), "{v}");
    // The form on the game page: the processed phase S1901M.
    let (s, _, headers) = send(
        &app.state,
        Method::POST,
        &format!("/games/{gid}/board"),
        Some(format!("csrf={}&phase=S1901M", csrf()).into_bytes()),
        &[("content-type", "application/x-www-form-urlencoded")],
    )
    .await;
    assert_eq!(s, StatusCode::SEE_OTHER);
    let to = headers.iter().find(|(k, _)| k == "location").unwrap().1.clone();
    let id = to.rsplit('/').next().unwrap();
    let (s, v) = get(&app.state, &format!("/api/v1/boards/{id}"), &[]).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["phase"], "S1901M");
    assert!(
        v["orders"]
            .as_array()
            .unwrap()
            .iter()
            .any(|o| o["order"] == "FRA A(Mar) S A(Par) - Bur"),
        "{v}"
    );
    // Resolved on the board: France in Burgundy, as in the game.
    let (_, v) = post(&app.state, &format!("/api/v1/boards/{id}/resolve"), json!({}), &[]).await;
    assert!(
        v["units"]
            .as_array()
            .unwrap()
            .iter()
            .any(|u| u["province"] == "bur" && u["power"] == "France"),
        "{v}"
    );
}

/// `dip board`'s Save writes into its folder and nowhere else: a name
/// with a folder, `..`, an absolute path or a hidden name is refused, a
/// link in the folder is not written through, and a file saved over is
/// kept as `NAME~` first.
#[tokio::test]
async fn the_local_boards_save_never_writes_outside_its_folder() {
    use dip_server::board::{routes::local_app, Boards, Limits, Settings};
    let root = std::env::temp_dir().join(format!("dip-board-save-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let folder = root.join("games");
    std::fs::create_dir_all(&folder).unwrap();
    let boards = Boards::new(
        dip_play::Variants::bundled_only(),
        Settings {
            folder: Some(folder.canonicalize().unwrap()),
            token: "boardtoken".into(),
            local: true,
        },
        Limits::default(),
    );
    let id = boards.insert(boards.start("standard").unwrap());
    let app = local_app(boards, id.clone());
    let save = |name: &str| {
        let req = Request::builder()
            .method(Method::POST)
            .uri(format!("/api/v1/boards/{id}/save"))
            .header(header::HOST, "127.0.0.1")
            .header("x-csrf-token", "boardtoken")
            .header("content-type", "application/json")
            .body(Body::from(json!({"format": "dip", "name": name}).to_string()))
            .unwrap();
        let app = app.clone();
        async move {
            let resp = app.oneshot(req).await.unwrap();
            let s = resp.status();
            let b = resp.into_body().collect().await.unwrap().to_bytes();
            (s, String::from_utf8_lossy(&b).to_string())
        }
    };
    std::fs::write(root.join("outside.dip"), "mine").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(root.join("outside.dip"), folder.join("link.dip")).unwrap();
    let abs = root.join("abs.dip");
    for bad in [
        "../outside.dip",
        "sub/x.dip",
        "..\\x.dip",
        abs.to_str().unwrap(),
        ".hidden.dip",
        "..",
        "link.dip",
    ] {
        let (s, body) = save(bad).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "`{bad}`: {body:.300}");
    }
    assert_eq!(std::fs::read_to_string(root.join("outside.dip")).unwrap(), "mine");
    assert!(!abs.exists());
    let mut names: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    assert_eq!(names, ["games", "outside.dip"]);
    // Saved, then saved over: the first file is kept beside it.
    let (s, body) = save("friday_s01.dip").await;
    assert_eq!(s, StatusCode::OK, "{body:.300}");
    std::fs::write(folder.join("friday_s01.dip"), "the user's own edit").unwrap();
    let (s, body) = save("friday_s01.dip").await;
    assert_eq!(s, StatusCode::OK, "{body:.300}");
    assert_eq!(
        std::fs::read_to_string(folder.join("friday_s01.dip~")).unwrap(),
        "the user's own edit"
    );
    assert!(std::fs::read_to_string(folder.join("friday_s01.dip"))
        .unwrap()
        .starts_with("DIP game file"));
    let _ = std::fs::remove_dir_all(&root);
}

/// Edit season's fields, as the page sends them, make the phase and stage
/// they made before: the season, year and stage are read as a phase name
/// by dip's one reader of them.
#[tokio::test]
async fn edit_season_reads_as_before_in_every_form() {
    let app = TestApp::new();
    let (_, v) = post(&app.state, "/api/v1/boards", json!({"variant": "standard"}), &[]).await;
    let base = format!("/api/v1/boards/{}", v["id"].as_str().unwrap());
    let edit = |season: &str, year: i64, stage: &str| {
        let (app, base) = (&app, &base);
        let body = json!({"op": "season", "season": season, "year": year, "stage": stage});
        async move {
            let (s, v) = post(&app.state, &format!("{base}/edit"), body, &[]).await;
            if s != StatusCode::OK {
                return Err(format!("{s} {v}"));
            }
            let (_, v) = get(&app.state, base, &[]).await;
            Ok(format!(
                "{} {}",
                v["phase"].as_str().unwrap(),
                v["stage"].as_str().unwrap()
            ))
        }
    };
    for (season, year, stage, want) in [
        ("spring", 1901, "moves", "S1901M moves"),
        ("Spring", 1905, "retreats", "S1905R retreats"),
        ("s", 1905, "movement", "S1905M moves"),
        ("fall", 1902, "moves", "F1902M moves"),
        ("autumn", 1902, "retreat", "F1902R retreats"),
        ("a", 1903, "adjustments", "W1903A adjustments"),
        ("f", 1903, "builds", "W1903A adjustments"),
        ("spring", 1904, "finished", "F1904M finished"),
        ("fall", 1904, "season finished", "S1905M finished"),
        ("fall", -50, "moves", "F-50M moves"),
        ("fall", 1_000_000, "finished", "S1000000M finished"),
    ] {
        assert_eq!(
            edit(season, year, stage).await.as_deref(),
            Ok(want),
            "{season} {year} {stage}"
        );
    }
    for (season, year, stage, says) in [
        ("summer", 1901, "moves", "season `summer`: spring or autumn"),
        ("winter", 1901, "moves", "spring or autumn"),
        ("spring", 1901, "soon", "stage `soon`"),
        ("spring", 1_000_001, "moves", "out of range"),
        ("spring", 99_999_999_999, "moves", "out of range"),
    ] {
        let e = edit(season, year, stage).await.unwrap_err();
        assert!(e.starts_with("400") && e.contains(says), "{season} {year} {stage}: {e}");
    }
    // A refused edit leaves the board as it was.
    let (_, v) = get(&app.state, &base, &[]).await;
    assert_eq!(v["phase"], "S1000000M");
}

/// Spring with "before adjustments" made a spring adjustment phase: shown
/// and saved as `W1901A`, which opens again as the one after autumn.
#[tokio::test]
async fn edit_season_made_spring_adjustments_that_reopen_as_winter() {
    let app = TestApp::new();
    let (_, v) = post(&app.state, "/api/v1/boards", json!({"variant": "standard"}), &[]).await;
    let base = format!("/api/v1/boards/{}", v["id"].as_str().unwrap());
    let body = json!({"op": "season", "season": "spring", "year": 1901, "stage": "adjustments"});
    let (s, v) = post(&app.state, &format!("{base}/edit"), body, &[]).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert!(v.to_string().contains("adjustments come in winter"), "{v}");
}
