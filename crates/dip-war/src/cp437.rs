//! Code page 437, the DOS character set of the data files. Bytes below
//! 0x80 are ASCII (control characters stay control characters), so a file
//! decoded and encoded again is the same bytes.

const HIGH: &str = "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u{a0}";

fn high() -> &'static [char] {
    static T: std::sync::OnceLock<Vec<char>> = std::sync::OnceLock::new();
    T.get_or_init(|| HIGH.chars().collect())
}

/// Bytes to text.
pub fn decode(bytes: &[u8]) -> String {
    let h = high();
    bytes
        .iter()
        .map(|&b| {
            if b < 0x80 {
                b as char
            } else {
                h.get(b as usize - 0x80).copied().unwrap_or('?')
            }
        })
        .collect()
}

/// Whether the code page has the character (else [`encode`] writes `?`).
pub fn encodable(c: char) -> bool {
    (c as u32) < 0x80 || high().contains(&c)
}

/// Text to bytes; a character outside the code page becomes `?`.
pub fn encode(text: &str) -> Vec<u8> {
    let h = high();
    text.chars()
        .map(|c| {
            if (c as u32) < 0x80 {
                c as u8
            } else {
                h.iter().position(|&x| x == c).map_or(b'?', |i| 0x80 + i as u8)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_byte_round_trips() {
        assert_eq!(super::high().len(), 128);
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(super::encode(&super::decode(&all)), all);
        assert_eq!(super::decode(&[0x81, 0xE1]), "üß");
        assert!(super::encodable('ö') && super::encodable('A') && !super::encodable('Ł'));
    }
}
