//! The words orders are written with: nations, unit types, order words and
//! province names with their synonyms, as DipWork's `NATIONLIST`,
//! `UNITLIST`, `ORDERLIST` and `SYNONYMS.DAT`, and DIP's `fixnames.dat`.
//!
//! A [`Vocabulary`] is built from a [`Map`] (every power's abbreviation,
//! name and adjective, every unit type's letter and name, every province's
//! abbreviation, name and aliases) plus dip's default words
//! (`words/default.txt`: English and German order words, DipWork's
//! two-letter nation abbreviations, German nation names, a few synonyms of
//! the standard map). Each list can be replaced or extended from plain lines
//! of words, as a variant file would give them.

use dip_core::{Map, PowerId, ProvinceId, RegionId, UnitTypeId};
use std::collections::HashMap;

/// Words by name: foldhash, quicker than SipHash for short names; the maps
/// are built by dip from the variant, not from untrusted keys alone.
type Map2<V> = HashMap<String, V, foldhash::fast::FixedState>;

/// Calls `f` with the lookup key of `word` (lower case unless `exact`),
/// without allocating for short ASCII words.
pub(crate) fn with_key<R>(word: &str, exact: bool, f: impl FnOnce(&str) -> R) -> R {
    if exact || !word.bytes().any(|b| b.is_ascii_uppercase() || b >= 128) {
        return f(word);
    }
    if word.is_ascii() && word.len() <= 48 {
        let mut buf = [0u8; 48];
        let b = &mut buf[..word.len()];
        b.copy_from_slice(word.as_bytes());
        b.make_ascii_lowercase();
        return f(std::str::from_utf8(b).unwrap_or(word));
    }
    let mut s = String::with_capacity(word.len());
    push_lower(&mut s, word);
    f(&s)
}

/// dip's default word lists, in the format of [`Vocabulary::apply_lists`].
pub const DEFAULT_WORDS: &str = include_str!("../words/default.txt");

/// What an order word means. The first four are DipWork's `ORDERLIST`
/// lines; the others are dip's extension of that list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OrderWord {
    Hold,
    Move,
    Support,
    Convoy,
    Retreat,
    Disband,
    Build,
    Waive,
    /// `via`, `by`: a move by convoy.
    Via,
}

impl OrderWord {
    /// `ORDERLIST` line order: hold, move, support, convoy, then dip's
    /// retreat, disband, build, waive, via.
    pub const LINES: [OrderWord; 9] = [
        OrderWord::Hold,
        OrderWord::Move,
        OrderWord::Support,
        OrderWord::Convoy,
        OrderWord::Retreat,
        OrderWord::Disband,
        OrderWord::Build,
        OrderWord::Waive,
        OrderWord::Via,
    ];
}

/// A place named in an order: a province and, for a coast synonym such as
/// DipWork's `PeS`, the coast.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Place {
    pub province: ProvinceId,
    pub coast: Option<RegionId>,
}

/// A list line that names nothing on the map.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("word list line {line}: {message}")]
pub struct VocabError {
    /// 1-based line of the list.
    pub line: usize,
    pub message: String,
}

/// A name with what it stands for, as written (before normalising).
#[derive(Clone, Debug)]
struct Entry<T> {
    name: String,
    target: T,
}

/// All the words orders may use, with the matching options.
#[derive(Clone, Debug)]
pub struct Vocabulary<'m> {
    map: &'m Map,
    exact_match: bool,
    spellcheck: usize,
    nations: Vec<Entry<PowerId>>,
    units: Vec<Entry<UnitTypeId>>,
    orders: Vec<Entry<OrderWord>>,
    places: Vec<Entry<Place>>,
    /// Printing names from `fixnames.dat`, by province.
    renames: Vec<Option<String>>,
    index: Index,
    /// While set, `reindex` waits (several lists applied at once).
    batch: bool,
    /// Provinces where units stand, when the position is known: the
    /// spelling check prefers them ([`Vocabulary::with_position`]).
    occupied: Option<Vec<(ProvinceId, PowerId)>>,
    /// May a misspelled nation before a colon be read ([`Vocabulary::nation_fuzzy`])?
    nation_spelling: bool,
}

#[derive(Clone, Debug, Default)]
struct Index {
    nations: Map2<PowerId>,
    units: Map2<UnitTypeId>,
    orders: Map2<OrderWord>,
    places: Map2<Place>,
    /// Most words in one place name.
    max_words: usize,
    /// For the spelling check: normalised name without spaces, place.
    squashed: Vec<(String, Place)>,
    /// For suggestions: lower-case name, province.
    lower: Vec<(String, ProvinceId)>,
    /// With `EXACT_MATCH`: the names written with no capital letter
    /// (dip's own abbreviations, `lon`, `eng`, order words such as
    /// `hold`), by lower-case key. Such a name sets no case, so it is
    /// read in any (`Lon`, `ENG`, `MID`: DipWork's spellings of the
    /// standard map); a name written with capitals (`IRE` and `Ire`, `A`,
    /// `North Sea`) must be written as it is.
    caseless: Caseless,
}

#[derive(Clone, Debug, Default)]
struct Caseless {
    nations: Map2<PowerId>,
    units: Map2<UnitTypeId>,
    orders: Map2<OrderWord>,
    places: Map2<Place>,
}

/// A name with no capital letter: it sets no case (see `Index::caseless`).
fn sets_no_case(name: &str) -> bool {
    !name.chars().any(char::is_uppercase)
}

/// Normalises a name: words split at spaces and hyphens, dots at word ends
/// dropped, joined by one space; lower case unless `exact`.
pub(crate) fn normalize(name: &str, exact: bool) -> String {
    let mut out = String::with_capacity(name.len());
    for part in name.split(|c: char| c.is_whitespace() || c == '-') {
        let part = part.trim_matches('.');
        if part.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        if exact {
            out.push_str(part);
        } else {
            push_lower(&mut out, part);
        }
    }
    out
}

pub(crate) fn push_lower(out: &mut String, s: &str) {
    if s.bytes().all(|b| !b.is_ascii_uppercase() && b < 128) {
        out.push_str(s);
    } else {
        for c in s.chars() {
            out.extend(c.to_lowercase());
        }
    }
}

impl<'m> Vocabulary<'m> {
    /// The map's own names only, and the symbols `-`, `->`, `=>`, `>`.
    pub fn bare(map: &'m Map) -> Self {
        let mut v = Vocabulary {
            map,
            exact_match: false,
            spellcheck: 0,
            nations: Vec::new(),
            units: Vec::new(),
            orders: Vec::new(),
            places: Vec::new(),
            renames: vec![None; map.num_provinces()],
            index: Index::default(),
            batch: false,
            occupied: None,
            nation_spelling: true,
        };
        for id in map.power_ids() {
            let p = map.power(id);
            for n in [&p.abbr, &p.name, &p.adjective] {
                v.nations.push(Entry {
                    name: n.clone(),
                    target: id,
                });
            }
        }
        for id in map.unit_type_ids() {
            let u = map.unit_type(id);
            for n in [u.letter.to_string(), u.name.clone()] {
                v.units.push(Entry { name: n, target: id });
            }
        }
        for s in ["-", "->", "=>", ">", "-->", "-=>", "==>"] {
            v.orders.push(Entry {
                name: s.into(),
                target: OrderWord::Move,
            });
        }
        for id in map.province_ids() {
            let p = map.province(id);
            let place = Place {
                province: id,
                coast: None,
            };
            for n in std::iter::once(&p.abbr).chain([&p.name]).chain(p.aliases.iter()) {
                v.places.push(Entry {
                    name: n.clone(),
                    target: place,
                });
            }
            // A coast's own name (DipWork's subfield `PeS`).
            for &r in map.coasts(id) {
                if let Some(n) = &map.region(r).name {
                    v.places.push(Entry {
                        name: n.clone(),
                        target: Place {
                            province: id,
                            coast: Some(r),
                        },
                    });
                }
            }
        }
        v.reindex();
        v
    }

    /// The map's names plus dip's default words ([`DEFAULT_WORDS`]), with
    /// DipWork's defaults: `EXACT_MATCH` off, `SPELLCHECK 3`.
    pub fn new(map: &'m Map) -> Self {
        let mut v = Self::bare(map);
        // Words that name nothing on this map are skipped: the defaults
        // serve any variant with some of the standard names.
        v.batch = true;
        let _ = v.apply_lists(DEFAULT_WORDS, true);
        v.add_coast_synonyms();
        v.batch = false;
        v.spellcheck = 3;
        v.reindex();
        v
    }

    pub fn map(&self) -> &'m Map {
        self.map
    }

    /// `EXACT_MATCH`: names must match in case too.
    pub fn with_exact_match(mut self, on: bool) -> Self {
        self.exact_match = on;
        self.reindex();
        self
    }

    /// `SPELLCHECK n`: an unknown province name is taken for the known name
    /// with which it shares the longest common prefix, if that has at least
    /// `n` letters. 0 turns the check off.
    pub fn with_spellcheck(mut self, n: usize) -> Self {
        self.spellcheck = n;
        self
    }

    /// The position the orders are written in: the spelling check then
    /// reads a misspelled unit's place among the provinces where the
    /// writer's units stand (then any unit), and a misspelled destination
    /// among the provinces next to the unit, before it tries every name
    /// (`a bargandy holds` is Burgundy when an army stands there, not
    /// Barents Sea).
    pub fn with_position(mut self, state: &dip_core::State) -> Self {
        let mut ps: Vec<(ProvinceId, PowerId)> = state.units().map(|(p, u)| (p, u.power)).collect();
        ps.extend(state.all_dislodged().map(|(p, d)| (p, d.unit.power)));
        self.occupied = Some(ps);
        self
    }

    /// Whether a misspelled nation before a colon is read (on by default,
    /// with the spelling check); test cases turn it off, so that a case
    /// naming an unknown power is an error.
    pub fn with_nation_spelling(mut self, on: bool) -> Self {
        self.nation_spelling = on;
        self
    }

    /// The provinces where units stand, if the position is known.
    pub(crate) fn occupied(&self) -> Option<Vec<ProvinceId>> {
        self.occupied.as_ref().map(|v| v.iter().map(|&(p, _)| p).collect())
    }

    /// The provinces where `power`'s units stand, if the position is known.
    pub(crate) fn occupied_by(&self, power: PowerId) -> Option<Vec<ProvinceId>> {
        self.occupied
            .as_ref()
            .map(|v| v.iter().filter(|&&(_, w)| w == power).map(|&(p, _)| p).collect())
    }

    /// The spelling check among `candidates` only: the province whose name
    /// is most like `word` (Jaro-Winkler, at least 0.74) and clearly more
    /// like it than any other candidate (by 0.04).
    pub(crate) fn spell_among(&self, word: &str, candidates: &[ProvinceId]) -> Option<(Place, f64, String)> {
        if self.spellcheck == 0 || candidates.is_empty() {
            return None;
        }
        let w = normalize(word, false).replace(' ', "");
        if w.is_empty() || w.len() > 40 {
            return None;
        }
        let mut best: Vec<(f64, Place, usize)> = Vec::new();
        for (i, e) in self.places.iter().enumerate() {
            if !candidates.contains(&e.target.province) {
                continue;
            }
            let name = normalize(&e.name, false).replace(' ', "");
            // Abbreviations (`brg`) look like too much; whole names only.
            if name.chars().count() < 4 && w.chars().count() >= 4 {
                continue;
            }
            let score = strsim::jaro_winkler(&w, &name);
            match best.iter_mut().find(|b| b.1.province == e.target.province) {
                Some(b) if b.0 >= score => {}
                Some(b) => *b = (score, e.target, i),
                None => best.push((score, e.target, i)),
            }
        }
        best.sort_by(|a, b| b.0.total_cmp(&a.0));
        let (score, place, i) = *best.first()?;
        let second = best.get(1).map_or(0.0, |b| b.0);
        if score < 0.74 || score - second < 0.04 {
            return None;
        }
        let name = self.places.get(i).map(|e| e.name.clone()).unwrap_or_default();
        Some((place, score, name))
    }

    /// Is `word` one of the words of a name of several words (`Sea` of
    /// `North Sea`), without being a name itself?
    pub(crate) fn name_word(&self, word: &str) -> bool {
        let w = normalize(word, false);
        !w.is_empty()
            && self.place(word).is_none()
            && self.places.iter().any(|e| {
                let n = normalize(&e.name, false);
                n.contains(' ') && n.split(' ').any(|x| x == w)
            })
    }

    /// A nation written short or misspelled before a colon (`f:`,
    /// `ingland:`, `britaine:`): the one nation a name of which starts with
    /// `word`, or else the one within two letters' edits of `word`. Only
    /// with the spelling check on.
    pub fn nation_fuzzy(&self, word: &str) -> Option<PowerId> {
        if self.spellcheck == 0 || self.exact_match || !self.nation_spelling {
            return None;
        }
        let w = normalize(word, false);
        if w.is_empty() || w.len() > 40 || !w.chars().all(char::is_alphabetic) {
            return None;
        }
        let unique = |hits: Vec<PowerId>| {
            let first = *hits.first()?;
            hits.iter().all(|&p| p == first).then_some(first)
        };
        let names: Vec<(String, PowerId)> = self
            .nations
            .iter()
            .map(|e| (normalize(&e.name, false), e.target))
            .collect();
        let prefixed: Vec<PowerId> = names.iter().filter(|(n, _)| n.starts_with(&w)).map(|e| e.1).collect();
        if !prefixed.is_empty() {
            return unique(prefixed);
        }
        if w.chars().count() < 4 {
            return None;
        }
        let close: Vec<PowerId> = names
            .iter()
            .filter(|(n, _)| n.chars().count() >= 4 && strsim::levenshtein(&w, n) <= 2)
            .map(|e| e.1)
            .collect();
        unique(close)
    }

    pub fn exact_match(&self) -> bool {
        self.exact_match
    }
    pub fn spellcheck(&self) -> usize {
        self.spellcheck
    }

    /// DipWork's `NATIONLIST`: per line the abbreviation, the full name,
    /// then alternative spellings. A line belongs to the power one of its
    /// words names (abbreviation, name or adjective), or else to the power
    /// at the same position in the map.
    pub fn add_nation_list<S: AsRef<str>>(&mut self, lines: &[S]) -> Result<(), VocabError> {
        self.add_nation_list_inner(lines, false)
    }

    fn add_nation_list_inner<S: AsRef<str>>(&mut self, lines: &[S], by_name_only: bool) -> Result<(), VocabError> {
        for (i, line) in lines.iter().enumerate() {
            let words: Vec<&str> = line.as_ref().split_whitespace().collect();
            if words.is_empty() {
                continue;
            }
            let found = words.iter().find_map(|w| self.map.find_power(w));
            if found.is_none() && by_name_only {
                continue;
            }
            let power = found
                .or_else(|| (i < self.map.powers().len()).then_some(PowerId(i as u8)))
                .ok_or_else(|| VocabError {
                    line: i + 1,
                    message: format!("`{}` names no power of the map", line.as_ref()),
                })?;
            for w in words {
                self.nations.push(Entry {
                    name: w.to_string(),
                    target: power,
                });
            }
        }
        self.reindex();
        Ok(())
    }

    /// DipWork's `UNITLIST`: per line the words for one unit type, the
    /// first being the standard form; text after `#` (DipWork's options) is
    /// ignored. A line belongs to the unit type one of its words names, or
    /// to the type at the same position.
    pub fn add_unit_list<S: AsRef<str>>(&mut self, lines: &[S]) -> Result<(), VocabError> {
        self.add_unit_list_inner(lines, false)
    }

    fn add_unit_list_inner<S: AsRef<str>>(&mut self, lines: &[S], by_name_only: bool) -> Result<(), VocabError> {
        for (i, line) in lines.iter().enumerate() {
            let text = line.as_ref().split('#').next().unwrap_or("");
            let words: Vec<&str> = text.split_whitespace().collect();
            if words.is_empty() {
                continue;
            }
            let found = words.iter().find_map(|w| self.map.find_unit_type(w));
            if found.is_none() && by_name_only {
                continue;
            }
            let kind = found
                .or_else(|| (i < self.map.unit_types().len()).then_some(UnitTypeId(i as u8)))
                .ok_or_else(|| VocabError {
                    line: i + 1,
                    message: format!("`{text}` names no unit type of the map"),
                })?;
            for w in words {
                self.units.push(Entry {
                    name: w.to_string(),
                    target: kind,
                });
            }
        }
        self.reindex();
        Ok(())
    }

    /// DipWork's `ORDERLIST`: line 1 hold, 2 move, 3 support, 4 convoy;
    /// dip reads on: 5 retreat, 6 disband, 7 build, 8 waive, 9 via.
    pub fn add_order_list<S: AsRef<str>>(&mut self, lines: &[S]) -> Result<(), VocabError> {
        for (i, line) in lines.iter().enumerate() {
            let Some(&word) = OrderWord::LINES.get(i) else {
                return Err(VocabError {
                    line: i + 1,
                    message: "ORDERLIST has at most 9 lines (hold, move, support, convoy, retreat, disband, build, waive, via)".into(),
                });
            };
            for w in line.as_ref().split_whitespace() {
                self.orders.push(Entry {
                    name: w.to_string(),
                    target: word,
                });
            }
        }
        self.reindex();
        Ok(())
    }

    /// Province synonyms: per line a known name of a province (or a coast
    /// such as `stp/sc`), then other names for it.
    pub fn add_synonyms<S: AsRef<str>>(&mut self, lines: &[S]) -> Result<(), VocabError> {
        self.add_synonyms_inner(lines, false)
    }

    fn add_synonyms_inner<S: AsRef<str>>(&mut self, lines: &[S], skip_unknown: bool) -> Result<(), VocabError> {
        for (i, line) in lines.iter().enumerate() {
            let mut words = line.as_ref().split(',').flat_map(|part| {
                // Names with spaces may be quoted: "North Sea".
                split_quoted(part)
            });
            let Some(first) = words.next() else {
                continue;
            };
            let Some(place) = self.find_place_name(&first) else {
                if skip_unknown {
                    continue;
                }
                return Err(VocabError {
                    line: i + 1,
                    message: format!("`{first}` is no province of the map"),
                });
            };
            for w in words {
                self.places.push(Entry { name: w, target: place });
            }
        }
        self.reindex();
        Ok(())
    }

    /// DIP's `fixnames.dat`: per line `default,new` (e.g. `IOS,ION`). The
    /// new name is accepted in orders and used when printing.
    pub fn apply_fixnames<S: AsRef<str>>(&mut self, lines: &[S]) -> Result<(), VocabError> {
        for (i, line) in lines.iter().enumerate() {
            let line = line.as_ref().trim();
            if line.is_empty() {
                continue;
            }
            let err = |message: String| VocabError { line: i + 1, message };
            let (old, new) = line
                .split_once(',')
                .ok_or_else(|| err(format!("expected `default,new`, found `{line}`")))?;
            let (old, new) = (old.trim(), new.trim());
            let place = self
                .find_place_name(old)
                .ok_or_else(|| err(format!("`{old}` is no province of the map")))?;
            if new.is_empty() {
                return Err(err("the new name is empty".into()));
            }
            self.places.push(Entry {
                name: new.to_string(),
                target: place,
            });
            if place.coast.is_none() {
                self.renames[place.province.index()] = Some(new.to_string());
            }
        }
        self.reindex();
        Ok(())
    }

    /// Reads word lists in DipWork's layout: a line `NATIONLIST`,
    /// `UNITLIST`, `ORDERLIST`, `SYNONYMS` or `FIXNAMES` starts a list, its
    /// lines follow until the next list name or `END`; `%` starts a
    /// comment. With `skip_unknown`, lines naming nothing on the map are
    /// skipped instead of refused.
    pub fn apply_lists(&mut self, text: &str, skip_unknown: bool) -> Result<(), VocabError> {
        let outer = self.batch;
        self.batch = true;
        let r = self.apply_lists_inner(text, skip_unknown);
        self.batch = outer;
        self.reindex();
        r
    }

    fn apply_lists_inner(&mut self, text: &str, skip_unknown: bool) -> Result<(), VocabError> {
        let mut section = "";
        let mut lines: Vec<(usize, &str)> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('%').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            match line {
                "NATIONLIST" | "UNITLIST" | "ORDERLIST" | "SYNONYMS" | "FIXNAMES" | "END" => {
                    self.apply_section(section, &lines, skip_unknown)?;
                    lines.clear();
                    section = if line == "END" { "" } else { line };
                }
                _ if section.is_empty() => {
                    return Err(VocabError {
                        line: i + 1,
                        message: format!(
                            "`{line}` outside a list (expected NATIONLIST, UNITLIST, ORDERLIST, SYNONYMS or FIXNAMES)"
                        ),
                    })
                }
                _ => lines.push((i + 1, line)),
            }
        }
        self.apply_section(section, &lines, skip_unknown)
    }

    fn apply_section(&mut self, section: &str, lines: &[(usize, &str)], skip_unknown: bool) -> Result<(), VocabError> {
        let ls: Vec<&str> = lines.iter().map(|(_, l)| *l).collect();
        let r = match section {
            "NATIONLIST" => self.add_nation_list_inner(&ls, skip_unknown),
            "UNITLIST" => self.add_unit_list_inner(&ls, skip_unknown),
            "ORDERLIST" => self.add_order_list(&ls),
            "SYNONYMS" => self.add_synonyms_inner(&ls, skip_unknown),
            "FIXNAMES" => self.apply_fixnames(&ls),
            _ => Ok(()),
        };
        r.map_err(|e| VocabError {
            line: lines.get(e.line.saturating_sub(1)).map_or(e.line, |(n, _)| *n),
            message: e.message,
        })
    }

    /// DipWork-style coast names of split-coast provinces: the first two
    /// letters of a three-letter name and the coast's initial (`PeS`,
    /// `SpN`, `BuE`), unless that word already names something.
    fn add_coast_synonyms(&mut self) {
        let map = self.map;
        let mut extra = Vec::new();
        for id in map.province_ids() {
            let p = map.province(id);
            for &r in map.coasts(id) {
                let Some(c) = map.region(r).coast.as_deref() else {
                    continue;
                };
                let initial = c.chars().next().map(|ch| ch.to_ascii_uppercase()).unwrap_or('?');
                for n in std::iter::once(&p.abbr).chain(p.aliases.iter()) {
                    if n.chars().count() == 3 && n.is_ascii() {
                        let mut chars = n.chars();
                        let (Some(a), Some(b)) = (chars.next(), chars.next()) else {
                            continue;
                        };
                        let name = format!("{}{}{initial}", a.to_ascii_uppercase(), b.to_ascii_lowercase());
                        extra.push(Entry {
                            name,
                            target: Place {
                                province: id,
                                coast: Some(r),
                            },
                        });
                    }
                }
            }
        }
        for e in extra {
            let key = normalize(&e.name, false);
            let nation = self.nations.iter().any(|n| n.name.eq_ignore_ascii_case(&e.name));
            let taken = self.index.places.contains_key(&key)
                || self.places.iter().any(|p| p.name.eq_ignore_ascii_case(&e.name));
            if !taken && !nation {
                self.places.push(e);
            }
        }
    }

    /// A name as in a word list: `North Sea`, `stp/sc`, `PeS`.
    fn find_place_name(&self, name: &str) -> Option<Place> {
        let (base, coast) = match name.split_once('/') {
            Some((b, c)) => (b, Some(c)),
            None => (name, None),
        };
        let place = match self.index.places.get(&normalize(base, self.exact_match)) {
            Some(p) => *p,
            None => {
                let key = normalize(base, false);
                self.places
                    .iter()
                    .find(|e| normalize(&e.name, false) == key)
                    .map(|e| e.target)?
            }
        };
        match coast {
            None => Some(place),
            Some(c) => Some(Place {
                province: place.province,
                coast: Some(self.map.find_coast(place.province, c)?),
            }),
        }
    }

    fn reindex(&mut self) {
        if self.batch {
            return;
        }
        let exact = self.exact_match;
        let mut ix = Index::default();
        for e in &self.nations {
            ix.nations.entry(normalize(&e.name, exact)).or_insert(e.target);
            if exact && sets_no_case(&e.name) {
                ix.caseless.nations.entry(normalize(&e.name, false)).or_insert(e.target);
            }
        }
        for e in &self.units {
            ix.units.entry(normalize(&e.name, exact)).or_insert(e.target);
            if exact && sets_no_case(&e.name) {
                ix.caseless.units.entry(normalize(&e.name, false)).or_insert(e.target);
            }
        }
        for e in &self.orders {
            // Symbols are kept as they are.
            let key = if e.name.chars().all(char::is_alphanumeric) {
                normalize(&e.name, exact)
            } else {
                e.name.clone()
            };
            ix.orders.entry(key).or_insert(e.target);
            if exact && sets_no_case(&e.name) && e.name.chars().all(char::is_alphanumeric) {
                ix.caseless.orders.entry(normalize(&e.name, false)).or_insert(e.target);
            }
        }
        ix.squashed.reserve(self.places.len());
        ix.lower.reserve(self.places.len());
        ix.places.reserve(self.places.len());
        for e in &self.places {
            let key = normalize(&e.name, exact);
            ix.max_words = ix.max_words.max(key.split(' ').count());
            ix.squashed.push((key.replace(' ', ""), e.target));
            let lower = if exact { normalize(&e.name, false) } else { key.clone() };
            ix.lower.push((lower.clone(), e.target.province));
            ix.places.entry(key).or_insert(e.target);
            if exact && sets_no_case(&e.name) {
                ix.caseless.places.entry(lower).or_insert(e.target);
            }
        }
        self.index = ix;
    }

    pub fn nation(&self, word: &str) -> Option<PowerId> {
        with_key(word, self.exact_match, |k| self.index.nations.get(k).copied())
            .or_else(|| self.caseless(word, &self.index.caseless.nations))
    }
    pub fn unit(&self, word: &str) -> Option<UnitTypeId> {
        with_key(word, self.exact_match, |k| self.index.units.get(k).copied())
            .or_else(|| self.caseless(word, &self.index.caseless.units))
    }
    pub fn order_word(&self, word: &str) -> Option<OrderWord> {
        with_key(word, self.exact_match, |k| self.index.orders.get(k).copied())
            .or_else(|| self.caseless(word, &self.index.caseless.orders))
    }
    /// With `EXACT_MATCH`, a name the variant writes with no capital
    /// letter, in whatever case `word` has.
    fn caseless<T: Copy>(&self, word: &str, names: &Map2<T>) -> Option<T> {
        if !self.exact_match || names.is_empty() {
            return None;
        }
        with_key(word, false, |k| names.get(k).copied())
    }
    /// A place by its normalised key (words joined by one space).
    pub(crate) fn place_key(&self, key: &str) -> Option<Place> {
        self.index
            .places
            .get(key)
            .copied()
            .or_else(|| self.caseless(key, &self.index.caseless.places))
    }
    /// A place by name as a person writes it.
    pub fn place(&self, name: &str) -> Option<Place> {
        self.place_key(&normalize(name, self.exact_match))
    }
    pub(crate) fn max_place_words(&self) -> usize {
        self.index.max_words.max(1)
    }

    /// `SPELLCHECK`: the place whose name shares the longest prefix with
    /// `word`, with that length, if it is at least the threshold and no
    /// other province shares as long a prefix.
    pub fn spell(&self, word: &str) -> Option<(Place, usize, String)> {
        if self.spellcheck == 0 {
            return None;
        }
        let w = normalize(word, self.exact_match).replace(' ', "");
        let mut best: Option<(usize, Place, usize)> = None;
        let mut tied = false;
        for (i, (name, place)) in self.index.squashed.iter().enumerate() {
            let n = w.chars().zip(name.chars()).take_while(|(a, b)| a == b).count();
            if n == 0 {
                continue;
            }
            match best {
                Some((m, _, _)) if n < m => {}
                Some((m, p, _)) if n == m => {
                    if p.province != place.province {
                        tied = true;
                    }
                }
                _ => {
                    best = Some((n, *place, i));
                    tied = false;
                }
            }
        }
        let (n, place, i) = best?;
        if tied || n < self.spellcheck {
            return None;
        }
        let name = self.places.get(i).map(|e| e.name.clone()).unwrap_or_default();
        Some((place, n, name))
    }

    /// Up to three provinces whose names look like `word` (for messages).
    pub fn suggestions(&self, word: &str) -> Vec<String> {
        let w = normalize(word, false);
        if w.is_empty() || w.len() > 40 {
            return Vec::new();
        }
        let mut scored: Vec<(f64, ProvinceId)> = Vec::new();
        for (name, p) in &self.index.lower {
            let s = strsim::jaro_winkler(&w, name);
            if s >= 0.75 {
                scored.push((s, *p));
            }
        }
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut out: Vec<String> = Vec::new();
        let mut seen = Vec::new();
        for (_, p) in scored {
            if seen.contains(&p) {
                continue;
            }
            seen.push(p);
            let prov = self.map.province(p);
            out.push(format!("{} ({})", prov.name, self.print_name(p)));
            if out.len() == 3 {
                break;
            }
        }
        out
    }

    /// The `fixnames.dat` rename of a province, as written there (DIP:
    /// "Both names should have three characters, be case specific").
    pub fn rename(&self, p: ProvinceId) -> Option<&str> {
        self.renames.get(p.index()).and_then(|r| r.as_deref())
    }

    /// The short name printed for a province: the `fixnames.dat` rename or
    /// the map's abbreviation.
    pub fn print_name(&self, p: ProvinceId) -> &str {
        self.renames
            .get(p.index())
            .and_then(|r| r.as_deref())
            .unwrap_or(&self.map.province(p).abbr)
    }
}

/// Splits at spaces, keeping `"quoted names"` whole.
fn split_quoted(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in s.chars() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}
