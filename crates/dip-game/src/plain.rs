//! PLAIN.TXT: DipWork's preformatted report, shaped by its parameters so
//! that plain, tab-separated and TeX tables come out of one writer; and the
//! same report as Markdown, HTML and JSON.

use crate::report::{Line, Report, AUTOMATIC_LEGEND, AUTOMATIC_MARK};

/// DipWork's PLAIN.TXT parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlainStyle {
    /// PLAINOUTWIDTH: longest line outside tables.
    pub width: usize,
    /// TABCOLUMNWIDTH: widest table cell, underline codes included.
    pub column: usize,
    pub underline_on: String,
    pub underline_off: String,
    /// COLUMNSEPCODE: between two cells.
    pub separator: String,
    /// TABLINEENDSTR: after each table row.
    pub line_end: String,
    /// TABBEGINSTR / TABENDSTR: a line before and after each table.
    pub begin: String,
    pub end: String,
}

impl Default for PlainStyle {
    /// DipWork's recommended values.
    fn default() -> Self {
        PlainStyle {
            width: 80,
            column: 12,
            underline_on: "[".into(),
            underline_off: "]".into(),
            separator: "\t".into(),
            line_end: String::new(),
            begin: String::new(),
            end: String::new(),
        }
    }
}

/// The cells of one text: as many as it takes to show it whole inside
/// the underline codes at the column width. DipWork cut what did not fit
/// (the manual: at `TABCOLUMNWIDTH 11` "werden dann die Fehlerzeichen
/// hinter unterstrichenen Befehlen verschluckt"), which cut coasts
/// (`F Stp/sc-Bo`); dip goes on in the next row instead, broken after a
/// `-` or at a space. The marker of an order nobody gave ends the last.
fn cells(style: &PlainStyle, text: &str, failed: bool, marked: bool) -> Vec<String> {
    let (on, off) = if failed {
        (style.underline_on.as_str(), style.underline_off.as_str())
    } else {
        ("", "")
    };
    let mark = if marked {
        AUTOMATIC_MARK.to_string()
    } else {
        String::new()
    };
    let room = style
        .column
        .saturating_sub(on.chars().count() + off.chars().count() + mark.len())
        .max(1);
    let parts = pieces(text, room);
    let last = parts.len() - 1;
    parts
        .iter()
        .enumerate()
        .map(|(i, part)| {
            let m = if i == last { mark.as_str() } else { "" };
            let s = format!("{on}{part}{off}{m}");
            let pad = style.column.saturating_sub(s.chars().count());
            format!("{s}{}", " ".repeat(pad))
        })
        .collect()
}

/// `text` in pieces of at most `room` characters, broken after a `-` or
/// at a space where one falls in the piece (else at `room`); nothing is
/// left out.
fn pieces(text: &str, room: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest: Vec<char> = text.chars().collect();
    while rest.len() > room {
        let brk = (1..=room).rev().find_map(|i| match (rest[i - 1], rest[i]) {
            ('-', _) => Some((i, i)),
            (_, ' ') => Some((i, i + 1)),
            _ => None,
        });
        let (end, next) = brk.unwrap_or((room, room));
        out.push(rest[..end].iter().collect::<String>().trim_end().to_string());
        rest.drain(..next);
    }
    out.push(rest.into_iter().collect());
    out
}

/// Support and convoy orders break onto two lines (`A Boh S` / `A Bud-Vie`).
/// A dislodged unit shows where the attack came from after the unit
/// (`A Ser<Bud`, then the rest of its order: `H`, `-Rum`): in the
/// retreats, and (DipWork 2.0.7: "Ausgabe von Angriffen VOR Rückzügen mit
/// '<'") in the moves, so a three-phase game's report from CONFLICTED
/// shows which units must retreat.
fn cell_lines(l: &Line) -> Vec<String> {
    let Some(from) = &l.attacked_from else {
        return split_order(&l.order);
    };
    let end = l
        .order
        .char_indices()
        .filter(|&(_, c)| c == ' ' || c == '-')
        .nth(1)
        .map(|(i, _)| i);
    let (unit, rest) = match end {
        Some(i) => (&l.order[..i], l.order[i..].trim()),
        None => (l.order.as_str(), ""),
    };
    let mut out = vec![format!("{unit}<{from}")];
    if !rest.is_empty() {
        out.extend(split_order(rest));
    }
    out
}

fn split_order(order: &str) -> Vec<String> {
    for key in [" S ", " C "] {
        if let Some(i) = order.find(key) {
            return vec![
                order[..i + key.len() - 1].to_string(),
                order[i + key.len()..].to_string(),
            ];
        }
    }
    for key in ["S ", "C "] {
        if let Some(rest) = order.strip_prefix(key) {
            return vec![key.trim_end().to_string(), rest.to_string()];
        }
    }
    vec![order.to_string()]
}

fn table(style: &PlainStyle, lines: &[Line], out: &mut String) {
    let mut nations: Vec<&str> = Vec::new();
    for l in lines {
        if !nations.contains(&l.nation.as_str()) {
            nations.push(&l.nation);
        }
    }
    if nations.is_empty() {
        return;
    }
    let columns: Vec<Vec<String>> = nations
        .iter()
        .map(|n| {
            let mut col = cells(style, n, false, false);
            for l in lines.iter().filter(|l| l.nation == *n) {
                let texts = cell_lines(l);
                let last = texts.len().saturating_sub(1);
                for (i, text) in texts.iter().enumerate() {
                    col.extend(cells(style, text, l.underlined(), l.automatic && i == last));
                }
            }
            col
        })
        .collect();
    let rows = columns.iter().map(Vec::len).max().unwrap_or(0);
    if !style.begin.is_empty() {
        out.push_str(&style.begin);
        out.push('\n');
    }
    for r in 0..rows {
        let cells: Vec<String> = columns
            .iter()
            .map(|c| c.get(r).cloned().unwrap_or_else(|| " ".repeat(style.column)))
            .collect();
        let row = cells.join(&style.separator);
        out.push_str(row.trim_end());
        out.push_str(&style.line_end);
        out.push('\n');
    }
    if !style.end.is_empty() {
        out.push_str(&style.end);
        out.push('\n');
    }
    if lines.iter().any(|l| l.automatic) {
        wrap(AUTOMATIC_LEGEND, style.width.max(20), "  ", out);
    }
}

/// Words wrapped at `width`.
fn wrap(text: &str, width: usize, indent: &str, out: &mut String) {
    let mut line = String::new();
    for w in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + w.chars().count() > width {
            out.push_str(&line);
            out.push('\n');
            line = indent.to_string();
        }
        if !line.trim().is_empty() {
            line.push(' ');
        }
        line.push_str(w);
    }
    if !line.trim().is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
}

/// PLAIN.TXT.
pub fn plain(report: &Report, style: &PlainStyle) -> String {
    let mut out = String::new();
    let w = style.width.max(20);
    wrap(&format!("{} ({})", report.game, report.variant), w, "  ", &mut out);
    wrap(&format!("{} — next: {}", report.season, report.next), w, "  ", &mut out);
    if !report.zat.is_empty() {
        wrap(&format!("ZAT: {}", report.zat), w, "  ", &mut out);
    }
    if !report.master.is_empty() {
        wrap(&format!("GM: {}", report.master), w, "  ", &mut out);
    }
    if !report.players.is_empty() {
        let players: Vec<String> = report.players.iter().map(|(n, p)| format!("{n}: {p};")).collect();
        wrap(&format!("Players: {}", players.join(" ")), w, "  ", &mut out);
    }
    for (title, lines) in report.tables() {
        out.push('\n');
        out.push_str(title);
        out.push('\n');
        table(style, lines, &mut out);
    }
    out.push('\n');
    out.push_str("Supply centres\n");
    for (n, cs, units) in &report.centers {
        wrap(
            &format!("{n} ({}/{units}): {}", cs.len(), cs.join(" ")),
            w,
            "    ",
            &mut out,
        );
    }
    out
}

/// The report as Markdown.
pub fn markdown(report: &Report) -> String {
    let mut out = format!(
        "# {} ({})\n\n**{}** — next: {}\n\n",
        report.game, report.variant, report.season, report.next
    );
    if !report.zat.is_empty() {
        out.push_str(&format!("ZAT: {}  \n", report.zat));
    }
    if !report.master.is_empty() {
        out.push_str(&format!("GM: {}\n\n", report.master));
    }
    for (title, lines) in report.tables() {
        out.push_str(&format!("## {title}\n\n| Nation | Order | Result |\n|---|---|---|\n"));
        for l in lines {
            let order = if l.failed {
                format!("~~{}~~", l.marked_order())
            } else {
                l.marked_order()
            };
            let result = l.result_text();
            out.push_str(&format!("| {} | {order} | {result} |\n", l.nation));
        }
        out.push('\n');
    }
    out.push_str("## Supply centres\n\n");
    for (n, cs, units) in &report.centers {
        out.push_str(&format!(
            "- **{n}** ({} centres, {units} units): {}\n",
            cs.len(),
            cs.join(" ")
        ));
    }
    out
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The report as a self-contained HTML page.
pub fn html(report: &Report) -> String {
    let mut out = format!(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>{} — {}</title>\n<style>body{{font-family:sans-serif}} .failed{{text-decoration:line-through;color:#a00}} td,th{{padding:2px 8px;text-align:left}}</style></head><body>\n<h1>{} ({})</h1>\n<p><b>{}</b> — next: {}</p>\n",
        esc(&report.game), esc(&report.season), esc(&report.game), esc(&report.variant), esc(&report.season), esc(&report.next)
    );
    for (title, lines) in report.tables() {
        out.push_str(&format!(
            "<h2>{title}</h2>\n<table><tr><th>Nation</th><th>Order</th><th>Result</th></tr>\n"
        ));
        for l in lines {
            let class = if l.failed { " class=\"failed\"" } else { "" };
            let result = l.result_text();
            out.push_str(&format!(
                "<tr><td>{}</td><td{class}>{}</td><td>{}</td></tr>\n",
                esc(&l.nation),
                esc(&l.marked_order()),
                esc(&result)
            ));
        }
        out.push_str("</table>\n");
    }
    out.push_str("<h2>Supply centres</h2>\n<ul>\n");
    for (n, cs, units) in &report.centers {
        out.push_str(&format!(
            "<li><b>{}</b> ({} centres, {units} units): {}</li>\n",
            esc(n),
            cs.len(),
            esc(&cs.join(" "))
        ));
    }
    out.push_str("</ul>\n</body></html>\n");
    out
}

/// The report as JSON.
pub fn json(report: &Report) -> String {
    serde_json::to_string_pretty(report).unwrap_or_default()
}

/// DIP's "Export text": all moves, retreats and adjustments of the season,
/// nation by nation, with the players' names.
pub fn dip_export(report: &Report) -> String {
    dip_export_with(report, &|_, _| None)
}

/// DIP's "Export text" with each order in DIP's own form (`ENG F(Edi) S
/// A(Lon) - NTH`, `GER build A(Kie)`) where `dip_form` gives one, else the
/// report's short form. `dip_form` is given the table (`Orders`,
/// `Retreats`, `Adjustments`) and the line.
pub fn dip_export_with(report: &Report, dip_form: &dyn Fn(&str, &Line) -> Option<String>) -> String {
    let mut out = format!("{}\n{}\n", report.game, report.season);
    for (table, lines) in report.tables() {
        // DIP calls the first table "Moves".
        let title = if table == "Orders" { "Moves" } else { table };
        out.push_str(&format!("\n{title}\n"));
        let mut nations: Vec<&str> = Vec::new();
        for l in lines.iter() {
            if !nations.contains(&l.nation.as_str()) {
                nations.push(&l.nation);
            }
        }
        for n in nations {
            match report.players.iter().find(|(nation, _)| nation == n) {
                Some((_, p)) => out.push_str(&format!("{n} ({p}):\n")),
                None => out.push_str(&format!("{n}:\n")),
            }
            for l in lines.iter().filter(|l| l.nation == n) {
                let result = if l.automatic {
                    format!(" ({})", l.automatic_text())
                } else if l.failed {
                    format!(" ({})", if l.note.is_empty() { "fails" } else { &l.note })
                } else {
                    String::new()
                };
                let order = match dip_form(table, l) {
                    Some(o) if l.automatic => format!("{o}{}", crate::report::AUTOMATIC_MARK),
                    Some(o) => o,
                    None => l.marked_order(),
                };
                out.push_str(&format!("    {order}{result}\n"));
            }
        }
    }
    out
}
