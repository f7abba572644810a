//! What the page shows once a phase is processed, as players meet it:
//! the last phase's orders drawn on the map of now with how each fared,
//! a toggle that hides them, a dislodged unit beside its attacker that
//! clicks as itself, the retreat phase's standoffs marked; and a forming
//! game's list of players that grows while the page is open.

use super::*;

/// Spring 1901 after the game master's edit (a French army in Burgundy, a
/// German one in the Ruhr): France's two armies bounce in Gascony,
/// Germany takes Burgundy with support, the fleet reaches the Atlantic.
const SPRING: [(&str, &[&str]); 2] = [
    ("France", &["A Par-Gas", "A Mar-Gas", "A Bur H", "F Bre-Mao"]),
    ("Germany", &["A Mun-Bur", "A Ruh S A Mun-Bur"]),
];

const POWERS: [&str; 7] = ["France", "Austria", "England", "Germany", "Italy", "Russia", "Turkey"];

/// The page's map has a drawn (not hidden) element for this selector.
fn shown(css: &str) -> String {
    format!(
        "const e = document.querySelector('#map svg {css}'); return !!e && e.getClientRects().length > 0 && e.getBoundingClientRect().width > 0"
    )
}

/// An element's box on the screen: left, top, width, height.
async fn rect(b: &Browser, css: &str) -> [f64; 4] {
    let v = eval(
        b,
        &format!("const r = document.querySelector('{css}').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]"),
    )
    .await;
    let n = |i: usize| v[i].as_f64().unwrap();
    [n(0), n(1), n(2), n(3)]
}

/// The province a click at the middle of this element lands in.
async fn clicks_as(b: &Browser, css: &str) -> Value {
    eval(
        b,
        &format!(
            "const r = document.querySelector('{css}').getBoundingClientRect();
             const t = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
             return [t?.closest('g.unit')?.getAttribute('class') ?? null, t?.closest('[data-province]')?.dataset.province ?? null]"
        ),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_processed_phase_shows_its_results_on_the_map_of_now() {
    let d = driver();
    let data = temp_dir("web-results");
    let server = Server::start(&["--data", data.to_str().unwrap()]);
    let base = server.base.clone();
    let api = server.client();
    let (id, tokens) = seven_with_an_edit(&api);
    let token = |p: &str| tokens.iter().find(|(q, _)| *q == p).unwrap().1.clone();
    // France's page, open while the phase is played: no results yet.
    let b = browser(&d, 1400, 900).await;
    log_in(&b, &base, "res-france").await;
    b.goto(&format!("{base}/games/{id}")).await.unwrap();
    page_ready(&b).await;
    ordering(&b, "S1901M").await;
    assert_eq!(
        eval(&b, "return !!document.querySelector('#map svg .results')").await,
        json!(false)
    );
    assert_eq!(
        eval(&b, "return document.getElementById('results-toggle')?.hidden ?? true").await,
        json!(true)
    );

    for (p, orders) in SPRING {
        let (s, v) = api.call(
            "PUT",
            &format!("/api/v1/games/{id}/orders"),
            Some(&token(p)),
            Some(json!({ "orders": orders })),
        );
        assert_eq!(s, 200, "{v}");
    }
    let (s, v) = api.call(
        "POST",
        &format!("/api/v1/games/{id}/process"),
        Some(&token("France")),
        Some(json!({})),
    );
    assert!(s < 300, "{s} {v}");
    spring_drawn_as_it_fared(&b).await;
    // The standoff in Gascony is marked, and no retreat goes there.
    assert_eq!(eval(&b, &shown(".standoff[data-province=\"gas\"]")).await, json!(true));
    the_dislodged_army_beside_its_attacker(&b).await;
    the_dislodged_army_retreats_by_clicks(&b).await;
    the_toggle_hides_the_results(&b).await;
    // A new visit draws them too (the page's first map is the server's).
    b.goto(&format!("{base}/games/{id}")).await.unwrap();
    page_ready(&b).await;
    assert_eq!(
        eval(&b, &shown(".results .order.move.failed[data-at=\"par\"]")).await,
        json!(true)
    );
    screenshot(&b, "results-retreat.png").await;
    let _ = b.close().await;
    drop(server);
    let _ = std::fs::remove_dir_all(data);
}

/// Seven players, France's also the game master, and the game master's
/// edit (a French army in Burgundy, a German one in the Ruhr). The game,
/// and each power's token.
fn seven_with_an_edit(api: &Client) -> (i64, Vec<(&'static str, String)>) {
    let tokens: Vec<(&str, String)> = POWERS
        .iter()
        .map(|p| (*p, api.user(&format!("res-{}", p.to_lowercase()))))
        .collect();
    let token = |p: &str| tokens.iter().find(|(q, _)| *q == p).unwrap().1.clone();
    let (s, v) = api.call(
        "POST",
        "/api/v1/games",
        Some(&token("France")),
        Some(json!({"name": "Results", "assignment": "choice"})),
    );
    assert_eq!(s, 201, "{v}");
    let id = v["id"].as_i64().unwrap();
    for (p, t) in &tokens {
        let (s, v) = api.call(
            "POST",
            &format!("/api/v1/games/{id}/join"),
            Some(t),
            Some(json!({"power": p})),
        );
        assert_eq!(s, 200, "{v}");
    }
    let (s, v) = api.call(
        "POST",
        &format!("/api/v1/games/{id}/edit"),
        Some(&token("France")),
        Some(json!({"edits": ["add France A bur", "add Germany A ruh"]})),
    );
    assert!(s < 300, "{s} {v}");
    (id, tokens)
}

/// The page moves on by itself to the retreat, with Spring's orders on
/// the map of now: each move, support and hold, marked as it fared; a
/// failed order with the red cross; the arrows under the clicks.
async fn spring_drawn_as_it_fared(b: &Browser) {
    ordering(b, "S1901R").await;
    until(b, "the results on the map of now", &shown(".results .order")).await;
    for (kind, at, fate) in [
        ("move", "mun", "succeeded"),
        ("support", "ruh", "succeeded"),
        ("move", "par", "failed"),
        ("move", "mar", "failed"),
        ("move", "bre", "succeeded"),
        ("hold", "bur", "failed"),
    ] {
        let css = format!(".results .order.{kind}.{fate}[data-at=\"{at}\"]");
        assert_eq!(eval(b, &shown(&css)).await, json!(true), "{css} drawn");
    }
    // A failed order carries the red cross; a successful one does not.
    let crosses = eval(
        b,
        "const fail = JSON.parse(document.querySelector('#hits').dataset.geometry).fail;
         const red = (css) => [...document.querySelectorAll(`#map svg ${css} path`)].filter(p => p.getAttribute('stroke') === fail).length;
         return [red('.order.move.failed[data-at=\"par\"]'), red('.order.move.succeeded[data-at=\"mun\"]')]",
    )
    .await;
    assert_eq!(crosses, json!([1, 0]), "crosses on the failed and the successful move");
    // The arrows are under the clicks: the map still orders through them.
    assert_eq!(
        eval(
            b,
            "return getComputedStyle(document.querySelector('#map svg .results .order')).pointerEvents"
        )
        .await,
        json!("none")
    );
}

/// The dislodged French army: full size, beside the German one that took
/// Burgundy, both in sight and each clicking as itself.
async fn the_dislodged_army_beside_its_attacker(b: &Browser) {
    let attacker = "#map svg g.unit:not(.dislodged)[data-province=\"bur\"] rect";
    let dislodged = "#map svg g.unit.dislodged[data-province=\"bur\"] rect";
    let (a, r) = (rect(b, attacker).await, rect(b, dislodged).await);
    assert!(
        (r[2] - a[2]).abs() <= a[2] * 0.05 && (r[3] - a[3]).abs() <= a[3] * 0.05,
        "the dislodged army {r:?} is not the size of its attacker {a:?}"
    );
    let apart = ((r[0] - a[0]).powi(2) + (r[1] - a[1]).powi(2)).sqrt();
    assert!(
        apart >= a[2] * 0.8,
        "the two armies {a:?} and {r:?} lie over each other"
    );
    assert_eq!(
        clicks_as(b, attacker).await,
        json!(["unit", "bur"]),
        "the attacker clicks as itself"
    );
    assert_eq!(
        clicks_as(b, dislodged).await,
        json!(["unit dislodged", "bur"]),
        "the dislodged army clicks as itself"
    );
}

/// A click on the dislodged army, then Picardy: its retreat.
async fn the_dislodged_army_retreats_by_clicks(b: &Browser) {
    let el = find(b, "#map svg g.unit.dislodged[data-province=\"bur\"]").await;
    let mouse = MouseActions::new("mouse".into())
        .then(pointer_to(b, el).await)
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    b.perform_actions(mouse).await.unwrap();
    until(
        b,
        "Burgundy's army selected",
        "return !!document.querySelector('#hits .selected[data-province=\"bur\"]')",
    )
    .await;
    let legal = eval(
        b,
        "return [...document.querySelectorAll('#hits .legal')].map(e => e.dataset.province).sort()",
    )
    .await;
    assert_eq!(legal, json!(["bel", "pic"]), "where the army may retreat");
    click(b, "pic").await;
    orders_contain(b, "A BUR R PIC").await;
    saved(b).await;
}

/// The toggle hides the results, the standoff stays marked (it is the
/// position's), and the toggle holds while the page draws other maps.
async fn the_toggle_hides_the_results(b: &Browser) {
    find(b, "#show-results").await.click().await.unwrap();
    assert_eq!(eval(b, &shown(".results .order")).await, json!(false), "hidden");
    assert_eq!(eval(b, &shown(".standoff[data-province=\"gas\"]")).await, json!(true));
    b.execute(
        "const s = document.getElementById('slider'); s.value = 0; s.dispatchEvent(new Event('input'));",
        vec![],
    )
    .await
    .unwrap();
    until(
        b,
        "Spring 1901 in the history",
        "return !document.getElementById('history-mark').hidden",
    )
    .await;
    find(b, "#current").await.click().await.unwrap();
    until(
        b,
        "the map of now again, its results still hidden",
        "return document.getElementById('history-mark').hidden && !!document.querySelector('#map svg .results .order') && !document.getElementById('show-results').checked",
    )
    .await;
    assert_eq!(eval(b, &shown(".results .order")).await, json!(false), "still hidden");
    find(b, "#show-results").await.click().await.unwrap();
    assert_eq!(eval(b, &shown(".results .order")).await, json!(true), "shown again");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forming_game_lists_a_new_player_without_a_reload() {
    let d = driver();
    let data = temp_dir("web-joined");
    let server = Server::start(&["--data", data.to_str().unwrap()]);
    let base = server.base.clone();
    let api = server.client();
    let first = api.user("join-first");
    api.user("join-second");
    let (s, v) = api.call(
        "POST",
        "/api/v1/games",
        Some(&first),
        Some(json!({"name": "Forming", "assignment": "choice"})),
    );
    assert_eq!(s, 201, "{v}");
    let id = v["id"].as_i64().unwrap();
    let (s, v) = api.call(
        "POST",
        &format!("/api/v1/games/{id}/join"),
        Some(&first),
        Some(json!({"power": "France"})),
    );
    assert_eq!(s, 200, "{v}");

    // The first player's page, left open; a mark that a reload would lose.
    let b = browser(&d, 1200, 900).await;
    log_in(&b, &base, "join-first").await;
    b.goto(&format!("{base}/games/{id}")).await.unwrap();
    page_ready(&b).await;
    b.execute("window.stayed = true", vec![]).await.unwrap();
    assert_eq!(
        eval(&b, "return document.querySelectorAll('#joined-players li').length").await,
        json!(1)
    );

    // A second browser joins as Germany through the page's form.
    let b2 = browser(&d, 1200, 900).await;
    log_in(&b2, &base, "join-second").await;
    b2.goto(&format!("{base}/games/{id}")).await.unwrap();
    page_ready(&b2).await;
    find(&b2, "#join-form select[name=power]")
        .await
        .select_by_value("Germany")
        .await
        .unwrap();
    find(&b2, "#join-game").await.click().await.unwrap();
    until(
        &b2,
        "joined",
        "return !!document.querySelector('#joined-players li[data-player=\"join-second\"]')",
    )
    .await;

    // The first page shows the new player and the power taken, as it was.
    until(
        &b,
        "the new player in the first page's list",
        "return document.querySelector('#joined-players li[data-player=\"join-second\"]')?.textContent === 'join-second · Germany'",
    )
    .await;
    assert_eq!(
        eval(&b, "return window.stayed === true").await,
        json!(true),
        "the page was reloaded"
    );
    let head = eval(&b, "return document.querySelector('#joined-players h2').textContent").await;
    assert_eq!(head, json!("Joined (2 of 7)"));
    let free = eval(&b, "return document.getElementById('free-powers').textContent").await;
    assert!(
        !free.as_str().unwrap().contains("Germany") && free.as_str().unwrap().contains("Italy"),
        "{free}"
    );

    let _ = b.close().await;
    let _ = b2.close().await;
    drop(server);
    let _ = std::fs::remove_dir_all(data);
}
