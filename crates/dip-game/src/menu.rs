//! DipWork's menus: the project's GAMELIST and a game's MENULIST (label with
//! a `~` or `&` hotkey, a help line, a command with macros: `macros`),
//! `'SUBMENU' NAME` and a trailing `'!'` for "do not wait".

/// One game of the project's GAMELIST.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEntry {
    pub path: String,
    pub help: String,
}

/// `meine % Meine Partie` lines.
pub fn game_list(list: &str) -> Vec<GameEntry> {
    list.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| match l.split_once('%') {
            Some((p, h)) => GameEntry {
                path: p.trim().to_string(),
                help: h.trim().to_string(),
            },
            None => GameEntry {
                path: l.trim().to_string(),
                help: String::new(),
            },
        })
        .collect()
}

/// What a menu item does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// A command line (macros not yet expanded); `wait` unless it ends in `'!'`.
    Command { line: String, wait: bool },
    /// Another menu, by the keyword of its list.
    Submenu(String),
}

/// One menu item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MenuItem {
    /// The label as shown (without `&`; `~` removed).
    pub label: String,
    /// The hotkey as written: case counts, as in DipWork (`a` and `A` differ).
    pub key: Option<char>,
    pub help: String,
    pub action: Action,
}

/// A MENULIST: items of three lines each.
pub fn parse_menu(list: &str) -> Result<Vec<MenuItem>, String> {
    let lines: Vec<&str> = list.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    if !lines.len().is_multiple_of(3) {
        return Err(format!(
            "a menu item has three lines (label, help, command); {} lines do not divide by three",
            lines.len()
        ));
    }
    Ok(lines
        .chunks(3)
        .map(|c| {
            let (label, key) = hotkey(c[0]);
            let cmd = c[2];
            let action = match cmd.strip_prefix("'SUBMENU'") {
                Some(name) => Action::Submenu(name.trim().to_string()),
                None => {
                    let wait = !cmd.trim_end().ends_with("'!'");
                    let line = cmd.trim_end().trim_end_matches("'!'").trim_end().to_string();
                    Action::Command { line, wait }
                }
            };
            MenuItem {
                label,
                key,
                help: c[1].to_string(),
                action,
            }
        })
        .collect())
}

/// `~Befehle` → key B, shown "Befehle"; `&iDIR` → key i, shown "DIR";
/// `&Auswertung` → key A, shown "Auswertung". The key keeps its case.
fn hotkey(label: &str) -> (String, Option<char>) {
    if let Some(i) = label.find('&') {
        // DipWork hides the letter after `&`: an extra key letter such as
        // `&iDIR`. A letter that starts a word (`&Auswertung`) stays.
        let rest = &label[i + 1..];
        let mut chars = rest.chars();
        let key_char = chars.next();
        let starts_word = chars.next().is_some_and(|c| c.is_lowercase());
        let shown = if starts_word {
            format!("{}{rest}", &label[..i])
        } else {
            format!("{}{}", &label[..i], rest.chars().skip(1).collect::<String>())
        };
        return (shown, key_char);
    }
    if let Some(i) = label.find('~') {
        let rest = &label[i + 1..];
        let key = rest.chars().next();
        return (format!("{}{rest}", &label[..i]), key);
    }
    (label.to_string(), label.chars().next())
}

/// dip's menu for a game when its files define none.
/// Its hotkeys are lower case (`&r` shows "Run all stages" with key r).
pub const DEFAULT_MENU: &str = "&rRun all stages
scanner, parser, conflicter, winterer and output for this turn
'DIP' run 'GAMEPATH' --all
&aAccept
NEWGAME.TXT becomes GAME.TXT; the old one is kept
'DIP' accept 'GAMEPATH'
&sScanner only
read ORDERS.TXT into SCANNED.TXT
'DIP' run 'GAMEPATH' --scan
&oOutput again
PLAIN.TXT from WINTERED.TXT
'DIP' run 'GAMEPATH' --output
&eErrors
show ERRORS.TXT
'READTEXT' 'GAMEPATH'\\FNERRORS' '!'
&vOrder view
the latest stage file as a table
'DIP' orderview 'GAMEPATH'
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn menus_and_hotkeys() {
        let items = parse_menu(
            "&Auswertung\ngesamte Auswertung durchführen\n'EVALGAME' 'GAMEPATH' /all\n~Befehle editieren\nAlle Dateien in Texteditor laden\n'EDITOR' 'GAMEPATH'/ORDERS.TXT '!'\nUntermenü&u\nDas Untermenü aufrufen\n'SUBMENU' MEINMENU\n",
        )
        .unwrap();
        assert_eq!(items[0].label, "Auswertung");
        assert_eq!(items[0].key, Some('A'));
        assert_eq!(items[1].label, "Befehle editieren");
        assert_eq!(items[1].key, Some('B'));
        assert!(matches!(&items[1].action, Action::Command { wait: false, .. }));
        assert_eq!(items[2].key, Some('u'));
        assert_eq!(items[2].label, "Untermenü");
        assert_eq!(hotkey("&iDIR"), ("DIR".to_string(), Some('i')));
        assert_eq!(items[2].action, Action::Submenu("MEINMENU".into()));
        assert!(parse_menu("a\nb\n").is_err());
    }

    #[test]
    fn game_lists() {
        let g = game_list("Cosa % KapDip, die Antwort\nTest\n");
        assert_eq!(g[0].path, "Cosa");
        assert_eq!(g[0].help, "KapDip, die Antwort");
        assert_eq!(g[1].help, "");
    }
}

/// The item a pressed key chooses: the key as typed. DipWork's hotkeys
/// are case-sensitive: `a` and `A` may be two items, and `K` does not
/// choose an item whose key is `k`.
pub fn item_for_key(items: &[MenuItem], key: char) -> Option<&MenuItem> {
    items.iter().find(|i| i.key == Some(key))
}

#[cfg(test)]
mod hotkey_tests {
    use super::*;

    #[test]
    fn hotkeys_are_case_sensitive_as_in_dipwork() {
        let items =
            parse_menu("~auswerten\nalles\n'EVAL' a\n~Auswerten\nnur Karte\n'EVAL' A\n~karte\nKarte\n'MAP'\n").unwrap();
        assert_eq!(item_for_key(&items, 'a').map(|i| i.help.as_str()), Some("alles"));
        assert_eq!(item_for_key(&items, 'A').map(|i| i.help.as_str()), Some("nur Karte"));
    }

    #[test]
    fn an_upper_case_key_chose_the_only_lower_case_item() {
        let items = parse_menu("~karte\nKarte\n'MAP'\n").unwrap();
        assert_eq!(item_for_key(&items, 'k').map(|i| i.help.as_str()), Some("Karte"));
        assert!(item_for_key(&items, 'K').is_none());
    }
}
