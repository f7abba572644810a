//! What the interpreter needs from the outside world, and a host in memory
//! for tests.

use super::*;

/// Everything the interpreter needs from the outside world.
pub trait Host {
    /// Reads a whole file.
    fn read(&mut self, path: &str) -> Result<String, String>;
    /// Expands a file mask (`*`, `?`) into file names; a name without
    /// wildcards is returned as it is.
    fn expand(&mut self, mask: &str) -> Vec<String>;
    /// Writes text to a file (created or truncated unless `append`); the
    /// empty path is standard output.
    fn write(&mut self, path: &str, append: bool, text: &str) -> Result<(), String>;
    /// Writes to standard error.
    fn stderr(&mut self, text: &str);
    /// Today's date (the default reference date).
    fn today(&self) -> Date;
    /// The current date and time as text (TIMESTAMP).
    fn now(&self) -> String;
    /// Runs a command line (SYSTEM), returning its exit status.
    fn system(&mut self, cmd: &str) -> Result<i32, String>;
}

/// A host over files in memory, for tests and fuzzing.
#[derive(Debug, Default, Clone)]
pub struct MemHost {
    pub files: HashMap<String, String>,
    pub stdout: String,
    pub stderr: String,
    pub commands: Vec<String>,
    pub today: Option<Date>,
}

impl Host for MemHost {
    fn read(&mut self, path: &str) -> Result<String, String> {
        self.files.get(path).cloned().ok_or_else(|| "no such file".to_string())
    }
    fn expand(&mut self, mask: &str) -> Vec<String> {
        if !mask.contains(['*', '?']) {
            return vec![mask.to_string()];
        }
        let mut v: Vec<String> = self.files.keys().filter(|f| glob_match(mask, f)).cloned().collect();
        v.sort();
        v
    }
    fn write(&mut self, path: &str, append: bool, text: &str) -> Result<(), String> {
        if path.is_empty() {
            self.stdout.push_str(text);
            return Ok(());
        }
        let e = self.files.entry(path.to_string()).or_default();
        if !append {
            e.clear();
        }
        e.push_str(text);
        Ok(())
    }
    fn stderr(&mut self, text: &str) {
        self.stderr.push_str(text);
    }
    fn today(&self) -> Date {
        self.today.unwrap_or(Date { y: 2000, m: 1, d: 1 })
    }
    fn now(&self) -> String {
        "2000-01-01 00:00:00".into()
    }
    fn system(&mut self, cmd: &str) -> Result<i32, String> {
        self.commands.push(cmd.to_string());
        Ok(0)
    }
}

/// Matches `*` and `?` (case-insensitive) against a name.
pub fn glob_match(mask: &str, name: &str) -> bool {
    let m: Vec<char> = mask.to_lowercase().chars().collect();
    let n: Vec<char> = name.to_lowercase().chars().collect();
    let (mut i, mut j) = (0, 0);
    let (mut star, mut mark) = (None, 0);
    while j < n.len() {
        if i < m.len() && (m[i] == '?' || m[i] == n[j]) {
            i += 1;
            j += 1;
        } else if i < m.len() && m[i] == '*' {
            star = Some(i);
            mark = j;
            i += 1;
        } else if let Some(s) = star {
            i = s + 1;
            mark += 1;
            j = mark;
        } else {
            return false;
        }
    }
    while i < m.len() && m[i] == '*' {
        i += 1;
    }
    i == m.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob_match("*.txt", "a.txt"));
        assert!(glob_match("r??nd*", "round1.res"));
        assert!(!glob_match("*.txt", "a.csv"));
    }
}
