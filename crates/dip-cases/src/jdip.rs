//! The DATC text format of jDip and godip: `VARIANT_ALL`, `CASE`,
//! `PRESTATE_*`, `ORDERS`, `POSTSTATE*`, `END`; and jDip's order-reading
//! suite: `VARIANT:`, `SETUP`, `SETUPDISLODGED`, `ORD:` / `RES:` pairs.
//!
//! Keywords are read in any case (the files write `ORDERS` and `Orders`).
//! A `CASE` line while a case is open ends that case, as jDip's own reader
//! does (jDip's 10.K has no `END`).

use crate::{Case, CaseFileError, Line, OrderLine, ReadCheck, Step};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    None,
    Prestate,
    Owners,
    Dislodged,
    Results,
    Orders,
    Post,
    PostDislodged,
}

/// The text of a line without its `#` comment, trimmed.
fn content(raw: &str) -> &str {
    raw.split('#').next().unwrap_or("").trim()
}

fn split_word(content: &str) -> (&str, &str) {
    match content.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (content, ""),
    }
}

pub(crate) fn parse(text: &str, file: &str) -> Result<Vec<Case>, CaseFileError> {
    let mut cases = Vec::new();
    let mut variant: Option<(String, usize)> = None;
    let mut cur: Option<Case> = None;
    let mut section = Section::None;
    let err = |line: usize, message: String| CaseFileError {
        file: file.to_string(),
        line,
        message,
    };
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let content = content(raw);
        if content.is_empty() {
            continue;
        }
        let (word, rest) = split_word(content);
        let key = word.to_ascii_uppercase();
        let line = |t: &str| Line {
            number: n,
            text: t.to_string(),
        };
        match key.as_str() {
            "VARIANT_ALL" => {
                if let Some(c) = cur.take() {
                    cases.push(c);
                }
                variant = Some((rest.to_string(), n));
                section = Section::None;
                continue;
            }
            "CASE" => {
                // An open case without END ends here.
                if let Some(c) = cur.take() {
                    cases.push(c);
                }
                let (id, title) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                if id.is_empty() {
                    return Err(err(n, "expected `CASE ID [TITLE]`".into()));
                }
                cur = Some(Case {
                    id: id.to_string(),
                    title: title.trim().to_string(),
                    file: file.to_string(),
                    line: n,
                    variant: variant.as_ref().map(|v| v.0.clone()),
                    variant_line: variant.as_ref().map_or(0, |v| v.1),
                    lenient_names: true,
                    steps: vec![Step {
                        retreating_only: true,
                        ..Step::default()
                    }],
                    ..Case::default()
                });
                section = Section::None;
                continue;
            }
            _ => {}
        }
        let Some(case) = cur.as_mut() else {
            return Err(err(n, format!("expected VARIANT_ALL or CASE, found `{content}`")));
        };
        let Some(step) = case.steps.last_mut() else {
            return Err(err(n, "a case without a step".into()));
        };
        match key.as_str() {
            "END" => {
                if let Some(c) = cur.take() {
                    cases.push(c);
                }
                section = Section::None;
            }
            "PRESTATE_SETPHASE" => {
                // `Spring 1901, Movement` and `Spring 1901 (Movement)`.
                let phase: String = rest
                    .chars()
                    .map(|c| {
                        if matches!(c, ',' | '(' | ')' | '[' | ']') {
                            ' '
                        } else {
                            c
                        }
                    })
                    .collect();
                case.phase = Some(line(&phase));
            }
            "PRESTATE" => section = Section::Prestate,
            "PRESTATE_SUPPLYCENTER_OWNERS" => {
                case.owners = Some(Vec::new());
                section = Section::Owners;
            }
            "PRESTATE_DISLODGED" => section = Section::Dislodged,
            "PRESTATE_RESULTS" => section = Section::Results,
            "ORDERS" => section = Section::Orders,
            "POSTSTATE" => {
                step.post_units = Some(Vec::new());
                section = Section::Post;
            }
            "POSTSTATE_SAME" => {
                step.post_units = Some(case.units.clone());
                section = Section::None;
            }
            "POSTSTATE_DISLODGED" => {
                step.post_dislodged = Some(Vec::new());
                section = Section::PostDislodged;
            }
            _ => match section {
                Section::Prestate => case.units.push(line(content)),
                Section::Owners => {
                    // `England: F lon` (a unit marks an owned centre) or `England: lon`.
                    case.owners.get_or_insert_with(Vec::new).push(line(content));
                }
                Section::Dislodged => case.dislodged.push(line(content)),
                Section::Results => case.previous_results.push(line(content)),
                Section::Orders => step.orders.push(OrderLine {
                    line: line(content),
                    expected: None,
                    reason: None,
                    dislodged: false,
                }),
                Section::Post => step.post_units.get_or_insert_with(Vec::new).push(line(content)),
                Section::PostDislodged => step.post_dislodged.get_or_insert_with(Vec::new).push(line(content)),
                Section::None => {
                    return Err(err(
                        n,
                        format!("unknown keyword `{}`", dip_variants::files::excerpt(word)),
                    ))
                }
            },
        }
    }
    if let Some(case) = cur {
        // The file ends the last case.
        cases.push(case);
    }
    Ok(cases)
}

/// Is this the order-reading suite (`VARIANT:`, `SETUP`, `ORD:`)?
pub(crate) fn is_order_suite(first: &str) -> bool {
    let up = first.to_ascii_uppercase();
    up.starts_with("VARIANT:") || up == "SETUP" || up.starts_with("ORD:")
}

/// jDip's order-reading suite: every `ORD:` line with the `RES:` line after
/// it becomes a case that reads the order in the position of `SETUP` and
/// `SETUPDISLODGED` and compares what was read with `RES:`.
pub(crate) fn parse_order_suite(text: &str, file: &str) -> Result<Vec<Case>, CaseFileError> {
    let err = |line: usize, message: String| CaseFileError {
        file: file.to_string(),
        line,
        message,
    };
    let mut cases = Vec::new();
    let mut variant: Option<(String, usize)> = None;
    let mut units = Vec::new();
    let mut dislodged = Vec::new();
    #[derive(PartialEq)]
    enum Block {
        None,
        Setup,
        Dislodged,
    }
    let mut block = Block::None;
    let mut pending: Option<Line> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let content = content(raw);
        if content.is_empty() {
            continue;
        }
        let line = |t: &str| Line {
            number: n,
            text: t.trim().to_string(),
        };
        let up = content.to_ascii_uppercase();
        if block != Block::None {
            if up == "END" {
                block = Block::None;
            } else if block == Block::Setup {
                units.push(line(content));
            } else {
                dislodged.push(line(content));
            }
            continue;
        }
        if let Some(rest) = strip_key(content, "VARIANT:") {
            variant = Some((rest.to_string(), n));
        } else if up == "SETUP" {
            block = Block::Setup;
        } else if up == "SETUPDISLODGED" {
            block = Block::Dislodged;
        } else if let Some(rest) = strip_key(content, "ORD:") {
            if let Some(p) = &pending {
                return Err(err(n, format!("`ORD:` at line {} has no `RES:`", p.number)));
            }
            pending = Some(line(rest));
        } else if let Some(rest) = strip_key(content, "RES:") {
            let Some(order) = pending.take() else {
                return Err(err(n, "`RES:` without an `ORD:` before it".into()));
            };
            cases.push(Case {
                id: format!("ORD.{}", cases.len() + 1),
                title: order.text.clone(),
                file: file.to_string(),
                line: order.number,
                variant: variant.as_ref().map(|v| v.0.clone()),
                variant_line: variant.as_ref().map_or(0, |v| v.1),
                units: units.clone(),
                dislodged: dislodged.clone(),
                read: Some(ReadCheck {
                    order,
                    expected: line(rest),
                }),
                steps: Vec::new(),
                ..Case::default()
            });
        } else {
            return Err(err(
                n,
                format!("expected VARIANT:, SETUP, SETUPDISLODGED, ORD: or RES:, found `{content}`"),
            ));
        }
    }
    if block != Block::None {
        return Err(err(text.lines().count(), "SETUP block without END".into()));
    }
    if let Some(p) = pending {
        return Err(err(p.number, "`ORD:` without `RES:`".into()));
    }
    Ok(cases)
}

/// `rest` after `key` (case-insensitive) at the start of `s`.
fn strip_key<'a>(s: &'a str, key: &str) -> Option<&'a str> {
    let head = s.get(..key.len())?;
    head.eq_ignore_ascii_case(key).then(|| s[key.len()..].trim())
}
