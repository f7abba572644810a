//! Press (syntax document, levels 10–30): what the third part of a SND
//! may hold at the game's level, checked as the server must before it
//! relays anything, and TRY's token list cut to the level (the server
//! "will remove all higher-level tokens from the TRY message").
//!
//! ```text
//! message       = press_message | reply
//! press_message = PRP (offer_top) | TRY (tokens) | CCL (press_message) | FCT (offer_top)
//! reply         = YES | REJ | BWX (press_message)  |  HUH (message with ERR somewhere)
//! offer_top     = offer | AND (offer) (offer) … | ORR (offer) (offer) …   (level 30)
//! offer         = PCE (powers) | ALY (powers) VSS (powers) | DRW | SLO (power)
//!               | NOT (offer) | NAR (offer) | XDO (order) | DMZ (powers) (provinces)   (XDO, DMZ: level 20)
//! ```
//!
//! CCL, NAR and FCT at level 10 come from the later revision of the
//! syntax that MILA's bots speak; Parlance's document has FCT at level 60
//! and neither CCL nor NAR. DRW takes no list: dip offers no partial
//! draws (PDA).

use super::convert::Reader;
use super::message::{Msg, Node};
use super::token::*;

/// A flat token index into the whole message (where HUH puts ERR).
type R<T> = Result<T, usize>;

/// The press level a token belongs to (None: no press token at all).
pub fn level_of(t: Token) -> Option<u32> {
    let at = |l: u32, ts: &[Token]| ts.contains(&t).then_some(l);
    at(
        10,
        &[
            PRP, PCE, ALY, VSS, DRW, SLO, NOT, YES, REJ, BWX, HUH, TRY, CCL, NAR, FCT,
        ],
    )
    .or_else(|| at(20, &[XDO, DMZ]))
    .or_else(|| at(30, &[AND, ORR]))
    .or_else(|| at(40, &[SCD, OCC, UNT]))
    .or_else(|| at(50, &[CHO]))
    .or_else(|| at(60, &[INS, QRY, THK, IDK, SUG]))
    .or_else(|| at(70, &[WHT, HOW]))
    .or_else(|| at(80, &[EXP, SRY]))
    .or_else(|| at(90, &[FOR]))
    .or_else(|| at(100, &[IFF, THN, ELS]))
    .or_else(|| at(110, &[XOY, YDO]))
    .or_else(|| at(120, &[FRM, FWD, BCC, SND]))
    .or_else(|| at(130, &[WHY, POB]))
}

/// Checks `body`, the inside of SND's press list whose first element is
/// flat token `at` of the message, at press level `level` (10–30).
/// Returns the press to relay (TRY cut to the level), or where the first
/// offending token is: a token above the level, or one the grammar does
/// not allow there.
pub fn check(reader: &Reader, body: &[Node], level: u32, at: usize) -> Result<Vec<Node>, usize> {
    Checker { reader, level }.message(body, at)
}

struct Checker<'a, 'b> {
    reader: &'a Reader<'b>,
    level: u32,
}

/// The flat index of each element of a list whose first element is at
/// `at`, and of its end (the closing bracket).
fn positions(l: &[Node], at: usize) -> (Vec<usize>, usize) {
    let mut pos = Vec::with_capacity(l.len());
    let mut p = at;
    for n in l {
        pos.push(p);
        p += n.width();
    }
    (pos, p)
}

impl Checker<'_, '_> {
    /// The head token of a list if the game's level has it.
    fn head(&self, l: &[Node], at: usize) -> R<Token> {
        let t = l.first().and_then(Node::tok).ok_or(at)?;
        match level_of(t) {
            Some(n) if n <= self.level => Ok(t),
            _ => Err(at),
        }
    }

    /// Element `i` must be a list: its elements, with the flat index of
    /// the first.
    fn list<'n>(&self, l: &'n [Node], i: usize, at: usize) -> R<(&'n [Node], usize)> {
        let (pos, end) = positions(l, at);
        match l.get(i) {
            Some(Node::List(inner)) => Ok((inner, pos[i] + 1)),
            Some(Node::Tok(_)) => Err(pos[i]),
            None => Err(end),
        }
    }

    /// Nothing may follow element `n - 1`.
    fn end(&self, l: &[Node], n: usize, at: usize) -> R<()> {
        let (pos, _) = positions(l, at);
        match pos.get(n) {
            Some(&p) => Err(p),
            None => Ok(()),
        }
    }

    fn message(&self, l: &[Node], at: usize) -> R<Vec<Node>> {
        let head = self.head(l, at)?;
        if head == YES || head == REJ || head == BWX {
            let (inner, p) = self.list(l, 1, at)?;
            self.end(l, 2, at)?;
            let inner = self.press_message(inner, p)?;
            return Ok(vec![Node::Tok(head), Node::List(inner)]);
        }
        if head == HUH {
            let (inner, p) = self.list(l, 1, at)?;
            self.end(l, 2, at)?;
            self.with_err(inner, p)?;
            return Ok(l.to_vec());
        }
        self.press_message(l, at)
    }

    /// HUH's press with ERR where the replying power stopped
    /// understanding: the press without its ERRs must be press.
    fn with_err(&self, l: &[Node], at: usize) -> R<()> {
        let flat = Msg(l.to_vec()).tokens();
        let mut kept = Vec::with_capacity(flat.len() + 1);
        let mut tokens = Vec::with_capacity(flat.len());
        for (i, &t) in flat.iter().enumerate() {
            if t != ERR {
                kept.push(at + i);
                tokens.push(t);
            }
        }
        kept.push(at + flat.len());
        let m = Msg::from_tokens(&tokens).map_err(|_| at + flat.len())?;
        self.message(&m.0, 0)
            .map(|_| ())
            .map_err(|i| kept[i.min(kept.len() - 1)])
    }

    fn press_message(&self, l: &[Node], at: usize) -> R<Vec<Node>> {
        let head = self.head(l, at)?;
        let (inner, p) = self.list(l, 1, at)?;
        self.end(l, 2, at)?;
        let inner = match head {
            x if x == PRP || x == FCT => {
                self.offer_top(inner, p)?;
                inner.to_vec()
            }
            x if x == CCL => self.press_message(inner, p)?,
            x if x == TRY => self.try_list(inner, p)?,
            _ => return Err(at),
        };
        Ok(vec![Node::Tok(head), Node::List(inner)])
    }

    /// TRY's tokens: any press token; those above the level are left out.
    fn try_list(&self, l: &[Node], at: usize) -> R<Vec<Node>> {
        let (pos, _) = positions(l, at);
        let mut out = Vec::new();
        for (n, p) in l.iter().zip(pos) {
            let level = n.tok().and_then(level_of).ok_or(p)?;
            if level <= self.level {
                out.push(n.clone());
            }
        }
        Ok(out)
    }

    /// An offer, or at level 30 AND/ORR of two offers or more (not
    /// nested).
    fn offer_top(&self, l: &[Node], at: usize) -> R<()> {
        let head = self.head(l, at)?;
        if head != AND && head != ORR {
            return self.offer(l, at);
        }
        if l.len() < 3 {
            return Err(positions(l, at).1);
        }
        for i in 1..l.len() {
            let (inner, p) = self.list(l, i, at)?;
            self.offer(inner, p)?;
        }
        Ok(())
    }

    fn offer(&self, l: &[Node], at: usize) -> R<()> {
        let head = self.head(l, at)?;
        match head {
            x if x == PCE => {
                let (ps, p) = self.list(l, 1, at)?;
                self.powers(ps, p)?;
                self.end(l, 2, at)
            }
            x if x == ALY => {
                let (ps, p) = self.list(l, 1, at)?;
                self.powers(ps, p)?;
                let (pos, end) = positions(l, at);
                if l.get(2).and_then(Node::tok) != Some(VSS) {
                    return Err(pos.get(2).copied().unwrap_or(end));
                }
                let (vs, p) = self.list(l, 3, at)?;
                self.powers(vs, p)?;
                self.end(l, 4, at)
            }
            x if x == DRW => self.end(l, 1, at),
            x if x == SLO => {
                let (ps, p) = self.list(l, 1, at)?;
                self.powers(ps, p)?;
                if ps.len() > 1 {
                    return Err(p + 1);
                }
                self.end(l, 2, at)
            }
            x if x == NOT || x == NAR => {
                let (inner, p) = self.list(l, 1, at)?;
                self.offer(inner, p)?;
                self.end(l, 2, at)
            }
            x if x == XDO => {
                let (pos, end) = positions(l, at);
                let order = l.get(1).ok_or(end)?;
                self.reader.order(order, pos[1])?;
                self.end(l, 2, at)
            }
            x if x == DMZ => {
                let (ps, p) = self.list(l, 1, at)?;
                self.powers(ps, p)?;
                let (provs, p) = self.list(l, 2, at)?;
                let (pos, end) = positions(provs, p);
                if provs.is_empty() {
                    return Err(end);
                }
                for (n, q) in provs.iter().zip(pos) {
                    n.tok().and_then(|t| self.reader.repr.province_of(t)).ok_or(q)?;
                }
                self.end(l, 3, at)
            }
            _ => Err(at),
        }
    }

    /// One power or more.
    fn powers(&self, l: &[Node], at: usize) -> R<()> {
        let (pos, end) = positions(l, at);
        if l.is_empty() {
            return Err(end);
        }
        for (n, p) in l.iter().zip(pos) {
            n.tok().and_then(|t| self.reader.repr.power_of(t)).ok_or(p)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::daide::message::huh;

    /// The answer to `SND (…) (press)` at a level: `YES`, the press the
    /// recipients get, or the server's HUH.
    fn snd(text: &str, level: u32) -> String {
        let l = crate::variants::standard_for_tests();
        let repr = Repr::of(&l.variant().map);
        let reader = Reader {
            map: &l.variant().map,
            repr: &repr,
        };
        let m = Msg::parse(text, &repr).unwrap();
        let to = &m.0[1];
        let body = m.0[2].list().unwrap();
        let at = 1 + to.width() + 1;
        match check(&reader, body, level, at) {
            Ok(press) => format!("FRM ({})", Msg(press).to_text(&repr)),
            Err(i) => huh(&m, i).to_text(&repr),
        }
    }

    #[test]
    fn press_of_each_level_passes_at_its_level() {
        for (text, level) in [
            ("SND (ENG) (PRP (PCE (FRA ENG)))", 10),
            ("SND (ENG) (PRP (ALY (FRA ENG) VSS (GER)))", 10),
            ("SND (ENG) (PRP (DRW))", 10),
            ("SND (ENG) (PRP (SLO (FRA)))", 10),
            ("SND (ENG) (PRP (NOT (PCE (FRA ENG))))", 10),
            ("SND (ENG) (PRP (NAR (PCE (FRA ENG))))", 10),
            ("SND (ENG) (FCT (PCE (FRA ENG)))", 10),
            ("SND (ENG) (CCL (PRP (PCE (FRA ENG))))", 10),
            ("SND (ENG) (YES (PRP (PCE (FRA ENG))))", 10),
            ("SND (ENG) (REJ (PRP (DRW)))", 10),
            ("SND (ENG) (BWX (PRP (DRW)))", 10),
            ("SND (ENG) (PRP (XDO ((ENG FLT LON) MTO NTH)))", 20),
            ("SND (ENG) (PRP (XDO ((FRA AMY PAR) SUP (ENG AMY LVP) MTO WAL)))", 20),
            ("SND (ENG) (PRP (DMZ (FRA ENG) (ECH NTH)))", 20),
            ("SND (ENG) (REJ (PRP (XDO ((ENG FLT LON) MTO NTH))))", 20),
            (
                "SND (ENG) (PRP (AND (XDO ((ENG FLT LON) MTO NTH)) (XDO ((FRA FLT BRE) MTO MAO))))",
                30,
            ),
            ("SND (ENG) (PRP (ORR (PCE (FRA ENG)) (DMZ (FRA ENG) (ECH))))", 30),
        ] {
            let text = text.replace("SND (ENG) ", "");
            assert_eq!(snd(&format!("SND (ENG) {text}"), level), format!("FRM {text}"));
        }
    }

    #[test]
    fn what_is_no_press_was_relayed_as_press() {
        for (text, huh) in [
            ("SND (RUS) (NOW)", "HUH (SND (RUS) (ERR NOW))"),
            (
                "SND (RUS) (SUB ((ENG AMY LVP) HLD))",
                "HUH (SND (RUS) (ERR SUB ((ENG AMY LVP) HLD)))",
            ),
            ("SND (RUS) (PRP (PCE))", "HUH (SND (RUS) (PRP (PCE ERR)))"),
            ("SND (RUS) (PRP (PCE ()))", "HUH (SND (RUS) (PRP (PCE (ERR))))"),
            ("SND (RUS) (YES (NOW))", "HUH (SND (RUS) (YES (ERR NOW)))"),
            (
                "SND (RUS) (PRP (PCE (FRA LON)))",
                "HUH (SND (RUS) (PRP (PCE (FRA ERR LON))))",
            ),
            (
                "SND (RUS) (PRP (ALY (FRA) (GER)))",
                "HUH (SND (RUS) (PRP (ALY (FRA) ERR (GER))))",
            ),
            (
                "SND (RUS) (PRP (DRW (FRA RUS)))",
                "HUH (SND (RUS) (PRP (DRW ERR (FRA RUS))))",
            ),
            (
                "SND (RUS) (PRP (SLO (FRA RUS)))",
                "HUH (SND (RUS) (PRP (SLO (FRA ERR RUS))))",
            ),
            (
                "SND (RUS) (PRP (PCE (FRA RUS)) DRW)",
                "HUH (SND (RUS) (PRP (PCE (FRA RUS)) ERR DRW))",
            ),
            ("SND (RUS) (PRP (NOT (NOW)))", "HUH (SND (RUS) (PRP (NOT (ERR NOW))))"),
            ("SND (RUS) (TRY (ENG))", "HUH (SND (RUS) (TRY (ERR ENG)))"),
            // AND and ORR: two offers or more, not nested.
            ("SND (RUS) (PRP (AND (DRW)))", "HUH (SND (RUS) (PRP (AND (DRW) ERR)))"),
            (
                "SND (RUS) (PRP (AND (DRW) (ORR (DRW) (DRW))))",
                "HUH (SND (RUS) (PRP (AND (DRW) (ERR ORR (DRW) (DRW)))))",
            ),
            (
                "SND (RUS) (PRP (DMZ (RUS) (LON ENG)))",
                "HUH (SND (RUS) (PRP (DMZ (RUS) (LON ERR ENG))))",
            ),
            (
                "SND (RUS) (PRP (XDO ((RUS AMY MOS) MTO)))",
                "HUH (SND (RUS) (PRP (XDO ((RUS AMY MOS) MTO ERR))))",
            ),
        ] {
            assert_eq!(snd(text, 30), huh, "{text}");
        }
    }

    #[test]
    fn press_above_the_games_level_was_accepted() {
        for (text, level, huh) in [
            // FRM is press of level 120.
            (
                "SND (RUS) (FRM (ENG) (RUS) (PRP (DRW)))",
                10,
                "HUH (SND (RUS) (ERR FRM (ENG) (RUS) (PRP (DRW))))",
            ),
            (
                "SND (RUS) (PRP (XDO ((RUS AMY MOS) HLD)))",
                10,
                "HUH (SND (RUS) (PRP (ERR XDO ((RUS AMY MOS) HLD))))",
            ),
            (
                "SND (RUS) (PRP (AND (DRW) (DRW)))",
                20,
                "HUH (SND (RUS) (PRP (ERR AND (DRW) (DRW))))",
            ),
            (
                "SND (RUS) (INS (PCE (RUS ENG)))",
                30,
                "HUH (SND (RUS) (ERR INS (PCE (RUS ENG))))",
            ),
            (
                "SND (RUS) (YES (PRP (SCD (RUS MOS))))",
                30,
                "HUH (SND (RUS) (YES (PRP (ERR SCD (RUS MOS)))))",
            ),
        ] {
            assert_eq!(snd(text, level), huh, "{text}");
        }
    }

    /// The syntax document, Level 10 (vi): a player that cannot take press
    /// answers every FRM with `SND (power) (HUH (ERR press_message))` and
    /// `SND (power) (TRY ())`; TRY lists any tokens, and the server
    /// removes those above the game's level before passing it on.
    #[test]
    fn the_syntax_documents_try_examples() {
        assert_eq!(
            snd("SND (ENG) (HUH (ERR PRP (PCE (ENG FRA))))", 10),
            "FRM (HUH (ERR PRP (PCE (ENG FRA))))"
        );
        assert_eq!(
            snd("SND (ENG) (HUH (PRP (ERR XDO ((ENG AMY LVP) HLD))))", 20),
            "FRM (HUH (PRP (ERR XDO ((ENG AMY LVP) HLD))))"
        );
        assert_eq!(snd("SND (ENG) (TRY ())", 10), "FRM (TRY ())");
        let all = "PRP PCE ALY VSS DRW SLO NOT YES REJ BWX XDO DMZ AND ORR SCD OCC CHO INS \
                   QRY THK FCT IDK SUG WHT HOW EXP SRY FOR IFF THN ELS XOY YDO FRM FWD BCC SND POB WHY";
        assert_eq!(
            snd(&format!("SND (ENG) (TRY ({all}))"), 10),
            "FRM (TRY (PRP PCE ALY VSS DRW SLO NOT YES REJ BWX FCT))"
        );
        assert_eq!(
            snd(&format!("SND (ENG) (TRY ({all}))"), 20),
            "FRM (TRY (PRP PCE ALY VSS DRW SLO NOT YES REJ BWX XDO DMZ FCT))"
        );
        assert_eq!(
            snd(&format!("SND (ENG) (TRY ({all}))"), 30),
            "FRM (TRY (PRP PCE ALY VSS DRW SLO NOT YES REJ BWX XDO DMZ AND ORR FCT))"
        );
        // A HUH whose press, without its ERR, is no press.
        assert_eq!(
            snd("SND (ENG) (HUH (ERR NOW))", 10),
            "HUH (SND (ENG) (HUH (ERR ERR NOW)))"
        );
    }
}
