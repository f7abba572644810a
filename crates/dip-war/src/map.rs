//! The world map: 42 countries numbered as in Global War's data file, six
//! continents with their army bonuses, the borders of the classic
//! world-conquest board, and drawing positions for the schematic map.

use serde::{Deserialize, Serialize};

/// Number of countries.
pub const COUNTRIES: usize = 42;

/// A continent, with the army bonus for holding all of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Continent {
    NorthAmerica,
    SouthAmerica,
    Europe,
    Africa,
    Asia,
    Australia,
}

impl Continent {
    pub const ALL: [Continent; 6] = [
        Continent::NorthAmerica,
        Continent::SouthAmerica,
        Continent::Europe,
        Continent::Africa,
        Continent::Asia,
        Continent::Australia,
    ];

    /// Armies per turn for holding every country of the continent.
    pub fn bonus(self) -> u32 {
        match self {
            Continent::NorthAmerica => 5,
            Continent::SouthAmerica => 2,
            Continent::Europe => 5,
            Continent::Africa => 3,
            Continent::Asia => 7,
            Continent::Australia => 2,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Continent::NorthAmerica => "N. America",
            Continent::SouthAmerica => "S. America",
            Continent::Europe => "Europe",
            Continent::Africa => "Africa",
            Continent::Asia => "Asia",
            Continent::Australia => "Australia",
        }
    }

    /// The countries of the continent (numbers 1–42).
    pub fn countries(self) -> impl Iterator<Item = u8> {
        (1..=COUNTRIES as u8).filter(move |&c| continent(c) == Some(self))
    }
}

/// Name and continent of each country, index = number − 1.
const COUNTRY: [(&str, Continent); COUNTRIES] = {
    use Continent::*;
    [
        ("Afghanistan", Asia),
        ("Alaska", NorthAmerica),
        ("Alberta", NorthAmerica),
        ("Argentina", SouthAmerica),
        ("Brazil", SouthAmerica),
        ("Mexico", NorthAmerica),
        ("China", Asia),
        ("Zaire", Africa),
        ("E. Africa", Africa),
        ("E. Australia", Australia),
        ("E. US", NorthAmerica),
        ("Libya", Africa),
        ("France", Europe),
        ("Greenland", NorthAmerica),
        ("England", Europe),
        ("India", Asia),
        ("Borneo", Australia),
        ("Irkutsk", Asia),
        ("Japan", Asia),
        ("Kamchatka", Asia),
        ("Madagascar", Africa),
        ("Iran", Asia),
        ("Mongolia", Asia),
        ("New Guinea", Australia),
        ("W. Africa", Africa),
        ("Germany", Europe),
        ("Yukon", NorthAmerica),
        ("Ontario", NorthAmerica),
        ("Peru", SouthAmerica),
        ("Quebec", NorthAmerica),
        ("Scandinavia", Europe),
        ("Siam", Asia),
        ("Siberia", Asia),
        ("S. Africa", Africa),
        ("Italy", Europe),
        ("Ukraine", Europe),
        ("Ural", Asia),
        ("Venezuela", SouthAmerica),
        ("W. Australia", Australia),
        ("Spain", Europe),
        ("W. US", NorthAmerica),
        ("Taimyr", Asia),
    ]
};

/// The borders, by country number (each once).
pub const BORDERS: &[(u8, u8)] = &[
    // North America
    (2, 27),
    (2, 3),
    (2, 20), // Alaska–Kamchatka, across the Bering Strait
    (27, 3),
    (27, 28),
    (27, 14),
    (14, 28),
    (14, 30),
    (14, 15), // Greenland–England, across the Atlantic
    (3, 28),
    (3, 41),
    (28, 41),
    (28, 11),
    (28, 30),
    (30, 11),
    (41, 11),
    (41, 6),
    (11, 6),
    (6, 38), // Mexico–Venezuela
    // South America
    (38, 29),
    (38, 5),
    (29, 5),
    (29, 4),
    (5, 4),
    (5, 25), // Brazil–W. Africa, across the Atlantic
    // Africa
    (25, 40), // W. Africa–Spain
    (25, 35), // W. Africa–Italy
    (25, 12),
    (25, 9),
    (25, 8),
    (12, 35), // Libya–Italy
    (12, 22), // Libya–Iran
    (12, 9),
    (9, 22), // E. Africa–Iran
    (9, 8),
    (9, 34),
    (9, 21),
    (8, 34),
    (34, 21),
    // Europe
    (15, 31),
    (15, 26),
    (15, 13),
    (31, 26),
    (31, 36),
    (26, 36),
    (26, 35),
    (26, 13),
    (13, 35),
    (13, 40),
    (40, 35),
    (35, 36),
    (35, 22), // Italy–Iran
    (36, 22), // Ukraine–Iran
    (36, 1),  // Ukraine–Afghanistan
    (36, 37), // Ukraine–Ural
    // Asia
    (22, 1),
    (22, 16),
    (1, 37),
    (1, 7),
    (1, 16),
    (37, 33),
    (37, 7),
    (33, 42),
    (33, 18),
    (33, 23),
    (33, 7),
    (42, 18),
    (42, 20),
    (18, 20),
    (18, 23),
    (20, 23),
    (20, 19),
    (23, 19),
    (23, 7),
    (7, 16),
    (7, 32),
    (16, 32),
    (32, 17), // Siam–Borneo
    // Australia
    (17, 24),
    (17, 39),
    (24, 39),
    (24, 10),
    (39, 10),
];

/// The name of a country (1–42), or `None`.
pub fn name(country: u8) -> Option<&'static str> {
    COUNTRY.get((country as usize).wrapping_sub(1)).map(|c| c.0)
}

/// The continent of a country (1–42), or `None`.
pub fn continent(country: u8) -> Option<Continent> {
    COUNTRY.get((country as usize).wrapping_sub(1)).map(|c| c.1)
}

/// The country with this name (case-insensitive, dots and spaces optional).
pub fn by_name(name: &str) -> Option<u8> {
    let norm = |s: &str| {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect::<String>()
    };
    let n = norm(name);
    (1..=COUNTRIES as u8).find(|&c| norm(COUNTRY[c as usize - 1].0) == n)
}

/// Adjacency bit sets, index = number − 1, bit = number − 1.
pub fn adjacency() -> &'static [u64; COUNTRIES] {
    static ADJ: std::sync::OnceLock<[u64; COUNTRIES]> = std::sync::OnceLock::new();
    ADJ.get_or_init(|| {
        let mut a = [0u64; COUNTRIES];
        for &(x, y) in BORDERS {
            a[x as usize - 1] |= 1 << (y - 1);
            a[y as usize - 1] |= 1 << (x - 1);
        }
        a
    })
}

/// Whether two countries border each other.
pub fn adjacent(a: u8, b: u8) -> bool {
    (1..=COUNTRIES as u8).contains(&a)
        && (1..=COUNTRIES as u8).contains(&b)
        && adjacency()[a as usize - 1] & (1 << (b - 1)) != 0
}

/// The neighbours of a country.
pub fn neighbours(c: u8) -> impl Iterator<Item = u8> {
    let bits = if (1..=COUNTRIES as u8).contains(&c) {
        adjacency()[c as usize - 1]
    } else {
        0
    };
    (1..=COUNTRIES as u8).filter(move |&n| bits & (1 << (n - 1)) != 0)
}

/// Where the schematic map draws a country (x, y on a 1200 × 640 board).
/// Each continent keeps to its own part of the board, so that the boxes
/// drawn round them (38 beyond the discs) neither overlap nor leave it.
pub fn position(country: u8) -> (f32, f32) {
    const P: [(f32, f32); COUNTRIES] = [
        (770.0, 180.0),  // Afghanistan
        (60.0, 70.0),    // Alaska
        (110.0, 160.0),  // Alberta
        (215.0, 590.0),  // Argentina
        (320.0, 500.0),  // Brazil
        (170.0, 330.0),  // Mexico
        (900.0, 220.0),  // China
        (530.0, 490.0),  // Zaire
        (640.0, 450.0),  // E. Africa
        (1060.0, 580.0), // E. Australia
        (240.0, 255.0),  // E. US
        (560.0, 380.0),  // Libya
        (455.0, 190.0),  // France
        (330.0, 60.0),   // Greenland
        (450.0, 90.0),   // England
        (860.0, 320.0),  // India
        (900.0, 460.0),  // Borneo
        (990.0, 150.0),  // Irkutsk
        (1150.0, 200.0), // Japan
        (1120.0, 70.0),  // Kamchatka
        (650.0, 560.0),  // Madagascar
        (750.0, 290.0),  // Iran
        (1030.0, 240.0), // Mongolia
        (1070.0, 450.0), // New Guinea
        (440.0, 400.0),  // W. Africa
        (540.0, 150.0),  // Germany
        (160.0, 70.0),   // Yukon
        (205.0, 165.0),  // Ontario
        (175.0, 515.0),  // Peru
        (300.0, 160.0),  // Quebec
        (545.0, 60.0),   // Scandinavia
        (980.0, 340.0),  // Siam
        (870.0, 70.0),   // Siberia
        (560.0, 590.0),  // S. Africa
        (560.0, 250.0),  // Italy
        (640.0, 110.0),  // Ukraine
        (760.0, 70.0),   // Ural
        (270.0, 440.0),  // Venezuela
        (930.0, 585.0),  // W. Australia
        (450.0, 265.0),  // Spain
        (120.0, 250.0),  // W. US
        (980.0, 55.0),   // Taimyr
    ];
    P.get((country as usize).wrapping_sub(1)).copied().unwrap_or((0.0, 0.0))
}

/// The seven map views of Global War's screens (the REC file's Map line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum View {
    Globe,
    Africa,
    Asia,
    Australia,
    Europe,
    NorthAmerica,
    SouthAmerica,
}

impl View {
    pub const ALL: [View; 7] = [
        View::Globe,
        View::Africa,
        View::Asia,
        View::Australia,
        View::Europe,
        View::NorthAmerica,
        View::SouthAmerica,
    ];

    /// The number in the REC file (1 Globe … 7 S. America).
    pub fn code(self) -> u8 {
        View::ALL.iter().position(|&v| v == self).unwrap_or(0) as u8 + 1
    }

    pub fn from_code(code: i64) -> Option<View> {
        (1..=7).contains(&code).then(|| View::ALL[code as usize - 1])
    }

    pub fn name(self) -> &'static str {
        match self {
            View::Globe => "Globe",
            View::Africa => "Africa",
            View::Asia => "Asia",
            View::Australia => "Australia",
            View::Europe => "Europe",
            View::NorthAmerica => "N. America",
            View::SouthAmerica => "S. America",
        }
    }

    /// Reads a view's name as people write it ("Europe", "n-america", "globe").
    pub fn parse(s: &str) -> Option<View> {
        let n: String = s
            .chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect();
        match n.as_str() {
            "globe" | "world" => Some(View::Globe),
            "africa" => Some(View::Africa),
            "asia" => Some(View::Asia),
            "australia" => Some(View::Australia),
            "europe" => Some(View::Europe),
            "namerica" | "northamerica" => Some(View::NorthAmerica),
            "samerica" | "southamerica" => Some(View::SouthAmerica),
            _ => None,
        }
    }

    pub fn continent(self) -> Option<Continent> {
        match self {
            View::Globe => None,
            View::Africa => Some(Continent::Africa),
            View::Asia => Some(Continent::Asia),
            View::Australia => Some(Continent::Australia),
            View::Europe => Some(Continent::Europe),
            View::NorthAmerica => Some(Continent::NorthAmerica),
            View::SouthAmerica => Some(Continent::SouthAmerica),
        }
    }
}
