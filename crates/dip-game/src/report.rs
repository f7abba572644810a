//! The turn report: what PLAIN.TXT, Markdown, HTML and JSON are written
//! from, and what the stage files (CONFLICTED.TXT, WINTERED.TXT) hold, so
//! that `--output=STAGE` can print any of them.

use serde::Serialize;

/// One order with its result, ready to print.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Line {
    /// The nation's full name.
    pub nation: String,
    /// The standard order, short form (`A Vie-Gal`).
    pub order: String,
    /// The order failed (printed between UNDERLINE_ON and UNDERLINE_OFF).
    pub failed: bool,
    /// For a dislodged unit: where the attack came from (`<` in PLAIN.TXT).
    pub attacked_from: Option<String>,
    /// DipWork's error number of the worst problem (ERROR_NR_OUTPUT).
    pub code: Option<u16>,
    /// Why, in words (`bounced`, `cut from Boh`, `suggested by the right-hand rule`).
    pub note: String,
    /// Nobody ordered this: a hold inserted for a missing order, a
    /// suggested retreat, a disband or waive the rules made. Marked in
    /// every report so that it is never read as an order given.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub automatic: bool,
}

/// A turn, as printed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    pub game: String,
    pub variant: String,
    /// `Spring 1901`.
    pub season: String,
    pub zat: String,
    pub master: String,
    /// (nation, player).
    pub players: Vec<(String, String)>,
    pub orders: Vec<Line>,
    pub retreats: Vec<Line>,
    pub builds: Vec<Line>,
    /// (nation, centres, units).
    pub centers: Vec<(String, Vec<String>, usize)>,
    /// The phase the game is in after this report.
    pub next: String,
}

impl Line {
    /// Printed between UNDERLINE_ON and UNDERLINE_OFF (`[A Con-Bul]`): an
    /// order that failed, or, as DipWork's manual says, any with an error
    /// of 100 or more, also one carried out as read (300, no unit type);
    /// not a line nobody ordered, which is marked instead.
    pub fn underlined(&self) -> bool {
        self.failed || (!self.automatic && self.code.is_some_and(|c| c >= 100))
    }

    /// `succeeds`, or `fails: why`; an automatic line says it was not
    /// ordered, with its number (`not ordered {12}: no order received: holds`).
    pub fn result_text(&self) -> String {
        let result = if self.failed {
            format!("fails: {}", self.note)
        } else {
            "succeeds".into()
        };
        if self.automatic {
            format!("{result}; {}", self.automatic_text())
        } else {
            result
        }
    }

    /// The order with the marker of an automatic line (`A Vie H*`).
    pub fn marked_order(&self) -> String {
        if self.automatic {
            format!("{}{AUTOMATIC_MARK}", self.order)
        } else {
            self.order.clone()
        }
    }

    /// `not ordered {12}: no order received: holds`.
    pub fn automatic_text(&self) -> String {
        let code = self.code.map(|c| format!(" {{{c}}}")).unwrap_or_default();
        if self.note.is_empty() {
            format!("not ordered{code}")
        } else {
            format!("not ordered{code}: {}", self.note)
        }
    }
}

/// The marker after an order nobody gave (PLAIN.TXT, NEWGAME.TXT, the
/// other reports), explained under each table that has one.
pub const AUTOMATIC_MARK: char = '*';

/// The legend under a table with automatic lines.
pub const AUTOMATIC_LEGEND: &str =
    "* not ordered: a hold for a missing order {12}, a retreat or disband for a missing retreat {104}, or the rules' own";

impl Report {
    /// The report's non-empty tables: orders, retreats, adjustments.
    pub fn tables(&self) -> impl Iterator<Item = (&'static str, &[Line])> {
        [
            ("Orders", self.orders.as_slice()),
            ("Retreats", self.retreats.as_slice()),
            ("Adjustments", self.builds.as_slice()),
        ]
        .into_iter()
        .filter(|(_, lines)| !lines.is_empty())
    }

    /// The stage-file form: one `key: value` or table line each.
    pub fn to_stage_text(&self) -> String {
        let mut out = String::new();
        out.push_str(&format!(
            "game {}\nvariant {}\nseason {}\nzat {}\nmaster {}\nnext {}\n",
            self.game, self.variant, self.season, self.zat, self.master, self.next
        ));
        for (n, p) in &self.players {
            out.push_str(&format!("player {n} | {p}\n"));
        }
        for (section, lines) in [
            ("order", &self.orders),
            ("retreat", &self.retreats),
            ("build", &self.builds),
        ] {
            for l in lines {
                out.push_str(&format!(
                    "{section} {} | {} | {} | {} | {} | {}{}\n",
                    l.nation,
                    l.order,
                    if l.failed { "fails" } else { "succeeds" },
                    l.attacked_from.as_deref().unwrap_or("-"),
                    l.code.map(|c| c.to_string()).unwrap_or_else(|| "-".into()),
                    if l.note.is_empty() { "-" } else { &l.note },
                    if l.automatic { " | not ordered" } else { "" }
                ));
            }
        }
        for (n, cs, units) in &self.centers {
            out.push_str(&format!("centers {n} | {units} | {}\n", cs.join(" ")));
        }
        out
    }

    /// Reads the stage-file form back; `None` for a line that does not fit.
    pub fn from_stage_text(text: &str) -> Result<Report, (usize, String)> {
        let mut r = Report::default();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            let fields: Vec<&str> = rest.split('|').map(str::trim).collect();
            let bad = |what: &str| (i + 1, format!("expected {what}, found `{line}`"));
            match key {
                "game" => r.game = rest.to_string(),
                "variant" => r.variant = rest.to_string(),
                "season" => r.season = rest.to_string(),
                "zat" => r.zat = rest.to_string(),
                "master" => r.master = rest.to_string(),
                "next" => r.next = rest.to_string(),
                "player" if fields.len() == 2 => r.players.push((fields[0].into(), fields[1].into())),
                "order" | "retreat" | "build" => {
                    let automatic = fields.len() == 7 && fields[6] == "not ordered";
                    if fields.len() != 6 && !automatic {
                        return Err(bad(
                            "`NATION | ORDER | succeeds|fails | FROM | CODE | NOTE`, then `| not ordered` for an automatic line",
                        ));
                    }
                    let l = Line {
                        nation: fields[0].into(),
                        order: fields[1].into(),
                        failed: fields[2] == "fails",
                        attacked_from: (fields[3] != "-").then(|| fields[3].to_string()),
                        code: fields[4].parse().ok(),
                        note: if fields[5] == "-" {
                            String::new()
                        } else {
                            fields[5].into()
                        },
                        automatic,
                    };
                    match key {
                        "order" => r.orders.push(l),
                        "retreat" => r.retreats.push(l),
                        _ => r.builds.push(l),
                    }
                }
                "centers" if fields.len() == 3 => r.centers.push((
                    fields[0].into(),
                    fields[2].split_whitespace().map(String::from).collect(),
                    fields[1].parse().map_err(|_| bad("a unit count"))?,
                )),
                "position" => break,
                _ => return Err(bad("a report line (game, season, order, retreat, build, centers ...)")),
            }
        }
        Ok(r)
    }
}
