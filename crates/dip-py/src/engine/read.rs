//! MILA's own order syntax, read without dip's general reader.

use super::{Game, VariantData};
use dip_core::{CoastSpec, Dest, Order, OrderKind, PowerId, UnitRef};

impl Game {
    /// See [`read_mila`].
    pub(super) fn read_mila(&self, text: &str, power: PowerId) -> Option<Order> {
        read_mila(self.v, text, power)
    }
}

/// Reads an order in MILA's own syntax (`A PAR - BUR`, `F NTH C A LON -
/// NWY`, `A LON - NWY VIA`, `F STP/SC S A MOS`) without the general
/// reader; anything else gives `None`.
pub fn read_mila(v: &VariantData, text: &str, power: PowerId) -> Option<Order> {
    let mut w: [&str; 7] = [""; 7];
    let mut n = 0;
    // MILA's orders have single spaces: split at them; anything else
    // (other blanks, several in a row) is split the general way.
    let bytes = text.as_bytes();
    let mut single = bytes.first().is_some_and(|&c| c != b' ') && bytes.last().is_some_and(|&c| c != b' ');
    let mut after_space = false;
    for &c in bytes {
        let space = c == b' ';
        if (space && after_space) || (!space && c.is_ascii_whitespace()) {
            single = false;
            break;
        }
        after_space = space;
    }
    if single {
        for word in text.split(' ') {
            *w.get_mut(n)? = word;
            n += 1;
        }
    } else {
        for word in text.split_ascii_whitespace() {
            *w.get_mut(n)? = word;
            n += 1;
        }
    }
    let w = &w[..n];
    let unit = |i: usize| -> Option<UnitRef> {
        let letter = w.get(i)?;
        if letter.len() != 1 {
            return None;
        }
        let letter = letter.as_bytes()[0] as char;
        let kind = v.letters.iter().find(|(c, _)| *c == letter)?.1;
        let (p, r) = v.loc(w.get(i + 1)?)?;
        Some(UnitRef::new(Some(kind), p).with_coast(r.map_or(CoastSpec::None, CoastSpec::Coast)))
    };
    let dest = |i: usize| -> Option<Dest> {
        let (p, r) = v.loc(w.get(i)?)?;
        Some(Dest {
            province: p,
            coast: r.map_or(CoastSpec::None, CoastSpec::Coast),
        })
    };
    let kind = match w {
        [_, _, "H"] => OrderKind::Hold(unit(0)?),
        [_, _, "-", _] => OrderKind::Move(unit(0)?, dest(3)?, false),
        [_, _, "-", _, "VIA"] => OrderKind::Move(unit(0)?, dest(3)?, true),
        [_, _, "S", _, _] | [_, _, "S", _, _, "H"] => OrderKind::SupportHold(unit(0)?, unit(3)?),
        [_, _, "S", _, _, "-", _] => OrderKind::SupportMove(unit(0)?, unit(3)?, dest(6)?),
        [_, _, "C", _, _, "-", _] => OrderKind::Convoy(unit(0)?, unit(3)?, Dest::new(dest(6)?.province)),
        [_, _, "R", _] => OrderKind::Retreat(unit(0)?, dest(3)?),
        [_, _, "D"] => OrderKind::Disband(unit(0)?),
        [_, _, "B"] => OrderKind::Build(unit(0)?),
        ["WAIVE"] => OrderKind::Waive,
        _ => return None,
    };
    Some(Order::new(power, kind))
}
