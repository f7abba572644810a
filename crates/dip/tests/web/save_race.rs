//! A change made while an earlier save is in flight: the page must save it
//! too, and say "saved" only once it is. The page had said "saved" when
//! the earlier PUT answered although a later change was still waiting, and
//! sent two PUTs at once of which the earlier could land last; a test that
//! double-clicked `A BUR D` and then ordered `A BUR R PAR` processed with
//! the hold stored.

use super::private::signed_up;
use super::*;

/// The first PUT /orders is held back until 1.5 s after the test's second
/// change; the counts of PUTs in flight and whether "saved" was ever shown
/// while one was are kept in `window.puts`.
const HOLD_FIRST_PUT: &str = "
  const real = window.fetch;
  let release;
  const held = new Promise((r) => { release = r; });
  const puts = window.puts = { inFlight: 0, holding: false, savedEarly: false, release: () => setTimeout(release, 1500) };
  window.fetch = async (url, init) => {
    if (init?.method !== 'PUT' || !String(url).endsWith('/orders')) return real(url, init);
    puts.inFlight++;
    try {
      if (!puts.holding) { puts.holding = true; await held; }
      return await real(url, init);
    } finally { puts.inFlight--; }
  };
  const state = document.getElementById('save-state');
  new MutationObserver(() => { if (state.textContent === 'saved' && puts.inFlight > 0) puts.savedEarly = true; })
    .observe(state, { childList: true, characterData: true, subtree: true });";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_made_while_a_save_is_in_flight_is_saved_too() {
    let d = driver();
    let data = temp_dir("web-save-race");
    let server = Server::start(&["--data", data.to_str().unwrap()]);
    let api = server.client();
    let b = signed_up(&d, &server.base, "racer").await;
    fill(&b, "#new-game input[name=name]", "Race").await;
    find(&b, "#power").await.select_by_value("France").await.unwrap();
    find(&b, "#create").await.click().await.unwrap();
    page_ready(&b).await;
    let url = b.current_url().await.unwrap();
    let id: i64 = url.path().rsplit('/').next().unwrap().parse().unwrap();
    others_join(&api, id, "race");
    ordering(&b, "S1901M").await;
    b.execute(HOLD_FIRST_PUT, vec![]).await.unwrap();

    // The first change's save is held in flight; the second change is
    // made meanwhile.
    click(&b, "par").await;
    click(&b, "bur").await;
    orders_contain(&b, "A PAR - BUR").await;
    until(&b, "the first save in flight", "return window.puts.holding").await;
    double_click(&b, "mar").await;
    orders_contain(&b, "A MAR H").await;
    b.execute("window.puts.release()", vec![]).await.unwrap();

    until(
        &b,
        "the orders saved, no save in flight",
        "return document.getElementById('save-state').textContent === 'saved' && window.puts.inFlight === 0",
    )
    .await;
    let france = api.login("racer");
    assert_eq!(
        read_orders(&api, id, &france),
        ["A Par-Bur", "A Mar H"],
        "the latest orders stored"
    );
    assert_eq!(
        eval(&b, "return window.puts.savedEarly").await,
        Value::Bool(false),
        "\"saved\" shown while a save was in flight"
    );
    drop(server);
    let _ = std::fs::remove_dir_all(data);
}
