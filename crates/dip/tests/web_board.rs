//! `dip board` in headless Chromium, used as DIP's user uses DIP: open a
//! game file, click the orders of every power (holds, a support, a
//! convoy), resolve, retreat, build with a coast chosen, step back through
//! the history and change an order there, resolve again, undo, drag a
//! unit, save, and open what was saved. On the standard map from a `.dip`
//! file; the same on a bundled variant of another map, on a jDip plugin's
//! variant, and once on a phone's screen.

mod board_browser;

use board_browser::*;
use fantoccini::key::Key;
use fantoccini::Client as Browser;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The board as the server holds it now (the page's own address).
async fn view(b: &Browser) -> Value {
    eval(
        b,
        "const id = document.querySelector('main.board').dataset.board;
         const r = await fetch(`/api/v1/boards/${id}`); return await r.json();",
    )
    .await
}

async fn ready(b: &Browser) {
    until(
        b,
        "the board page",
        "return document.querySelector('main.board')?.dataset.ready === 'true'",
    )
    .await;
}

/// The board is at `phase` in `stage` (now, not in the history).
async fn at(b: &Browser, phase: &str, stage: &str) {
    until(
        b,
        &format!("{phase} {stage}"),
        &format!(
            "const m = document.querySelector('main.board').dataset; return m.phase === '{phase}' && m.stage === '{stage}' && m.at === 'now' && m.mapKey === m.pictureKey"
        ),
    )
    .await;
}

/// The order list shows `n` orders read by the server.
async fn orders(b: &Browser, n: usize) {
    until(
        b,
        &format!("{n} orders entered"),
        &format!(
            "const l = document.querySelectorAll('#order-list li'); return l.length === {n} && ![...l].some(x => x.classList.contains('pending'))"
        ),
    )
    .await;
}

async fn act(b: &Browser, act: &str) {
    eval(
        b,
        &format!("document.querySelector('.toolbar [data-act=\"{act}\"], #menubar [data-act=\"{act}\"]').click(); return true"),
    )
    .await;
}

/// Opens a menu of the menu bar and chooses an item, as a person does.
async fn menu(b: &Browser, title: &str, act_: &str) {
    let titles = b.find_all(fantoccini::Locator::Css(".menu-title")).await.unwrap();
    for t in titles {
        if t.text().await.unwrap() == title {
            t.click().await.unwrap();
            find(b, &format!("#menubar [data-act=\"{act_}\"]")).await.click().await.unwrap();
            return;
        }
    }
    panic!("no menu {title}");
}

async fn chooser(b: &Browser, part: &str) {
    until(b, "the chooser", "return !document.getElementById('chooser').hidden").await;
    for el in b.find_all(fantoccini::Locator::Css("#chooser button")).await.unwrap() {
        if el.text().await.unwrap().to_lowercase().contains(&part.to_lowercase()) {
            el.click().await.unwrap();
            until(b, "the chooser closed", "return document.getElementById('chooser').hidden").await;
            return;
        }
    }
    let offered = eval(b, "return document.getElementById('chooser').textContent").await;
    panic!("no choice with `{part}` among {offered}");
}

async fn mv(b: &Browser, from: &str, to: &str) {
    click(b, from).await;
    click(b, to).await;
}

/// The position: every unit (power, type, where, dislodged), the owners
/// and the phase, comparable.
fn position(v: &Value) -> Value {
    let mut units: Vec<String> = v["units"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| format!("{} {} {} {}", u["power"], u["type"], u["region"], u["dislodged"]))
        .collect();
    units.sort();
    let owners: Vec<String> = v["provinces"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["supply"] == true)
        .map(|p| format!("{}={}", p["abbr"], p["owner"]))
        .collect();
    json!({"phase": v["phase"], "stage": v["stage"], "units": units, "owners": owners})
}

fn the_order(v: &Value, power: &str, needle: &str) -> bool {
    v["orders"].as_array().unwrap().iter().any(|o| {
        o["power"] == power && o["order"].as_str().is_some_and(|t| t.to_lowercase().contains(&needle.to_lowercase()))
    })
}

fn units_in(v: &Value, province: &str) -> Vec<Value> {
    v["units"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["province"] == province)
        .cloned()
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dip_loop_on_the_standard_map_from_a_dip_file() {
    let dir = temp_dir("board-standard");
    // DIP's file of Spring 1901 as it starts: its position, no moves yet.
    let start = dip_variants::standard();
    let text = dip_game::dipfile::write_season(
        &dip_text::Vocabulary::new(&start.map),
        &dip_game::dipfile::SeasonText {
            title: "Friday game",
            variant: "standard",
            rules: "datc",
            players: &[("England".into(), "Anne".into())],
            start: &start.start,
            phases: &[],
            entered: &[],
            finished: false,
        },
    );
    let file = dir.join("loop_s01.dip");
    std::fs::write(&file, text).unwrap();
    let board = Board::start(&[file.to_str().unwrap()]);

    // The page answers in under a second, with no database.
    let t = Instant::now();
    let page = ureq::get(&board.url).call().unwrap().into_body().read_to_string().unwrap();
    let first = t.elapsed();
    assert!(page.contains("main class=\"board\""), "{page:.300}");
    assert!(first < Duration::from_secs(1), "the page took {first:?}");
    println!("dip board page answered in {first:?}");

    let b = browser(1400, 900).await;
    b.goto(&board.url).await.unwrap();
    ready(&b).await;
    at(&b, "S1901M", "moves").await;
    let v = view(&b).await;
    assert_eq!(v["title"], "Friday game");
    assert_eq!(v["names"]["England"], "Anne");

    // Spring 1901: all seven powers by clicking; a hold by double-click,
    // a support with shift.
    mv(&b, "vie", "tyr").await;
    mv(&b, "bud", "ser").await;
    double_click(&b, "tri").await;
    mv(&b, "lon", "nth").await;
    mv(&b, "edi", "nwg").await;
    mv(&b, "lvp", "yor").await;
    mv(&b, "par", "bur").await;
    click(&b, "mar").await;
    click_with(&b, Key::Shift, "par").await;
    click(&b, "bur").await;
    mv(&b, "bre", "mao").await;
    mv(&b, "mun", "ruh").await;
    mv(&b, "ber", "kie").await;
    mv(&b, "kie", "den").await;
    double_click(&b, "ven").await;
    mv(&b, "rom", "apu").await;
    mv(&b, "nap", "ion").await;
    mv(&b, "mos", "ukr").await;
    mv(&b, "war", "gal").await;
    mv(&b, "sev", "bla").await;
    mv(&b, "stp", "bot").await;
    mv(&b, "con", "bul").await;
    mv(&b, "ank", "bla").await;
    double_click(&b, "smy").await;
    orders(&b, 22).await;
    let v = view(&b).await;
    assert!(the_order(&v, "France", "S A(Par) - Bur"), "{}", v["orders"]);
    assert!(the_order(&v, "Austria", "F(Tri) hold"), "{}", v["orders"]);
    let order_ms: f64 = eval(&b, "return Number(document.querySelector('main.board').dataset.orderMs)")
        .await
        .as_f64()
        .unwrap();
    println!("pointer up to the order shown: {order_ms} ms");
    assert!(order_ms <= 50.0, "a click took {order_ms} ms to show its order");

    // Resolve: the season is finished (no retreat, no adjustment in spring).
    act(&b, "resolve").await;
    at(&b, "F1901M", "finished").await;
    let resolve_ms: f64 = eval(&b, "return Number(document.querySelector('main.board').dataset.resolveMs)")
        .await
        .as_f64()
        .unwrap();
    println!("resolve round trip (request, answer, drawn): {resolve_ms} ms");
    let v = view(&b).await;
    assert_eq!(units_in(&v, "bur")[0]["power"], "France");
    assert!(units_in(&v, "gal").is_empty() || units_in(&v, "gal")[0]["power"] == "Russia");
    let report = eval(&b, "return document.getElementById('report-table').textContent").await;
    assert!(report.as_str().unwrap().contains("FRA A(Par) - Bur"), "{report}");
    act(&b, "next").await;
    at(&b, "F1901M", "moves").await;

    // Autumn 1901: a convoy with ctrl, a support that dislodges.
    mv(&b, "tyr", "ven").await;
    click(&b, "tri").await;
    click_with(&b, Key::Shift, "tyr").await;
    click(&b, "ven").await;
    click_with(&b, Key::Control, "nth").await;
    click(&b, "yor").await;
    click(&b, "nwy").await;
    mv(&b, "yor", "nwy").await;
    mv(&b, "ukr", "rum").await;
    click(&b, "sev").await;
    click_with(&b, Key::Shift, "ukr").await;
    click(&b, "rum").await;
    mv(&b, "bot", "swe").await;
    orders(&b, 7).await;
    let v = view(&b).await;
    assert!(the_order(&v, "England", "F(NTH) C A(Yor) - Nwy"), "{}", v["orders"]);
    act(&b, "resolve").await;
    at(&b, "F1901R", "retreats").await;
    let v = view(&b).await;
    assert!(units_in(&v, "ven").iter().any(|u| u["dislodged"] == true && u["power"] == "Italy"), "{}", v["units"]);

    // The retreat: the dislodged army, then where it goes.
    mv(&b, "ven", "rom").await;
    orders(&b, 1).await;
    act(&b, "resolve").await;
    at(&b, "W1901A", "adjustments").await;

    // Builds: a fleet in St Petersburg (the coast asked), an army in Vienna.
    double_click(&b, "stp").await;
    chooser(&b, "/sc").await;
    click(&b, "vie").await;
    orders(&b, 2).await;
    let v = view(&b).await;
    assert!(the_order(&v, "Russia", "build F(StP/sc)"), "{}", v["orders"]);
    act(&b, "resolve").await;
    at(&b, "S1902M", "finished").await;
    let v = view(&b).await;
    assert_eq!(v["history"].as_array().unwrap().len(), 4);
    assert_eq!(units_in(&v, "stp")[0]["region"], "stp/sc");
    let finished = position(&v);

    // Back three phases with the arrow key: Autumn 1901's moves.
    for _ in 0..3 {
        key(&b, Key::Left).await;
    }
    until(&b, "Autumn 1901 in the history", "return document.querySelector('main.board').dataset.at === '1'").await;
    // Change one order there: the fleet in Trieste holds instead.
    double_click(&b, "tri").await;
    at(&b, "F1901M", "moves").await;
    let v = view(&b).await;
    assert_eq!(v["history"].as_array().unwrap().len(), 1, "the board went back to Autumn 1901");
    assert!(the_order(&v, "Austria", "F(Tri) hold"), "{}", v["orders"]);
    assert!(the_order(&v, "England", "C A(Yor) - Nwy"), "the phase's other orders are kept: {}", v["orders"]);
    act(&b, "resolve").await;
    // Without the support Venice holds: no retreat; the builds follow.
    at(&b, "W1901A", "adjustments").await;
    let v = view(&b).await;
    assert_eq!(v["history"].as_array().unwrap().len(), 2, "the later phases were replaced");
    assert_eq!(units_in(&v, "ven")[0]["power"], "Italy");
    // One undo brings them back.
    act(&b, "undo").await;
    at(&b, "S1902M", "finished").await;
    assert_eq!(position(&view(&b).await), finished);

    // Next season; then Edit units: drag the army from Rome to Tuscany.
    act(&b, "next").await;
    at(&b, "S1902M", "moves").await;
    menu(&b, "Game", "edit-units").await;
    drag(&b, "rom", "tus").await;
    until(
        &b,
        "the army dragged to Tuscany",
        "return !!document.querySelector('#map svg g.unit[data-province=\"tus\"]') && !document.querySelector('#map svg g.unit[data-province=\"rom\"]')",
    )
    .await;
    menu(&b, "Game", "edit-units").await;
    let before = position(&view(&b).await);

    // Save as .dip into the folder, and the map as PNG.
    menu(&b, "File", "save-as").await;
    find(&b, "#save-format").await.select_by_value("dip").await.unwrap();
    let name = find(&b, "#save-name").await;
    name.clear().await.unwrap();
    name.send_keys("loop_s02.dip").await.unwrap();
    find(&b, "#dlg-save button[value=ok]").await.click().await.unwrap();
    let saved = dir.join("loop_s02.dip");
    let started = Instant::now();
    while !saved.exists() {
        assert!(started.elapsed() < Duration::from_secs(10), "no {}", saved.display());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let png = eval(
        &b,
        "const id = document.querySelector('main.board').dataset.board;
         const r = await fetch(`/api/v1/boards/${id}/map.png?download=1`);
         const a = new Uint8Array(await r.arrayBuffer());
         return [r.headers.get('content-disposition'), a[1], a[2], a[3], a.length];",
    )
    .await;
    assert!(png[0].as_str().unwrap().contains("attachment"), "{png}");
    assert_eq!((png[1].as_u64(), png[2].as_u64(), png[3].as_u64()), (Some(80), Some(78), Some(71)), "{png}");
    screenshot(&b, "board.png").await;

    // New, then open the saved file: the same position.
    menu(&b, "File", "new").await;
    find(&b, "#dlg-new button[value=ok]").await.click().await.unwrap();
    at(&b, "S1901M", "moves").await;
    find(&b, "#open-file").await.send_keys(saved.to_str().unwrap()).await.unwrap();
    until(&b, "the saved file opened", "return document.getElementById('file').textContent.includes('loop_s02.dip')").await;
    at(&b, "S1902M", "moves").await;
    assert_eq!(position(&view(&b).await), before);
    assert_eq!(eval(&b, "return document.getElementById('chooser').hidden").await, json!(true));
    let _ = b.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}
