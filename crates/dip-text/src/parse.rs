//! Reading one order line in any of the common syntaxes.

use crate::cursor::Cursor;
use dip_core::map::normalize_coast;
use dip_core::{CoastSpec, Dest, Map, Order, OrderKind, PowerId, ProvinceId, UnitRef, UnitTypeId};

/// Why a line could not be read as an order.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {message}")]
pub struct ParseError {
    /// 1-based column where the problem starts.
    pub column: usize,
    pub message: String,
}

const MOVE: &[&str] = &["to", "move", "moves", "mve", "m", "mv", "nach"];
const SUPPORT: &[&str] = &["s", "support", "supports", "sup", "supp", "su", "unterstützt"];
const CONVOY: &[&str] = &["c", "convoy", "convoys", "con", "cvy", "k", "konvoi"];
const HOLD: &[&str] = &["h", "hold", "holds", "stand", "stands", "xxx", "hält"];
const RETREAT: &[&str] = &["r", "retreat", "retreats", "ret"];
const DISBAND: &[&str] = &["d", "disband", "disbands", "destroy", "remove", "removes", "auflösen"];
const BUILD: &[&str] = &["b", "build", "builds", "bau", "baut"];
const WAIVE: &[&str] = &["waive", "waives", "waived"];
const VIA: &[&str] = &["via", "by"];

/// Reads one order. `power` is used when the line names none.
pub fn parse_order(map: &Map, line: &str, power: Option<PowerId>) -> Result<Order, ParseError> {
    let mut c = Cursor::new(line);
    let err = |c: &Cursor, msg: &str| ParseError {
        column: c.column(),
        message: msg.to_string(),
    };
    // An optional power, as `England:`, `ENG`, `Au`.
    let save = c.pos;
    let mut named = None;
    if let Some(w) = c.peek_word().map(str::to_string) {
        if let Some(p) = map.find_power(&w) {
            // A power word is only a power if a province is not meant.
            c.eat_word(&[w.as_str()]);
            c.eat_symbol(":");
            if c.at_end() {
                c.pos = save;
            } else {
                named = Some(p);
            }
        }
    }
    let power = named
        .or(power)
        .ok_or_else(|| err(&c, "no power given for this order"))?;
    if c.eat_word(WAIVE) {
        return finish(c, Order::new(power, OrderKind::Waive));
    }
    // `build A ber`, `GER build A(Kie)`.
    if c.eat_word(BUILD) {
        let u = unit(map, &mut c)?;
        return finish(c, Order::new(power, OrderKind::Build(u)));
    }
    if c.eat_word(&["remove", "disband"]) {
        let u = unit(map, &mut c)?;
        return finish(c, Order::new(power, OrderKind::Disband(u)));
    }
    let me = unit(map, &mut c)?;
    let kind = if c.at_end() || c.eat_word(HOLD) {
        OrderKind::Hold(me)
    } else if c.eat_word(SUPPORT) {
        skip_power(map, &mut c);
        let them = unit(map, &mut c)?;
        if c.at_end() || c.eat_word(HOLD) {
            OrderKind::SupportHold(me, them)
        } else {
            expect_move(&mut c)?;
            let d = dest(map, &mut c)?;
            OrderKind::SupportMove(me, them, d)
        }
    } else if c.eat_word(CONVOY) {
        skip_power(map, &mut c);
        let them = unit(map, &mut c)?;
        expect_move(&mut c)?;
        let d = dest(map, &mut c)?;
        OrderKind::Convoy(me, them, d)
    } else if c.eat_word(RETREAT) {
        c.eat_word(&["to"]);
        let _ = c.eat_symbol("->") || c.eat_symbol("-");
        let d = dest(map, &mut c)?;
        OrderKind::Retreat(me, d)
    } else if c.eat_word(DISBAND) {
        OrderKind::Disband(me)
    } else if c.eat_word(BUILD) {
        OrderKind::Build(me)
    } else if expect_move(&mut c).is_ok() {
        let mut d = dest(map, &mut c)?;
        // A path `A lon-nth-nwy`: the last province is the destination.
        while c.peek_symbol("-") || c.peek_symbol(">") {
            expect_move(&mut c)?;
            d = dest(map, &mut c)?;
        }
        let via = if c.eat_word(VIA) {
            c.eat_word(&["convoy", "c"]);
            true
        } else {
            false
        };
        OrderKind::Move(me, d, via)
    } else {
        return Err(err(
            &c,
            "expected an order: hold, move (-), support (S), convoy (C), retreat, disband or build",
        ));
    };
    finish(c, Order::new(power, kind))
}

fn finish(mut c: Cursor, order: Order) -> Result<Order, ParseError> {
    if c.at_end() {
        Ok(order)
    } else {
        Err(ParseError {
            column: c.column(),
            message: format!("unexpected `{}` after the order", c.remaining()),
        })
    }
}

fn skip_power(map: &Map, c: &mut Cursor) {
    let save = c.pos;
    if let Some(w) = c.peek_word().map(str::to_string) {
        if map.find_power(&w).is_some() && map.find_province(&w).is_none() {
            c.eat_word(&[w.as_str()]);
            if c.at_end() {
                c.pos = save;
            }
        }
    }
}

fn expect_move(c: &mut Cursor) -> Result<(), ParseError> {
    if c.eat_symbol("->") || c.eat_symbol("=>") || c.eat_symbol("-") || c.eat_symbol(">") || c.eat_word(MOVE) {
        Ok(())
    } else {
        Err(ParseError {
            column: c.column(),
            message: "expected `-` and a destination".into(),
        })
    }
}

fn unit_type(map: &Map, c: &mut Cursor) -> Option<UnitTypeId> {
    let w = c.peek_word()?.to_string();
    let kind = match w.as_str() {
        "armee" | "army" | "arm" => map.find_unit_type("a"),
        "flotte" | "fleet" | "flt" => map.find_unit_type("f"),
        _ => map.find_unit_type(&w),
    }?;
    // `A` could start a province name; only take it if a province follows.
    let save = c.pos;
    c.eat_word(&[w.as_str()]);
    let paren = c.peek_symbol("(");
    if paren || c.clone_pos_has_province(map) {
        Some(kind)
    } else {
        c.pos = save;
        None
    }
}

impl Cursor<'_> {
    fn clone_pos_has_province(&mut self, map: &Map) -> bool {
        let save = self.pos;
        let found = self.eat_province(map).is_some();
        self.pos = save;
        found
    }
}

/// `A ber`, `F stp/sc`, `F(StP)`, `F Spain (south coast)`, `ber`.
fn unit(map: &Map, c: &mut Cursor) -> Result<UnitRef, ParseError> {
    let kind = unit_type(map, c);
    let paren = c.eat_symbol("(");
    let d = dest(map, c)?;
    if paren {
        c.eat_symbol(")");
    }
    Ok(UnitRef::new(kind, d.province).with_coast(d.coast))
}

/// A province with an optional coast.
fn dest(map: &Map, c: &mut Cursor) -> Result<Dest, ParseError> {
    let col = c.column();
    let p = c.eat_province(map).ok_or_else(|| ParseError {
        column: col,
        message: match c.peek_word() {
            Some(w) => format!("unknown province `{w}`"),
            None => "expected a province".into(),
        },
    })?;
    let coast = coast(map, c, p);
    Ok(Dest { province: p, coast })
}

fn coast(map: &Map, c: &mut Cursor, p: ProvinceId) -> CoastSpec {
    let save = c.pos;
    let paren = c.eat_symbol("(");
    let slash = !paren && c.eat_symbol("/");
    let word = c.peek_word().map(str::to_string);
    let Some(w) = word else {
        c.pos = save;
        return CoastSpec::None;
    };
    // `north coast`: take the second word too.
    let mut text = w.clone();
    c.eat_word(&[w.as_str()]);
    if c.eat_word(&["coast", "c"]) {
        text.push_str(" coast");
    }
    let is_coast_word = normalize_coast(&text).is_some()
        && (paren || slash || text.ends_with("coast") || matches!(w.as_str(), "nc" | "sc" | "ec" | "wc"));
    if !is_coast_word {
        c.pos = save;
        return CoastSpec::None;
    }
    if paren {
        c.eat_symbol(")");
    }
    match map.find_coast(p, &text) {
        Some(r) => CoastSpec::Coast(r),
        None => CoastSpec::Unknown,
    }
}
