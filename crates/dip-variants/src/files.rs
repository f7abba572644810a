//! Reading the files a user names, safely: every read is capped in size
//! (so `/dev/zero` or a runaway file ends with a message, not an endless
//! read), a UTF-8 byte-order mark is skipped, invalid UTF-8 is reported with
//! its line and byte, and every error names the path.

use std::io::Read;
use std::path::Path;

/// The largest text file dip reads (orders, games, variants, records,
/// control files): 64 MiB.
pub const MAX_TEXT_BYTES: u64 = 64 << 20;

/// The largest binary file dip reads (pictures, gzip archives): 256 MiB.
pub const MAX_BINARY_BYTES: u64 = 256 << 20;

/// Reads at most `limit` bytes of `path`; a longer file (or an endless one
/// such as `/dev/zero`) is an error naming the limit. A directory is an
/// error too. The message names the path.
pub fn read_bytes_capped(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    let name = path.display();
    if path.is_dir() {
        return Err(format!("{name}: is a directory, expected a file"));
    }
    // A pipe without a writer would block for ever, a device never end:
    // only regular files are read.
    if let Ok(m) = std::fs::metadata(path) {
        if !m.is_file() {
            return Err(format!(
                "{name}: not a regular file (a device, pipe or socket); expected a file"
            ));
        }
    }
    let f = std::fs::File::open(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
    let mut bytes = Vec::new();
    f.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{name}: cannot read: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "{name}: larger than {} MiB, the most dip reads from one file",
            limit >> 20
        ));
    }
    Ok(bytes)
}

/// Text from bytes: a leading UTF-8 byte-order mark is skipped; invalid
/// UTF-8 is an error naming the line and the byte (counted from 1 in the line).
pub fn decode_utf8(bytes: Vec<u8>, name: &str) -> Result<String, String> {
    let bytes = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let b = e.as_bytes();
        let line = b[..at].iter().filter(|&&c| c == b'\n').count() + 1;
        let col = at - b[..at].iter().rposition(|&c| c == b'\n').map(|p| p + 1).unwrap_or(0) + 1;
        format!(
            "{name}:{line}: invalid UTF-8 at byte {col} of the line (byte 0x{:02X}); save the file as UTF-8",
            b[at]
        )
    })
}

/// How a text file was written: the files of DipWork's and DIP's users
/// come from DOS (code page 437 or 850, which agree on the letters of the
/// languages they were written in) and from Windows (Windows-1252, which is
/// Latin-1 with typographic marks in 0x80–0x9F).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Encoding {
    #[default]
    Utf8,
    /// Windows-1252: ISO 8859-1, and `€ – — „ “ ” ’ …` in 0x80–0x9F.
    Latin1,
    /// DOS code page 850 (437 for its letters: ä 0x84, ö 0x94, ü 0x81, ß 0xE1).
    Dos,
}

impl Encoding {
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::Latin1 => "Latin-1 (Windows-1252)",
            Encoding::Dos => "DOS code page 850",
        }
    }
}

/// Windows-1252's characters at 0x80–0x9F (`None`: unused there).
const CP1252_HIGH: [Option<char>; 32] = [
    Some('€'),
    None,
    Some('‚'),
    Some('ƒ'),
    Some('„'),
    Some('…'),
    Some('†'),
    Some('‡'),
    Some('ˆ'),
    Some('‰'),
    Some('Š'),
    Some('‹'),
    Some('Œ'),
    None,
    Some('Ž'),
    None,
    None,
    Some('‘'),
    Some('’'),
    Some('“'),
    Some('”'),
    Some('•'),
    Some('–'),
    Some('—'),
    Some('˜'),
    Some('™'),
    Some('š'),
    Some('›'),
    Some('œ'),
    None,
    Some('ž'),
    Some('Ÿ'),
];

/// The DOS letters German, French and the like write with (ä ö ü Ä Ö Ü ß é è à ç ê).
const DOS_LETTERS: &[u8] = &[0x81, 0x84, 0x94, 0x8E, 0x99, 0x9A, 0xE1, 0x82, 0x8A, 0x85, 0x87, 0x88];

/// Do bytes with 0x80–0x9F in them read better as Windows-1252 than as
/// DOS? DOS's umlauts stand inside words (`Gr\x94\xE1e`); Windows-1252's
/// marks beside spaces (`5 \x80`, `\x84Wort\x93`, ` \x96 `) and its letters
/// at 0xC0–0xFF (ä 0xE4, ß 0xDF). Bytes Windows-1252 does not use mean DOS.
fn looks_like_cp1252(b: &[u8]) -> bool {
    if b.iter().any(|c| [0x81, 0x8D, 0x8F, 0x90, 0x9D].contains(c)) {
        return false;
    }
    let letter = |c: Option<&u8>| c.is_some_and(|&c| c.is_ascii_alphabetic() || c >= 0x80);
    let (mut dos, mut win) = (0, 0);
    for (i, &c) in b.iter().enumerate() {
        if c < 0x80 {
            continue;
        }
        let before = letter(i.checked_sub(1).and_then(|j| b.get(j)));
        let after = letter(b.get(i + 1));
        if DOS_LETTERS.contains(&c) {
            dos += match (before, after) {
                (true, true) => 2,
                (false, false) => 0,
                _ => 1,
            };
        }
        if c >= 0xC0 && c != 0xE1 {
            win += 2;
        } else if c == 0x92 // ’, also inside words (don’t)
            || (matches!(c, 0x80 | 0x84 | 0x85 | 0x91 | 0x93 | 0x94 | 0x96 | 0x97) && !(before && after))
        {
            win += 1;
        }
    }
    win > dos
}

/// Text from bytes in any of the encodings users' files come in: UTF-8
/// (a byte-order mark skipped) when the bytes are valid UTF-8; else, when
/// bytes 0x80–0x9F occur, a DOS code page or Windows-1252, whichever the
/// bytes look like (`looks_like_cp1252`); else Latin-1.
pub fn decode_any(bytes: Vec<u8>) -> (String, Encoding) {
    let bytes = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    match String::from_utf8(bytes) {
        Ok(s) => (s, Encoding::Utf8),
        Err(e) => {
            let b = e.into_bytes();
            if b.iter().any(|c| (0x80..=0x9F).contains(c)) && !looks_like_cp1252(&b) {
                let s = b
                    .iter()
                    .map(|&c| {
                        if c < 0x80 {
                            c as char
                        } else {
                            oem_cp::code_table::DECODING_TABLE_CP850[(c - 0x80) as usize]
                        }
                    })
                    .collect();
                (s, Encoding::Dos)
            } else {
                let s = b
                    .iter()
                    .map(|&c| match c {
                        0x80..=0x9F => CP1252_HIGH[(c - 0x80) as usize].unwrap_or(c as char),
                        _ => c as char,
                    })
                    .collect();
                (s, Encoding::Latin1)
            }
        }
    }
}

/// The ASCII a character becomes where the encoding lacks it: dashes,
/// quotes and the like keep their sense (`—` is `-`), anything else `?`.
fn ascii_fallback(c: char) -> &'static str {
    match c {
        '—' | '–' | '‒' | '−' => "-",
        '„' | '“' | '”' | '«' | '»' => "\"",
        '‚' | '‘' | '’' | '‹' | '›' => "'",
        '…' => "...",
        '€' => "EUR",
        '→' => "->",
        '←' => "<-",
        '\u{a0}' => " ",
        _ => "?",
    }
}

/// Text as bytes in an encoding; a character the encoding lacks becomes
/// its ASCII form (`—` → `-`, `“` → `"`), else `?`.
pub fn encode(text: &str, enc: Encoding) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        let byte = match enc {
            Encoding::Utf8 => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                continue;
            }
            _ if c.is_ascii() => Some(c as u8),
            Encoding::Latin1 => match u8::try_from(u32::from(c)) {
                Ok(b) if !(0x80..=0x9F).contains(&b) => Some(b),
                _ => CP1252_HIGH.iter().position(|&h| h == Some(c)).map(|i| 0x80 + i as u8),
            },
            Encoding::Dos => oem_cp::code_table::ENCODING_TABLE_CP850.get(&c).copied(),
        };
        match byte {
            Some(b) => out.push(b),
            None => out.extend_from_slice(ascii_fallback(c).as_bytes()),
        }
    }
    out
}

#[cfg(test)]
mod encoding_tests {
    use super::*;

    #[test]
    fn windows_1252_with_dashes_quotes_and_euro_was_read_as_dos() {
        let text = "Preis: 5 € – „Größe“ — don’t\n";
        let bytes = encode(text, Encoding::Latin1);
        assert_eq!(decode_any(bytes), (text.to_string(), Encoding::Latin1));
        // DOS German stays DOS: umlauts inside words, ß.
        let dos = "NATION Österreich\nA Wien grüßt Größe ä\n";
        assert_eq!(decode_any(encode(dos, Encoding::Dos)), (dos.to_string(), Encoding::Dos));
        assert_eq!(decode_any(encode("Ärger\n", Encoding::Dos)).1, Encoding::Dos);
    }

    #[test]
    fn the_em_dash_became_a_question_mark_in_dos_files() {
        assert_eq!(encode("Spring 1901 — next", Encoding::Dos), b"Spring 1901 - next");
        assert_eq!(encode("„a“ …", Encoding::Dos), b"\"a\" ...");
    }
}

/// A text file in any encoding users' files come in (see [`decode_any`]),
/// capped at [`MAX_TEXT_BYTES`], without a byte-order mark.
pub fn read_text(path: &Path) -> Result<String, String> {
    read_text_encoded(path).map(|(t, _)| t)
}

/// [`read_text`], also saying which encoding the file was in, so that what
/// is written back keeps it.
pub fn read_text_encoded(path: &Path) -> Result<(String, Encoding), String> {
    let bytes = read_bytes_capped(path, MAX_TEXT_BYTES)?;
    Ok(decode_any(bytes))
}

/// At most the first 16 characters of a word quoted in an error, with `…`
/// when cut, control characters escaped: a file that is not what it was
/// named as (`/etc/passwd` as a variant) is never echoed whole.
pub fn excerpt(text: &str) -> String {
    let mut s: String = text.chars().take(16).flat_map(char::escape_debug).collect();
    if text.chars().nth(16).is_some() {
        s.push('…');
    }
    s
}

/// Removes a leading byte-order mark from text already read.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// A file named inside another file (DPjudge's `MAP`, a record's
/// `variant`, Analyse's `#INCLUDE`), resolved against the naming file's
/// folder and confined to it: an absolute path, a drive, or a `..` step is
/// refused, so a file from elsewhere can name nothing outside its folder.
pub fn confined(base: &Path, name: &str) -> Result<std::path::PathBuf, String> {
    use std::path::Component;
    let rel = Path::new(name);
    let bad = name.starts_with(['/', '\\'])
        || name.contains(':')
        || rel
            .components()
            .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
        || name.split(['/', '\\']).any(|p| p == "..");
    if bad || name.trim().is_empty() {
        return Err(format!(
            "`{name}`: a file named here must be inside {} (no absolute path, no `..`)",
            if base.as_os_str().is_empty() {
                Path::new(".").display()
            } else {
                base.display()
            }
        ));
    }
    Ok(base.join(rel))
}

#[cfg(test)]
mod tests {
    #[test]
    fn confined_refuses_absolute_and_parent_paths() {
        let b = Path::new("maps");
        assert!(confined(b, "/etc/passwd").is_err());
        assert!(confined(b, "../secret").is_err());
        assert!(confined(b, "a/../../b").is_err());
        assert!(confined(b, "C:\\x").is_err());
        assert_eq!(confined(b, "sub/x.map").unwrap(), Path::new("maps/sub/x.map"));
    }

    use super::*;

    #[test]
    fn invalid_utf8_names_line_and_byte() {
        let e = decode_utf8(b"ok\nab\xffc\n".to_vec(), "f.txt").unwrap_err();
        assert!(e.contains("f.txt:2:") && e.contains("byte 3"), "{e}");
    }

    #[test]
    fn latin1_and_dos_umlauts_are_read_and_written_back() {
        // "Österreich: Armee Wien-Böhmen, Flotte Triest grüßt" as people saved it.
        let text = "Österreich: Armee Wien-Böhmen grüßt";
        for enc in [Encoding::Latin1, Encoding::Dos, Encoding::Utf8] {
            let bytes = encode(text, enc);
            assert_eq!(decode_any(bytes.clone()), (text.to_string(), enc), "{enc:?}");
        }
        assert_eq!(encode("ä", Encoding::Dos), [0x84]);
        assert_eq!(encode("ä", Encoding::Latin1), [0xE4]);
    }

    #[test]
    fn byte_order_mark_is_skipped() {
        assert_eq!(decode_utf8(b"\xEF\xBB\xBFabc".to_vec(), "f").unwrap(), "abc");
    }

    #[test]
    fn long_file_is_capped() {
        let p = std::env::temp_dir().join(format!("dip-files-{}-long", std::process::id()));
        std::fs::write(&p, vec![b'x'; (1 << 20) + 1]).unwrap();
        let e = read_bytes_capped(&p, 1 << 20).unwrap_err();
        let _ = std::fs::remove_file(&p);
        assert!(e.contains("dip-files-") && e.contains("larger than 1 MiB"), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn endless_device_or_fifo_without_writer_is_refused() {
        let e = read_bytes_capped(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert!(e.contains("/dev/zero: not a regular file"), "{e}");
        let fifo = std::env::temp_dir().join(format!("dip-files-{}-fifo", std::process::id()));
        let _ = std::fs::remove_file(&fifo);
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let e = read_bytes_capped(&fifo, 1 << 20).unwrap_err();
            let _ = std::fs::remove_file(&fifo);
            assert!(e.contains("not a regular file"), "{e}");
        }
    }

    #[test]
    fn directory_is_refused_by_name() {
        let e = read_text(Path::new(".")).unwrap_err();
        assert!(e.contains("is a directory"), "{e}");
    }
}

/// A path written as DipWork's DOS files write them (`variants\mini`,
/// `VARIANTS\UNITPICS\fr_a_64.tif`), found under `base` with each part in
/// any case, as DOS would find it. A file or a folder.
pub fn find_dos_path(base: &Path, name: &str) -> Option<std::path::PathBuf> {
    let mut at = base.to_path_buf();
    let mut parts = 0;
    for part in name.split(['\\', '/']).filter(|p| !p.is_empty() && *p != ".") {
        parts += 1;
        let exact = at.join(part);
        at = if part == ".." || exact.exists() {
            exact
        } else {
            let dir = if at.as_os_str().is_empty() {
                Path::new(".")
            } else {
                at.as_path()
            };
            let found = std::fs::read_dir(dir)
                .ok()?
                .flatten()
                .find(|e| e.file_name().to_str().is_some_and(|n| n.eq_ignore_ascii_case(part)))?;
            at.join(found.file_name())
        };
    }
    (parts > 0 && at.exists()).then_some(at)
}

/// `found` as a path relative to the folder `dir` (`../UNITPICS/a.tif`),
/// so that it is found again from `dir` wherever the program runs; an
/// absolute path when they share nothing.
pub fn relative_to(dir: &Path, found: &Path) -> std::path::PathBuf {
    let abs = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let (dir, found) = (abs(dir), abs(found));
    for (ups, base) in dir.ancestors().enumerate() {
        if let Ok(rest) = found.strip_prefix(base) {
            let mut out: std::path::PathBuf = std::iter::repeat_n("..", ups).collect();
            out.push(rest);
            return out;
        }
    }
    found
}
