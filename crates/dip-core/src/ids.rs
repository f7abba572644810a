//! Dense integer ids for everything on a map. Names live only at the edges.

/// A province: one space of the board (all its coasts together).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProvinceId(pub u16);

/// A region: where one unit stands. A province with split coasts has one
/// region for armies (the province itself) and one per coast for fleets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RegionId(pub u16);

/// A power (nation) of the variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PowerId(pub u8);

/// A unit type of the variant (army, fleet, wing, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UnitTypeId(pub u8);

impl ProvinceId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
impl RegionId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
impl PowerId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
impl UnitTypeId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The most powers a variant may have (a `PowerSet` is one `u64`).
pub const MAX_POWERS: usize = 64;
/// The most unit types a variant may have.
pub const MAX_UNIT_TYPES: usize = 16;

/// A set of powers as a bit mask.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PowerSet(pub u64);

impl PowerSet {
    pub fn contains(self, p: PowerId) -> bool {
        p.index() < 64 && self.0 & (1 << p.0) != 0
    }
    pub fn insert(&mut self, p: PowerId) {
        if p.index() < 64 {
            self.0 |= 1 << p.0;
        }
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> impl Iterator<Item = PowerId> {
        (0..64u8).filter(move |i| self.0 & (1 << i) != 0).map(PowerId)
    }
}

/// A growable bit set over dense ids, used for provinces and regions.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BitSet {
    words: Vec<u64>,
}

impl BitSet {
    pub fn with_capacity(bits: usize) -> Self {
        BitSet {
            words: vec![0; bits.div_ceil(64)],
        }
    }
    pub fn contains(&self, i: usize) -> bool {
        self.words.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
    }
    pub fn insert(&mut self, i: usize) {
        let w = i / 64;
        if w >= self.words.len() {
            self.words.resize(w + 1, 0);
        }
        self.words[w] |= 1 << (i % 64);
    }
    pub fn remove(&mut self, i: usize) {
        if let Some(w) = self.words.get_mut(i / 64) {
            *w &= !(1 << (i % 64));
        }
    }
    pub fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
    }
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(wi, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(wi * 64 + b)
            })
        })
    }
}
