//! The schematic world map: each country a disc at a world-map-like place,
//! in its owner's colour with its armies, borders as lines (sea crossings
//! dashed), continents as shaded boxes with their bonus; the whole globe or
//! one continent (Global War's seven map views).

use crate::map::{self, Continent, View, BORDERS, COUNTRIES};
use std::fmt::Write;

/// What the map shows.
#[derive(Clone, Debug, Default)]
pub struct Board {
    /// Owner seat 1–6 (0 nobody) per country.
    pub owner: Vec<u8>,
    pub armies: Vec<u32>,
    /// Seat number and the name shown (after hidden names).
    pub players: Vec<(u8, String)>,
    pub title: String,
}

/// Seat colours 1–6, and nobody's.
pub const COLOURS: [&str; 7] = [
    "#d9d9d9", "#d62728", "#1f77b4", "#2ca02c", "#f2c500", "#9467bd", "#ff7f0e",
];

fn continent_fill(k: Continent) -> &'static str {
    match k {
        Continent::NorthAmerica => "#f3e9d2",
        Continent::SouthAmerica => "#e4f0d0",
        Continent::Europe => "#dfe3f5",
        Continent::Africa => "#f6dcc6",
        Continent::Asia => "#e9f2e0",
        Continent::Australia => "#f5e0ec",
    }
}

/// Crossings drawn dashed.
const SEA: &[(u8, u8)] = &[
    (2, 20),
    (14, 15),
    (14, 27),
    (14, 28),
    (14, 30),
    (5, 25),
    (32, 17),
    (17, 24),
    (17, 39),
    (24, 39),
    (24, 10),
    (15, 31),
    (15, 26),
    (15, 13),
    (20, 19),
    (23, 19),
    (9, 21),
    (34, 21),
    (25, 40),
    (12, 35),
    (25, 35),
];

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const W: f32 = 1200.0;
const H: f32 = 640.0;
const R: f32 = 21.0;
/// A continent's box reaches this far beyond its discs (a disc and the
/// name under it).
const BOX_MARGIN: f32 = 38.0;
/// Characters of the 12-point continent titles are at most this wide
/// (DejaVu Sans).
const TITLE_CHAR: f32 = 7.4;

/// A rectangle: left, top, right, bottom.
type Rect = (f32, f32, f32, f32);

/// The box drawn round a continent.
fn continent_box(k: Continent) -> Rect {
    bbox(k.countries(), BOX_MARGIN)
}

/// Where a continent's title ("Asia +7") is written: its baseline's start
/// and the rectangle it covers.
fn title_at(k: Continent) -> ((f32, f32), Rect) {
    let (x0, y0, _, _) = continent_box(k);
    let (x, y) = (x0 + 12.0, y0 + 15.0);
    let w = TITLE_CHAR * format!("{} +{}", k.name(), k.bonus()).chars().count() as f32;
    ((x, y), (x, y - 12.0, x + w, y + 3.0))
}

fn bbox(countries: impl Iterator<Item = u8>, margin: f32) -> (f32, f32, f32, f32) {
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for c in countries {
        let (x, y) = map::position(c);
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    (x0 - margin, y0 - margin, x1 + margin, y1 + margin)
}

/// Draws the board in a view. `scale` multiplies the picture's size.
pub fn render(board: &Board, view: View, scale: f32) -> String {
    let (vx0, vy0, vx1, vy1) = match view.continent() {
        None => (0.0, 0.0, W, H),
        Some(k) => bbox(k.countries(), 75.0),
    };
    // The globe has its legend in one row along the top; a continent, in a
    // column (its view is narrow).
    let row = view == View::Globe;
    let legend_h = if row {
        28.0
    } else {
        24.0 + 17.0 * board.players.len() as f32
    };
    let (vx, vy, vw, vh) = (vx0, vy0 - legend_h, vx1 - vx0, vy1 - vy0 + legend_h);
    let zoom = if view == View::Globe {
        1.0
    } else {
        (900.0 / vw).min(640.0 / vh).clamp(1.0, 3.0)
    };
    let scale = if scale.is_finite() && scale > 0.0 {
        scale.min(8.0)
    } else {
        1.0
    };
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{:.0}" height="{:.0}" viewBox="{vx} {vy} {vw} {vh}" font-family="DejaVu Sans">"#,
        vw * zoom * scale,
        vh * zoom * scale
    );
    let _ = write!(
        s,
        r##"<rect x="{vx}" y="{vy}" width="{vw}" height="{vh}" fill="#bcd7ee"/>"##
    );
    continents(&mut s);
    borders(&mut s);
    countries(&mut s, board);
    legend(&mut s, board, view, (vx, vy, vw), legend_h);
    s.push_str("</svg>");
    s
}

/// The continents' boxes with their names and bonuses.
fn continents(s: &mut String) {
    for k in Continent::ALL {
        let (x0, y0, x1, y1) = continent_box(k);
        let ((tx, ty), _) = title_at(k);
        let _ = write!(
            s,
            r##"<rect x="{x0}" y="{y0}" width="{}" height="{}" rx="14" fill="{}" stroke="#8a8a8a" stroke-width="1" opacity="0.9"/><text x="{tx}" y="{ty}" font-size="12" fill="#555" font-style="italic">{} +{}</text>"##,
            x1 - x0,
            y1 - y0,
            continent_fill(k),
            esc(k.name()),
            k.bonus()
        );
    }
}

/// A line for each border, dashed across the sea; Alaska–Kamchatka's
/// runs off both edges.
fn borders(s: &mut String) {
    for &(a, b) in BORDERS {
        let (ax, ay) = map::position(a);
        let (bx, by) = map::position(b);
        let dash = if SEA.contains(&(a, b)) || SEA.contains(&(b, a)) {
            r#" stroke-dasharray="5 4""#
        } else {
            ""
        };
        if (a, b) == (2, 20) {
            // Alaska–Kamchatka: off the edges, round the back of the globe.
            let _ = write!(
                s,
                r##"<line x1="{ax}" y1="{ay}" x2="0" y2="{ay}" stroke="#555" stroke-width="1.5"{dash}/><line x1="{bx}" y1="{by}" x2="{W}" y2="{by}" stroke="#555" stroke-width="1.5"{dash}/>"##
            );
        } else {
            let _ = write!(
                s,
                r##"<line x1="{ax}" y1="{ay}" x2="{bx}" y2="{by}" stroke="#555" stroke-width="1.5"{dash}/>"##
            );
        }
    }
}

/// Each country: a circle in its owner's colour, its armies and name.
fn countries(s: &mut String, board: &Board) {
    for c in 1..=COUNTRIES as u8 {
        let (x, y) = map::position(c);
        let owner = board.owner.get(c as usize - 1).copied().unwrap_or(0);
        let armies = board.armies.get(c as usize - 1).copied().unwrap_or(0);
        let fill = COLOURS.get(owner as usize).copied().unwrap_or(COLOURS[0]);
        let text = if owner == 4 || owner == 0 { "#000" } else { "#fff" };
        let _ = write!(
            s,
            r##"<g id="c{c}"><title>{c} {}</title><circle cx="{x}" cy="{y}" r="{R}" fill="{fill}" stroke="#222" stroke-width="2"/><text x="{x}" y="{}" font-size="15" font-weight="bold" text-anchor="middle" fill="{text}">{armies}</text><text x="{x}" y="{}" font-size="11" text-anchor="middle" fill="#111" stroke="#fff" stroke-width="3" stroke-opacity="0.8" paint-order="stroke">{}</text></g>"##,
            esc(map::name(c).unwrap_or("?")),
            y + 5.0,
            y + R + 12.0,
            esc(map::name(c).unwrap_or("?"))
        );
    }
}

/// The title and each player's colour, countries and armies along the top
/// (in a row on the globe, in a column on a continent).
fn legend(s: &mut String, board: &Board, view: View, (vx, vy, vw): (f32, f32, f32), legend_h: f32) {
    let row = view == View::Globe;
    let _ = write!(
        s,
        r##"<rect x="{vx}" y="{vy}" width="{vw}" height="{legend_h}" fill="#ffffff" opacity="0.85"/>"##
    );
    let mut x = vx + 8.0;
    let ty = vy + 19.0;
    let title = if board.title.is_empty() {
        format!("Global War — {}", view.name())
    } else {
        format!("{} — {}", board.title, view.name())
    };
    let _ = write!(
        s,
        r##"<text x="{x}" y="{ty}" font-size="14" font-weight="bold" fill="#000">{}</text>"##,
        esc(&title)
    );
    x += 9.0 * title.chars().count() as f32 + 16.0;
    let mut y = vy + 7.0;
    for (seat, name) in &board.players {
        if !row {
            x = vx + 8.0;
            y += 17.0;
        }
        let ty = y + 12.0;
        let held = board.owner.iter().filter(|&&o| o == *seat).count();
        let armies: u64 = board
            .owner
            .iter()
            .zip(&board.armies)
            .filter(|(o, _)| **o == *seat)
            .map(|(_, a)| u64::from(*a))
            .sum();
        let fill = COLOURS.get(*seat as usize).copied().unwrap_or(COLOURS[0]);
        let label = format!("{name} ({held}, {armies})");
        let _ = write!(
            s,
            r##"<rect x="{x}" y="{y}" width="14" height="14" fill="{fill}" stroke="#222"/><text x="{}" y="{ty}" font-size="12" fill="#000">{}</text>"##,
            x + 18.0,
            esc(&label)
        );
        x += 18.0 + 7.0 * label.chars().count() as f32 + 14.0;
    }
}

impl Board {
    /// The board of a game file (real names: the game master's view).
    pub fn from_dat(dat: &crate::file::DatFile) -> Board {
        Board {
            owner: dat.countries.iter().map(|c| c.owner).collect(),
            armies: dat.countries.iter().map(|c| c.armies).collect(),
            players: dat
                .seats
                .iter()
                .enumerate()
                .filter_map(|(i, s)| Some((i as u8 + 1, s.name.clone()?)))
                .collect(),
            title: String::new(),
        }
    }

    /// The board of a game as `viewer` sees it (hidden names: others are
    /// "Player N").
    pub fn from_position(pos: &crate::game::Position, viewer: Option<u8>) -> Board {
        Board {
            owner: pos.owner.clone(),
            armies: pos.armies.clone(),
            players: pos
                .players
                .iter()
                .map(|p| (p.number, pos.display_name(p.number, viewer)))
                .collect(),
            title: String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn overlap(a: Rect, b: Rect) -> bool {
        a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
    }

    fn inside(a: Rect, b: Rect) -> bool {
        a.0 >= b.0 && a.1 >= b.1 && a.2 <= b.2 && a.3 <= b.3
    }

    /// Characters of the 11-point country names are at most this wide.
    const NAME_CHAR: f32 = 6.8;

    /// The rectangle a country's name covers (centred under its disc).
    fn name_box(c: u8) -> Rect {
        let (x, y) = map::position(c);
        let w = NAME_CHAR * map::name(c).unwrap_or("?").chars().count() as f32;
        let base = y + R + 12.0;
        (x - w / 2.0, base - 9.0, x + w / 2.0, base + 3.0)
    }

    fn disc(c: u8) -> Rect {
        let (x, y) = map::position(c);
        (x - R, y - R, x + R, y + R)
    }

    #[test]
    fn continent_boxes_and_names_overlapped() {
        let board = (0.0, 0.0, W, H);
        for (i, &k) in Continent::ALL.iter().enumerate() {
            let b = continent_box(k);
            assert!(inside(b, board), "{} leaves the board: {b:?}", k.name());
            let (_, title) = title_at(k);
            assert!(inside(title, b), "{}'s title", k.name());
            for &other in &Continent::ALL[i + 1..] {
                // 10 apart at least: the sea between them.
                let o = continent_box(other);
                let grown = (o.0 - 10.0, o.1 - 10.0, o.2 + 10.0, o.3 + 10.0);
                assert!(!overlap(b, grown), "{} and {} overlap", k.name(), other.name());
            }
            for c in 1..=COUNTRIES as u8 {
                let mine = map::continent(c) == Some(k);
                for r in [disc(c), name_box(c)] {
                    if mine {
                        assert!(inside(r, b), "{} outside {}", map::name(c).unwrap(), k.name());
                    } else {
                        assert!(!overlap(r, b), "{} on {}", map::name(c).unwrap(), k.name());
                    }
                }
                assert!(
                    !overlap(title, disc(c)) && !overlap(title, name_box(c)),
                    "{} on {}'s title",
                    map::name(c).unwrap(),
                    k.name()
                );
            }
        }
        // No disc or name on another disc or name.
        for a in 1..=COUNTRIES as u8 {
            for b in a + 1..=COUNTRIES as u8 {
                for ra in [disc(a), name_box(a)] {
                    for rb in [disc(b), name_box(b)] {
                        assert!(
                            !overlap(ra, rb),
                            "{} and {}",
                            map::name(a).unwrap(),
                            map::name(b).unwrap()
                        );
                    }
                }
            }
        }
    }
}
