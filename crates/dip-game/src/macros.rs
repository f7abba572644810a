//! DipWork's menu macros: `'NAME'` in a MENULIST command is replaced by
//! the predefined macros (`GAMEPATH`, `CURRENTPATH`), else the game
//! parameter NAME, else the manual's default for it (`FNORDERS`
//! ORDERS.TXT, `SHELLCOPY 'SHELL' /c copy`, ...). A value may hold macros
//! itself (`EVALGAME DIP_RUN.EXE 'GAMEPATH'`): they are replaced too.

use crate::params::Params;

/// Where a macro's value comes from.
pub struct Macros<'a> {
    /// `GAMEPATH`, `CURRENTPATH` and dip's own (`DIP`): before anything else.
    pub predefined: Vec<(&'static str, String)>,
    /// The game's parameters (ORDERS, GAME, VARIANT, PROJECT.TXT).
    pub params: &'a Params,
    /// Used when no file sets the parameter.
    pub defaults: Vec<(&'static str, String)>,
}

/// Values in a value are replaced this deep at most (`A 'B'`, `B 'A'` loops).
const MAX_DEPTH: usize = 8;

/// The default of `SHELL` where PROJECT.TXT names none on a system without
/// COMMAND.COM: `'SHELL' /c COMMAND` becomes COMMAND (DOS's built-ins as
/// their Unix programs) by [`dos_shell`], as the system's shell runs the
/// line anyway.
pub const DOS_SHELL: &str = "\u{1}SHELL\u{1}";

/// The names of DipWork's files as its manual gives them (dip's for the
/// files dip writes), for macros such as `'GAMEPATH'\FNORDERS'` where no
/// file sets them; `FNMAP` is the map dip's mapper draws.
pub const FILE_NAMES: &[(&str, &str)] = &[
    ("FNORDERS", "ORDERS.TXT"),
    ("FNGAME", "GAME.TXT"),
    ("FNVARIANT", "VARIANT.TXT"),
    ("FNERRORS", "ERRORS.TXT"),
    ("FNPLAINOUT", "PLAIN.TXT"),
    ("FNNEWGAME", "NEWGAME.TXT"),
    ("FNSAVE", "GAME.BAK"),
    ("FNMAP", "MAP.svg"),
    ("FNFIELDS", "fields.dat"),
    ("FNBORDERS", "borders.dat"),
    ("FNSYNONYMS", "synonyms.dat"),
    ("FNPICLIST", "piclst64.txt"),
    ("FNFIELDTEXT", "fields.txt"),
];

/// The defaults of the programs DipWork's menus call, on this system:
/// `EVALGAME` is `dip run` (DIP_RUN), `READTEXT` the system's pager,
/// `PRINTMAP` (PRINTTIF's job: show or print a drawn map) its picture
/// viewer, `EDITOR` `$VISUAL`, `$EDITOR`, vi or notepad, `SHELL` the
/// command interpreter and `SHELLCOPY` its copy command; then the file
/// names.
pub fn defaults(dip: &str) -> Vec<(&'static str, String)> {
    let editor = ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .find(|e| !e.trim().is_empty())
        .unwrap_or_else(|| if cfg!(windows) { "notepad".into() } else { "vi".into() });
    let mut out = vec![
        ("EVALGAME", format!("{dip} run")),
        ("READTEXT", if cfg!(windows) { "more".into() } else { "less".into() }),
        (
            "PRINTMAP",
            if cfg!(windows) {
                "start \"\"".into()
            } else if cfg!(target_os = "macos") {
                "open".into()
            } else {
                "xdg-open".into()
            },
        ),
        ("EDITOR", editor),
        ("SHELL", if cfg!(windows) { "cmd".into() } else { DOS_SHELL.into() }),
        ("SHELLCOPY", "'SHELL' /c copy".into()),
    ];
    out.extend(FILE_NAMES.iter().map(|(k, v)| (*k, v.to_string())));
    out
}

impl Macros<'_> {
    /// A macro's value, and whether it may hold macros itself (a
    /// parameter's or a default's; a path never).
    fn value(&self, name: &str) -> Option<(String, bool)> {
        let find = |list: &[(&str, String)]| list.iter().find(|(k, _)| *k == name).map(|(_, v)| v.clone());
        find(&self.predefined)
            .map(|v| (v, false))
            .or_else(|| self.params.string(name).map(|v| (v, true)))
            .or_else(|| find(&self.defaults).map(|v| (v, true)))
    }

    /// Replaces `'NAME'` by its value. The manual's path forms chain
    /// macros with a backslash: `'GAMEPATH'\FNORDERS'` and
    /// `'CURRENTPATH\'VARIANTPATH'` are the first value, a path separator
    /// and the second value. An unknown name is an error.
    pub fn expand(&self, line: &str) -> Result<String, String> {
        self.expand_at(line, 0).map_err(|e| {
            let why = match e {
                Fail::Unclosed => "an unclosed macro quote".to_string(),
                Fail::Unknown(n) => format!("unknown macro `'{n}'` (no such parameter)"),
                Fail::Loop(n) => format!("macro `'{n}'` refers to itself"),
            };
            format!("{why} in `{line}`")
        })
    }

    fn expand_at(&self, line: &str, depth: usize) -> Result<String, Fail> {
        let value = |name: &str| -> Result<String, Fail> {
            let (v, nested) = self.value(name).ok_or_else(|| Fail::Unknown(name.to_string()))?;
            if !nested || !v.contains('\'') {
                return Ok(v);
            }
            if depth >= MAX_DEPTH {
                return Err(Fail::Loop(name.to_string()));
            }
            match self.expand_at(&v, depth + 1) {
                // Quotes that make no macro are apostrophes (`O'Neill`).
                Err(Fail::Unclosed) => Ok(v),
                Err(Fail::Unknown(n)) if !plausible(&n) => Ok(v),
                other => other,
            }
        };
        let sep = std::path::MAIN_SEPARATOR;
        let mut out = String::new();
        let mut rest = line;
        while let Some(i) = rest.find('\'') {
            out.push_str(&rest[..i]);
            let mut after = &rest[i + 1..];
            // One macro, then as many chained ones as follow.
            loop {
                let Some(j) = after.find('\'') else {
                    return Err(Fail::Unclosed);
                };
                let name = &after[..j];
                // `'CURRENTPATH\'VARIANTPATH'`: the closing quote opens the next.
                let (name, opens_next) = match name.strip_suffix('\\') {
                    Some(n) => (n, true),
                    None => (name, false),
                };
                out.push_str(&value(name)?);
                after = &after[j + 1..];
                if opens_next {
                    out.push(sep);
                    continue;
                }
                // `'GAMEPATH'\FNORDERS'`: a backslash and a macro name closed by a quote.
                let chained = after.strip_prefix('\\').and_then(|t| {
                    let k = t.find('\'')?;
                    (plausible(&t[..k]) || self.value(&t[..k]).is_some()).then_some(t)
                });
                match chained {
                    Some(t) => {
                        out.push(sep);
                        after = t;
                    }
                    None => break,
                }
            }
            rest = after;
        }
        out.push_str(rest);
        Ok(out)
    }
}

/// Why a line's macros could not be replaced.
enum Fail {
    Unclosed,
    Unknown(String),
    Loop(String),
}

/// A word that can be a parameter's name (`FNORDERS`, `SHELL_2`).
fn plausible(n: &str) -> bool {
    !n.is_empty()
        && n.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// A command of DipWork's evaluation program (`DIP_RUN.EXE 'GAMEPATH' /all`,
/// with a path or without the ending, any case) is `dip run`.
pub fn dip_run(cmd: &str, dip: &str) -> String {
    let trimmed = cmd.trim_start();
    let first = trimmed.split_whitespace().next().unwrap_or("");
    let file = first
        .rsplit(['\\', '/', ':'])
        .next()
        .unwrap_or(first)
        .to_ascii_uppercase();
    let stem = file.split('.').next().unwrap_or("");
    let ext = file.strip_prefix(stem).unwrap_or("");
    if stem == "DIP_RUN" && matches!(ext, "" | ".EXE" | ".PRG" | ".TTP" | ".TOS" | ".COM") {
        return format!("{dip} run{}", &trimmed[first.len()..]);
    }
    cmd.to_string()
}

/// `'SHELL' /c COMMAND` with dip's default SHELL ([`DOS_SHELL`]): the
/// command itself, DOS's built-ins as the Unix programs that do the same
/// (`type` cat, `dir` ls -l, `copy` cp, `del` rm, `ren` mv, `md` mkdir,
/// `rd` rmdir, `cls` clear).
pub fn dos_shell(cmd: &str) -> String {
    let mut out = String::new();
    let mut rest = cmd;
    while let Some(i) = rest.find(DOS_SHELL) {
        out.push_str(&rest[..i]);
        let mut after = rest[i + DOS_SHELL.len()..].trim_start();
        if let Some(t) = after.strip_prefix("/c").or_else(|| after.strip_prefix("/C")) {
            after = t.trim_start();
        }
        let word_end = after.find(char::is_whitespace).unwrap_or(after.len());
        let unix = match after[..word_end].to_ascii_lowercase().as_str() {
            "type" => Some("cat"),
            "dir" => Some("ls -l"),
            "copy" => Some("cp"),
            "del" | "erase" => Some("rm"),
            "ren" | "rename" | "move" => Some("mv"),
            "md" | "mkdir" => Some("mkdir"),
            "rd" | "rmdir" => Some("rmdir"),
            "cls" => Some("clear"),
            _ => None,
        };
        match unix {
            Some(u) => {
                out.push_str(u);
                rest = &after[word_end..];
            }
            None => rest = after,
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::ParamFile;

    fn params(text: &str) -> Params {
        Params {
            files: vec![ParamFile::parse(text, "PROJECT.TXT".into())],
        }
    }

    fn macros(p: &Params) -> Macros<'_> {
        Macros {
            predefined: vec![
                ("GAMEPATH", "games/meine".to_string()),
                ("CURRENTPATH", "/dip".to_string()),
            ],
            params: p,
            defaults: defaults("dip"),
        }
    }

    #[test]
    fn menus_macros() {
        let p = params("EVALGAME dip run\nEDITOR vi\n");
        let m = macros(&p);
        assert_eq!(
            m.expand("'EVALGAME' 'GAMEPATH' /all").unwrap(),
            "dip run games/meine /all"
        );
        assert!(m.expand("'NOPE' x").is_err());
    }

    /// The manual's chained forms: `'GAMEPATH'\FNORDERS'` (the editor line
    /// of its sample menu) and `'CURRENTPATH\'VARIANTPATH'`.
    #[test]
    fn chained_path_macros_of_the_manual() {
        let p = params("FNORDERS ORDERS.TXT\nVARIANTPATH standard\nEDITOR vi\n");
        let m = macros(&p);
        let sep = std::path::MAIN_SEPARATOR;
        assert_eq!(
            m.expand("'EDITOR' 'GAMEPATH'\\FNORDERS'").unwrap(),
            format!("vi games/meine{sep}ORDERS.TXT")
        );
        assert_eq!(
            m.expand("cd 'CURRENTPATH\\'VARIANTPATH'").unwrap(),
            format!("cd /dip{sep}standard")
        );
    }

    /// `EVALGAME DIP_RUN.EXE 'GAMEPATH'`, `SHELLCOPY 'SHELL' /c copy` and
    /// `PRINTMAP PRINTTIF.EXE #'GAMEPATH'\FNMAP'` (the manual's own
    /// definitions) kept the inner macros unexpanded.
    #[test]
    fn a_macro_whose_value_holds_macros_was_not_expanded() {
        let p = params(
            "EVALGAME DIP_RUN.EXE 'GAMEPATH'\nSHELL command.com\nSHELLCOPY 'SHELL' /c copy\nPRINTMAP PRINTTIF.EXE #'GAMEPATH'\\FNMAP'\nFNMAP standard.tif\n",
        );
        let m = macros(&p);
        let sep = std::path::MAIN_SEPARATOR;
        assert_eq!(m.expand("'EVALGAME' /s").unwrap(), "DIP_RUN.EXE games/meine /s");
        assert_eq!(m.expand("'SHELLCOPY' a b").unwrap(), "command.com /c copy a b");
        assert_eq!(
            m.expand("'PRINTMAP' /x").unwrap(),
            format!("PRINTTIF.EXE #games/meine{sep}standard.tif /x")
        );
        // A loop is an error, an apostrophe in a value is no macro.
        let p = params("A x 'B'\nB y 'A'\nMASTER Jim O'Neill\n");
        let m = macros(&p);
        assert!(m.expand("'A'").unwrap_err().contains("refers to itself"));
        assert_eq!(m.expand("echo 'MASTER'").unwrap(), "echo Jim O'Neill");
    }

    /// The sample menu's `'EDITOR' 'GAMEPATH'\FNORDERS' '!'` failed with
    /// "unclosed macro quote" when PROJECT.TXT set no FNORDERS.
    #[test]
    fn file_name_macros_had_no_defaults() {
        let p = params("EDITOR vi\n");
        let m = macros(&p);
        let sep = std::path::MAIN_SEPARATOR;
        assert_eq!(
            m.expand("'EDITOR' 'GAMEPATH'\\FNORDERS'").unwrap(),
            format!("vi games/meine{sep}ORDERS.TXT")
        );
        assert_eq!(
            m.expand("'GAMEPATH'\\FNGAME' 'GAMEPATH'\\FNERRORS'").unwrap(),
            format!("games/meine{sep}GAME.TXT games/meine{sep}ERRORS.TXT")
        );
        // A misspelt name is said to be unknown, not an unclosed quote.
        let e = m.expand("'GAMEPATH'\\FNORDRES'").unwrap_err();
        assert!(e.contains("unknown macro `'FNORDRES'`"), "{e}");
    }

    /// READTEXT (DipWork's text viewer) and PRINTMAP (PRINTTIF) without a
    /// definition are the system's pager and picture viewer; a definition
    /// of the project's wins.
    #[test]
    fn readtext_and_printmap_default_to_the_systems_programs() {
        let p = params("");
        let m = macros(&p);
        let sep = std::path::MAIN_SEPARATOR;
        let pager = if cfg!(windows) { "more" } else { "less" };
        assert_eq!(
            m.expand("'READTEXT' 'GAMEPATH'\\FNPLAINOUT'").unwrap(),
            format!("{pager} games/meine{sep}PLAIN.TXT")
        );
        let viewer = m.expand("'PRINTMAP' 'GAMEPATH'\\FNMAP'").unwrap();
        assert!(viewer.ends_with(&format!("games/meine{sep}MAP.svg")), "{viewer}");
        if cfg!(target_os = "linux") {
            assert!(viewer.starts_with("xdg-open "), "{viewer}");
        }
        let p = params("READTEXT most\nPRINTMAP feh\n");
        let m = macros(&p);
        assert_eq!(m.expand("'READTEXT' x").unwrap(), "most x");
        assert_eq!(m.expand("'PRINTMAP' x").unwrap(), "feh x");
    }

    #[test]
    fn dip_run_and_the_dos_shell() {
        assert_eq!(dip_run("DIP_RUN.EXE meine /all", "/bin/dip"), "/bin/dip run meine /all");
        assert_eq!(dip_run("c:\\dip\\dip_run meine /s", "dip"), "dip run meine /s");
        assert_eq!(dip_run("dip_runner x", "dip"), "dip_runner x");
        let p = params("");
        let m = macros(&p);
        if cfg!(unix) {
            let sep = std::path::MAIN_SEPARATOR;
            let cmd = m.expand("'SHELL' /c type 'GAMEPATH'\\FNGAME' |more").unwrap();
            assert_eq!(dos_shell(&cmd), format!("cat games/meine{sep}GAME.TXT |more"));
            assert_eq!(dos_shell(&m.expand("'SHELL' /c dir |more").unwrap()), "ls -l |more");
            assert_eq!(dos_shell(&m.expand("'SHELLCOPY' a b").unwrap()), "cp a b");
            assert_eq!(dos_shell(&m.expand("'SHELL' /c make x").unwrap()), "make x");
        }
    }
}
