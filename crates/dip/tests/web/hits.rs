//! Every place a unit can stand, on every bundled variant's map, clicks as
//! its own province and coast; so does every province's name not under a
//! unit. One game page per variant: the game master's edits put a unit on
//! every position (a round per army, fleet and coast of a province, which
//! the page shows live), and a script asks
//! the browser's own hit testing (`document.elementFromPoint`) what a
//! click at each icon's middle and three more points of it would reach.

use super::*;
use dip_core::{Map, ProvinceId};
use dip_render::svg::TITLE_H;

/// A place a unit can stand: its province, coast, the unit's letter and
/// where the map draws it.
struct Position {
    province: ProvinceId,
    coast: Option<String>,
    letter: char,
    region: String,
    at: (f32, f32),
}

/// Every unit type in every region that allows it, by province.
fn positions(map: &Map, pic: &dip_render::Picture) -> Vec<Vec<Position>> {
    let mut by_province: Vec<Vec<Position>> = (0..map.num_provinces()).map(|_| Vec::new()).collect();
    for (i, r) in map.regions().iter().enumerate() {
        let id = dip_core::RegionId(i as u16);
        for ut in map.unit_type_ids() {
            if map.allows(id, ut) {
                by_province[r.province.index()].push(Position {
                    province: r.province,
                    coast: r.coast.clone(),
                    letter: map.unit_type(ut).letter,
                    region: map.region_name(id),
                    at: pic.region_point(id),
                });
            }
        }
    }
    by_province
}

/// Points of an icon, from its middle, that lie inside every unit shape
/// the map draws (army, fleet, wing, the square of a unit picture).
const ICON_POINTS: [(f32, f32); 4] = [(0.0, 0.0), (-7.0, 2.0), (7.0, 2.0), (0.0, 6.0)];

/// What a click at each canvas point reaches: for each `[province, coast,
/// x, y]` the province and coast of the element on top, as the browser
/// hit-tests it; the points it has to scroll to are scrolled into view.
const HIT_SCRIPT: &str = r#"
const [points] = arguments;
const svg = document.querySelector('#map svg');
const out = [];
for (const [x, y] of points) {
  const at = () => new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
  let p = at();
  if (p.x < 2 || p.y < 2 || p.x > innerWidth - 2 || p.y > innerHeight - 2) {
    window.scrollBy(p.x - innerWidth / 2, p.y - innerHeight / 2);
    p = at();
  }
  const hit = document.elementFromPoint(p.x, p.y)?.closest('[data-province]');
  out.push([hit?.getAttribute('data-province') ?? null, hit?.getAttribute('data-coast') ?? null]);
}
return out;
"#;

/// Asks the page what each point reaches; returns the points (with what
/// was expected) that reach something else.
async fn misses(b: &Browser, checks: &[(String, Option<String>, f32, f32)]) -> Vec<String> {
    let points: Vec<Value> = checks.iter().map(|(_, _, x, y)| json!([x, y + TITLE_H])).collect();
    let got = b.execute(HIT_SCRIPT, vec![json!(points)]).await.unwrap();
    checks
        .iter()
        .zip(got.as_array().unwrap())
        .filter(|((p, c, _, _), g)| g[0].as_str() != Some(p) || g[1].as_str() != c.as_deref())
        .map(|((p, c, x, y), g)| {
            let want = match c {
                Some(c) => format!("{p}/{c}"),
                None => p.clone(),
            };
            format!("{want} at ({x}, {y}) reached {}", g)
        })
        .collect()
}

/// A game of the variant for one player, started; (id, its game master's token).
fn one_player_game(api: &Client, variant: &str, gm: &str) -> i64 {
    let (s, v) = api.call(
        "POST",
        "/api/v1/games",
        Some(gm),
        Some(json!({"name": format!("Hits on {variant}"), "variant": variant, "players": {"min": 1, "max": 1}})),
    );
    assert_eq!(s, 201, "{v}");
    let id = v["id"].as_i64().unwrap();
    let (s, v) = api.call("POST", &format!("/api/v1/games/{id}/join"), Some(gm), Some(json!({})));
    assert_eq!(s, 200, "{v}");
    id
}

/// Replaces every unit on the board with these (`add POWER A par` lines).
fn put_units(api: &Client, id: i64, gm: &str, adds: Vec<String>) {
    let (_, g) = api.call("GET", &format!("/api/v1/games/{id}"), None, None);
    let mut edits: Vec<String> = g["powers"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["units"].as_array().unwrap().iter())
        .map(|u| {
            let region = u.as_str().unwrap().split_whitespace().nth(1).unwrap();
            format!("remove {}", region.split('/').next().unwrap())
        })
        .collect();
    edits.extend(adds);
    let (s, v) = api.call(
        "POST",
        &format!("/api/v1/games/{id}/edit"),
        Some(gm),
        Some(json!({ "edits": edits })),
    );
    assert_eq!(s, 200, "{v}");
}

/// Waits until the page, told of the edit live, shows exactly these units.
async fn units_shown(b: &Browser, want: &[String]) {
    let mut want = want.to_vec();
    want.sort();
    until(
        b,
        "the edited units on the map",
        &format!(
            "const got = [...document.querySelectorAll('#map svg g.unit')]
               .map(u => u.dataset.province + (u.dataset.coast ? '/' + u.dataset.coast : '')).sort();
             return JSON.stringify(got) === {};",
            json!(json!(want).to_string())
        ),
    )
    .await;
}

/// Does a name's box lie under a unit's icon (which is drawn over it, and
/// rightly takes the click)?
fn under_a_unit((x, y, w, h): (f32, f32, f32, f32), units: &[&Position]) -> bool {
    units
        .iter()
        .any(|u| x < u.at.0 + 15.0 && u.at.0 - 15.0 < x + w && y < u.at.1 + 11.0 && u.at.1 - 14.0 < y + h)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_unit_position_and_name_of_every_variant_clicks_as_its_own_province() {
    let d = driver();
    let data = temp_dir("web-hits");
    let server = Server::start(&["--data", data.to_str().unwrap()]);
    let api = server.client();
    let gm = api.user("hits-gm");
    let b = browser(&d, 1600, 1200).await;
    let mut failed = Vec::new();
    let mut counts = Vec::new();
    let mut names_clicked = 0;
    for (name, _) in dip_variants::bundled() {
        let v = dip_variants::load(name).unwrap();
        let map = &v.map;
        let pic = dip_render::Picture::new(&v);
        let power = map.powers()[0].name.clone();
        let by_province = positions(map, &pic);
        let rounds = by_province.iter().map(Vec::len).max().unwrap_or(0);
        let id = one_player_game(&api, name, &gm);
        // One page per variant; each round's units arrive live.
        b.goto(&format!("{}/games/{id}", server.base)).await.unwrap();
        page_ready(&b).await;
        let mut clicked = 0;
        let mut last: Vec<&Position> = Vec::new();
        // A unit on the k-th position of every province at once.
        for k in 0..rounds {
            let round: Vec<&Position> = by_province.iter().filter_map(|ps| ps.get(k)).collect();
            put_units(
                &api,
                id,
                &gm,
                round
                    .iter()
                    .map(|p| format!("add {power} {} {}", p.letter, p.region))
                    .collect(),
            );
            let shown: Vec<String> = round
                .iter()
                .map(|p| match &p.coast {
                    Some(c) => format!("{}/{c}", map.province(p.province).abbr),
                    None => map.province(p.province).abbr.clone(),
                })
                .collect();
            units_shown(&b, &shown).await;
            let checks: Vec<(String, Option<String>, f32, f32)> = round
                .iter()
                .flat_map(|p| {
                    let abbr = map.province(p.province).abbr.clone();
                    ICON_POINTS
                        .iter()
                        .map(move |(dx, dy)| (abbr.clone(), p.coast.clone(), p.at.0 + dx, p.at.1 + dy))
                })
                .collect();
            let missed = misses(&b, &checks).await;
            failed.extend(missed.iter().map(|m| format!("{name}: {m}")));
            clicked += round.len();
            last = round;
        }
        // The names, with the last round's few units on the board: those
        // under a unit's icon are the unit's to click.
        let names: Vec<(String, Option<String>, f32, f32)> = map
            .province_ids()
            .filter(|&p| !under_a_unit(pic.name_box(p), &last))
            .map(|p| {
                let (x, y, w, h) = pic.name_box(p);
                (map.province(p).abbr.clone(), None, x + w / 2.0, y + h / 2.0)
            })
            .collect();
        let missed = misses(&b, &names).await;
        failed.extend(missed.iter().map(|m| format!("{name}: the name {m}")));
        names_clicked += names.len();
        counts.push(format!("{name} {clicked}"));
    }
    println!(
        "unit positions clicked per variant: {}; names clicked: {names_clicked}",
        counts.join(", ")
    );
    assert!(
        failed.is_empty(),
        "{} clicks reached another province or coast:\n{}",
        failed.len(),
        failed.join("\n")
    );
    let _ = b.close().await;
    drop(server);
    let _ = std::fs::remove_dir_all(data);
}
