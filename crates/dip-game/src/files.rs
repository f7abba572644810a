//! Writing files without losing data: nothing a user has is overwritten
//! unless asked (`--force`), names that come from inside files are made
//! safe before they become file names, and a file that replaces another is
//! written beside it first and renamed last, so a failure leaves the old
//! file whole.

use std::io::Write;
use std::path::{Path, PathBuf};

pub use dip_variants::files::{
    decode_utf8, encode, excerpt, find_dos_path, read_bytes_capped, read_text, read_text_encoded, Encoding,
    MAX_BINARY_BYTES, MAX_TEXT_BYTES,
};

/// A file a DipWork parameter names (FNGAME `game.txt`, FNORDERS,
/// FNERRORS ...) in the game's folder, found in any case as DOS found it
/// (`game.txt` is GAME.TXT on a case-sensitive disk); the name as given
/// when there is no such file yet (a file dip is about to write).
pub fn dos_file(dir: &Path, name: &str) -> PathBuf {
    find_dos_path(dir, name)
        .filter(|p| !p.is_dir())
        .unwrap_or_else(|| dir.join(name))
}

/// A name taken from a file (a game's id, a prefix) made safe as one file
/// name inside a chosen directory: letters, digits, `-`, `_` and `.` are
/// kept, everything else (path separators, `..`, control characters)
/// becomes `_`; no leading dot; at most 100 characters; never empty.
pub fn safe_file_name(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .take(100)
        .collect();
    while s.starts_with('.') {
        s.replace_range(0..1, "_");
    }
    if s.is_empty() {
        s.push('_');
    }
    s
}

/// Writes a new file: an existing file (or directory) at `path` is an
/// error unless `force`, and the message says how to replace it.
pub fn write_new(path: &Path, bytes: &[u8], force: bool) -> Result<(), String> {
    let name = path.display();
    if path.is_dir() {
        return Err(format!("{name} is a directory; expected a file name"));
    }
    if force {
        return replace(path, bytes);
    }
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => format!("{name} exists; use --force to replace it"),
            _ => format!("{name}: cannot write: {e}"),
        })?;
    f.write_all(bytes).map_err(|e| format!("{name}: cannot write: {e}"))
}

/// The temporary name a file is written under before it replaces `path`.
fn temp_beside(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(format!(".dip-tmp-{}", std::process::id()));
    path.with_file_name(name)
}

/// Writes `bytes` beside `path` and returns the temporary file, to be moved
/// over `path` with [`commit`] once everything else has succeeded.
pub fn stage(path: &Path, bytes: &[u8]) -> Result<PathBuf, String> {
    let tmp = temp_beside(path);
    std::fs::write(&tmp, bytes).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        // The file the user named, not the temporary one they never asked for.
        format!("{}: cannot write: {e}", path.display())
    })?;
    Ok(tmp)
}

/// Moves a staged file over its target (an atomic rename on one file system).
pub fn commit(tmp: &Path, path: &Path) -> Result<(), String> {
    std::fs::rename(tmp, path).map_err(|e| format!("{}: cannot replace: {e}", path.display()))
}

/// Replaces `path` whole: written beside it, then renamed over it.
pub fn replace(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = stage(path, bytes)?;
    commit(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Checks outputs before anything is written: none may be one of the
/// `inputs` (files, or folders whose files were read: then nothing directly
/// inside them either), a directory, or (without `force`) an existing file.
pub fn check_targets(targets: &[&Path], inputs: &[&Path], force: bool) -> Result<(), String> {
    for t in targets {
        for i in inputs {
            let inside = i.is_dir() && t.parent().is_some_and(|p| same_file(p, i));
            if same_file(t, i) || inside {
                return Err(format!(
                    "{} would replace the input {}; write to another file",
                    t.display(),
                    i.display()
                ));
            }
        }
        if t.is_dir() {
            return Err(format!("{} is a directory; expected a file name", t.display()));
        }
        if t.exists() && !force {
            return Err(format!("{} exists; use --force to replace it", t.display()));
        }
    }
    Ok(())
}

/// True when two paths name the same existing file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_error_named_the_temporary_file() {
        let target = std::env::temp_dir()
            .join(format!("dip-no-such-folder-{}", std::process::id()))
            .join("x.svg");
        let e = replace(&target, b"<svg/>").unwrap_err();
        assert!(e.starts_with(&format!("{}: cannot write", target.display())), "{e}");
        assert!(!e.contains("dip-tmp"), "{e}");
    }

    #[test]
    fn ids_cannot_leave_the_directory() {
        assert_eq!(safe_file_name("../victim"), "_._victim");
        assert_eq!(safe_file_name("/etc/passwd"), "_etc_passwd");
        assert_eq!(safe_file_name(".."), "_.");
        assert_eq!(safe_file_name(""), "_");
        assert_eq!(safe_file_name("game-1_a.b"), "game-1_a.b");
    }
}
