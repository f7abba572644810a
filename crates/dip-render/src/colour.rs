//! Colours: the powers' colours from the variant, the map's own colours,
//! and the grey and black-and-white modes.

use crate::svg::Mode;
use dip_core::PowerId;
use dip_variants::Variant;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// `#rrggbb`, `#rgb` or a colour name (the names variant files use).
    pub fn parse(s: &str) -> Option<Rgb> {
        let s = s.trim();
        dip_variants::colour::hex(s)
            .or_else(|| dip_variants::colour::named(s))
            .map(|(r, g, b)| Rgb(r, g, b))
    }

    /// Perceived lightness, 0–255.
    pub fn luma(self) -> u8 {
        ((self.0 as u32 * 299 + self.1 as u32 * 587 + self.2 as u32 * 114) / 1000) as u8
    }

    pub fn mix(self, other: Rgb, t: f32) -> Rgb {
        let m = |a: u8, b: u8| (a as f32 + (b as f32 - a as f32) * t).round().clamp(0.0, 255.0) as u8;
        Rgb(m(self.0, other.0), m(self.1, other.1), m(self.2, other.2))
    }
}

/// Land of no owner.
const LAND: Rgb = Rgb(0xf2, 0xea, 0xd3);

/// Colours for powers without one in the variant.
const DEFAULTS: [Rgb; 12] = [
    Rgb(0xc0, 0x39, 0x2b),
    Rgb(0x2e, 0x4e, 0xa3),
    Rgb(0x4a, 0xa3, 0xdf),
    Rgb(0x5d, 0x60, 0x66),
    Rgb(0x2e, 0x9e, 0x4f),
    Rgb(0x8e, 0x5c, 0xb5),
    Rgb(0xe0, 0xa5, 0x26),
    Rgb(0x8b, 0x5a, 0x2b),
    Rgb(0xd3, 0x5d, 0xa8),
    Rgb(0x1f, 0x8a, 0x8a),
    Rgb(0x80, 0x80, 0x20),
    Rgb(0xe6, 0x7e, 0x22),
];

/// The colours of one picture.
pub struct Palette {
    pub mode: Mode,
    powers: Vec<Rgb>,
    initials: Vec<char>,
}

impl Palette {
    pub fn new(v: &Variant, mode: Mode) -> Palette {
        let n = v.map.powers().len();
        let powers = (0..n)
            .map(|i| {
                v.power_styles
                    .get(i)
                    .and_then(|s| s.colour.as_deref())
                    .and_then(Rgb::parse)
                    .unwrap_or(DEFAULTS[i % DEFAULTS.len()])
            })
            .collect();
        let initials = (0..n)
            .map(|i| {
                v.power_styles
                    .get(i)
                    .and_then(|s| s.initial)
                    .or_else(|| v.map.powers()[i].name.chars().next())
                    .unwrap_or('?')
            })
            .collect();
        Palette { mode, powers, initials }
    }

    /// The same with some powers' colours replaced (DIP's "Unit colours"):
    /// `colours[i]` for power `i`, `None` keeping the variant's.
    pub fn with_colours(mut self, colours: &[Option<Rgb>]) -> Palette {
        for (slot, c) in self.powers.iter_mut().zip(colours) {
            if let Some(c) = c {
                *slot = *c;
            }
        }
        self
    }

    /// The palette of a picture drawn with `opts`.
    pub fn for_options(v: &Variant, opts: &crate::svg::Options) -> Palette {
        Palette::new(v, opts.mode).with_colours(&opts.colours)
    }

    /// A colour as drawn in this mode.
    pub fn hex(&self, c: Rgb) -> String {
        let c = match self.mode {
            Mode::Colour => c,
            Mode::Grey => {
                let l = c.luma();
                Rgb(l, l, l)
            }
            Mode::BlackWhite => {
                if c.luma() >= 128 {
                    Rgb(255, 255, 255)
                } else {
                    Rgb(0, 0, 0)
                }
            }
        };
        format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
    }

    fn base(&self, p: PowerId) -> Rgb {
        self.powers.get(p.index()).copied().unwrap_or(Rgb(0x80, 0x80, 0x80))
    }

    /// A unit's or centre's fill.
    pub fn power(&self, p: PowerId) -> String {
        match self.mode {
            Mode::BlackWhite => "#ffffff".into(),
            _ => self.hex(self.base(p)),
        }
    }

    /// The letter on the power's units.
    pub fn initial(&self, p: PowerId) -> char {
        self.initials.get(p.index()).copied().unwrap_or('?')
    }

    /// Text colour on the power's units.
    pub fn ink_on(&self, p: PowerId) -> String {
        match self.mode {
            Mode::BlackWhite => "#000000".into(),
            Mode::Grey => {
                if self.base(p).luma() > 150 {
                    "#000000".into()
                } else {
                    "#ffffff".into()
                }
            }
            Mode::Colour => {
                if self.base(p).luma() > 165 {
                    "#1b1b1b".into()
                } else {
                    "#ffffff".into()
                }
            }
        }
    }

    /// A province owned by the power, as seen on the map (the swatch of the panel).
    pub fn owner_tint(&self, p: PowerId) -> String {
        match self.mode {
            Mode::BlackWhite => format!("url(#own{})", p.index()),
            _ => self.hex(self.base(p).mix(Rgb(0xf6, 0xf1, 0xe4), 0.45)),
        }
    }

    /// The fill that, multiplied over the land colour, gives the owner's
    /// tint (owned provinces are multiplied over the base map so that its
    /// borders and names show through).
    pub fn owner_fill(&self, p: PowerId) -> String {
        match self.mode {
            Mode::BlackWhite => format!("url(#own{})", p.index()),
            _ => {
                let t = self.base(p).mix(Rgb(0xf6, 0xf1, 0xe4), 0.45);
                let land = LAND;
                let div = |a: u8, b: u8| ((a as u32 * 255) / (b as u32).max(1)).min(255) as u8;
                self.hex(Rgb(div(t.0, land.0), div(t.1, land.1), div(t.2, land.2)))
            }
        }
    }

    /// Order arrows of the power.
    pub fn order(&self, p: PowerId) -> String {
        match self.mode {
            Mode::BlackWhite => "#000000".into(),
            _ => self.hex(self.base(p).mix(Rgb(0, 0, 0), 0.25)),
        }
    }

    pub fn unit_outline(&self) -> String {
        "#111111".into()
    }
    pub fn fail(&self) -> String {
        match self.mode {
            Mode::Colour => "#d0021b".into(),
            _ => "#000000".into(),
        }
    }
    pub fn sea(&self) -> String {
        match self.mode {
            Mode::BlackWhite => "#ffffff".into(),
            _ => self.hex(Rgb(0xb9, 0xd7, 0xea)),
        }
    }
    pub fn sea_border(&self) -> String {
        match self.mode {
            Mode::BlackWhite => "#777777".into(),
            _ => self.hex(Rgb(0x6f, 0x9c, 0xbd)),
        }
    }
    /// The line drawn along every shore, outside the land.
    pub fn coast(&self) -> String {
        match self.mode {
            Mode::BlackWhite => "#000000".into(),
            _ => self.hex(Rgb(0x4f, 0x7a, 0x99)),
        }
    }
    pub fn land(&self) -> String {
        match self.mode {
            Mode::BlackWhite => "#ffffff".into(),
            _ => self.hex(LAND),
        }
    }
    pub fn neutral_land(&self) -> String {
        match self.mode {
            Mode::BlackWhite => "#ffffff".into(),
            _ => self.hex(Rgb(0xdd, 0xd6, 0xc2)),
        }
    }
    pub fn border(&self) -> String {
        match self.mode {
            Mode::BlackWhite => "#000000".into(),
            _ => self.hex(Rgb(0x5a, 0x4a, 0x38)),
        }
    }
    pub fn text(&self) -> String {
        match self.mode {
            Mode::Colour => "#222222".into(),
            _ => "#000000".into(),
        }
    }
    /// Sea names: dark blue, quieter than the land's.
    pub fn sea_text(&self) -> String {
        match self.mode {
            Mode::Colour => "#24506e".into(),
            _ => "#000000".into(),
        }
    }
    pub fn halo(&self) -> String {
        "#ffffff".into()
    }
    pub fn title_bar(&self) -> String {
        match self.mode {
            Mode::BlackWhite => "#ffffff".into(),
            _ => self.hex(Rgb(0x2b, 0x35, 0x45)),
        }
    }
    pub fn title_text(&self) -> String {
        match self.mode {
            Mode::BlackWhite => "#000000".into(),
            _ => "#ffffff".into(),
        }
    }
    pub fn panel(&self) -> String {
        match self.mode {
            Mode::BlackWhite => "#ffffff".into(),
            _ => self.hex(Rgb(0xf4, 0xf1, 0xea)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_parse() {
        assert_eq!(Rgb::parse("#c0392b"), Some(Rgb(0xc0, 0x39, 0x2b)));
        assert_eq!(Rgb::parse("#fff"), Some(Rgb(255, 255, 255)));
        assert_eq!(Rgb::parse("Dark Green"), Some(Rgb(0x1e, 0x6b, 0x34)));
        assert_eq!(Rgb::parse("#12"), None);
        assert_eq!(Rgb::parse("plaid"), None);
    }

    #[test]
    fn grey_mode_keeps_lightness_and_bw_is_two_tone() {
        let v = dip_variants::standard();
        let g = Palette::new(&v, Mode::Grey);
        let c = g.hex(Rgb(0xc0, 0x39, 0x2b));
        assert_eq!(&c[1..3], &c[3..5]);
        let b = Palette::new(&v, Mode::BlackWhite);
        assert!(["#000000", "#ffffff"].contains(&b.hex(Rgb(0x80, 0x20, 0x20)).as_str()));
    }
}
