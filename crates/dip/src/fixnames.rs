//! DIP's `fixnames.dat` (`--fixnames FILE`): province names of one's own
//! (`IOS,ION` a line), read in orders and written in DIP's files.

use anyhow::{Context, Result};
use dip_text::Vocabulary;
use std::path::Path;

/// Applies the renaming file, if one is given, to `vocab`.
pub fn apply(vocab: &mut Vocabulary, file: Option<&Path>) -> Result<()> {
    if let Some(f) = file {
        let text = dip_game::files::read_text(f).map_err(anyhow::Error::msg)?;
        let lines: Vec<&str> = text.lines().collect();
        vocab
            .apply_fixnames(&lines)
            .with_context(|| format!("{}", f.display()))?;
    }
    Ok(())
}
