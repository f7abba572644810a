//! The DATC text format of jDip and godip: `VARIANT_ALL`, `CASE`,
//! `PRESTATE_*`, `ORDERS`, `POSTSTATE*`, `END`.

use crate::{Case, CaseFileError, Line, OrderLine, Step};

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

pub(crate) fn parse(text: &str, file: &str) -> Result<Vec<Case>, CaseFileError> {
    let mut cases = Vec::new();
    let mut variant: Option<String> = None;
    let mut cur: Option<Case> = None;
    let mut section = Section::None;
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
        match word {
            "VARIANT_ALL" => {
                variant = Some(rest.to_string());
                continue;
            }
            "CASE" => {
                if cur.is_some() {
                    return Err(err(n, "CASE before the previous case's END".into()));
                }
                let (id, title) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                cur = Some(Case {
                    id: id.to_string(),
                    title: title.trim().to_string(),
                    file: file.to_string(),
                    line: n,
                    variant: variant.clone(),
                    steps: vec![Step::default()],
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
        let step = case.steps.last_mut().expect("a case has a step");
        match word {
            "END" => {
                cases.push(cur.take().expect("checked above"));
                section = Section::None;
            }
            "PRESTATE_SETPHASE" => case.phase = Some(line(&rest.replace(',', " "))),
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
                Section::None => return Err(err(n, format!("unknown keyword `{word}`"))),
            },
        }
    }
    if let Some(case) = cur {
        return Err(err(case.line, format!("case {} has no END", case.id)));
    }
    Ok(cases)
}
