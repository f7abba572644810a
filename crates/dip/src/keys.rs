//! Keys for `dip menu`: on a terminal one key press acts at once, without
//! Enter, as DipWork's menus did; when standard input is no terminal
//! (a script, a test, a pipe) a line is read and its one character taken.

use std::io::{IsTerminal, Read, Write};

/// What the user gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// One key (a line of one character counts as its key).
    Key(char),
    /// A line of more than one character, or none (Enter alone).
    Line(String),
}

/// Bytes of a UTF-8 character that starts with `first` (1 for a byte that
/// cannot start one: it is taken alone).
pub fn utf8_len(first: u8) -> usize {
    match first {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

/// A line as input: one character is a key.
pub fn from_line(line: &str) -> Input {
    let t = line.trim();
    let mut cs = t.chars();
    match (cs.next(), cs.next()) {
        (Some(c), None) => Input::Key(c),
        _ => Input::Line(t.to_string()),
    }
}

/// Prints `prompt` and waits for a key (terminal) or a line (otherwise);
/// `None` at the end of input, or on Ctrl-C / Ctrl-D at a terminal.
pub fn ask_key(prompt: &str) -> Option<Input> {
    print!("{prompt}");
    let _ = std::io::stdout().flush();
    if std::io::stdin().is_terminal() {
        #[cfg(unix)]
        if let Some(got) = raw::key() {
            println!();
            return match got {
                Some('\u{3}' | '\u{4}') | None => None,
                Some('\r' | '\n') => Some(Input::Line(String::new())),
                Some(c) => Some(Input::Key(c)),
            };
        }
    }
    let mut line = String::new();
    match std::io::stdin().read_line(&mut line) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(from_line(&line)),
    }
}

/// Waits for one key (a terminal, in raw mode: no Enter, no echo) or a
/// line (otherwise); false at the end of input.
pub fn wait_key() -> bool {
    if std::io::stdin().is_terminal() {
        #[cfg(unix)]
        if let Some(got) = raw::key() {
            return got.is_some();
        }
    }
    let mut line = String::new();
    matches!(std::io::stdin().read_line(&mut line), Ok(n) if n > 0)
}

#[cfg(unix)]
mod raw {
    use super::*;

    /// One key with the terminal in raw mode (no echo, no line editing,
    /// Ctrl-C read as a key so that the terminal is always restored).
    /// `None` when the terminal cannot be switched (then a line is read);
    /// `Some(None)` at the end of input.
    pub fn key() -> Option<Option<char>> {
        let fd = libc::STDIN_FILENO;
        // SAFETY: termios is plain data; tcgetattr fills it or fails.
        let mut old: libc::termios = unsafe { std::mem::zeroed() };
        if unsafe { libc::tcgetattr(fd, &mut old) } != 0 {
            return None;
        }
        let mut raw = old;
        raw.c_lflag &= !(libc::ICANON | libc::ECHO | libc::ISIG);
        raw.c_cc[libc::VMIN] = 1;
        raw.c_cc[libc::VTIME] = 0;
        // SAFETY: fd is standard input, `raw` a termios read from it.
        if unsafe { libc::tcsetattr(fd, libc::TCSANOW, &raw) } != 0 {
            return None;
        }
        let got = read_char();
        // SAFETY: as above; the terminal gets back what it had.
        unsafe { libc::tcsetattr(fd, libc::TCSANOW, &old) };
        Some(got)
    }

    fn read_char() -> Option<char> {
        let mut stdin = std::io::stdin().lock();
        let mut buf = [0u8; 4];
        stdin.read_exact(&mut buf[..1]).ok()?;
        let n = utf8_len(buf[0]);
        if n > 1 {
            stdin.read_exact(&mut buf[1..n]).ok()?;
        }
        std::str::from_utf8(&buf[..n])
            .ok()
            .and_then(|s| s.chars().next())
            .or(Some(char::from(buf[0])))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_of_bytes_and_lines() {
        assert_eq!(utf8_len(b'a'), 1);
        assert_eq!(utf8_len("ü".as_bytes()[0]), 2);
        assert_eq!(utf8_len("€".as_bytes()[0]), 3);
        assert_eq!(from_line("K\n"), Input::Key('K'));
        assert_eq!(from_line("ü\n"), Input::Key('ü'));
        assert_eq!(from_line("\n"), Input::Line(String::new()));
        assert_eq!(from_line("meine\n"), Input::Line("meine".into()));
    }
}
