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

/// Reads a file of cases in dip's format, line by line.
pub(crate) fn parse(text: &str, file: &str) -> Result<Vec<Case>, CaseFileError> {
    let err = |line: usize, message: String| CaseFileError {
        file: file.to_string(),
        line,
        message,
    };
    let mut reader = Reader {
        file,
        cases: Vec::new(),
        open: None,
        block: Block::None,
    };
    for (i, raw) in text.lines().enumerate() {
        let content = raw.split('#').next().unwrap_or("").trim();
        if !content.is_empty() {
            reader.read(i + 1, content).map_err(|m| err(i + 1, m))?;
        }
    }
    if let Some(case) = reader.open {
        return Err(err(case.line, format!("case {} has no `end`", case.id)));
    }
    Ok(reader.cases)
}

/// Where the reader is in a file: the case open and the block its lines
/// go to.
struct Reader<'f> {
    file: &'f str,
    cases: Vec<Case>,
    open: Option<Case>,
    block: Block,
}

impl Reader<'_> {
    /// One line with content: `case` opens a case, `end` closes it, any
    /// other line belongs to the open case.
    fn read(&mut self, n: usize, content: &str) -> Result<(), String> {
        let (word, rest) = match content.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (content, ""),
        };
        if word == "case" {
            if self.open.is_some() {
                return Err("`case` before the previous case's `end`".into());
            }
            self.open = Some(self.case(n, rest)?);
            self.block = Block::None;
            return Ok(());
        }
        let Some(case) = self.open.as_mut() else {
            return Err(format!("expected `case ID TITLE`, found `{content}`"));
        };
        if word == "end" {
            self.cases.extend(self.open.take());
            self.block = Block::None;
            return Ok(());
        }
        match keyword(case, self.block, n, word, rest) {
            Some(block) => self.block = block,
            None => block_line(case, self.block, n, word, content)?,
        }
        Ok(())
    }

    /// A `case ID TITLE` line's case.
    fn case(&self, n: usize, rest: &str) -> Result<Case, String> {
        let (id, title) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        if id.is_empty() {
            return Err("expected `case ID TITLE`".into());
        }
        Ok(Case {
            id: id.to_string(),
            title: title.trim().to_string(),
            file: self.file.to_string(),
            line: n,
            steps: vec![new_step()],
            ..Case::default()
        })
    }
}

/// A step of dip's format: every dislodged unit must be marked.
fn new_step() -> Step {
    Step {
        strict_dislodged: true,
        ..Step::default()
    }
}

/// The step the case's orders and expectations go to.
fn last_step(case: &mut Case) -> &mut Step {
    if case.steps.is_empty() {
        case.steps.push(new_step());
    }
    let last = case.steps.len() - 1;
    &mut case.steps[last]
}

/// A keyword of a case's body: what it sets, and the block the lines
/// after it go to (`block` for one that opens none); `None` when `word`
/// is no keyword.
fn keyword(case: &mut Case, block: Block, n: usize, word: &str, rest: &str) -> Option<Block> {
    let line = |t: &str| Line {
        number: n,
        text: t.to_string(),
    };
    Some(match word {
        "variant" => {
            case.variant = Some(rest.to_string());
            block
        }
        "rules" => {
            case.rules = Some(rest.to_string());
            block
        }
        "phase" => {
            case.phase = Some(line(rest));
            block
        }
        "standoffs" => {
            case.standoffs = Some(line(rest));
            block
        }
        "units" => Block::Units,
        "dislodged" => Block::Dislodged,
        "owners" => {
            case.owners.get_or_insert_with(Vec::new);
            Block::Owners
        }
        "orders" => Block::Orders,
        "civil-disorder" => {
            last_step(case).civil_disorder.get_or_insert_with(Vec::new);
            Block::CivilDisorder
        }
        "then" => {
            case.steps.push(new_step());
            Block::None
        }
        _ => return None,
    })
}

/// A line of a block: a unit, a dislodged unit, an owner, a unit civil
/// disorder must remove, an order with its expectation.
fn block_line(case: &mut Case, block: Block, n: usize, word: &str, content: &str) -> Result<(), String> {
    let line = Line {
        number: n,
        text: content.to_string(),
    };
    match block {
        Block::Units => case.units.push(line),
        Block::Dislodged => case.dislodged.push(line),
        Block::Owners => case.owners.get_or_insert_with(Vec::new).push(line),
        Block::CivilDisorder => last_step(case).civil_disorder.get_or_insert_with(Vec::new).push(line),
        Block::Orders => {
            let ol = order_line(content, n)?;
            last_step(case).orders.push(ol);
        }
        Block::None => {
            return Err(format!(
                "unknown keyword `{}` (expected variant, rules, phase, units, dislodged, standoffs, owners, orders, then, civil-disorder or end)",
                dip_variants::files::excerpt(word)
            ))
        }
    }
    Ok(())
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
