//! One error type: a message with the place it refers to.

use std::fmt;

/// An error in a control file, a result table or an argument, with the file,
/// line and column it refers to (line and column count from 1; 0 = unknown).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub msg: String,
}

impl Error {
    pub fn new(file: &str, line: u32, col: u32, msg: impl Into<String>) -> Self {
        Error {
            file: file.to_string(),
            line,
            col,
            msg: msg.into(),
        }
    }
    /// An error without a place (e.g. about arguments).
    pub fn plain(msg: impl Into<String>) -> Self {
        Error {
            file: String::new(),
            line: 0,
            col: 0,
            msg: msg.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.file.is_empty(), self.line, self.col) {
            (true, _, _) => write!(f, "{}", self.msg),
            (false, 0, _) => write!(f, "{}: {}", self.file, self.msg),
            (false, l, 0) => write!(f, "{}:{}: {}", self.file, l, self.msg),
            (false, l, c) => write!(f, "{}:{}:{}: {}", self.file, l, c, self.msg),
        }
    }
}

impl std::error::Error for Error {}
