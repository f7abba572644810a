//! A private game as its users meet it in the page: made with a password,
//! joined through the invitation link, invisible to everyone else.

use super::*;

/// Signs up `name` in a fresh browser.
pub(super) async fn signed_up(d: &Driver, base: &str, name: &str) -> Browser {
    let b = browser(d, 1200, 900).await;
    b.goto(&format!("{base}/signup")).await.unwrap();
    fill(&b, "#name", name).await;
    fill(&b, "#password", "password1").await;
    find(&b, "#submit").await.click().await.unwrap();
    until(
        &b,
        &format!("{name} signed up"),
        &format!("return document.querySelector('.me')?.textContent === {}", json!(name)),
    )
    .await;
    b
}

/// A private game as its users meet it in the page: the creator makes it
/// with a password and copies the invitation link; another user opens the
/// link and joins; a third, without the link, gets a 404 and finds no
/// trace of the game in the lobby (its browser was shown the API's JSON
/// error instead of a page).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_game_by_invitation_link_in_chromium() {
    let d = driver();
    let data = temp_dir("web-private");
    let server = Server::start(&["--data", data.to_str().unwrap()]);
    let base = server.base.clone();
    const NAME: &str = "Secret council of Vienna";

    let gm = signed_up(&d, &base, "privgm").await;
    fill(&gm, "#new-game input[name=name]", NAME).await;
    find(&gm, "#private").await.click().await.unwrap();
    fill(&gm, "#game-password", "open sesame").await;
    find(&gm, "#create").await.click().await.unwrap();
    page_ready(&gm).await;
    let url = gm.current_url().await.unwrap();
    let id: i64 = url.path().rsplit('/').next().unwrap().parse().unwrap();
    let link = find(&gm, "#invite-link").await;
    let href = link.attr("href").await.unwrap().unwrap();
    assert!(href.starts_with(&format!("/games/{id}?invite=")), "{href}");
    assert_eq!(link.text().await.unwrap(), href, "the link is shown to copy");
    gm.close().await.unwrap();

    // The invited user opens the link and joins.
    let guest = signed_up(&d, &base, "privguest").await;
    guest.goto(&format!("{base}{href}")).await.unwrap();
    page_ready(&guest).await;
    assert_eq!(find(&guest, "#game-name").await.text().await.unwrap(), NAME);
    find(&guest, "#join-game").await.click().await.unwrap();
    until(
        &guest,
        "joined: listed among the forming game's players",
        "return !document.getElementById('join-form') && !!document.querySelector('#joined-players li[data-player=\"privguest\"]')",
    )
    .await;
    // Now a member: the lobby lists it among the guest's games.
    guest.goto(&format!("{base}/")).await.unwrap();
    until(
        &guest,
        "the game in the guest's lobby",
        &format!("return !!document.querySelector('#my-games a[href=\"/games/{id}\"]')"),
    )
    .await;
    guest.close().await.unwrap();

    // Without the link: a 404, and nothing in the lobby.
    let outsider = signed_up(&d, &base, "privoutsider").await;
    outsider.goto(&format!("{base}/games/{id}")).await.unwrap();
    let h1 = find(&outsider, "h1").await.text().await.unwrap();
    assert_eq!(h1, "404 Not Found");
    let page = eval(&outsider, "return document.body.innerText").await;
    assert!(!page.as_str().unwrap().contains(NAME), "{page}");
    outsider.goto(&format!("{base}/")).await.unwrap();
    until(&outsider, "the lobby", "return !!document.getElementById('new-game')").await;
    let html = eval(&outsider, "return document.documentElement.outerHTML").await;
    let html = html.as_str().unwrap();
    assert!(!html.contains(NAME), "the lobby names the game");
    assert!(!html.contains(&format!("/games/{id}\"")), "the lobby links the game");
    // The guessed link without its invitation is a 404 too.
    outsider.goto(&format!("{base}/games/{id}?invite=guess")).await.unwrap();
    assert_eq!(find(&outsider, "h1").await.text().await.unwrap(), "404 Not Found");
    outsider.close().await.unwrap();
    drop(server);
    let _ = std::fs::remove_dir_all(data);
}
