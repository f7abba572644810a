//! The map of now with the last phase's results (`Picture::svg_scene`):
//! a bounce and a dislodgement in Spring 1901, drawn over the retreat
//! phase they led to, as the game page and the board show it.

use dip_core::{game, PhaseOutcome, PowerId, RegionId, State, Unit, UnitTypeId};
use dip_render::svg::ICON;
use dip_render::{Options, Picture};
use dip_variants::Variant;

const POSITION: &str = "variant standard
phase spring 1901 movement
units
  France: A par
  France: A mar
  France: A bur
  France: F bre
  Germany: A mun
  Germany: A ruh
";

const ORDERS: &str = "Germany: A mun-bur
Germany: A ruh S A mun-bur
France: A par-gas
France: A mar-gas
France: A bur H
France: F bre-mao";

/// The position, what became of the orders, and the retreat phase after.
fn spring() -> (Variant, State, PhaseOutcome, State) {
    let v = dip_variants::standard();
    let before = dip_text::parse_position(&v.map, POSITION, "position").unwrap();
    let orders: Vec<_> = ORDERS
        .lines()
        .map(|l| dip_text::parse_order(&v.map, l, None).unwrap())
        .collect();
    let outcome = game::adjudicate(&v.map, &before, &orders, &v.rules);
    let now = game::advance(&v.map, &before, &outcome);
    (v, before, outcome, now)
}

/// The text of the first element that starts with `start`, to its `</g>`.
fn group<'a>(svg: &'a str, start: &str) -> &'a str {
    let at = svg.find(start).unwrap_or_else(|| panic!("no {start}"));
    let rest = &svg[at..];
    &rest[..rest.find("</g>").unwrap()]
}

#[test]
fn the_map_of_now_draws_the_last_phase_results_in_groups_a_page_can_hide() {
    let (v, before, outcome, now) = spring();
    let pic = Picture::new(&v);
    let svg = pic.svg_scene(&now, Some((&before, &outcome)), &Options::default(), true);
    // Each order says what it was and how it fared.
    for (kind, at, fate) in [
        ("move", "mun", "succeeded"),
        ("support", "ruh", "succeeded"),
        ("move", "par", "failed"),
        ("move", "mar", "failed"),
        ("move", "bre", "succeeded"),
    ] {
        assert!(
            svg.contains(&format!(r#"<g class="order {kind} {fate}" data-at="{at}">"#)),
            "{kind} {at} {fate}"
        );
    }
    // Inside a `results` group, inside the moment that lets clicks through.
    let results = svg.find(r#"<g class="results">"#).unwrap();
    assert!(svg.find(r#"<g class="moment">"#).unwrap() < results);
    assert!(svg[results..].find(r#"class="order move failed""#).is_some());
    // Without them the same map has no order.
    let bare = pic.svg_scene(&now, None, &Options::default(), true);
    assert!(!bare.contains(r#"class="order "#) && !bare.contains(r#"class="results""#));
}

#[test]
fn a_dislodged_unit_stands_full_size_beside_its_attacker() {
    let (v, before, outcome, now) = spring();
    let pic = Picture::new(&v);
    let svg = pic.svg_scene(&now, Some((&before, &outcome)), &Options::default(), true);
    let attacker = group(&svg, r#"<g class="unit" data-province="bur""#);
    let dislodged = group(&svg, r#"<g class="unit dislodged" data-province="bur""#);
    // Full size (it was scaled to 0.72 behind a ring), on a red disc.
    assert!(!dislodged.contains("scale("), "{dislodged}");
    assert!(dislodged.contains("<circle r=\"18\""), "{dislodged}");
    let at = |g: &str| -> (f32, f32) {
        let t = g.split("translate(").nth(1).unwrap().split(')').next().unwrap();
        let (x, y) = t.split_once(',').unwrap();
        (x.parse().unwrap(), y.parse().unwrap())
    };
    let (a, d) = (at(attacker), at(dislodged));
    // Far enough that most of both icons (28 × 22 units) shows.
    assert!(
        (d.0 - a.0).abs() >= ICON.0 * 0.85 || (d.1 - a.1).abs() >= ICON.1 * 0.85,
        "{a:?} {d:?}"
    );
    // Its own order (a hold that failed) is drawn round it there, not
    // round the army that took its place.
    let hold = group(&svg, r#"<g class="order hold failed" data-at="bur">"#);
    assert!(
        hold.contains(&format!(r#"<circle cx="{}" cy="{}""#, d.0, d.1)),
        "{hold} not at {d:?}"
    );
    // The broken ring the movement's picture draws where the unit stood
    // is not drawn over its attacker in the map of now.
    assert!(!svg.contains(r#"<circle class="dislodged""#));
    let played = pic.svg_clickable(&before, Some(&outcome), &Options::default());
    assert!(
        played.contains(r#"<circle class="dislodged""#),
        "the played phase rings it"
    );
}

#[test]
fn a_retreat_phase_marks_its_standoffs_outside_the_results() {
    let (v, before, outcome, now) = spring();
    let pic = Picture::new(&v);
    let svg = pic.svg_scene(&now, Some((&before, &outcome)), &Options::default(), true);
    let mark = svg
        .find(r#"<g class="standoff" data-province="gas""#)
        .expect("Gascony marked");
    // Drawn once, before (outside) the results a page hides.
    assert_eq!(svg.matches(r#"class="standoff""#).count(), 1);
    assert!(mark < svg.find(r#"<g class="results">"#).unwrap());
    // A movement phase after it draws the bounce as a result only.
    let mut fall = now.clone();
    fall.standoffs.clear();
    let later = pic.svg_scene(&fall, Some((&before, &outcome)), &Options::default(), false);
    let results = later.find(r#"<g class="results">"#).unwrap();
    assert!(later.find(r#"<g class="standoff" data-province="gas""#).unwrap() > results);
}

/// Beside its province, a dislodged unit's icon covers no unit of another
/// province, wherever it stands in every bundled variant (drawn at one
/// offset it covered Constantinople's from Bulgaria, Liverpool's from
/// Clyde, Yorkshire's from Liverpool, and many more in the other variants).
/// Youngstown's Yemen has no side clear of the Gulf of Aden.
#[test]
fn a_dislodged_unit_covers_no_other_province_unit() {
    let mut covered = Vec::new();
    for (name, _) in dip_variants::bundled() {
        let v = dip_variants::load(name).unwrap();
        let pic = Picture::new(&v);
        let map = &v.map;
        let unit = |r: usize, k: usize| Unit {
            power: PowerId(0),
            kind: UnitTypeId(k as u8),
            region: RegionId(r as u16),
        };
        let kinds = map.unit_types().len();
        for r in 0..map.regions().len() {
            for k in 0..kinds {
                let (x, y) = pic.aside(&unit(r, k));
                for r2 in (0..map.regions().len()).filter(|&r2| map.regions()[r2].province != map.regions()[r].province)
                {
                    for k2 in 0..kinds {
                        let (x2, y2) = pic.unit_at(&unit(r2, k2));
                        if (x - x2).abs() < ICON.0 && (y - y2).abs() < ICON.1 {
                            covered.push(format!(
                                "{name}: {} over {}",
                                map.region_name(RegionId(r as u16)),
                                map.region_name(RegionId(r2 as u16))
                            ));
                        }
                    }
                }
            }
        }
    }
    covered.sort();
    covered.dedup();
    assert_eq!(covered, ["youngstown: yem over goa"]);
}
