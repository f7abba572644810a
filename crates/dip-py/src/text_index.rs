//! Order texts → their numbers, for `set_orders`: every order given is
//! looked up here. A hash map of `&str` keys spends most of a lookup on
//! cache misses (its buckets and the key text are read from a table of
//! hundreds of KiB that the interpreter's own work keeps evicting); this
//! one keeps 8 bytes a slot, at most half full: the slot's upper half is
//! the text's hash, so a lookup reads one or two slots and then only the
//! one text that can match.

/// The numbers of texts held elsewhere (`texts[id]`), by their hash.
#[derive(Default)]
pub struct TextIndex {
    /// `hash << 32 | id + 1` (0: empty), by the hash's low bits and then
    /// the next free slot.
    slots: Vec<u64>,
    len: usize,
}

/// FxHash's step over the text's bytes eight at a time (the last word
/// padded with zeros), the length first; the product's upper half.
fn hash(text: &str) -> u32 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let b = text.as_bytes();
    let mut h = (b.len() as u64).wrapping_mul(K);
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
    }
    (h >> 32) as u32
}

impl TextIndex {
    /// The number of `text`, if it is in the index.
    pub fn get(&self, texts: &[&str], text: &str) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        let h = hash(text);
        let mask = self.slots.len() - 1;
        let mut i = h as usize & mask;
        loop {
            let s = self.slots[i];
            if s == 0 {
                return None;
            }
            if (s >> 32) as u32 == h {
                let id = (s as u32).wrapping_sub(1);
                if texts.get(id as usize) == Some(&text) {
                    return Some(id);
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// Adds number `id`, the text `texts[id]` (not already in the index).
    pub fn insert(&mut self, texts: &[&str], id: u32) {
        if (self.len + 1) * 2 > self.slots.len() {
            self.rebuild((self.slots.len() * 2).max(64));
        }
        self.place(hash(texts[id as usize]), id);
        self.len += 1;
    }

    /// Room for `more` texts without growing.
    pub fn reserve(&mut self, more: usize) {
        let want = ((self.len + more) * 2).next_power_of_two();
        if want > self.slots.len() {
            self.rebuild(want);
        }
    }

    fn place(&mut self, h: u32, id: u32) {
        let mask = self.slots.len() - 1;
        let mut i = h as usize & mask;
        while self.slots[i] != 0 {
            i = (i + 1) & mask;
        }
        self.slots[i] = (h as u64) << 32 | (id as u64 + 1);
    }

    /// The slots anew, `size` of them (a power of two); the hashes are kept.
    fn rebuild(&mut self, size: usize) {
        let old = std::mem::replace(&mut self.slots, vec![0; size]);
        for s in old.into_iter().filter(|&s| s != 0) {
            self.place((s >> 32) as u32, (s as u32) - 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_text_added_was_found_and_no_other() {
        let owned: Vec<String> = (0..5000).map(|i| format!("A X{i} - Y{}", i * 7 % 13)).collect();
        let texts: Vec<&str> = owned.iter().map(|s| s.as_str()).collect();
        let mut index = TextIndex::default();
        for id in 0..texts.len() as u32 {
            index.insert(&texts, id);
        }
        for (id, t) in texts.iter().enumerate() {
            assert_eq!(index.get(&texts, t), Some(id as u32));
        }
        assert_eq!(index.get(&texts, "A X1 - Y8"), None);
        assert_eq!(index.get(&texts, ""), None);
        assert!(index.slots.len() >= 2 * texts.len());
    }

    #[test]
    fn reserving_kept_what_was_there() {
        let texts = ["A PAR H", "A PAR - BUR", "F BRE - MAO"];
        let mut index = TextIndex::default();
        index.insert(&texts, 0);
        index.reserve(1000);
        index.insert(&texts, 1);
        index.insert(&texts, 2);
        assert_eq!(index.get(&texts, "A PAR - BUR"), Some(1));
        assert_eq!(index.get(&texts, "A PAR H"), Some(0));
        assert_eq!(index.get(&texts, "F BRE - MAO"), Some(2));
    }
}
