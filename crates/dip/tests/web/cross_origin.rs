//! A page on another port of the same host posts the site's forms as the
//! signed-in player: a port is the same *site*, so the SameSite=Strict
//! session cookie goes with its posts, and it may set (toss) cookies for
//! this host, so it knows the value of any cookie-only token. Creating a
//! game and joining one from there are refused; the same join from the
//! site's own page goes through.

use super::*;
use std::io::{Read, Write};
use std::net::TcpListener;

/// The cookie the other port sets for the host, and puts in its forms.
const TOSSED: &str = "0123456789abcdef0123456789abcdef";

/// The other port's page: tosses the cookie, then posts the form that its
/// address's fragment describes (`[action, {field: value}]`).
const EVIL: &str = r#"<!doctype html><title>Free gold</title><form id="f" method="post"></form><script>
const [action, fields] = JSON.parse(decodeURIComponent(location.hash.slice(1)));
document.cookie = "dip_csrf=TOSSED; path=/";
const f = document.getElementById("f");
f.action = action;
for (const [k, v] of Object.entries(fields)) {
  const i = document.createElement("input");
  i.name = k;
  i.value = v;
  f.append(i);
}
f.submit();
</script>"#;

/// Serves the page at every address of a port of its own, until the
/// test ends; its base address.
fn other_port() -> String {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://127.0.0.1:{}", l.local_addr().unwrap().port());
    let html = EVIL.replace("TOSSED", TOSSED);
    std::thread::spawn(move || {
        for s in l.incoming() {
            let Ok(mut s) = s else { continue };
            let mut head = [0u8; 4096];
            let _ = s.read(&mut head);
            let _ = write!(
                s,
                "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{html}",
                html.len()
            );
        }
    });
    base
}

/// Opens the other port's page to post this form; waits for the answer
/// from the site and returns its text.
async fn post_from(b: &Browser, other: &str, site: &str, action: &str, fields: Value) -> String {
    let spec = json!([format!("{site}{action}"), fields]).to_string();
    let hash: String = spec
        .bytes()
        .map(|c| match c {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => (c as char).to_string(),
            _ => format!("%{c:02X}"),
        })
        .collect();
    b.goto(&format!("{other}/#{hash}")).await.unwrap();
    until(
        b,
        &format!("the answer to {action}"),
        &format!(
            "return location.href.startsWith({}) && document.readyState === 'complete'",
            json!(site)
        ),
    )
    .await;
    eval(b, "return document.body.innerText")
        .await
        .as_str()
        .unwrap_or("")
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forms_posted_from_another_port_of_the_host_are_refused() {
    let d = driver();
    let data = temp_dir("web-csrf");
    let server = Server::start(&["--data", data.to_str().unwrap()]);
    let api = server.client();
    let host = api.user("host");
    let (s, v) = api.call(
        "POST",
        "/api/v1/games",
        Some(&host),
        Some(json!({"name": "Open table", "variant": "standard"})),
    );
    assert_eq!(s, 201, "{v}");
    let id = v["id"].as_i64().unwrap();
    api.user("victim");
    let b = browser(&d, 1200, 900).await;
    log_in(&b, &server.base, "victim").await;
    let other = other_port();
    let site = server.base.replace("localhost", "127.0.0.1");

    let text = post_from(
        &b,
        &other,
        &site,
        "/games/new",
        json!({"name": "Forged", "variant": "standard", "csrf": TOSSED}),
    )
    .await;
    assert!(text.contains("another site"), "{text}");
    let text = post_from(&b, &other, &site, &format!("/games/{id}/join"), json!({"csrf": TOSSED})).await;
    assert!(text.contains("another site"), "{text}");
    let (_, all) = api.call("GET", "/api/v1/games", None, None);
    assert!(!all.to_string().contains("Forged"), "{all}");
    let (_, g) = api.call("GET", &format!("/api/v1/games/{id}"), None, None);
    assert!(!g.to_string().contains("victim"), "{g}");

    // The site's own page joins with the token it was given.
    b.goto(&format!("{site}/games/{id}")).await.unwrap();
    page_ready(&b).await;
    b.execute(
        "const f = document.createElement('form');
         f.method = 'post'; f.action = arguments[0];
         const i = document.createElement('input');
         i.name = 'csrf'; i.value = document.querySelector('meta[name=csrf]').content;
         f.append(i); document.body.append(f); f.submit();",
        vec![json!(format!("/games/{id}/join"))],
    )
    .await
    .unwrap();
    game_until(&api, id, "the victim joined from the site", |g| {
        g.to_string().contains("victim")
    })
    .await;
    let _ = b.close().await;
    drop(server);
    let _ = std::fs::remove_dir_all(data);
}
