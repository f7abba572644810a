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

/// Reads a file of cases in the DATC text format, line by line.
pub(crate) fn parse(text: &str, file: &str) -> Result<Vec<Case>, CaseFileError> {
    let mut reader = Reader {
        file,
        cases: Vec::new(),
        variant: None,
        open: None,
        section: Section::None,
    };
    for (i, raw) in text.lines().enumerate() {
        let content = content(raw);
        if content.is_empty() {
            continue;
        }
        reader.read(i + 1, content).map_err(|message| CaseFileError {
            file: file.to_string(),
            line: i + 1,
            message,
        })?;
    }
    // The file ends the last case.
    reader.close();
    Ok(reader.cases)
}

/// Where the reader is in a file: the variant named last (with its line),
/// the case open and the section its lines go to.
struct Reader<'f> {
    file: &'f str,
    cases: Vec<Case>,
    variant: Option<(String, usize)>,
    open: Option<Case>,
    section: Section,
}

impl Reader<'_> {
    /// One line with content: `VARIANT_ALL`, `CASE` and `END` open and
    /// close cases; any other line belongs to the open case.
    fn read(&mut self, n: usize, content: &str) -> Result<(), String> {
        let (word, rest) = split_word(content);
        let key = word.to_ascii_uppercase();
        match key.as_str() {
            "VARIANT_ALL" => {
                self.close();
                self.variant = Some((rest.to_string(), n));
            }
            "CASE" => {
                // An open case without END ends here.
                self.close();
                self.open = Some(self.case(n, rest)?);
            }
            "END" if self.open.is_some() => self.close(),
            _ => {
                let Some(case) = self.open.as_mut() else {
                    return Err(format!("expected VARIANT_ALL or CASE, found `{content}`"));
                };
                match keyword(case, self.section, n, &key, rest) {
                    Some(section) => self.section = section,
                    None => section_line(case, self.section, n, word, content)?,
                }
                return Ok(());
            }
        }
        self.section = Section::None;
        Ok(())
    }

    /// A `CASE ID [TITLE]` line's case, on the variant named last.
    fn case(&self, n: usize, rest: &str) -> Result<Case, String> {
        let (id, title) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        if id.is_empty() {
            return Err("expected `CASE ID [TITLE]`".into());
        }
        Ok(Case {
            id: id.to_string(),
            title: title.trim().to_string(),
            file: self.file.to_string(),
            line: n,
            variant: self.variant.as_ref().map(|v| v.0.clone()),
            variant_line: self.variant.as_ref().map_or(0, |v| v.1),
            lenient_names: true,
            steps: vec![Step {
                retreating_only: true,
                ..Step::default()
            }],
            ..Case::default()
        })
    }

    /// Ends the open case, if any.
    fn close(&mut self) {
        self.cases.extend(self.open.take());
    }
}

/// A keyword of a case's body: what it sets, and the section the lines
/// after it go to (`section` for one that opens none); `None` when `key`
/// is no keyword.
fn keyword(case: &mut Case, section: Section, n: usize, key: &str, rest: &str) -> Option<Section> {
    Some(match key {
        "PRESTATE_SETPHASE" => {
            case.phase = Some(Line {
                number: n,
                text: phase_words(rest),
            });
            section
        }
        "PRESTATE" => Section::Prestate,
        "PRESTATE_SUPPLYCENTER_OWNERS" => {
            case.owners = Some(Vec::new());
            Section::Owners
        }
        "PRESTATE_DISLODGED" => Section::Dislodged,
        "PRESTATE_RESULTS" => Section::Results,
        "ORDERS" => Section::Orders,
        "POSTSTATE" => {
            last_step(case).post_units = Some(Vec::new());
            Section::Post
        }
        "POSTSTATE_SAME" => {
            let units = case.units.clone();
            last_step(case).post_units = Some(units);
            Section::None
        }
        "POSTSTATE_DISLODGED" => {
            last_step(case).post_dislodged = Some(Vec::new());
            Section::PostDislodged
        }
        _ => return None,
    })
}

/// `Spring 1901, Movement` and `Spring 1901 (Movement)` as the words of
/// a phase.
fn phase_words(rest: &str) -> String {
    rest.chars()
        .map(|c| {
            if matches!(c, ',' | '(' | ')' | '[' | ']') {
                ' '
            } else {
                c
            }
        })
        .collect()
}

/// The step the case's orders and expectations go to.
fn last_step(case: &mut Case) -> &mut Step {
    if case.steps.is_empty() {
        case.steps.push(Step {
            retreating_only: true,
            ..Step::default()
        });
    }
    let last = case.steps.len() - 1;
    &mut case.steps[last]
}

/// A line of a section: a unit, an owner, a dislodged unit, a result of
/// the phase before, an order, a unit expected after the phase.
fn section_line(case: &mut Case, section: Section, n: usize, word: &str, content: &str) -> Result<(), String> {
    let line = Line {
        number: n,
        text: content.to_string(),
    };
    match section {
        Section::Prestate => case.units.push(line),
        // `England: F lon` (a unit marks an owned centre) or `England: lon`.
        Section::Owners => case.owners.get_or_insert_with(Vec::new).push(line),
        Section::Dislodged => case.dislodged.push(line),
        Section::Results => case.previous_results.push(line),
        Section::Orders => last_step(case).orders.push(OrderLine {
            line,
            expected: None,
            reason: None,
            dislodged: false,
        }),
        Section::Post => last_step(case).post_units.get_or_insert_with(Vec::new).push(line),
        Section::PostDislodged => last_step(case).post_dislodged.get_or_insert_with(Vec::new).push(line),
        Section::None => return Err(format!("unknown keyword `{}`", dip_variants::files::excerpt(word))),
    }
    Ok(())
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
