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
/// languages they were written in) and from Windows (Latin-1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Encoding {
    #[default]
    Utf8,
    /// ISO 8859-1 (and Windows' 1252 where it agrees).
    Latin1,
    /// DOS code page 850 (437 for its letters: ä 0x84, ö 0x94, ü 0x81, ß 0xE1).
    Dos,
}

impl Encoding {
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::Latin1 => "Latin-1",
            Encoding::Dos => "DOS code page 850",
        }
    }
}

/// Text from bytes in any of the encodings users' files come in: UTF-8
/// (a byte-order mark skipped) when the bytes are valid UTF-8; else a DOS
/// code page when bytes 0x80–0x9F occur (control codes in Latin-1, the
/// umlauts in DOS); else Latin-1.
pub fn decode_any(bytes: Vec<u8>) -> (String, Encoding) {
    let bytes = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    match String::from_utf8(bytes) {
        Ok(s) => (s, Encoding::Utf8),
        Err(e) => {
            let b = e.into_bytes();
            if b.iter().any(|c| (0x80..=0x9F).contains(c)) {
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
                (b.iter().map(|&c| c as char).collect(), Encoding::Latin1)
            }
        }
    }
}

/// Text as bytes in an encoding; a character the encoding lacks becomes `?`.
pub fn encode(text: &str, enc: Encoding) -> Vec<u8> {
    match enc {
        Encoding::Utf8 => text.as_bytes().to_vec(),
        Encoding::Latin1 => text
            .chars()
            .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
            .collect(),
        Encoding::Dos => text
            .chars()
            .map(|c| {
                if c.is_ascii() {
                    c as u8
                } else {
                    oem_cp::code_table::ENCODING_TABLE_CP850
                        .get(&c)
                        .copied()
                        .unwrap_or(b'?')
                }
            })
            .collect(),
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
