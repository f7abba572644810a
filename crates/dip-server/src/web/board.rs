//! The board's page: DIP's program in the browser (docs/board.md). One
//! person orders for every power, resolves, steps through the history,
//! edits the position and saves it in every format dip reads. The same
//! page serves `dip board` (local, no account) and `/board/{id}` under
//! `dip serve`; `board.js` does the rest over `/api/v1/boards/{id}`.

use crate::auth::Account;
// The years the core reads (`dip_core::parse_year`), the bounds of the
// season's year.
use dip_core::MAX_YEAR;
use maud::{html, Markup, PreEscaped, DOCTYPE};

/// What the page needs besides the map.
pub struct BoardPage<'a> {
    pub id: &'a str,
    /// The board's title (user text: escaped).
    pub title: &'a str,
    /// The clickable map of the board as it stands.
    pub svg: &'a str,
    /// `dip board`: saves go into the folder it was given; no accounts.
    pub local: bool,
    /// A shared read-only link: no menu that changes the board.
    pub read_only: bool,
    /// Its token, which the page's reads carry.
    pub share: Option<&'a str>,
    /// The token state-changing requests carry (`X-CSRF-Token`).
    pub token: &'a str,
    /// The signed-in account under `dip serve`.
    pub me: Option<&'a Account>,
    /// The variants New offers: (name, title).
    pub variants: &'a [(String, String)],
    /// The board's picture counter (the map given is of it).
    pub picture: u64,
}

fn menu(label: &str, items: Markup) -> Markup {
    html! {
        div.menu {
            button.menu-title type="button" aria-haspopup="true" aria-expanded="false" { (label) }
            div.menu-items role="menu" hidden { (items) }
        }
    }
}

fn item(act: &str, label: &str) -> Markup {
    html! { button type="button" role="menuitem" data-act=(act) { (label) } }
}

fn check(act: &str, label: &str) -> Markup {
    html! { button type="button" role="menuitemcheckbox" aria-checked="false" data-act=(act) { (label) } }
}

fn radio(act: &str, value: &str, label: &str) -> Markup {
    html! { button type="button" role="menuitemradio" aria-checked="false" data-act=(act) data-value=(value) { (label) } }
}

fn menus(p: &BoardPage) -> Markup {
    html! {
        nav #menubar aria-label="Menus" {
            (menu("File", html! {
                @if !p.read_only {
                    (item("new", "New…"))
                    (item("blank", "Blank"))
                    (item("open", "Open…"))
                    (item("save", "Save"))
                    (item("save-as", "Save as…"))
                    hr;
                }
                (item("export-png", "Export bitmap (PNG)"))
                (item("export-bmp", "Export bitmap (BMP)"))
                (item("export-svg", "Export map (SVG)"))
                (item("export-text", "Export text"))
                hr;
                (item("animate-move", "Animate move"))
                (item("animate-game", "Animate game"))
                (item("download-animation", "Download animation"))
                hr;
                (item("fork", "Open a copy"))
            }))
            (menu("Edit", html! {
                (item("copy-map", "Copy map"))
                @if !p.read_only { (item("undo", "Undo")) }
            }))
            (menu("Map", html! {
                (radio("mode", "colour", "Colour"))
                (radio("mode", "grey", "Grey levels"))
                (radio("mode", "bw", "Black and white"))
                hr;
                (check("panel", "Show centre count"))
                (check("owners", "Show centre owners"))
                (check("results", "Show results"))
                (item("colours", "Unit colours…"))
                @if !p.read_only { hr; (check("view-only", "View only")) }
            }))
            @if !p.read_only {
                (menu("Game", html! {
                    (radio("stage", "moves", "Enter moves"))
                    (radio("stage", "retreats", "Enter retreats"))
                    (radio("stage", "adjustments", "Enter adjustments"))
                    (radio("stage", "finished", "Season finished"))
                    hr;
                    (item("resolve", "Resolve"))
                    (item("next", "Next season"))
                    hr;
                    (check("edit-units", "Edit units"))
                    (check("edit-provinces", "Edit provinces"))
                    (item("edit-season", "Edit season…"))
                    (item("edit-title", "Edit title…"))
                    (item("edit-names", "Edit names…"))
                }))
            }
        }
    }
}

/// The dialogs of the menus' commands, the context menu and the file inputs.
fn dialogs(p: &BoardPage) -> Markup {
    html! {
        (file_dialogs(p))
        (edit_dialogs())
        (order_dialogs())
        div #context-menu role="menu" hidden {}
        input #open-file type="file" hidden;
        input #import-file type="file" accept=".txt,.dip,text/plain" hidden;
    }
}

/// File ▸ New and File ▸ Save as.
fn file_dialogs(p: &BoardPage) -> Markup {
    html! {
        dialog #dlg-new {
            form method="dialog" {
                h2 { "New board" }
                label { "Variant" select #new-variant {
                    @for (name, title) in p.variants { option value=(name) selected[name == "standard"] { (title) } }
                } }
                div.buttons { button value="ok" { "New" } button value="cancel" formnovalidate { "Cancel" } }
            }
        }
        dialog #dlg-save {
            form method="dialog" {
                h2 { "Save as" }
                label { "Format" select #save-format {
                    option value="dip" { "DIP season file (.dip)" }
                    option value="position" { "Position (.txt)" }
                    option value="mila" { "MILA saved game (.json)" }
                    option value="dipwork" { "DipWork game directory (.zip)" }
                    option value="record" { "dip game record (.rec)" }
                    option value="text" { "Text report (.txt)" }
                } }
                @if p.local {
                    label { "File name (in the board's folder)" input #save-name maxlength="200" spellcheck="false"; }
                }
                div.buttons { button value="ok" { "Save" } button value="cancel" formnovalidate { "Cancel" } }
            }
        }
    }
}

/// The editing dialogs: a unit, a province, the season, the title, the
/// names and the unit colours.
fn edit_dialogs() -> Markup {
    html! {
        dialog #dlg-unit {
            form method="dialog" {
                h2 #unit-head { "Unit" }
                label { "Power" select #unit-power {} }
                label { "Type" select #unit-type {} }
                label { "Where" select #unit-region {} }
                label.check { input #unit-dislodged type="checkbox"; "Dislodged" }
                div.buttons {
                    button value="ok" { "Apply" }
                    button value="remove" #unit-remove { "Remove" }
                    button value="cancel" formnovalidate { "Cancel" }
                }
            }
        }
        dialog #dlg-province {
            form method="dialog" {
                h2 #province-head { "Province" }
                label #province-owner-row { "Supply centre owner" select #province-owner {} }
                label.check { input #province-open type="checkbox"; "Open for retreats" }
                div.buttons { button value="ok" { "Apply" } button value="cancel" formnovalidate { "Cancel" } }
            }
        }
        dialog #dlg-season {
            form method="dialog" {
                h2 { "Edit season" }
                label { "Season" select #season-season { option value="spring" { "Spring" } option value="fall" { "Autumn" } } }
                label { "Year" input #season-year type="number" min=(-MAX_YEAR) max=(MAX_YEAR); }
                label { "Stage" select #season-stage {
                    option value="moves" { "before moves" }
                    option value="retreats" { "before retreats" }
                    option value="adjustments" { "before adjustments" }
                    option value="finished" { "season finished" }
                } }
                div.buttons { button value="ok" { "Apply" } button value="cancel" formnovalidate { "Cancel" } }
            }
        }
        dialog #dlg-title {
            form method="dialog" {
                h2 { "Edit title" }
                input #title-text maxlength="200";
                div.buttons { button value="ok" { "Apply" } button value="cancel" formnovalidate { "Cancel" } }
            }
        }
        dialog #dlg-names {
            form method="dialog" {
                h2 { "Edit names" }
                div #names-list.grid2 {}
                div.buttons { button value="ok" { "Apply" } button value="cancel" formnovalidate { "Cancel" } }
            }
        }
        dialog #dlg-colours {
            form method="dialog" {
                h2 { "Unit colours" }
                div #colours-list.grid2 {}
                div.buttons { button value="ok" { "Apply" } button value="reset" { "Variant's colours" } button value="cancel" formnovalidate { "Cancel" } }
            }
        }
    }
}

/// Pasting orders and showing the animation.
fn order_dialogs() -> Markup {
    html! {
        dialog #dlg-paste {
            form method="dialog" {
                h2 { "Paste orders" }
                label { "Country" select #paste-power {} }
                textarea #paste-text rows="8" spellcheck="false" aria-label="Orders" {}
                div.buttons { button value="ok" { "Enter" } button value="cancel" formnovalidate { "Cancel" } }
            }
        }
        dialog #dlg-animation {
            form method="dialog" {
                h2 #animation-head { "Animation" }
                img #animation-img alt="The animation";
                div.buttons {
                    a #animation-download download { "Download" }
                    button value="cancel" { "Close" }
                }
            }
        }
    }
}

/// The board's page.
pub fn page(p: &BoardPage) -> String {
    let body = html! {
        main.board data-board=(p.id) data-local=(p.local) data-readonly=(p.read_only) data-picture=(p.picture) data-share=(p.share.unwrap_or("")) {
            (menus(p))
            (toolbar(p))
            section #board {
                div.map-tools {
                    button #zoom-in type="button" title="Zoom in" { "+" }
                    button #zoom-out type="button" title="Zoom out" { "−" }
                    button #zoom-reset type="button" title="Whole map" { "⤢" }
                    span #history-mark hidden { "history" }
                    span #edit-mark hidden {}
                }
                div #map { (PreEscaped(p.svg)) }
            }
            aside #side {
                header.game-head {
                    h1 #board-title { (p.title) }
                    p { span #phase {} " · " span #stage {} }
                    p #file.muted {}
                }
                @if !p.read_only { (ordering()) }
                section #results {
                    h2 #report-head { "Report" }
                    div #report-table {}
                    pre #report hidden {}
                }
                section #history {
                    h2 { "History" }
                    ol #phases {}
                }
                @if let Some(me) = p.me {
                    p.muted { "Signed in as " span.me { (me.name) } ": your boards are kept. " a href="/board" { "My boards" } }
                }
                p #error.error role="alert" {}
            }
            (dialogs(p))
        }
    };
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="csrf" content=(p.token);
                title { (p.title) " · dip board" }
                link rel="stylesheet" href="/assets/style.css";
                script type="module" src="/assets/board.js" {}
            }
            body.board-page {
                @if !p.local {
                    header.top {
                        a.brand href="/" { "dip" }
                        nav { a href="/board" { "Boards" } a href="/war" { "Global War" } }
                    }
                }
                (body)
            }
        }
    }
    .into_string()
}

/// File, edit and phase buttons above the map.
fn toolbar(p: &BoardPage) -> Markup {
    html! {
        div.toolbar {
            @if !p.read_only {
                button type="button" data-act="open" title="File ▸ Open" { "Open" }
                button type="button" data-act="save" title="File ▸ Save" { "Save" }
            }
            button type="button" data-act="export-text" title="File ▸ Export text" { "Export text" }
            span.sep {}
            @if !p.read_only {
                button #resolve type="button" data-act="resolve" { "Resolve" }
                button #next type="button" data-act="next" { "Next season" }
                button #undo type="button" data-act="undo" title="Edit ▸ Undo" { "Undo" }
            }
            span.sep {}
            button #back type="button" data-act="back" title="Earlier phase (←)" aria-label="Earlier phase" { "◀" }
            span #at-phase {}
            button #forward type="button" data-act="forward" title="Later phase (→)" aria-label="Later phase" { "▶" }
        }
    }
}

/// Order entry: order types, the orders entered, the order line and its aids.
fn ordering() -> Markup {
    html! {
        section #ordering {
            div #modes role="group" aria-label="Order type" {
                button type="button" data-mode="move" class="on" { "Move" }
                button type="button" data-mode="hold" { "Hold" }
                button type="button" data-mode="support" { "Support" }
                button type="button" data-mode="convoy" { "Convoy" }
                button type="button" data-mode="disband" { "Disband" }
            }
            p #hint.muted {}
            div #chooser hidden {}
            ol #order-list aria-label="Orders entered" {}
            div.entry {
                select #order-power aria-label="Country" {}
                input #order-text spellcheck="false" autocomplete="off" aria-label="Order"
                    placeholder="ENG F(Edi) S A(Lon) - NTH";
            }
            div.buttons.aids {
                button #enter type="button" { "Enter" }
                button #cancel type="button" { "Cancel" }
                button type="button" data-aid=" hold" { "hold" }
                button type="button" data-aid=" - " { "-" }
                button type="button" data-aid=" S " { "S" }
                button type="button" data-aid=" C " { "C" }
                button type="button" data-aid=" disband" { "disband" }
                button #af type="button" { "A/F" }
            }
            div.buttons {
                button #delete type="button" { "Delete" }
                button #import type="button" { "Import" }
                button #paste type="button" { "Paste" }
                button #export-orders type="button" { "Export" }
                button #copy-orders type="button" { "Copy" }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Edit season dialog's year input wrote ±1000000 by hand: its
    /// bounds are the core's, from the one constant, so a year it allows
    /// is one the core reads and one past them is refused.
    #[test]
    fn the_season_years_bounds_are_the_cores_max_year() {
        let html = edit_dialogs().into_string();
        let input = html
            .split("<input")
            .find(|i| i.contains("id=\"season-year\""))
            .expect("the year input");
        let bound = |name: &str| -> i64 {
            let v = input.split(&format!("{name}=\"")).nth(1).expect(name);
            v[..v.find('"').unwrap()].parse().unwrap()
        };
        let (min, max) = (bound("min"), bound("max"));
        assert_eq!((min, max), (-(MAX_YEAR as i64), MAX_YEAR as i64));
        for y in [min, max] {
            assert!(dip_core::parse_year(&y.to_string()).is_ok(), "{y}");
        }
        for y in [min - 1, max + 1] {
            assert!(dip_core::parse_year(&y.to_string()).is_err(), "{y}");
        }
        // Taken from the constant, never written again by hand.
        let source = include_str!("board.rs");
        let line = source.lines().find(|l| l.contains("#season-year")).unwrap();
        assert!(line.contains("min=(-MAX_YEAR) max=(MAX_YEAR)"), "{line}");
    }
}
