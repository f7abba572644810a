//! DipWork's scanner: one line of text into an order as written (ids, not
//! yet checked against the position), with every syntax problem numbered.
//!
//! The grammar, after DipWork's BNF and extended by the other common
//! syntaxes (docs/orders.md):
//!
//! ```text
//! line     = [nation [':']] (waive | build location | disband location | location order)
//! location = [nation] [unit] ['('] place [coast] [')']
//! order    = ε | hold | move dest {move dest} [via [convoy]] | support ('"' | location [hold | move dest])
//!          | convoy ('"' | location move dest) | retreat [move] dest | disband | build
//! coast    = '(' c ')' | '/' c | nc | sc | ec | wc | (north|south|east|west) coast
//! ```

use crate::code::{Code, Note};
use crate::vocab::{OrderWord, Place, Vocabulary};
use dip_core::map::normalize_coast;
use dip_core::{CoastSpec, Dest, OrderKind, PowerId, ProvinceId, UnitRef};

/// One token of a line: a word or a symbol.
#[derive(Clone, Copy, Debug)]
struct Tok<'a> {
    text: &'a str,
    /// Byte offset in the line.
    start: usize,
    word: bool,
    /// Whitespace (or `,` `;`) right before it.
    spaced: bool,
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '\'' || c == '.' || c == '_' || c == '’'
}

fn lex(line: &str) -> Vec<Tok<'_>> {
    let mut toks = Vec::with_capacity(12);
    let mut spaced = true;
    let mut it = line.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        if c.is_whitespace() || c == ',' || c == ';' {
            spaced = true;
            continue;
        }
        if is_word_char(c) {
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = it.peek() {
                if !is_word_char(d) {
                    break;
                }
                end = j + d.len_utf8();
                it.next();
            }
            let text = line[i..end].trim_end_matches('.');
            if text.is_empty() && line[i..end].len() == 1 && line[end..].trim().is_empty() {
                // A full stop ending the line: `... (south coast).`
                continue;
            }
            let word = !text.is_empty();
            let text = if word { text } else { &line[i..end] };
            toks.push(Tok {
                text,
                start: i,
                word,
                spaced,
            });
        } else {
            let two = line.get(i..i + 2);
            let three = line.get(i..i + 3);
            let text = match (three, two) {
                // jDip's arrows: `-->`, `-=>`, `==>`.
                (Some("-->") | Some("-=>") | Some("==>"), _) => {
                    it.next();
                    it.next();
                    three.unwrap_or("-")
                }
                (_, Some("->") | Some("=>")) => {
                    it.next();
                    two.unwrap_or("-")
                }
                _ => match c {
                    '"' | '“' | '”' | '„' | '″' => "\"",
                    _ => &line[i..i + c.len_utf8()],
                },
            };
            toks.push(Tok {
                text,
                start: i,
                word: false,
                spaced,
            });
        }
        spaced = false;
    }
    toks
}

/// A line as read: the order as written, or nothing when no unit could be
/// made out (then the line is deleted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scanned {
    /// The nation named on the line, if any.
    pub power: Option<PowerId>,
    /// The order; a syntax error after the unit makes it a hold.
    pub order: Option<OrderKind>,
    /// Corrections and syntax errors.
    pub notes: Vec<Note>,
    /// The words after the unit were no order (press): the unit holds.
    pub press: bool,
    /// 1-based column where the order's unit starts (after the nation);
    /// the parser's notes point there.
    pub column: usize,
    /// The provinces of a convoy path written in a move, between origin
    /// and destination (`A lvp-iri-ech-lon`: iri, ech); empty without one.
    /// The path binds only under `convoy-path=binding` (DATC 4.A.6) and does
    /// not by itself make the move `via convoy`.
    pub path: Vec<ProvinceId>,
}

/// What the scanner remembers from line to line: the last support and the
/// last convoy, for a ditto (`A Bud S "`).
#[derive(Clone, Debug, Default)]
pub struct ScanState {
    last_support: Option<(UnitRef, Option<Dest>)>,
    last_convoy: Option<(UnitRef, Dest)>,
    /// The last move written, and whether it came after the last support
    /// and the last convoy: `A Nap-Tun` then `F ION C "` convoys that move.
    last_move: Option<(UnitRef, Dest)>,
    move_after_support: bool,
    move_after_convoy: bool,
}

/// Reads one line. `None` for a line without tokens.
pub fn scan_line(vocab: &Vocabulary, line: &str, state: &mut ScanState) -> Option<Scanned> {
    let toks = lex(line);
    if toks.is_empty() {
        return None;
    }
    let saved = state.clone();
    let first = run(vocab, line, &toks, state, true);
    // A first word that names a nation and a province (`ENG`): if reading
    // it as the nation fails, read it as the province.
    let failed = first.order.is_none() || first.notes.iter().any(|n| !n.code.is_correction());
    let both = toks[0].word && vocab.nation(toks[0].text).is_some();
    if failed && both && first.power.is_some() {
        let mut st2 = saved;
        let second = run(vocab, line, &toks, &mut st2, false);
        if !(second.order.is_none() || second.notes.iter().any(|n| !n.code.is_correction())) {
            *state = st2;
            return Some(second);
        }
    }
    Some(first)
}

fn run(vocab: &Vocabulary, line: &str, toks: &[Tok<'_>], state: &mut ScanState, nation_first: bool) -> Scanned {
    let mut s = Scanner {
        v: vocab,
        line,
        toks,
        memo: std::cell::RefCell::new(vec![None; toks.len()]),
        i: 0,
        notes: Vec::new(),
        nation_first,
        unit_column: 1,
        near: None,
        writer: None,
        path: Vec::new(),
    };
    let (power, order, press) = s.line(state);
    Scanned {
        power,
        order,
        notes: s.notes,
        press,
        column: s.unit_column,
        path: s.path,
    }
}

/// Words after a move word that add nothing: `attack on`, `attack of`,
/// `attacks into`, `move to` (`to` is a move word itself).
const FILLERS_AFTER_MOVE: [&str; 3] = ["on", "of", "into"];

/// Words before a unit or place that add nothing: `the fleet in the North
/// Africa`, `an army in Berlin`.
const ARTICLES: [&str; 3] = ["the", "an", "in"];

/// A place name found at a token, and how many tokens it takes.
type PlaceHit = Option<(Place, usize)>;

struct Scanner<'v, 'm, 'a, 't> {
    v: &'v Vocabulary<'m>,
    line: &'a str,
    toks: &'t [Tok<'a>],
    /// `place_at` results by token.
    memo: std::cell::RefCell<Vec<Option<PlaceHit>>>,
    i: usize,
    notes: Vec<Note>,
    /// May the first word be read as the nation?
    nation_first: bool,
    unit_column: usize,
    /// The province of the ordered unit, once read: a misspelled
    /// destination is looked for next to it first.
    near: Option<ProvinceId>,
    /// The nation of the line while its unit is read: a misspelled place
    /// is looked for among that nation's units first.
    writer: Option<PowerId>,
    path: Vec<ProvinceId>,
}

enum PlaceRes {
    Found(Place),
    /// A word that names no place (not consumed).
    Unknown(String),
    /// No word here.
    Missing,
}

impl<'a> Scanner<'_, '_, 'a, '_> {
    fn col_at(&self, i: usize) -> usize {
        let byte = self.toks.get(i).map_or(self.line.len(), |t| t.start);
        self.line[..byte].chars().count() + 1
    }
    fn col(&self) -> usize {
        self.col_at(self.i)
    }
    fn peek(&self) -> Option<Tok<'a>> {
        self.toks.get(self.i).copied()
    }
    fn peek_at(&self, k: usize) -> Option<Tok<'a>> {
        self.toks.get(self.i + k).copied()
    }
    fn at_end(&self) -> bool {
        self.i >= self.toks.len()
    }
    fn is_sym(&self, s: &str) -> bool {
        self.peek().is_some_and(|t| !t.word && t.text == s)
    }
    fn eat_sym(&mut self, s: &str) -> bool {
        let yes = self.is_sym(s);
        if yes {
            self.i += 1;
        }
        yes
    }
    fn word_at(&self, k: usize) -> Option<OrderWord> {
        self.peek_at(k).and_then(|t| self.v.order_word(t.text))
    }
    fn word(&self) -> Option<OrderWord> {
        self.word_at(0)
    }
    fn eat_word(&mut self, w: OrderWord) -> bool {
        let yes = self.word() == Some(w);
        if yes {
            self.i += 1;
        }
        yes
    }
    /// A move word and the words that may follow it (`move to`, `attack
    /// on`, `attacks into`, `moving to`): all of them, if one is here.
    fn eat_move(&mut self) -> bool {
        if !self.eat_word(OrderWord::Move) {
            return false;
        }
        while self.peek().is_some_and(|t| {
            t.word
                && (self.v.order_word(t.text) == Some(OrderWord::Move)
                    || FILLERS_AFTER_MOVE.iter().any(|f| t.text.eq_ignore_ascii_case(f)))
                && self.place_at(self.i).is_none()
        }) {
            self.i += 1;
        }
        true
    }

    /// Articles and `in` before a place or unit: `the fleet in the North
    /// Africa`, `an Army in Berlin`, `a Fleet` (an `a` before a unit type).
    fn skip_articles(&mut self) {
        loop {
            let Some(t) = self.peek().filter(|t| t.word) else {
                return;
            };
            if self.place_at(self.i).is_some() && !t.text.eq_ignore_ascii_case("a") {
                return;
            }
            let article = ARTICLES.iter().any(|a| t.text.eq_ignore_ascii_case(a));
            let a_before_unit = t.text.eq_ignore_ascii_case("a")
                && self.peek_at(1).is_some_and(|n| n.word && self.v.unit(n.text).is_some());
            if (article && self.peek_at(1).is_some_and(|n| n.word || n.text == "(")) || a_before_unit {
                self.i += 1;
            } else {
                return;
            }
        }
    }

    fn rest(&self) -> &'a str {
        let byte = self.toks.get(self.i).map_or(self.line.len(), |t| t.start);
        self.line[byte..].trim()
    }

    /// The longest place name starting at token `at`: place and tokens used.
    fn place_at(&self, at: usize) -> Option<(Place, usize)> {
        if let Some(Some(hit)) = self.memo.borrow().get(at) {
            return *hit;
        }
        let r = self.place_at_uncached(at);
        if let Some(slot) = self.memo.borrow_mut().get_mut(at) {
            *slot = Some(r);
        }
        r
    }

    fn place_at_uncached(&self, at: usize) -> Option<(Place, usize)> {
        let first = self.toks.get(at)?;
        if !first.word {
            return None;
        }
        let exact = self.v.exact_match();
        let mut key = String::with_capacity(24);
        let mut best = None;
        let mut j = at;
        let mut words = 0;
        while words < self.v.max_place_words() {
            let Some(t) = self.toks.get(j) else { break };
            if !t.word {
                break;
            }
            if words > 0 {
                key.push(' ');
            }
            if exact {
                key.push_str(t.text);
            } else {
                crate::vocab::push_lower(&mut key, t.text);
            }
            words += 1;
            if let Some(p) = self.v.place_key(&key) {
                best = Some((p, j + 1 - at));
            }
            // The next word: after a space, or after a hyphen written
            // without spaces (`Mid-Atlantic`).
            match self.toks.get(j + 1) {
                Some(n) if n.word && n.spaced => j += 1,
                Some(n) if !n.word && n.text == "-" && !n.spaced => match self.toks.get(j + 2) {
                    Some(m) if m.word && !m.spaced => j += 2,
                    _ => break,
                },
                _ => break,
            }
        }
        best
    }

    /// A place here; with `spell`, an unknown word may be corrected.
    fn place(&mut self, spell: bool) -> PlaceRes {
        if let Some((p, n)) = self.place_at(self.i) {
            // `n` tokens: the words of the name and the hyphens between them.
            let start = self.i;
            self.i += n;
            if spell {
                self.extra_name_word(start, p);
            }
            return PlaceRes::Found(p);
        }
        let Some(t) = self.peek().filter(|t| t.word) else {
            return PlaceRes::Missing;
        };
        if spell {
            // Only when the position is known (`Vocabulary::with_position`):
            // a destination among the unit's neighbours; a unit among the
            // writer's units, then among every unit.
            let among: Vec<Vec<ProvinceId>> = match (self.v.occupied(), self.near) {
                (Some(_), Some(p)) => vec![self.v.map().neighbour_provinces(p)],
                (Some(units), None) => {
                    let own = self.writer.and_then(|w| self.v.occupied_by(w));
                    own.into_iter().chain(std::iter::once(units)).collect()
                }
                (None, _) => Vec::new(),
            };
            if let Some((p, score, name, words)) = among.iter().find_map(|c| self.spell_words(c)) {
                let prov = self.v.map().province(p.province);
                let written = self.words_text(words);
                self.notes.push(Note::new(
                    Code::Spelling,
                    self.col(),
                    format!(
                        "`{written}` read as {} ({}), the likest name in reach (`{name}`, {:.2})",
                        prov.name,
                        self.v.print_name(p.province),
                        score
                    ),
                ));
                self.i += words;
                return PlaceRes::Found(p);
            }
            if let Some((p, score, name)) = self.v.spell(t.text) {
                let prov = self.v.map().province(p.province);
                self.notes.push(Note::new(
                    Code::Spelling,
                    self.col(),
                    format!(
                        "`{}` read as {} ({}), common prefix with `{name}`: {score} letters",
                        t.text,
                        prov.name,
                        self.v.print_name(p.province)
                    ),
                ));
                self.i += 1;
                return PlaceRes::Found(p);
            }
        }
        PlaceRes::Unknown(t.text.to_string())
    }

    /// A name read with one word too many (`Arctic Sea` for the Arctic
    /// Ocean, also called `Arctic`): with the position known, the next word
    /// goes with the name when it is a word of the map's names (`Sea`) and
    /// the whole still spells this province.
    fn extra_name_word(&mut self, start: usize, p: Place) {
        if self.v.occupied().is_none() {
            return;
        }
        let Some(t) = self.peek().filter(|t| t.word && t.spaced) else {
            return;
        };
        if self.v.order_word(t.text).is_some()
            || self.v.unit(t.text).is_some()
            || self.v.nation(t.text).is_some()
            || self.place_at(self.i).is_some()
            || !self.v.name_word(t.text)
        {
            return;
        }
        let (Some(a), Some(b)) = (self.toks.get(start), self.toks.get(self.i)) else {
            return;
        };
        let written = &self.line[a.start..b.start + b.text.len()];
        if let Some((_, score, name)) = self.v.spell_among(written, &[p.province]) {
            let prov = self.v.map().province(p.province);
            self.notes.push(Note::new(
                Code::Spelling,
                self.col_at(start),
                format!(
                    "`{written}` read as {} ({}), the likest name in reach (`{name}`, {score:.2})",
                    prov.name,
                    self.v.print_name(p.province)
                ),
            ));
            self.i += 1;
        }
    }

    /// The spelling check among `candidates` on the words here: a
    /// misspelled name of several words (`Arctic Sea`) is tried whole
    /// before its first word alone. Words that mean something else (an
    /// order, unit or nation word, a place) end the name. With the number
    /// of words read.
    fn spell_words(&self, candidates: &[ProvinceId]) -> Option<(Place, f64, String, usize)> {
        let mut words: Vec<&str> = Vec::new();
        let mut j = self.i;
        while words.len() < self.v.max_place_words() + 1 {
            let Some(t) = self.toks.get(j).filter(|t| t.word && (words.is_empty() || t.spaced)) else {
                break;
            };
            if !words.is_empty()
                && (self.v.order_word(t.text).is_some()
                    || self.v.unit(t.text).is_some()
                    || self.v.nation(t.text).is_some()
                    || self.place_at(j).is_some()
                    || FILLERS_AFTER_MOVE.iter().any(|f| t.text.eq_ignore_ascii_case(f)))
            {
                break;
            }
            words.push(t.text);
            j += 1;
        }
        (1..=words.len()).rev().find_map(|n| {
            self.v
                .spell_among(&words[..n].join(" "), candidates)
                .map(|(p, score, name)| (p, score, name, n))
        })
    }

    /// The text of `n` words from here, as written.
    fn words_text(&self, n: usize) -> String {
        let (Some(a), Some(b)) = (self.toks.get(self.i), self.toks.get(self.i + n - 1)) else {
            return String::new();
        };
        self.line[a.start..b.start + b.text.len()].to_string()
    }

    fn unknown_place(&self, code: Code, col: usize, found: Option<&str>) -> Note {
        let detail = match found {
            Some(w) => {
                let sug = self.v.suggestions(w);
                if sug.is_empty() {
                    format!("unknown province `{w}`")
                } else {
                    format!("unknown province `{w}` (did you mean {}?)", sug.join(", "))
                }
            }
            None => match self.peek() {
                Some(t) => format!("expected a province, found `{}`", t.text),
                None => "expected a province at the end of the line".into(),
            },
        };
        Note::new(code, col, detail)
    }

    /// A coast after province `p`: `(sc)`, `/sc`, `sc`, `south coast`.
    fn coast(&mut self, p: ProvinceId) -> CoastSpec {
        let save = self.i;
        let paren = self.eat_sym("(");
        let slash = !paren && self.eat_sym("/");
        let Some(t) = self.peek().filter(|t| t.word) else {
            self.i = save;
            return CoastSpec::None;
        };
        let lower = t.text.to_lowercase();
        // German: Nordküste, Südküste, Ostküste, Westküste.
        let german = match lower.trim_end_matches("küste").trim_end_matches("kueste") {
            "nord" => Some("nc"),
            "süd" | "sued" => Some("sc"),
            "ost" => Some("ec"),
            "west" if lower != "west" => Some("wc"),
            _ => None,
        };
        let lower = german.map_or(lower, str::to_string);
        let mut text = lower.clone();
        self.i += 1;
        let with_coast = self
            .peek()
            .is_some_and(|n| n.word && matches!(n.text.to_lowercase().as_str(), "coast" | "küste" | "kueste"));
        if with_coast {
            self.i += 1;
            text.push_str(" coast");
        }
        let short = german.is_some() || matches!(lower.as_str(), "nc" | "sc" | "ec" | "wc");
        let ok = normalize_coast(&text).is_some() && (paren || slash || with_coast || short);
        if !ok {
            self.i = save;
            return CoastSpec::None;
        }
        if paren {
            self.eat_sym(")");
        }
        match self.v.map().find_coast(p, &text) {
            Some(r) => CoastSpec::Coast(r),
            None => CoastSpec::Unknown,
        }
    }

    /// A destination: a place and its coast.
    fn dest(&mut self, code: Code) -> Result<Dest, Note> {
        let col = self.col();
        match self.place(true) {
            PlaceRes::Found(p) => {
                let c = self.coast(p.province);
                let coast = match (c, p.coast) {
                    (CoastSpec::None, Some(r)) => CoastSpec::Coast(r),
                    (c, _) => c,
                };
                Ok(Dest {
                    province: p.province,
                    coast,
                })
            }
            PlaceRes::Unknown(w) => Err(self.unknown_place(code, col, Some(&w))),
            PlaceRes::Missing => Err(self.unknown_place(code, col, None)),
        }
    }

    /// `[nation] [unit] ['('] place [coast] [')']`. `code`: the number for
    /// an unknown province after a unit type.
    fn location(&mut self, code: Code, nation_before: bool) -> Result<UnitRef, Note> {
        let near = self.near.take();
        let r = self.location_inner(code, nation_before);
        self.near = near;
        r
    }

    fn location_inner(&mut self, code: Code, nation_before: bool) -> Result<UnitRef, Note> {
        self.skip_articles();
        let col = self.col();
        let mut nation = nation_before;
        if let Some(t) = self.peek().filter(|t| t.word) {
            // A nation word is a nation when a word follows and it names no
            // province, or when a unit type follows.
            let next_word = self.peek_at(1).is_some_and(|n| n.word || n.text == "(");
            let next_unit = self.peek_at(1).is_some_and(|n| n.word && self.v.unit(n.text).is_some());
            if self.v.nation(t.text).is_some() && next_word && (self.place_at(self.i).is_none() || next_unit) {
                self.i += 1;
                nation = true;
            }
        }
        let mut kind = None;
        if let Some(t) = self.peek().filter(|t| t.word) {
            if let Some(k) = self.v.unit(t.text) {
                let followed = self.peek_at(1).is_some_and(|n| n.word || n.text == "(");
                if followed || self.place_at(self.i).is_none() {
                    kind = Some(k);
                    self.i += 1;
                }
            }
        }
        if kind.is_some() {
            self.skip_articles();
        }
        let paren = self.eat_sym("(");
        let pcol = self.col();
        let place = match self.place(kind.is_some()) {
            PlaceRes::Found(p) => p,
            other => {
                let found = match &other {
                    PlaceRes::Unknown(w) => Some(w.as_str()),
                    _ => None,
                };
                return Err(if kind.is_some() {
                    self.unknown_place(code, pcol, found)
                } else {
                    let c = if nation {
                        Code::UnitTypeExpected
                    } else {
                        Code::UnitOrNationExpected
                    };
                    let what = match found.or(self.peek().map(|t| t.text)) {
                        Some(w) => format!("found `{w}`"),
                        None => "found the end of the line".into(),
                    };
                    let sug = found.map(|w| self.v.suggestions(w)).unwrap_or_default();
                    match found {
                        Some(w) if !sug.is_empty() => Note::new(
                            c,
                            col,
                            format!("unknown province `{w}` (did you mean {}?)", sug.join(", ")),
                        ),
                        _ => Note::new(c, col, what),
                    }
                });
            }
        };
        let c = self.coast(place.province);
        if paren {
            self.eat_sym(")");
        }
        let coast = match (c, place.coast) {
            (CoastSpec::None, Some(r)) => CoastSpec::Coast(r),
            (c, _) => c,
        };
        Ok(UnitRef {
            kind,
            province: place.province,
            coast,
        })
    }

    /// `C-Ber:` at the current token: the nation and the token after the
    /// colon. Words joined by hyphens with no space between, then `:`.
    fn hyphenated_nation(&self) -> Option<(PowerId, usize)> {
        let first = self.peek().filter(|t| t.word)?;
        let mut key = first.text.to_string();
        let mut j = self.i + 1;
        let mut hyphens = 0;
        loop {
            let t = self.toks.get(j)?;
            if t.spaced {
                return None;
            }
            match t.text {
                ":" if hyphens > 0 => break,
                "-" => {
                    let w = self.toks.get(j + 1).filter(|w| w.word && !w.spaced)?;
                    key.push(' ');
                    key.push_str(w.text);
                    hyphens += 1;
                    j += 2;
                }
                _ => return None,
            }
        }
        Some((self.v.nation(&key)?, j + 1))
    }

    /// A nation of several words before a colon (`St Petersburg:`), and
    /// the token after the colon.
    fn spaced_nation(&self) -> Option<(PowerId, usize)> {
        let mut key = self.peek().filter(|t| t.word)?.text.to_string();
        let mut j = self.i + 1;
        while let Some(t) = self.toks.get(j).filter(|t| t.word && t.spaced) {
            key.push(' ');
            key.push_str(t.text);
            j += 1;
        }
        let colon = self.toks.get(j).is_some_and(|t| t.text == ":");
        if j - self.i < 2 || !colon {
            return None;
        }
        Some((self.v.nation(&key)?, j + 1))
    }

    fn line(&mut self, state: &mut ScanState) -> (Option<PowerId>, Option<OrderKind>, bool) {
        self.list_marker();
        let power = self.leading_nation();
        if self.at_end() {
            self.notes.push(Note::new(
                Code::UnitOrNationExpected,
                self.col(),
                "no unit after the nation",
            ));
            return (power, None, false);
        }
        if self.word() == Some(OrderWord::Waive) && self.peek_at(1).is_none() {
            self.i += 1;
            return (power, Some(OrderKind::Waive), false);
        }
        if let Some(k) = self.adjustment_first(power) {
            return (power, Some(k), false);
        }
        if let Some(k) = self.move_first(power, state) {
            return (power, Some(k), false);
        }
        let (k, press) = self.unit_then_order(power, state);
        (power, k, press)
    }

    /// Skips a list marker from an e-mail: `1.`, `2)`, `-`, `*`, `•`.
    fn list_marker(&mut self) {
        if let (Some(t), Some(n)) = (self.peek(), self.peek_at(1)) {
            let number = t.word && t.text.bytes().all(|b| b.is_ascii_digit());
            let bullet = !t.word && matches!(t.text, "-" | "*" | "•") && n.word;
            if number || bullet {
                self.i += 1;
                if number && !self.eat_sym(")") {
                    self.eat_sym(":");
                }
            }
        }
    }

    /// An optional nation before the order: `England:`, `ENG`, `Au`, jDip's
    /// `C-Ber:`, or one written short or misspelled before a colon.
    fn leading_nation(&mut self) -> Option<PowerId> {
        let mut power = None;
        if let (Some(t), Some(n), true) = (self.peek(), self.peek_at(1), self.nation_first) {
            if t.word {
                if let Some(p) = self.v.nation(t.text) {
                    let starts = n.text == ":"
                        || n.text == "("
                        || (n.word && self.place_at(self.i).is_none())
                        || (n.word
                            && (self.v.unit(n.text).is_some()
                                || self.place_at(self.i + 1).is_some()
                                || match self.v.order_word(n.text) {
                                    Some(OrderWord::Waive) => true,
                                    Some(OrderWord::Build | OrderWord::Disband) => self.peek_at(2).is_some(),
                                    _ => false,
                                }));
                    if starts {
                        power = Some(p);
                        self.i += 1;
                        self.eat_sym(":");
                    }
                }
            }
        }
        // A nation whose name has hyphens, before a colon: jDip's `C-Ber:`
        // (the lexer splits it at the hyphens); or several words, as
        // Chaos's `St Petersburg:` (else read as the province).
        if power.is_none() && self.nation_first {
            if let Some((p, next)) = self.hyphenated_nation().or_else(|| self.spaced_nation()) {
                power = Some(p);
                self.i = next;
            }
        }
        // A nation written short or misspelled before a colon: `f:`, `ingland:`.
        if power.is_none() && self.nation_first {
            if let (Some(t), Some(n)) = (self.peek(), self.peek_at(1)) {
                if t.word && n.text == ":" && self.v.nation(t.text).is_none() {
                    if let Some(p) = self.v.nation_fuzzy(t.text) {
                        self.notes.push(Note::new(
                            Code::Spelling,
                            self.col(),
                            format!("`{}` read as {}", t.text, self.v.map().power(p).name),
                        ));
                        power = Some(p);
                        self.i += 2;
                    }
                }
            }
        }
        power
    }

    /// `build A ber`, `ENG disband F(NTH)`: the command before the unit.
    /// Anything else after the command is read again as an order.
    fn adjustment_first(&mut self, power: Option<PowerId>) -> Option<OrderKind> {
        for (w, build) in [(OrderWord::Build, true), (OrderWord::Disband, false)] {
            if self.word() == Some(w) && self.peek_at(1).is_some_and(|t| t.word || t.text == "(") {
                let save = self.i;
                self.i += 1;
                match self.location(Code::LocationField, power.is_some()) {
                    Ok(u) if self.at_end() => {
                        let k = if build {
                            OrderKind::Build(u)
                        } else {
                            OrderKind::Disband(u)
                        };
                        return Some(k);
                    }
                    _ => {
                        self.notes.clear();
                        self.i = save;
                    }
                }
            }
        }
        None
    }

    /// Command first: `m lvp-edi`, `move army lvp-edi`, `move lvp to edi`;
    /// read again from the start when it is not such a move.
    fn move_first(&mut self, power: Option<PowerId>, state: &mut ScanState) -> Option<OrderKind> {
        if self.word() == Some(OrderWord::Move) && self.peek_at(1).is_some_and(|t| t.word || t.text == "(") {
            let save = (self.i, self.notes.len());
            self.i += 1;
            self.writer = power;
            let me = self.location(Code::LocationField, power.is_some());
            self.writer = None;
            if let Ok(me) = me {
                if self.word() == Some(OrderWord::Move) {
                    self.near = Some(me.province);
                    if let Ok(k @ OrderKind::Move(..)) = self.order(me, state) {
                        if self.at_end() {
                            return Some(k);
                        }
                    }
                    self.near = None;
                }
            }
            self.i = save.0;
            self.notes.truncate(save.1);
        }
        None
    }

    /// The unit, then its order; an order with words after it, or one that
    /// does not read, leaves the unit holding (`true`: the words were press).
    fn unit_then_order(&mut self, power: Option<PowerId>, state: &mut ScanState) -> (Option<OrderKind>, bool) {
        self.unit_column = self.col();
        self.writer = power;
        let me = self.location(Code::LocationField, power.is_some());
        self.writer = None;
        let me = match me {
            Ok(u) => u,
            Err(n) => {
                self.notes.push(n);
                return (None, false);
            }
        };
        self.near = Some(me.province);
        match self.order(me, state) {
            Ok(k) => {
                if self.at_end() {
                    (Some(k), false)
                } else {
                    let rest = self.rest();
                    self.notes.push(Note::new(
                        Code::OrderExpected,
                        self.col(),
                        format!("unexpected `{rest}` after the order; the unit holds"),
                    ));
                    (Some(OrderKind::Hold(me)), true)
                }
            }
            Err((n, press)) => {
                self.notes.push(n);
                (Some(OrderKind::Hold(me)), press)
            }
        }
    }

    /// The order part, after the unit. An error makes the unit hold;
    /// `true` with it: the words were no order at all (press).
    fn order(&mut self, me: UnitRef, state: &mut ScanState) -> Result<OrderKind, (Note, bool)> {
        let Some(t) = self.peek() else {
            return Ok(OrderKind::Hold(me));
        };
        match self.v.order_word(t.text) {
            Some(OrderWord::Hold) => {
                self.i += 1;
                Ok(OrderKind::Hold(me))
            }
            Some(OrderWord::Move) => self.move_order(me, state),
            Some(OrderWord::Support) => self.support_order(me, state),
            Some(OrderWord::Convoy) => self.convoy_order(me, state),
            Some(OrderWord::Retreat) => {
                self.i += 1;
                self.eat_move();
                let d = self.dest(Code::MoveField).map_err(plain)?;
                Ok(OrderKind::Retreat(me, d))
            }
            Some(OrderWord::Disband) => {
                self.i += 1;
                Ok(OrderKind::Disband(me))
            }
            Some(OrderWord::Build) => {
                self.i += 1;
                Ok(OrderKind::Build(me))
            }
            _ => {
                let rest = self.rest();
                Err((
                    Note::new(
                        Code::OrderExpected,
                        self.col(),
                        format!("`{rest}` is no order; the unit holds"),
                    ),
                    true,
                ))
            }
        }
    }

    /// A move: `- DEST`, a path `- A - B`, `via convoy`.
    fn move_order(&mut self, me: UnitRef, state: &mut ScanState) -> Result<OrderKind, (Note, bool)> {
        self.eat_move();
        if self.eat_word(OrderWord::Hold) {
            return Ok(OrderKind::Hold(me));
        }
        let mut d = self.dest(Code::MoveField).map_err(plain)?;
        // A path `A Lon-NTH-Nwy`: the last province is the
        // destination ([`Scanned::path`] says a path was written).
        let mut path = Vec::new();
        while self.word() == Some(OrderWord::Move) {
            self.eat_move();
            self.near = Some(d.province);
            path.push(d.province);
            d = self.dest(Code::MoveField).map_err(plain)?;
        }
        state.last_move = Some((me, d));
        state.move_after_support = true;
        state.move_after_convoy = true;
        let via = self.eat_word(OrderWord::Via);
        self.path = path;
        if via
            && self.peek().is_some_and(|t| {
                t.word
                    && (self.v.order_word(t.text) == Some(OrderWord::Convoy) || t.text.eq_ignore_ascii_case("convoy"))
            })
        {
            self.i += 1;
        }
        Ok(OrderKind::Move(me, d, via))
    }

    /// A support of a hold or a move; `S "` repeats the last one (or
    /// supports the last move written).
    fn support_order(&mut self, me: UnitRef, state: &mut ScanState) -> Result<OrderKind, (Note, bool)> {
        self.i += 1;
        if self.eat_sym("\"") {
            return match (state.last_support, state.last_move) {
                (_, Some((u, d))) if state.move_after_support => Ok(OrderKind::SupportMove(me, u, d)),
                (Some((u, None)), _) => Ok(OrderKind::SupportHold(me, u)),
                (Some((u, Some(d))), _) => Ok(OrderKind::SupportMove(me, u, d)),
                (None, _) => Err(plain(Note::new(Code::NothingToRepeat, self.col_at(self.i - 1), ""))),
            };
        }
        let them = self.location(Code::SupportedField, false).map_err(plain)?;
        state.move_after_support = false;
        let kind = if self.at_end() || self.eat_word(OrderWord::Hold) {
            state.last_support = Some((them, None));
            OrderKind::SupportHold(me, them)
        } else if self.eat_move() {
            let d = self.dest(Code::SupportedMoveField).map_err(plain)?;
            state.last_support = Some((them, Some(d)));
            OrderKind::SupportMove(me, them, d)
        } else {
            return Err(plain(Note::new(
                Code::SupportedOrderExpected,
                self.col(),
                format!("found `{}`", self.rest()),
            )));
        };
        Ok(kind)
    }

    /// A convoy of a move; `C "` repeats the last one (or convoys the last
    /// move written).
    fn convoy_order(&mut self, me: UnitRef, state: &mut ScanState) -> Result<OrderKind, (Note, bool)> {
        self.i += 1;
        if self.eat_sym("\"") {
            return match (state.last_convoy, state.last_move) {
                (_, Some((u, d))) if state.move_after_convoy => Ok(OrderKind::Convoy(me, u, d)),
                (Some((u, d)), _) => Ok(OrderKind::Convoy(me, u, d)),
                (None, _) => Err(plain(Note::new(Code::NothingToRepeat, self.col_at(self.i - 1), ""))),
            };
        }
        let them = self.location(Code::ConvoyedField, false).map_err(plain)?;
        if !self.eat_move() {
            let found = if self.at_end() {
                "found the end of the line".to_string()
            } else {
                format!("found `{}`", self.rest())
            };
            return Err(plain(Note::new(Code::ConvoyedMoveExpected, self.col(), found)));
        }
        let d = self.dest(Code::ConvoyedMoveField).map_err(plain)?;
        state.last_convoy = Some((them, d));
        state.move_after_convoy = false;
        Ok(OrderKind::Convoy(me, them, d))
    }
}

/// A problem that makes the unit hold; the words were meant as an order.
fn plain(n: Note) -> (Note, bool) {
    (n, false)
}
