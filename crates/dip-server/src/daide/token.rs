//! DAIDE tokens: 16-bit values, a category in the high octet (protocol
//! document, chapter 4), and the representation of one variant's powers
//! and provinces (what the RM announces).

use dip_core::{Map, PowerId, ProvinceId, RegionId, Terrain};
use std::collections::HashMap;

/// One token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Token(pub u16);

pub const CAT_MISC: u8 = 0x40;
pub const CAT_POWER: u8 = 0x41;
pub const CAT_UNIT: u8 = 0x42;
pub const CAT_ORDER: u8 = 0x43;
pub const CAT_NOTE: u8 = 0x44;
pub const CAT_RESULT: u8 = 0x45;
pub const CAT_COAST: u8 = 0x46;
pub const CAT_PHASE: u8 = 0x47;
pub const CAT_COMMAND: u8 = 0x48;
pub const CAT_PARAM: u8 = 0x49;
pub const CAT_PRESS: u8 = 0x4A;
pub const CAT_TEXT: u8 = 0x4B;

impl Token {
    pub const fn new(cat: u8, n: u8) -> Token {
        Token(((cat as u16) << 8) | n as u16)
    }
    pub fn category(self) -> u8 {
        (self.0 >> 8) as u8
    }
    pub fn low(self) -> u8 {
        (self.0 & 0xff) as u8
    }
    /// An integer token (-8192..=8191); out-of-range values are clamped.
    pub fn int(n: i32) -> Token {
        let n = n.clamp(-8192, 8191);
        Token((n as u16) & 0x3fff)
    }
    pub fn is_int(self) -> bool {
        self.0 & 0xc000 == 0
    }
    /// The integer value of an integer token (14-bit two's complement).
    pub fn as_int(self) -> Option<i32> {
        if !self.is_int() {
            return None;
        }
        let v = (self.0 & 0x3fff) as i32;
        Some(if v >= 0x2000 { v - 0x4000 } else { v })
    }
    pub fn text(c: u8) -> Token {
        Token::new(CAT_TEXT, c)
    }
    pub fn is_text(self) -> bool {
        self.category() == CAT_TEXT
    }
    pub fn is_power(self) -> bool {
        self.category() == CAT_POWER
    }
    pub fn is_province(self) -> bool {
        (0x50..=0x57).contains(&self.category())
    }
    /// Reserved for private use: never valid on the wire.
    pub fn is_reserved(self) -> bool {
        (0x58..=0x5f).contains(&self.category())
    }
}

macro_rules! tokens {
    ($($name:ident = $cat:expr, $n:expr;)*) => {
        $(pub const $name: Token = Token::new($cat, $n);)*
        /// Every named token of the protocol document but powers and provinces.
        pub const NAMED: &[(Token, &str)] = &[$(($name, stringify!($name)),)*];
    };
}

tokens! {
    BRA = CAT_MISC, 0x00; KET = CAT_MISC, 0x01;
    AMY = CAT_UNIT, 0x00; FLT = CAT_UNIT, 0x01;
    CTO = CAT_ORDER, 0x20; CVY = CAT_ORDER, 0x21; HLD = CAT_ORDER, 0x22; MTO = CAT_ORDER, 0x23;
    SUP = CAT_ORDER, 0x24; VIA = CAT_ORDER, 0x25; DSB = CAT_ORDER, 0x40; RTO = CAT_ORDER, 0x41;
    BLD = CAT_ORDER, 0x80; REM = CAT_ORDER, 0x81; WVE = CAT_ORDER, 0x82;
    MBV = CAT_NOTE, 0x00; BPR = CAT_NOTE, 0x01; CST = CAT_NOTE, 0x02; ESC = CAT_NOTE, 0x03;
    FAR = CAT_NOTE, 0x04; HSC = CAT_NOTE, 0x05; NAS = CAT_NOTE, 0x06; NMB = CAT_NOTE, 0x07;
    NMR = CAT_NOTE, 0x08; NRN = CAT_NOTE, 0x09; NRS = CAT_NOTE, 0x0A; NSA = CAT_NOTE, 0x0B;
    NSC = CAT_NOTE, 0x0C; NSF = CAT_NOTE, 0x0D; NSP = CAT_NOTE, 0x0E; NST = CAT_NOTE, 0x0F;
    NSU = CAT_NOTE, 0x10; NVR = CAT_NOTE, 0x11; NYU = CAT_NOTE, 0x12; YSC = CAT_NOTE, 0x13;
    SUC = CAT_RESULT, 0x00; BNC = CAT_RESULT, 0x01; CUT = CAT_RESULT, 0x02; DSR = CAT_RESULT, 0x03;
    FLD = CAT_RESULT, 0x04; NSO = CAT_RESULT, 0x05; RET = CAT_RESULT, 0x06;
    NCS = CAT_COAST, 0x00; NEC = CAT_COAST, 0x02; ECS = CAT_COAST, 0x04; SEC = CAT_COAST, 0x06;
    SCS = CAT_COAST, 0x08; SWC = CAT_COAST, 0x0A; WCS = CAT_COAST, 0x0C; NWC = CAT_COAST, 0x0E;
    SPR = CAT_PHASE, 0x00; SUM = CAT_PHASE, 0x01; FAL = CAT_PHASE, 0x02; AUT = CAT_PHASE, 0x03;
    WIN = CAT_PHASE, 0x04;
    CCD = CAT_COMMAND, 0x00; DRW = CAT_COMMAND, 0x01; FRM = CAT_COMMAND, 0x02; GOF = CAT_COMMAND, 0x03;
    HLO = CAT_COMMAND, 0x04; HST = CAT_COMMAND, 0x05; HUH = CAT_COMMAND, 0x06; IAM = CAT_COMMAND, 0x07;
    LOD = CAT_COMMAND, 0x08; MAP = CAT_COMMAND, 0x09; MDF = CAT_COMMAND, 0x0A; MIS = CAT_COMMAND, 0x0B;
    NME = CAT_COMMAND, 0x0C; NOT = CAT_COMMAND, 0x0D; NOW = CAT_COMMAND, 0x0E; OBS = CAT_COMMAND, 0x0F;
    OFF = CAT_COMMAND, 0x10; ORD = CAT_COMMAND, 0x11; OUT = CAT_COMMAND, 0x12; PRN = CAT_COMMAND, 0x13;
    REJ = CAT_COMMAND, 0x14; SCO = CAT_COMMAND, 0x15; SLO = CAT_COMMAND, 0x16; SND = CAT_COMMAND, 0x17;
    SUB = CAT_COMMAND, 0x18; SVE = CAT_COMMAND, 0x19; THX = CAT_COMMAND, 0x1A; TME = CAT_COMMAND, 0x1B;
    YES = CAT_COMMAND, 0x1C; ADM = CAT_COMMAND, 0x1D; SMR = CAT_COMMAND, 0x1E;
    AOA = CAT_PARAM, 0x00; BTL = CAT_PARAM, 0x01; ERR = CAT_PARAM, 0x02; LVL = CAT_PARAM, 0x03;
    MRT = CAT_PARAM, 0x04; MTL = CAT_PARAM, 0x05; NPB = CAT_PARAM, 0x06; NPR = CAT_PARAM, 0x07;
    PDA = CAT_PARAM, 0x08; PTL = CAT_PARAM, 0x09; RTL = CAT_PARAM, 0x0A; UNO = CAT_PARAM, 0x0B;
    DSD = CAT_PARAM, 0x0D;
    ALY = CAT_PRESS, 0x00; AND = CAT_PRESS, 0x01; BWX = CAT_PRESS, 0x02; DMZ = CAT_PRESS, 0x03;
    ELS = CAT_PRESS, 0x04; EXP = CAT_PRESS, 0x05; FWD = CAT_PRESS, 0x06; FCT = CAT_PRESS, 0x07;
    FOR = CAT_PRESS, 0x08; HOW = CAT_PRESS, 0x09; IDK = CAT_PRESS, 0x0A; IFF = CAT_PRESS, 0x0B;
    INS = CAT_PRESS, 0x0C; OCC = CAT_PRESS, 0x0E; ORR = CAT_PRESS, 0x0F; PCE = CAT_PRESS, 0x10;
    POB = CAT_PRESS, 0x11; PRP = CAT_PRESS, 0x13; QRY = CAT_PRESS, 0x14; SCD = CAT_PRESS, 0x15;
    SRY = CAT_PRESS, 0x16; SUG = CAT_PRESS, 0x17; THK = CAT_PRESS, 0x18; THN = CAT_PRESS, 0x19;
    TRY = CAT_PRESS, 0x1A; VSS = CAT_PRESS, 0x1C; WHT = CAT_PRESS, 0x1D; WHY = CAT_PRESS, 0x1E;
    XDO = CAT_PRESS, 0x1F; XOY = CAT_PRESS, 0x20; YDO = CAT_PRESS, 0x21; CHO = CAT_PRESS, 0x22;
    BCC = CAT_PRESS, 0x23; UNT = CAT_PRESS, 0x24;
    // The later revision of the syntax (MILA's bots): no agreement, cancel.
    NAR = CAT_PRESS, 0x25; CCL = CAT_PRESS, 0x26;
}

/// The standard map's powers, in token order.
pub const STANDARD_POWERS: [&str; 7] = ["AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"];

/// The standard map's provinces: name, category, number.
pub const STANDARD_PROVINCES: &[(&str, u8, u8)] = &[
    ("BOH", 0x50, 0x00),
    ("BUR", 0x50, 0x01),
    ("GAL", 0x50, 0x02),
    ("RUH", 0x50, 0x03),
    ("SIL", 0x50, 0x04),
    ("TYR", 0x50, 0x05),
    ("UKR", 0x50, 0x06),
    ("BUD", 0x51, 0x07),
    ("MOS", 0x51, 0x08),
    ("MUN", 0x51, 0x09),
    ("PAR", 0x51, 0x0A),
    ("SER", 0x51, 0x0B),
    ("VIE", 0x51, 0x0C),
    ("WAR", 0x51, 0x0D),
    ("ADR", 0x52, 0x0E),
    ("AEG", 0x52, 0x0F),
    ("BAL", 0x52, 0x10),
    ("BAR", 0x52, 0x11),
    ("BLA", 0x52, 0x12),
    ("EAS", 0x52, 0x13),
    ("ECH", 0x52, 0x14),
    ("GOB", 0x52, 0x15),
    ("GOL", 0x52, 0x16),
    ("HEL", 0x52, 0x17),
    ("ION", 0x52, 0x18),
    ("IRI", 0x52, 0x19),
    ("MAO", 0x52, 0x1A),
    ("NAO", 0x52, 0x1B),
    ("NTH", 0x52, 0x1C),
    ("NWG", 0x52, 0x1D),
    ("SKA", 0x52, 0x1E),
    ("TYS", 0x52, 0x1F),
    ("WES", 0x52, 0x20),
    ("ALB", 0x54, 0x21),
    ("APU", 0x54, 0x22),
    ("ARM", 0x54, 0x23),
    ("CLY", 0x54, 0x24),
    ("FIN", 0x54, 0x25),
    ("GAS", 0x54, 0x26),
    ("LVN", 0x54, 0x27),
    ("NAF", 0x54, 0x28),
    ("PIC", 0x54, 0x29),
    ("PIE", 0x54, 0x2A),
    ("PRU", 0x54, 0x2B),
    ("SYR", 0x54, 0x2C),
    ("TUS", 0x54, 0x2D),
    ("WAL", 0x54, 0x2E),
    ("YOR", 0x54, 0x2F),
    ("ANK", 0x55, 0x30),
    ("BEL", 0x55, 0x31),
    ("BER", 0x55, 0x32),
    ("BRE", 0x55, 0x33),
    ("CON", 0x55, 0x34),
    ("DEN", 0x55, 0x35),
    ("EDI", 0x55, 0x36),
    ("GRE", 0x55, 0x37),
    ("HOL", 0x55, 0x38),
    ("KIE", 0x55, 0x39),
    ("LON", 0x55, 0x3A),
    ("LVP", 0x55, 0x3B),
    ("MAR", 0x55, 0x3C),
    ("NAP", 0x55, 0x3D),
    ("NWY", 0x55, 0x3E),
    ("POR", 0x55, 0x3F),
    ("ROM", 0x55, 0x40),
    ("RUM", 0x55, 0x41),
    ("SEV", 0x55, 0x42),
    ("SMY", 0x55, 0x43),
    ("SWE", 0x55, 0x44),
    ("TRI", 0x55, 0x45),
    ("TUN", 0x55, 0x46),
    ("VEN", 0x55, 0x47),
    ("BUL", 0x57, 0x48),
    ("SPA", 0x57, 0x49),
    ("STP", 0x57, 0x4A),
];

/// dip's standard abbreviations that differ from DAIDE's.
const ALIASES: &[(&str, &str)] = &[
    ("bot", "GOB"),
    ("eng", "ECH"),
    ("lyo", "GOL"),
    ("mid", "MAO"),
    ("nat", "NAO"),
];

/// Coast tokens and dip's coast names.
pub const COASTS: &[(Token, &str)] = &[
    (NCS, "nc"),
    (NEC, "ne"),
    (ECS, "ec"),
    (SEC, "se"),
    (SCS, "sc"),
    (SWC, "sw"),
    (WCS, "wc"),
    (NWC, "nw"),
];

/// A variant's powers and provinces as tokens.
#[derive(Clone, Debug)]
pub struct Repr {
    /// Token of each power, by `PowerId` index.
    pub powers: Vec<(Token, String)>,
    /// Token of each province, by `ProvinceId` index (`None`: impassable,
    /// not on the DAIDE board).
    pub provinces: Vec<Option<(Token, String)>>,
    by_token: HashMap<u16, Named>,
    by_name: HashMap<String, Token>,
    /// Every power and province token uses the standard numbering.
    pub standard: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Named {
    Power(PowerId),
    Province(ProvinceId),
}

fn three(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .take(3)
        .collect::<String>()
        .to_ascii_uppercase()
}

impl Repr {
    pub fn of(map: &Map) -> Repr {
        let (power_names, prov_names) = three_letter_names(map);
        let standard_powers =
            power_names.len() == 7 && STANDARD_POWERS.iter().all(|s| power_names.iter().any(|n| n == s));
        let passable: Vec<&String> = prov_names.iter().flatten().collect();
        let standard_provs = passable.len() == STANDARD_PROVINCES.len()
            && STANDARD_PROVINCES
                .iter()
                .all(|(s, _, _)| passable.iter().any(|n| n.as_str() == *s));
        let standard = standard_powers && standard_provs;
        let powers: Vec<(Token, String)> = power_names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let low = if standard {
                    STANDARD_POWERS.iter().position(|s| s == n).unwrap_or(i) as u8
                } else {
                    i as u8
                };
                (Token::new(CAT_POWER, low), n.clone())
            })
            .collect();
        let provinces = province_tokens(map, &prov_names, standard);
        let mut by_token = HashMap::new();
        let mut by_name = HashMap::new();
        for (i, (t, n)) in powers.iter().enumerate() {
            by_token.insert(t.0, Named::Power(PowerId(i as u8)));
            by_name.insert(n.clone(), *t);
        }
        for (i, p) in provinces.iter().enumerate() {
            if let Some((t, n)) = p {
                by_token.insert(t.0, Named::Province(ProvinceId(i as u16)));
                by_name.insert(n.clone(), *t);
            }
        }
        Repr {
            powers,
            provinces,
            by_token,
            by_name,
            standard,
        }
    }

    pub fn power(&self, p: PowerId) -> Token {
        self.powers.get(p.index()).map(|(t, _)| *t).unwrap_or(UNO)
    }
    pub fn province(&self, p: ProvinceId) -> Option<Token> {
        self.provinces.get(p.index()).and_then(|x| x.as_ref()).map(|(t, _)| *t)
    }
    pub fn lookup(&self, t: Token) -> Option<Named> {
        self.by_token.get(&t.0).copied()
    }
    pub fn power_of(&self, t: Token) -> Option<PowerId> {
        match self.lookup(t) {
            Some(Named::Power(p)) => Some(p),
            _ => None,
        }
    }
    pub fn province_of(&self, t: Token) -> Option<ProvinceId> {
        match self.lookup(t) {
            Some(Named::Province(p)) => Some(p),
            _ => None,
        }
    }

    /// The three-letter name of a token, if it has one.
    pub fn name(&self, t: Token) -> Option<String> {
        if let Some(n) = NAMED.iter().find(|(x, _)| *x == t).map(|(_, n)| n.to_string()) {
            return Some(n);
        }
        match self.lookup(t)? {
            Named::Power(p) => self.powers.get(p.index()).map(|(_, n)| n.clone()),
            Named::Province(p) => self.provinces.get(p.index())?.as_ref().map(|(_, n)| n.clone()),
        }
    }

    /// A token by its three-letter name (any case).
    pub fn by_name(&self, name: &str) -> Option<Token> {
        let up = name.to_ascii_uppercase();
        NAMED
            .iter()
            .find(|(_, n)| *n == up)
            .map(|(t, _)| *t)
            .or_else(|| self.by_name.get(&up).copied())
    }

    /// Is the token valid in a message for this game (known, or in a
    /// category whose tokens carry their value: numbers, text)?
    pub fn known(&self, t: Token) -> bool {
        t.is_int() || t.is_text() || self.lookup(t).is_some() || NAMED.iter().any(|(x, _)| *x == t)
    }

    /// The RM's payload: six octets per power and province.
    ///
    /// The standard map's RM is empty: the protocol document says a
    /// server using the standard map sends an RM of length zero, and David
    /// Norman's client, which byte-swaps the names of a full RM, could
    /// never rejoin with IAM after one. Other maps list every power and
    /// province ([`Repr::rm_entries`]).
    pub fn rm_payload(&self) -> Vec<u8> {
        if self.standard {
            return Vec::new();
        }
        self.rm_entries()
    }

    /// Every power and province with its token, as a full RM lists them.
    pub fn rm_entries(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let mut push = |t: Token, n: &str| {
            out.extend_from_slice(&t.0.to_be_bytes());
            let b = n.as_bytes();
            for i in 0..3 {
                out.push(*b.get(i).unwrap_or(&b'X'));
            }
            out.push(0);
        };
        for (t, n) in &self.powers {
            push(*t, n);
        }
        for (t, n) in self.provinces.iter().flatten() {
            push(*t, n);
        }
        out
    }

    /// A coast token for a region (`None` for a province's main region).
    pub fn coast(&self, map: &Map, r: RegionId) -> Option<Token> {
        let c = map.region(r).coast.as_deref()?;
        COASTS.iter().find(|(_, n)| *n == c).map(|(t, _)| *t)
    }
}

/// Three-letter names of the powers and of the passable provinces, unique
/// and none a fixed token's name (DAIDE's aliases for the standard map's).
fn three_letter_names(map: &Map) -> (Vec<String>, Vec<Option<String>>) {
    let fixed: HashMap<&str, Token> = NAMED.iter().map(|(t, n)| (*n, *t)).collect();
    let mut used: HashMap<String, ()> = HashMap::new();
    let mut unique = |want: String, seed: usize| -> String {
        let mut name = want;
        let mut i = seed;
        while name.len() != 3 || fixed.contains_key(name.as_str()) || used.contains_key(&name) {
            let first = name.chars().next().filter(char::is_ascii_alphabetic).unwrap_or('X');
            name = format!("{first}{:02}", i % 100);
            i += 1;
        }
        used.insert(name.clone(), ());
        name
    };
    let power_names: Vec<String> = map
        .powers()
        .iter()
        .enumerate()
        .map(|(i, p)| unique(three(&p.abbr), i))
        .collect();
    let prov_names: Vec<Option<String>> = map
        .provinces()
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if p.terrain == Terrain::Impassable {
                return None;
            }
            let lower = p.abbr.to_ascii_lowercase();
            let want = ALIASES
                .iter()
                .find(|(a, _)| *a == lower)
                .map(|(_, d)| d.to_string())
                .unwrap_or_else(|| three(&p.abbr));
            Some(unique(want, i))
        })
        .collect();
    (power_names, prov_names)
}

/// Each province's token: the standard map's own, else numbered within
/// its category (inland, sea, coastal, bicoastal; +1 for centres) in the
/// order of the names.
fn province_tokens(map: &Map, prov_names: &[Option<String>], standard: bool) -> Vec<Option<(Token, String)>> {
    let category = |p: ProvinceId| -> u8 {
        let pr = map.province(p);
        let base = match pr.terrain {
            Terrain::Land => 0x50,
            Terrain::Sea => 0x52,
            _ if map.coasts(p).len() > 1 => 0x56,
            _ => 0x54,
        };
        base + u8::from(pr.supply_center)
    };
    let mut provinces: Vec<Option<(Token, String)>> = vec![None; map.num_provinces()];
    if standard {
        for (i, n) in prov_names.iter().enumerate() {
            if let Some(n) = n {
                if let Some((_, c, low)) = STANDARD_PROVINCES.iter().find(|(s, _, _)| s == n) {
                    provinces[i] = Some((Token::new(*c, *low), n.clone()));
                }
            }
        }
    } else {
        let mut order: Vec<ProvinceId> = map.province_ids().filter(|p| prov_names[p.index()].is_some()).collect();
        order.sort_by_key(|&p| (category(p), prov_names[p.index()].clone()));
        for (low, p) in order.into_iter().enumerate() {
            let name = prov_names[p.index()].clone().unwrap_or_default();
            provinces[p.index()] = Some((Token::new(category(p), low.min(255) as u8), name));
        }
    }
    provinces
}

/// A coast token's dip name.
pub fn coast_name(t: Token) -> Option<&'static str> {
    COASTS.iter().find(|(x, _)| *x == t).map(|(_, n)| *n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_round_trip_through_fourteen_bits() {
        for n in [-8192, -1, 0, 1, 1901, 8191] {
            assert_eq!(Token::int(n).as_int(), Some(n));
            assert!(Token::int(n).is_int());
        }
        assert_eq!(Token::int(-1).0, 0x3fff);
        assert_eq!(Token::int(9000).as_int(), Some(8191));
    }

    #[test]
    fn standard_map_gets_the_standard_tokens() {
        let v = dip_variants::standard();
        let r = Repr::of(&v.map);
        assert!(r.standard);
        assert_eq!(r.by_name("LON"), Some(Token(0x553A)));
        assert_eq!(r.by_name("stp"), Some(Token(0x574A)));
        assert_eq!(r.by_name("ECH"), Some(Token(0x5214)));
        assert_eq!(r.by_name("GOB"), Some(Token(0x5215)));
        assert_eq!(r.by_name("TUR"), Some(Token(0x4106)));
        assert_eq!(r.provinces.iter().flatten().count(), 75);
        assert_eq!(r.rm_entries().len(), 6 * (7 + 75));
        assert!(r.rm_payload().is_empty(), "the standard map's RM is empty");
    }

    #[test]
    fn every_bundled_variant_gets_unique_three_letter_tokens() {
        for (name, _) in dip_variants::bundled() {
            let v = dip_variants::load(name).unwrap();
            let r = Repr::of(&v.map);
            let mut seen = std::collections::HashSet::new();
            for (t, n) in r.powers.iter().chain(r.provinces.iter().flatten()) {
                assert_eq!(n.len(), 3, "{name}: {n}");
                assert!(
                    n.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit()),
                    "{name}: {n}"
                );
                assert!(seen.insert(t.0), "{name}: token {t:?} twice");
                assert!(NAMED.iter().all(|(_, x)| x != n), "{name}: {n} is a language token");
                assert_eq!(r.by_name(n), Some(*t), "{name}: {n}");
            }
        }
    }
}
