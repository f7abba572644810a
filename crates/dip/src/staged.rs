//! Output files held in memory until a run ends, then written all at once
//! (each whole, beside its target first). `dip rate` writes through it, so
//! an OUTPUT that names a file the control file reads only later cannot
//! truncate that file before it is read.

use std::io::Write;
use std::path::{Path, PathBuf};

/// One output: its name as given, and what the run wrote to it.
struct Output {
    name: PathBuf,
    key: PathBuf,
    /// The file starts anew (OUTPUT without `+`), else the text is appended.
    truncate: bool,
    text: String,
}

#[derive(Default)]
pub struct Staged {
    outputs: Vec<Output>,
}

/// The path as one key whatever way it was written (`g.res`, `./g.res`).
fn key(path: &Path) -> PathBuf {
    if let Ok(c) = std::fs::canonicalize(path) {
        return c;
    }
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    match (std::fs::canonicalize(parent), path.file_name()) {
        (Ok(p), Some(f)) => p.join(f),
        _ => path.to_path_buf(),
    }
}

impl Staged {
    /// Adds text to a file's output; `append` false starts the file anew.
    pub fn write(&mut self, path: &Path, append: bool, text: &str) {
        let k = key(path);
        match self.outputs.iter_mut().find(|o| o.key == k) {
            Some(o) => {
                if !append {
                    o.text.clear();
                    o.truncate = true;
                }
                o.text.push_str(text);
            }
            None => self.outputs.push(Output {
                name: path.to_path_buf(),
                key: k,
                truncate: !append,
                text: text.to_string(),
            }),
        }
    }

    /// What the file will hold once written, if this run writes it.
    pub fn contents(&self, path: &Path) -> Option<String> {
        let k = key(path);
        let o = self.outputs.iter().find(|o| o.key == k)?;
        if o.truncate {
            return Some(o.text.clone());
        }
        let old = dip_game::files::read_text(path).unwrap_or_default();
        Some(old + &o.text)
    }

    /// Writes every output, unless one of them is a file in `protected`
    /// (then none is written, and the message names them).
    pub fn commit(&mut self, protected: &[PathBuf]) -> Result<(), String> {
        let outputs = std::mem::take(&mut self.outputs);
        let refused: Vec<String> = outputs
            .iter()
            .filter(|o| std::fs::canonicalize(&o.name).is_ok_and(|c| protected.contains(&c)))
            .map(|o| o.name.display().to_string())
            .collect();
        if !refused.is_empty() {
            return Err(format!(
                "{} {} a file this run reads (the control file or its data); nothing was written, write to another file",
                refused.join(", "),
                if refused.len() == 1 { "is" } else { "are" }
            ));
        }
        for o in outputs {
            if o.truncate {
                dip_game::files::replace(&o.name, o.text.as_bytes())?;
            } else {
                let name = o.name.display();
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&o.name)
                    .and_then(|mut f| f.write_all(o.text.as_bytes()))
                    .map_err(|e| format!("{name}: cannot write: {e}"))?;
            }
        }
        Ok(())
    }
}
