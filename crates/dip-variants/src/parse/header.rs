//! The header: `variant`, `title`, `description`, `start`, `victory`,
//! `build-rule` and `rules`, each at most once.

use super::lines::Lines;
use super::*;

pub(super) struct Header {
    pub name: String,
    /// The `variant` line, where errors of the whole map are placed.
    pub line: usize,
    pub title: String,
    pub description: String,
    pub phase: Phase,
    pub victory: u16,
    /// The `victory` line, if any, for the check against the map's centres.
    pub victory_line: Option<usize>,
    pub build_rule: BuildRule,
    pub rules: Ruleset,
    pub rules_text: String,
}

pub(super) fn read(p: &Parser, lines: &Lines) -> Result<Header, VariantError> {
    let variant_stmt = lines
        .once(p, "variant")?
        .ok_or_else(|| p.err(1, "missing `variant NAME` line (the variant's short name)"))?;
    let line = variant_stmt.line;
    let name = match variant_stmt.args() {
        [n] => short_name(n, "the variant's short name").map_err(|m| p.err(line, m))?,
        _ => return Err(p.err(line, "expected `variant NAME` (one word)")),
    };
    let title = match lines.once(p, "title")? {
        Some(s) => {
            let t = s.rest();
            if t.is_empty() {
                return Err(p.err(s.line, "expected `title TEXT`"));
            }
            t
        }
        None => name.clone(),
    };
    let description = lines
        .all("description")
        .iter()
        .map(|s| s.rest())
        .collect::<Vec<_>>()
        .join("\n");
    let phase = match lines.once(p, "start")? {
        Some(s) => parse_start(s).map_err(|m| p.err(s.line, m))?,
        None => Phase::new(1901, Season::Spring, PhaseKind::Movement),
    };
    let victory_stmt = lines.once(p, "victory")?;
    let victory = match victory_stmt {
        Some(s) => victory(s).map_err(|m| p.err(s.line, m))?,
        None => 0,
    };
    let build_rule = match lines.once(p, "build-rule")? {
        Some(s) => build_rule(s).map_err(|m| p.err(s.line, m))?,
        None => BuildRule::Standard,
    };
    let (rules, rules_text) = match lines.once(p, "rules")? {
        Some(s) => (
            Ruleset::parse(&s.rest()).map_err(|e| p.err(s.line, e.to_string()))?,
            s.rest(),
        ),
        None => (Ruleset::default(), "datc".to_string()),
    };
    Ok(Header {
        name,
        line,
        title,
        description,
        phase,
        victory,
        victory_line: victory_stmt.map(|s| s.line),
        build_rule,
        rules,
        rules_text,
    })
}

fn victory(s: &Stmt) -> Res<u16> {
    match s.args() {
        [n] => number(n, "the number of centres needed to win (0 = more than half)"),
        _ => Err("expected `victory N` (0 = more than half of the centres)".into()),
    }
}

fn build_rule(s: &Stmt) -> Res<BuildRule> {
    match s.args() {
        [r] => match *r {
            "standard" => Ok(BuildRule::Standard),
            "aberration" => Ok(BuildRule::Aberration),
            "chaos" => Ok(BuildRule::Chaos),
            _ => Err(format!("expected standard, aberration or chaos, found `{r}`")),
        },
        _ => Err("expected `build-rule standard|aberration|chaos`".into()),
    }
}
