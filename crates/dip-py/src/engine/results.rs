//! MILA's result words and the results of a phase being processed: what
//! `result`, `result_history` and `get_order_status` give back.

use super::{same, Name};
use dip_core::{ProvinceId, Verdict};

/// MILA's result words.
pub const VOID: &str = "void";
pub const BOUNCE: &str = "bounce";
pub const CUT: &str = "cut";
pub const DISLODGED: &str = "dislodged";
pub const NO_CONVOY: &str = "no convoy";
pub const DISRUPTED: &str = "disrupted";
pub const DISBAND: &str = "disband";
/// MILA's `OK` (an adjustment order carried out).
pub const OK: &str = "";

/// MILA's result words of one unit, in the order they were given, each at
/// most once: four bits a word (its place in `Tags::WORDS`, plus one), so
/// that results need no allocation per unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tags(u32);

impl Tags {
    pub const WORDS: [&'static str; 8] = [OK, VOID, BOUNCE, CUT, DISLODGED, NO_CONVOY, DISRUPTED, DISBAND];

    /// The word of MILA's that `word` is, if any.
    pub fn word(word: &str) -> Option<&'static str> {
        Tags::WORDS.iter().copied().find(|w| *w == word)
    }

    fn code(word: &str) -> Option<u32> {
        Tags::WORDS.iter().position(|w| *w == word).map(|i| i as u32 + 1)
    }

    pub fn contains(&self, word: &str) -> bool {
        self.iter().any(|w| w == word)
    }

    /// Adds `word` at the end (a word not MILA's is left out).
    pub fn push(&mut self, word: &str) {
        let Some(c) = Tags::code(word) else { return };
        let n = self.iter().count() as u32;
        if n < 8 {
            self.0 |= c << (4 * n);
        }
    }

    pub fn remove(&mut self, word: &str) {
        let kept: Vec<&'static str> = self.iter().filter(|w| *w != word).collect();
        *self = Tags::default();
        for w in kept {
            self.push(w);
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = &'static str> + '_ {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            let c = bits & 0xf;
            bits >>= 4;
            (c != 0).then(|| Tags::WORDS[c as usize - 1])
        })
    }

    pub fn to_vec(&self) -> Vec<&'static str> {
        self.iter().collect()
    }
}

/// The results of a phase being processed: unit (or key) → MILA's words,
/// in the order first met. A key is given with the province of the unit
/// it names (the unit's own, or its order's): the first key given with a
/// province is found there; other keys are compared one by one.
pub(super) struct Results {
    pub(super) list: Vec<(Name, Tags)>,
    /// By province: the entry first added with it (`u32::MAX`: none).
    pub(super) at: Vec<u32>,
    /// Entries not in `at`.
    loose: Vec<u32>,
}

impl Results {
    /// Results with `at` made of `buffer`.
    pub(super) fn new(mut buffer: Vec<u32>, provinces: usize) -> Results {
        buffer.clear();
        buffer.resize(provinces, u32::MAX);
        Results {
            list: Vec::with_capacity(40),
            at: buffer,
            loose: Vec::new(),
        }
    }

    /// The entry of `key`, given with province `p`.
    pub(super) fn find(&self, p: Option<ProvinceId>, key: &str) -> Option<usize> {
        let slot = p.and_then(|p| self.at.get(p.index())).copied();
        match slot {
            Some(i) if i != u32::MAX && same(&self.list[i as usize].0, key) => return Some(i as usize),
            // No entry was given with `p`: the key, if there, is a loose one.
            Some(u32::MAX) => {
                return self
                    .loose
                    .iter()
                    .map(|&i| i as usize)
                    .find(|&i| same(&self.list[i].0, key))
            }
            _ => {}
        }
        self.list.iter().position(|(k, _)| same(k, key))
    }

    /// Adds `key` with no result, given with province `p`: as `add`, with
    /// no search when nothing was given with `p` nor loose yet (a unit
    /// listed at the start of a phase).
    pub(super) fn add_unit(&mut self, p: ProvinceId, key: Name) {
        match self.at.get_mut(p.index()) {
            Some(slot) if *slot == u32::MAX && self.loose.is_empty() => {
                *slot = self.list.len() as u32;
                self.list.push((key, Tags::default()));
            }
            _ => self.add(Some(p), key, None),
        }
    }

    pub(super) fn add(&mut self, p: Option<ProvinceId>, key: Name, tag: Option<&'static str>) {
        let i = match self.find(p, &key) {
            Some(i) => i,
            None => {
                self.list.push((key, Tags::default()));
                let i = self.list.len() - 1;
                match p.and_then(|p| self.at.get_mut(p.index())) {
                    Some(slot) if *slot == u32::MAX => *slot = i as u32,
                    _ => self.loose.push(i as u32),
                }
                i
            }
        };
        if let Some(t) = tag {
            if !self.list[i].1.contains(t) {
                self.list[i].1.push(t);
            }
        }
    }
}

/// MILA's words for the fate of a movement order.
pub(super) fn movement_tags(verdict: &Verdict) -> Option<&'static str> {
    use dip_core::Reason::*;
    match verdict {
        Verdict::Illegal(_) | Verdict::Duplicate => Some(VOID),
        Verdict::Done { success: true, .. } => None,
        Verdict::Done { success: false, reason } => match reason {
            Bounced | BeatenHeadToHead | OwnUnit => Some(BOUNCE),
            NoConvoy => Some(NO_CONVOY),
            SupportCut(_) => Some(CUT),
            SupportVoid | ConvoyVoid => Some(VOID),
            ConvoyDisrupted | ConvoyParadox => Some(DISRUPTED),
            _ => None,
        },
    }
}
