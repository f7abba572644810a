//! Playing a case and comparing what happened with what was expected.

use crate::{Case, Expected, Line, Step};
use dip_core::{
    game, movement, Dislodged, Map, OrderKind, Phase, PhaseKind, PhaseOutcome, ProvinceId, Ruleset, Season, State,
    Unit, Verdict,
};
use dip_text::position::{format_unit, parse_dislodged_with, parse_owners, parse_phase, parse_unit_with};
use dip_text::{parse_order_with, Vocabulary};
use dip_variants::Variant;
use std::collections::{BTreeSet, HashMap};

/// Defaults for cases that do not name their own variant or rules.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    pub variant: Option<String>,
    pub rules: Option<String>,
}

/// How one case went.
#[derive(Clone, Debug)]
pub struct CaseResult {
    pub id: String,
    pub title: String,
    pub file: String,
    pub line: usize,
    /// Expected against actual, one line each; empty when the case passed.
    pub failures: Vec<String>,
}

impl CaseResult {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// Runs cases, loading each variant once.
#[derive(Default)]
pub struct Runner {
    pub settings: Settings,
    variants: HashMap<String, Variant>,
}

/// Runs one case with fresh settings (convenience for tests).
pub fn run(case: &Case, settings: &Settings) -> CaseResult {
    let mut r = Runner {
        settings: settings.clone(),
        variants: HashMap::new(),
    };
    r.run(case)
}

impl Runner {
    pub fn new(settings: Settings) -> Self {
        Runner {
            settings,
            variants: HashMap::new(),
        }
    }

    pub fn run(&mut self, case: &Case) -> CaseResult {
        let mut result = CaseResult {
            id: case.id.clone(),
            title: case.title.clone(),
            file: case.file.clone(),
            line: case.line,
            failures: Vec::new(),
        };
        if let Err(e) = self.play(case, &mut result.failures) {
            result.failures.push(e);
        }
        result
    }

    fn play(&mut self, case: &Case, failures: &mut Vec<String>) -> Result<(), String> {
        let name = case
            .variant
            .clone()
            .or_else(|| self.settings.variant.clone())
            .unwrap_or_else(|| "standard".into());
        // A relative path is taken from the case file's folder first.
        let name = std::path::Path::new(&case.file)
            .parent()
            .map(|dir| dir.join(&name))
            .filter(|p| p.is_file())
            .map(|p| p.to_string_lossy().to_string())
            .unwrap_or(name);
        if !self.variants.contains_key(&name) {
            let v = dip_variants::load(&name).map_err(|e| e.to_string())?;
            self.variants.insert(name.clone(), v);
        }
        let variant = &self.variants[&name];
        let map = &variant.map;
        let vocab = &Vocabulary::new(map).with_spellcheck(0);
        let rules = match case.rules.as_ref().or(self.settings.rules.as_ref()) {
            Some(text) => Ruleset::parse(text).map_err(|e| format!("{}:{}: {e}", case.file, case.line))?,
            None => variant.rules,
        };
        let loc = |l: &Line| format!("{}:{}", case.file, l.number);
        let mut state = setup(vocab, case).map_err(|(l, e)| format!("{}: {e}", loc(&l)))?;
        for step in &case.steps {
            let mut orders = Vec::new();
            for ol in &step.orders {
                let o = parse_order_with(vocab, &ol.line.text, None)
                    .map_err(|e| format!("{}: {e}: `{}`", loc(&ol.line), ol.line.text))?;
                orders.push(o);
            }
            let outcome = game::adjudicate(map, &state, &orders, &rules);
            check_step(vocab, &state, step, &outcome, &loc, failures);
            let next = game::advance(map, &state, &outcome);
            if let Some(expected) = &step.post_units {
                let mut want = BTreeSet::new();
                for l in expected {
                    let u = parse_unit_with(vocab, &l.text).map_err(|e| format!("{}: {e}", loc(l)))?;
                    want.insert(describe(map, &u));
                }
                let after = match &outcome {
                    PhaseOutcome::Movement(m) => movement::apply(map, &state, m),
                    _ => next.clone(),
                };
                let got: BTreeSet<String> = after.units().map(|(_, u)| describe(map, &u)).collect();
                if want != got {
                    failures.push(format!(
                        "position after the phase: expected [{}], got [{}]",
                        want.into_iter().collect::<Vec<_>>().join(", "),
                        got.into_iter().collect::<Vec<_>>().join(", ")
                    ));
                }
            }
            if let Some(expected) = &step.post_dislodged {
                let mut want = BTreeSet::new();
                for l in expected {
                    let u = parse_unit_with(vocab, &l.text).map_err(|e| format!("{}: {e}", loc(l)))?;
                    want.insert(describe(map, &u));
                }
                let got: BTreeSet<String> = match &outcome {
                    PhaseOutcome::Movement(m) => m.dislodged.iter().map(|d| describe(map, &d.unit)).collect(),
                    _ => BTreeSet::new(),
                };
                if want != got {
                    failures.push(format!(
                        "dislodged: expected [{}], got [{}]",
                        want.into_iter().collect::<Vec<_>>().join(", "),
                        got.into_iter().collect::<Vec<_>>().join(", ")
                    ));
                }
            }
            state = next;
        }
        Ok(())
    }
}

fn describe(map: &Map, u: &Unit) -> String {
    format_unit(map, u)
}

fn check_step(
    vocab: &Vocabulary,
    before: &State,
    step: &Step,
    outcome: &PhaseOutcome,
    loc: &dyn Fn(&Line) -> String,
    failures: &mut Vec<String>,
) {
    let map = vocab.map();
    let reports = outcome.orders();
    let dislodged: Vec<ProvinceId> = match outcome {
        PhaseOutcome::Movement(m) => m.dislodged.iter().map(|d| map.province_of(d.unit.region)).collect(),
        _ => Vec::new(),
    };
    let mut marked = Vec::new();
    for (ol, report) in step.orders.iter().zip(reports) {
        let actual = match report.verdict {
            Verdict::Illegal(_) | Verdict::Duplicate => Expected::Illegal,
            Verdict::Done { success: true, .. } => Expected::Succeeds,
            Verdict::Done { success: false, .. } => Expected::Fails,
        };
        let unit_p = report.order.unit().map(|u| u.province);
        let was_dislodged = unit_p.is_some_and(|p| dislodged.contains(&p));
        if ol.dislodged {
            if let Some(p) = unit_p {
                marked.push(p);
            }
        }
        let why = match report.verdict {
            Verdict::Illegal(e) => format!("illegal: {}", e.describe()),
            Verdict::Duplicate => "void: another order for the unit".into(),
            Verdict::Done { reason, .. } => format!("{reason:?}"),
        };
        if let Some(exp) = ol.expected {
            if exp != actual {
                failures.push(format!(
                    "{}: `{}`: expected {}, got {} ({why})",
                    loc(&ol.line),
                    ol.line.text,
                    word(exp),
                    word(actual)
                ));
            }
        }
        if let (Some(want), Verdict::Illegal(got)) = (&ol.reason, report.verdict) {
            if got.code() != want {
                failures.push(format!(
                    "{}: `{}`: expected illegal {want}, got illegal {}",
                    loc(&ol.line),
                    ol.line.text,
                    got.code()
                ));
            }
        }
        if ol.dislodged && !was_dislodged {
            failures.push(format!(
                "{}: `{}`: expected dislodged, was not",
                loc(&ol.line),
                ol.line.text
            ));
        }
    }
    if step.strict_dislodged {
        for p in &dislodged {
            if !marked.contains(p) {
                let u = before.unit(*p).map(|u| describe(map, &u)).unwrap_or_default();
                failures.push(format!("{u} was dislodged, but no order line says `dislodged`"));
            }
        }
    }
    if let Some(expected) = &step.civil_disorder {
        let got: BTreeSet<String> = match outcome {
            PhaseOutcome::Adjustment(a) => a
                .civil_disorder
                .iter()
                .filter_map(|&p| before.unit(p))
                .map(|u| describe(map, &u))
                .collect(),
            _ => BTreeSet::new(),
        };
        let want: BTreeSet<String> = expected
            .iter()
            .filter_map(|l| parse_unit_with(vocab, &l.text).ok())
            .map(|u| describe(map, &u))
            .collect();
        if want != got {
            failures.push(format!(
                "civil disorder: expected to remove [{}], removed [{}]",
                want.into_iter().collect::<Vec<_>>().join(", "),
                got.into_iter().collect::<Vec<_>>().join(", ")
            ));
        }
    }
}

fn word(e: Expected) -> &'static str {
    match e {
        Expected::Succeeds => "succeeds",
        Expected::Fails => "fails",
        Expected::Illegal => "illegal",
    }
}

fn setup(vocab: &Vocabulary, case: &Case) -> Result<State, (Line, String)> {
    let map = vocab.map();
    let here = |l: &Line| l.clone();
    let phase = match &case.phase {
        Some(l) => parse_phase(&l.text).map_err(|e| (here(l), e))?,
        None => Phase::new(1901, Season::Spring, PhaseKind::Movement),
    };
    let mut state = State::empty(map, phase);
    for l in &case.units {
        let u = parse_unit_with(vocab, &l.text).map_err(|e| (here(l), e))?;
        state.place(map, u);
    }
    // Attackers from the previous phase's results (jDip).
    let mut attacker: HashMap<ProvinceId, ProvinceId> = HashMap::new();
    for l in &case.previous_results {
        let t = l.text.trim();
        if let Some(order) = t.strip_prefix("SUCCESS:") {
            if let Ok(o) = parse_order_with(vocab, order.trim(), None) {
                if let OrderKind::Move(u, d, _) = o.kind {
                    attacker.insert(d.province, u.province);
                }
            }
        }
    }
    for l in &case.dislodged {
        let d = if l.text.contains(" from ") {
            parse_dislodged_with(vocab, &l.text).map_err(|e| (here(l), e))?
        } else {
            let unit = parse_unit_with(vocab, &l.text).map_err(|e| (here(l), e))?;
            let p = map.province_of(unit.region);
            Dislodged {
                unit,
                attacker_from: *attacker.get(&p).unwrap_or(&p),
                by_convoy: false,
            }
        };
        state.set_dislodged(map, d);
    }
    if let Some(l) = &case.standoffs {
        for name in l.text.split_whitespace() {
            let q = map
                .find_province(name)
                .ok_or_else(|| (here(l), format!("unknown province `{name}`")))?;
            state.standoffs.insert(q.index());
        }
    }
    match &case.owners {
        None => state.own_home_centers(map),
        Some(lines) => {
            for l in lines {
                let (power, ps) = parse_owners(map, &l.text).map_err(|e| (here(l), e))?;
                for q in ps {
                    state.set_owner(q, Some(power));
                }
            }
        }
    }
    Ok(state)
}
