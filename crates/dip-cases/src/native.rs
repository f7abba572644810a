//! dip's own case format (docs/case-format.md).

use crate::{Case, CaseFileError, Expected, Line, OrderLine, Step};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Block {
    None,
    Units,
    Dislodged,
    Owners,
    Orders,
    CivilDisorder,
}

pub(crate) fn parse(text: &str, file: &str) -> Result<Vec<Case>, CaseFileError> {
    let mut cases = Vec::new();
    let mut cur: Option<Case> = None;
    let mut block = Block::None;
    let err = |line: usize, message: String| CaseFileError {
        file: file.to_string(),
        line,
        message,
    };
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let (word, rest) = match content.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (content, ""),
        };
        let line = |t: &str| Line {
            number: n,
            text: t.to_string(),
        };
        if word == "case" {
            if cur.is_some() {
                return Err(err(n, "`case` before the previous case's `end`".into()));
            }
            let (id, title) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            if id.is_empty() {
                return Err(err(n, "expected `case ID TITLE`".into()));
            }
            cur = Some(Case {
                id: id.to_string(),
                title: title.trim().to_string(),
                file: file.to_string(),
                line: n,
                steps: vec![Step {
                    strict_dislodged: true,
                    ..Step::default()
                }],
                ..Case::default()
            });
            block = Block::None;
            continue;
        }
        let Some(case) = cur.as_mut() else {
            return Err(err(n, format!("expected `case ID TITLE`, found `{content}`")));
        };
        match word {
            "end" => {
                cases.push(cur.take().expect("checked above"));
                block = Block::None;
            }
            "variant" => case.variant = Some(rest.to_string()),
            "rules" => case.rules = Some(rest.to_string()),
            "phase" => case.phase = Some(line(rest)),
            "standoffs" => case.standoffs = Some(line(rest)),
            "units" => block = Block::Units,
            "dislodged" => block = Block::Dislodged,
            "owners" => {
                case.owners.get_or_insert_with(Vec::new);
                block = Block::Owners;
            }
            "orders" => block = Block::Orders,
            "civil-disorder" => {
                let step = case.steps.last_mut().expect("a case has a step");
                step.civil_disorder.get_or_insert_with(Vec::new);
                block = Block::CivilDisorder;
            }
            "then" => {
                case.steps.push(Step {
                    strict_dislodged: true,
                    ..Step::default()
                });
                block = Block::None;
            }
            _ => match block {
                Block::Units => case.units.push(line(content)),
                Block::Dislodged => case.dislodged.push(line(content)),
                Block::Owners => case.owners.get_or_insert_with(Vec::new).push(line(content)),
                Block::CivilDisorder => {
                    let step = case.steps.last_mut().expect("a case has a step");
                    step.civil_disorder.get_or_insert_with(Vec::new).push(line(content));
                }
                Block::Orders => {
                    let ol = order_line(content, n).map_err(|m| err(n, m))?;
                    case.steps.last_mut().expect("a case has a step").orders.push(ol);
                }
                Block::None => {
                    return Err(err(
                        n,
                        format!("unknown keyword `{}` (expected variant, rules, phase, units, dislodged, standoffs, owners, orders, then, civil-disorder or end)", dip_variants::files::excerpt(word)),
                    ))
                }
            },
        }
    }
    if let Some(case) = cur {
        return Err(err(case.line, format!("case {} has no `end`", case.id)));
    }
    Ok(cases)
}

/// `England: F nth - pic : fails dislodged`
fn order_line(content: &str, n: usize) -> Result<OrderLine, String> {
    // The expectation follows the last colon, unless that colon ends the
    // power's name (`England: F nth`).
    let (order, expect) = match (content.find(':'), content.rfind(':')) {
        (Some(first), Some(last)) if last != first || content[..first].trim().contains(' ') => {
            (&content[..last], Some(&content[last + 1..]))
        }
        _ => (content, None),
    };
    let mut expected = None;
    let mut reason = None;
    let mut dislodged = false;
    if let Some(e) = expect {
        for w in e.split_whitespace() {
            match w.trim_end_matches(',') {
                "succeeds" => expected = Some(Expected::Succeeds),
                "fails" => expected = Some(Expected::Fails),
                "illegal" => expected = Some(Expected::Illegal),
                "dislodged" => dislodged = true,
                code if expected == Some(Expected::Illegal) && dip_core::Illegal::from_code(code).is_some() => {
                    reason = Some(code.to_string())
                }
                other => {
                    return Err(format!(
                        "unknown result `{other}` (expected succeeds, fails, illegal [REASON] or dislodged)"
                    ))
                }
            }
        }
    }
    Ok(OrderLine {
        line: Line {
            number: n,
            text: order.trim().to_string(),
        },
        expected,
        reason,
        dislodged,
    })
}
