//! Analyse's control-file language: preprocessor, commands, objects defined
//! with `DEFINE … END`, and the iterative strength computation.
//!
//! The interpreter reads a control file line by line. Lines go through the
//! preprocessor (comments, continuation, `#IF`, `#DEFINE`, `#INCLUDE`,
//! `#MACRO`, `#CALL`, …) and are then executed as commands. It starts in the
//! initialisation mode; `SCANFILES` reads the result tables and switches to
//! the evaluation mode. All file access goes through a [`Host`], so the
//! interpreter itself does no I/O and tests run on files in memory.

mod engine;
mod interp;
mod prep;

pub use engine::{iterate, CalcInput, CalcOutput, IterParams};
pub use interp::{glob_match, Host, Interp, MemHost};
