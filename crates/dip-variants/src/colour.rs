//! Colour names as variant files write them (Realpolitik's `.cnt`, DipWork,
//! dip's own `colour=`), with the colour dip draws for each, and the way
//! back: the nearest name for a colour, for formats that know only names.

/// A colour's names (the first is the one written) and its RGB.
type Named = (&'static [&'static str], (u8, u8, u8));

const NAMED: &[Named] = &[
    (&["Black"], (0x22, 0x22, 0x22)),
    (&["White"], (0xf4, 0xf4, 0xf4)),
    (&["Red"], (0xc0, 0x39, 0x2b)),
    (&["DarkRed", "maroon"], (0x80, 0x1c, 0x1c)),
    (&["Green"], (0x2e, 0x9e, 0x4f)),
    (&["DarkGreen", "forestgreen"], (0x1e, 0x6b, 0x34)),
    (&["LightGreen", "lime"], (0x8b, 0xd3, 0x5a)),
    (&["Blue"], (0x2e, 0x4e, 0xa3)),
    (&["Navy", "darkblue"], (0x1c, 0x2a, 0x6b)),
    (&["Cyan", "lightblue", "skyblue", "aqua"], (0x4a, 0xa3, 0xdf)),
    (&["Teal"], (0x1f, 0x8a, 0x8a)),
    (&["Yellow"], (0xe8, 0xcf, 0x2a)),
    (&["Gold"], (0xd4, 0xa0, 0x17)),
    (&["Orange"], (0xe6, 0x7e, 0x22)),
    (&["Brown"], (0x8b, 0x5a, 0x2b)),
    (&["Tan", "beige"], (0xc8, 0xa9, 0x6e)),
    (&["Purple", "violet"], (0x8e, 0x5c, 0xb5)),
    (&["Magenta", "fuchsia", "pink"], (0xd3, 0x5d, 0xa8)),
    (&["Grey", "gray"], (0x5d, 0x60, 0x66)),
    (&["LightGrey", "lightgray", "silver"], (0xa8, 0xab, 0xb0)),
    (&["DarkGrey", "darkgray"], (0x3c, 0x3e, 0x42)),
    (&["Olive"], (0x80, 0x80, 0x20)),
];

/// The colour of a name (any case; spaces, `_` and `-` ignored).
pub fn named(name: &str) -> Option<(u8, u8, u8)> {
    let key = name.to_ascii_lowercase().replace([' ', '_', '-'], "");
    NAMED
        .iter()
        .find(|(names, _)| names.iter().any(|n| n.to_ascii_lowercase() == key))
        .map(|(_, c)| *c)
}

/// `#rrggbb` or `#rgb`.
pub fn hex(s: &str) -> Option<(u8, u8, u8)> {
    let h = s.trim().strip_prefix('#')?;
    let v = u32::from_str_radix(h, 16).ok()?;
    match h.len() {
        6 => Some(((v >> 16) as u8, (v >> 8) as u8, v as u8)),
        3 => Some((
            ((v >> 8) & 15) as u8 * 17,
            ((v >> 4) & 15) as u8 * 17,
            (v & 15) as u8 * 17,
        )),
        _ => None,
    }
}

/// Names for colours as written in a variant (names or `#rrggbb`): a name
/// stays, a hex colour gets the nearest name no other colour of the list
/// has taken (so that powers keep apart), or the nearest at all when every
/// name is taken.
pub fn names_for(colours: &[Option<String>]) -> Vec<Option<String>> {
    let mut taken: Vec<&str> = colours
        .iter()
        .flatten()
        .filter(|c| named(c).is_some())
        .filter_map(|c| {
            let (_, rgb) = NAMED.iter().find(|(_, rgb)| Some(*rgb) == named(c))?;
            NAMED.iter().find(|(_, r)| r == rgb).map(|(n, _)| n[0])
        })
        .collect();
    colours
        .iter()
        .map(|c| {
            let c = c.as_deref()?;
            if named(c).is_some() {
                return Some(c.to_string());
            }
            let (r, g, b) = hex(c)?;
            let dist = |e: &&Named| {
                let (x, y, z) = e.1;
                let d = |a: u8, b: u8| (a as i32 - b as i32).pow(2);
                d(r, x) + d(g, y) + d(b, z)
            };
            let best = NAMED
                .iter()
                .filter(|(n, _)| !taken.contains(&n[0]))
                .min_by_key(dist)
                .or_else(|| NAMED.iter().min_by_key(dist))?;
            taken.push(best.0[0]);
            Some(best.0[0].to_string())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_colours_get_the_nearest_free_name() {
        let got = names_for(&[
            Some("#2e4ea3".into()),
            Some("Red".into()),
            Some("#c0392c".into()),
            None,
            Some("#ffffff".into()),
        ]);
        // The second red-ish power may not take Red, which another has.
        assert_eq!(
            got,
            [
                Some("Blue".into()),
                Some("Red".into()),
                Some("Brown".into()),
                None,
                Some("White".into())
            ]
        );
        assert_eq!(named("dark red"), named("DarkRed"));
        assert_eq!(hex("#fff"), Some((255, 255, 255)));
    }
}
