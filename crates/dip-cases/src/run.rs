//! Running cases: each case's variant found and loaded once, its rules,
//! its starting position read. The playing itself is `play`'s, through
//! dip-play's `Game`; the order-reading suite's cases are `reading`'s.

use crate::play::play_case;
use crate::reading::read_check;
use crate::{Case, Expected, Line};
use dip_core::position::Entry;
use dip_core::{Dislodged, Map, OrderKind, Phase, PhaseKind, ProvinceId, Ruleset, Season, State, Unit};
use dip_play::Loaded;
use dip_text::position::{format_unit, parse_dislodged_with, parse_owners, parse_phase, parse_unit_with};
use dip_text::{parse_order_with, Position, Vocabulary};
use dip_variants::Variant;
use std::collections::HashMap;
use std::sync::Arc;

/// Defaults for cases that do not name their own variant or rules.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    pub variant: Option<String>,
    pub rules: Option<String>,
    /// Where variants come from: bundled names, files, and jDip plugins
    /// under its search paths (the command line's `--variants`).
    pub variants: dip_play::Variants,
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
    /// The case could not be run at all (its variant cannot be read):
    /// unusable input rather than a failed case.
    pub unusable: bool,
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
    /// Variants by the name cases use: those loaded, and those added with
    /// [`Runner::add_variant`] (keys in lower case).
    variants: HashMap<String, Arc<Loaded>>,
    /// The key in `variants` chosen for each standard name (lower case).
    standard_keys: HashMap<String, String>,
}

/// Names the peers' files give the standard map: jDip's `Standard` and its
/// test variant `DATC_Standard` (the standard map; its wing option is used
/// only by wing.txt).
const STANDARD_NAMES: [&str; 2] = ["standard", "datc_standard"];

/// Runs one case with fresh settings (convenience for tests).
pub fn run(case: &Case, settings: &Settings) -> CaseResult {
    let mut r = Runner {
        settings: settings.clone(),
        variants: HashMap::new(),
        standard_keys: HashMap::new(),
    };
    r.run(case)
}

impl Runner {
    pub fn new(settings: Settings) -> Self {
        Runner {
            settings,
            variants: HashMap::new(),
            standard_keys: HashMap::new(),
        }
    }

    /// Makes `variant` known by `name` (any case) to the cases that name
    /// it, before bundled variants and files: a variant read from another
    /// format (jDip's variants.xml) is added this way.
    pub fn add_variant(&mut self, name: &str, variant: Variant) {
        self.keep(name.to_lowercase(), variant);
    }

    /// Keeps `variant` under `key`, with the words cases are read with:
    /// the map's names, exactly (no spelling check).
    fn keep(&mut self, key: String, variant: Variant) {
        let loaded = Loaded::new_with(Arc::new(variant), |map, _| Vocabulary::new(map).with_spellcheck(0));
        self.variants.insert(key, Arc::new(loaded));
    }

    /// The key in `variants` of the case's variant, loading it if need be.
    fn variant_key(&mut self, case: &Case) -> Result<String, String> {
        let name = case
            .variant
            .clone()
            .or_else(|| self.settings.variant.clone())
            .unwrap_or_else(|| "standard".into());
        let lower = name.to_lowercase();
        if self.variants.contains_key(&lower) {
            return Ok(lower);
        }
        // A relative path is taken from the case file's folder first. A
        // file named inside a case file stays in that folder (no absolute
        // path, no `..`): a case file from elsewhere reads nothing else.
        let dir = std::path::Path::new(&case.file)
            .parent()
            .unwrap_or(std::path::Path::new(""));
        let from_file = case.variant.is_some() && case.variant_line > 0;
        let bundled = dip_variants::bundled()
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(name.trim()));
        if from_file && !bundled {
            beside_the_case(case, dir, &name)?;
        }
        let path = Some(dir.join(&name))
            .filter(|p| p.exists() && !bundled)
            .map(|p| p.to_string_lossy().to_string());
        match path {
            Some(p) => self.loaded_key(case, &name, p, from_file, true),
            None if STANDARD_NAMES.contains(&lower.as_str()) => Ok(self.standard_key(&name, lower)),
            None => self.loaded_key(case, &name, name.clone(), from_file, false),
        }
    }

    /// The key of a standard name's variant: a jDip plugin's that the
    /// standard map cannot express, else the bundled standard. Decided
    /// once per name: looking through the plugins per case would read
    /// them again for every case.
    fn standard_key(&mut self, name: &str, lower: String) -> String {
        if let Some(key) = self.standard_keys.get(&lower) {
            return key.clone();
        }
        let key = match self.plugin_beyond_standard(name) {
            Some(v) => {
                let key = format!("jdip:{lower}");
                self.keep(key.clone(), v);
                key
            }
            None => {
                if !self.variants.contains_key("standard") {
                    self.keep("standard".into(), dip_variants::standard());
                }
                "standard".into()
            }
        };
        self.standard_keys.insert(lower, key.clone());
        key
    }

    /// `load` (a file beside the case, `is_file`, or a name) loaded once
    /// and kept under itself; a case file's variant that cannot be read
    /// or found is named at the case file's line.
    fn loaded_key(
        &mut self,
        case: &Case,
        name: &str,
        load: String,
        from_file: bool,
        is_file: bool,
    ) -> Result<String, String> {
        if self.variants.contains_key(&load) {
            return Ok(load);
        }
        match self.settings.variants.load(&load) {
            Ok(v) => {
                self.keep(load.clone(), v);
                Ok(load)
            }
            // The file is there but is no variant dip can read: say so.
            Err(e) if from_file && is_file => {
                Err(format!("{}:{}: variant `{name}`: {e}", case.file, case.variant_line))
            }
            Err(e) if from_file => Err(format!(
                "{}:{}: variant `{name}` not found (neither bundled nor a file); give --variants with the \
                 file that defines it (e.g. jDip's variants.xml): {e}",
                case.file, case.variant_line
            )),
            Err(e) => Err(e.to_string()),
        }
    }

    /// A standard name's variant from a jDip plugin under `--variants`, when
    /// that plugin defines the name and the bundled standard map cannot
    /// express it: the plugin has a unit type the standard map has not
    /// (jDip's `DATC_Standard` enables wings, which wing.txt needs). The
    /// same map with the same units stays dip's bundled standard, so the
    /// DATC files read and play as before.
    fn plugin_beyond_standard(&self, name: &str) -> Option<Variant> {
        let (_, jv) = dip_variants::jdip::find_in(self.settings.variants.search_paths(), name)?.ok()?;
        let v = jv.model.build(&format!("jdip:{name}")).ok()?;
        let standard = dip_variants::standard();
        let known = |letter: char| {
            standard
                .map
                .unit_types()
                .iter()
                .any(|u| u.letter.eq_ignore_ascii_case(&letter))
        };
        v.map.unit_types().iter().any(|u| !known(u.letter)).then_some(v)
    }

    pub fn run(&mut self, case: &Case) -> CaseResult {
        let mut result = CaseResult {
            id: case.id.clone(),
            title: case.title.clone(),
            file: case.file.clone(),
            line: case.line,
            failures: Vec::new(),
            unusable: false,
        };
        let name = match self.variant_key(case) {
            Ok(name) => name,
            Err(e) => {
                result.failures.push(e);
                result.unusable = true;
                return result;
            }
        };
        if let Err(e) = self.play(case, &name, &mut result.failures) {
            result.failures.push(e);
        }
        result
    }

    fn play(&mut self, case: &Case, name: &str, failures: &mut Vec<String>) -> Result<(), String> {
        let loaded = self
            .variants
            .get(name)
            .cloned()
            .ok_or_else(|| format!("variant `{name}` not loaded"))?;
        if let Some(check) = &case.read {
            return read_check(loaded.variant(), case, check, failures);
        }
        let rules = match case.rules.as_ref().or(self.settings.rules.as_ref()) {
            Some(text) => Ruleset::parse(text).map_err(|e| format!("{}:{}: {e}", case.file, case.line))?,
            None => loaded.variant().rules,
        };
        play_case(&loaded, rules, case, failures)
    }
}

/// A variant file named in a case file must be beside it: a name that
/// leaves the case file's folder, or a file found only elsewhere (from the
/// current folder), is refused at the case file's line.
fn beside_the_case(case: &Case, dir: &std::path::Path, name: &str) -> Result<(), String> {
    let inside = dip_variants::files::confined(dir, name)
        .map_err(|e| format!("{}:{}: variant {e}", case.file, case.variant_line))?;
    if !inside.exists() && std::path::Path::new(name).exists() {
        let dir = if dir.as_os_str().is_empty() {
            std::path::Path::new(".")
        } else {
            dir
        };
        return Err(format!(
            "{}:{}: variant `{name}`: a variant file named in a case file must be beside it, in {}",
            case.file,
            case.variant_line,
            dir.display()
        ));
    }
    Ok(())
}

pub(crate) fn describe(map: &Map, u: &Unit) -> String {
    format_unit(map, u)
}

pub(crate) fn word(e: Expected) -> &'static str {
    match e {
        Expected::Succeeds => "succeeds",
        Expected::Fails => "fails",
        Expected::Illegal => "illegal",
    }
}

pub(crate) fn setup(vocab: &Vocabulary, case: &Case) -> Result<State, (Line, String)> {
    let map = vocab.map();
    let here = |l: &Line| l.clone();
    let phase = match &case.phase {
        Some(l) => parse_phase(&l.text).map_err(|e| (here(l), e))?,
        None => Phase::new(1901, Season::Spring, PhaseKind::Movement),
    };
    let mut position = Position::new(phase);
    for l in &case.units {
        let u = unit_line(vocab, &l.text).map_err(|e| (here(l), e))?;
        position.units.push(u);
    }
    let results = previous_results(vocab, &position, case)?;
    for l in &case.dislodged {
        let d = if l.text.contains(" from ") {
            parse_dislodged_with(vocab, &l.text).map_err(|e| (here(l), unknown_power(vocab, &l.text).unwrap_or(e)))?
        } else {
            let unit = unit_line(vocab, &l.text).map_err(|e| (here(l), e))?;
            let p = map.province_of(unit.region);
            let (attacker_from, by_convoy) = results.attackers.get(&p).copied().unwrap_or((p, false));
            Dislodged {
                unit,
                attacker_from,
                by_convoy,
            }
        };
        position.dislodged.push(d);
    }
    position.standoffs.extend(results.standoffs);
    if let Some(l) = &case.standoffs {
        for name in l.text.split_whitespace() {
            let q = map
                .find_province(name)
                .ok_or_else(|| (here(l), format!("unknown province `{name}`")))?;
            position.standoffs.push(q);
        }
    }
    let mut owner_lines = Vec::new();
    if let Some(lines) = &case.owners {
        let mut owners = Vec::new();
        for l in lines {
            let (power, ps) =
                parse_owners(map, &l.text).map_err(|e| (here(l), unknown_power(vocab, &l.text).unwrap_or(e)))?;
            owner_lines.extend(ps.iter().map(|_| l));
            owners.extend(ps.into_iter().map(|q| (power, q)));
        }
        position.owners = Some(owners);
    }
    // A position the map cannot hold (two units in one province) is refused
    // at the line that made it, not trimmed to one the case did not write.
    State::from_position(map, &position).map_err(|e| {
        let fault = &e.0[0];
        let line = match fault.entry {
            Entry::Unit(i) => case.units.get(i),
            Entry::Dislodged(i) => case.dislodged.get(i),
            Entry::Standoff(_) => case.standoffs.as_ref(),
            Entry::Owner(i) => owner_lines.get(i).copied(),
        };
        let line = line.cloned().unwrap_or_else(|| Line {
            number: case.line,
            text: String::new(),
        });
        (line, fault.message.clone())
    })
}

/// What a retreat case takes from the movement phase before it (jDip's
/// `PRESTATE_RESULTS`): where each successful attacker came from and
/// whether by convoy, and the provinces left empty by a standoff.
#[derive(Default)]
struct Results {
    attackers: HashMap<ProvinceId, (ProvinceId, bool)>,
    standoffs: Vec<ProvinceId>,
}

/// Reads `SUCCESS: order` / `FAILURE: order` lines. A move came by convoy
/// when written `via convoy` / `by convoy`, with a path of sea provinces,
/// or between provinces that are not neighbours. A province two or more
/// failed moves went for and that no unit holds now saw a standoff.
fn previous_results(vocab: &Vocabulary, position: &Position, case: &Case) -> Result<Results, (Line, String)> {
    let map = vocab.map();
    let mut out = Results::default();
    let mut failed: HashMap<ProvinceId, usize> = HashMap::new();
    for l in &case.previous_results {
        let t = l.text.trim();
        let (success, order) = if let Some(o) = strip_prefix_ci(t, "SUCCESS:") {
            (true, o)
        } else if let Some(o) = strip_prefix_ci(t, "FAILURE:") {
            (false, o)
        } else {
            return Err((
                l.clone(),
                format!("expected `SUCCESS: order` or `FAILURE: order`, found `{t}`"),
            ));
        };
        let o = parse_order_with(vocab, order.trim(), None).map_err(|e| (l.clone(), e.to_string()))?;
        let OrderKind::Move(u, d, via) = o.kind else {
            continue;
        };
        if success {
            let path = order.matches('-').count() > 1;
            let adjacent = map.provinces_adjacent(u.province, d.province);
            out.attackers.insert(d.province, (u.province, via || path || !adjacent));
        } else {
            *failed.entry(d.province).or_default() += 1;
        }
    }
    let mut standoffs: Vec<ProvinceId> = failed
        .into_iter()
        .filter(|&(p, n)| n >= 2 && !position.occupied(map, p) && !out.attackers.contains_key(&p))
        .map(|(p, _)| p)
        .collect();
    standoffs.sort_by_key(|p| p.index());
    out.standoffs = standoffs;
    Ok(out)
}

fn strip_prefix_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix).then(|| &s[prefix.len()..])
}

/// A parse error, said better when the line starts with a misspelled power
/// (`Germnay: A wal S ...`).
pub(crate) fn explain(vocab: &Vocabulary, text: &str, e: dip_text::ParseError) -> String {
    unknown_power(vocab, text).unwrap_or_else(|| e.to_string())
}

/// A line `Power: …` whose power the variant does not know: the message,
/// with the powers spelled like it.
fn unknown_power(vocab: &Vocabulary, text: &str) -> Option<String> {
    let (head, _) = text.split_once(':')?;
    let head = head.trim();
    let one_word = !head.is_empty() && head.chars().all(|c| c.is_alphabetic() || c == '-');
    if !one_word || vocab.nation(head).is_some() {
        return None;
    }
    let map = vocab.map();
    let near: Vec<&str> = map
        .power_ids()
        .map(|p| map.power(p).name.as_str())
        .filter(|n| strsim_close(n, head))
        .collect();
    let hint = if near.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", near.join(", "))
    };
    Some(format!("unknown power `{head}`{hint}"))
}

/// A unit line of a position block (`Power: A prov`): a misspelled power
/// is named as such.
pub(crate) fn unit_line(vocab: &Vocabulary, text: &str) -> Result<Unit, String> {
    parse_unit_with(vocab, text).map_err(|e| unknown_power(vocab, text).unwrap_or(e))
}

/// Two names within two letters of each other (edits, not case).
fn strsim_close(a: &str, b: &str) -> bool {
    let (a, b) = (a.to_lowercase(), b.to_lowercase());
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev.last().is_some_and(|&d| d <= 2)
}
