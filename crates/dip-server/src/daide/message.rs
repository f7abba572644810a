//! Language messages: a flat token sequence with brackets, read into a
//! tree, written back, and shown as text (`SUB ((ENG AMY LVP) HLD)`).

use super::token::{self, Repr, Token, BRA, ERR, KET};
use std::fmt::Write;

/// One element of a message: a token, or a bracketed list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    Tok(Token),
    List(Vec<Node>),
}

/// A message as a tree.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Msg(pub Vec<Node>);

/// Why a token sequence is no message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    #[error("the brackets do not match")]
    Brackets,
    #[error("an odd number of octets")]
    Odd,
    #[error("an empty message")]
    Empty,
}

/// Tokens from the octets of a DM.
pub fn tokens_of(bytes: &[u8]) -> Result<Vec<Token>, ReadError> {
    if !bytes.len().is_multiple_of(2) {
        return Err(ReadError::Odd);
    }
    Ok(bytes
        .chunks_exact(2)
        .map(|c| Token(u16::from_be_bytes([c[0], c[1]])))
        .collect())
}

/// The octets of a token sequence.
pub fn bytes_of(tokens: &[Token]) -> Vec<u8> {
    tokens.iter().flat_map(|t| t.0.to_be_bytes()).collect()
}

impl Msg {
    /// Reads a flat sequence; brackets must match (otherwise the answer
    /// is PRN).
    pub fn from_tokens(tokens: &[Token]) -> Result<Msg, ReadError> {
        if tokens.is_empty() {
            return Err(ReadError::Empty);
        }
        let mut stack: Vec<Vec<Node>> = vec![Vec::new()];
        for &t in tokens {
            if t == BRA {
                if stack.len() > 64 {
                    return Err(ReadError::Brackets);
                }
                stack.push(Vec::new());
            } else if t == KET {
                if stack.len() < 2 {
                    return Err(ReadError::Brackets);
                }
                let inner = stack.pop().unwrap_or_default();
                if let Some(top) = stack.last_mut() {
                    top.push(Node::List(inner));
                }
            } else if let Some(top) = stack.last_mut() {
                top.push(Node::Tok(t));
            }
        }
        if stack.len() != 1 {
            return Err(ReadError::Brackets);
        }
        Ok(Msg(stack.pop().unwrap_or_default()))
    }

    pub fn tokens(&self) -> Vec<Token> {
        let mut out = Vec::new();
        flatten(&self.0, &mut out);
        out
    }

    pub fn first(&self) -> Option<Token> {
        match self.0.first() {
            Some(Node::Tok(t)) => Some(*t),
            _ => None,
        }
    }

    /// Reads the text form: three-letter tokens, numbers, `'text'` and
    /// brackets.
    pub fn parse(text: &str, repr: &Repr) -> Result<Msg, String> {
        let mut tokens = Vec::new();
        let mut chars = text.chars().peekable();
        while let Some(&c) = chars.peek() {
            match c {
                '(' => {
                    tokens.push(BRA);
                    chars.next();
                }
                ')' => {
                    tokens.push(KET);
                    chars.next();
                }
                '\'' => {
                    chars.next();
                    loop {
                        match chars.next() {
                            None => return Err("an unclosed quote".into()),
                            Some('\'') => {
                                if chars.peek() == Some(&'\'') {
                                    chars.next();
                                    tokens.push(Token::text(b'\''));
                                } else {
                                    break;
                                }
                            }
                            Some(c) if c.is_ascii() => tokens.push(Token::text(c as u8)),
                            Some(c) => return Err(format!("`{c}` is not ASCII")),
                        }
                    }
                }
                c if c.is_whitespace() => {
                    chars.next();
                }
                c if c.is_ascii_digit() || c == '-' => {
                    let mut s = String::new();
                    s.push(c);
                    chars.next();
                    while let Some(&d) = chars.peek() {
                        if d.is_ascii_digit() {
                            s.push(d);
                            chars.next();
                        } else {
                            break;
                        }
                    }
                    let n: i32 = s.parse().map_err(|_| format!("`{s}` is no number"))?;
                    tokens.push(Token::int(n));
                }
                _ => {
                    let mut w = String::new();
                    while let Some(&d) = chars.peek() {
                        if d.is_ascii_alphanumeric() {
                            w.push(d);
                            chars.next();
                        } else {
                            break;
                        }
                    }
                    if w.is_empty() {
                        return Err(format!("`{c}` is no token"));
                    }
                    let t = repr.by_name(&w).ok_or_else(|| format!("`{w}` is no token"))?;
                    tokens.push(t);
                }
            }
        }
        Msg::from_tokens(&tokens).map_err(|e| e.to_string())
    }

    pub fn to_text(&self, repr: &Repr) -> String {
        text_of(&self.tokens(), repr)
    }
}

/// Text of any token sequence (also unbalanced ones).
pub fn text_of(tokens: &[Token], repr: &Repr) -> String {
    let mut out = String::new();
    let mut in_text = false;
    for (i, &t) in tokens.iter().enumerate() {
        if t.is_text() {
            if !in_text {
                if !out.is_empty() && !out.ends_with('(') {
                    out.push(' ');
                }
                out.push('\'');
                in_text = true;
            }
            let c = t.low() as char;
            if c == '\'' {
                out.push_str("''");
            } else {
                out.push(c);
            }
            if !tokens.get(i + 1).is_some_and(|n| n.is_text()) {
                out.push('\'');
                in_text = false;
            }
            continue;
        }
        if t == KET {
            out.push(')');
            continue;
        }
        if !out.is_empty() && !out.ends_with('(') {
            out.push(' ');
        }
        if t == BRA {
            out.push('(');
        } else if let Some(n) = t.as_int() {
            let _ = write!(out, "{n}");
        } else if let Some(n) = repr.name(t) {
            out.push_str(&n);
        } else {
            let _ = write!(out, "0x{:04X}", t.0);
        }
    }
    out
}

fn flatten(nodes: &[Node], out: &mut Vec<Token>) {
    for n in nodes {
        match n {
            Node::Tok(t) => out.push(*t),
            Node::List(l) => {
                out.push(BRA);
                flatten(l, out);
                out.push(KET);
            }
        }
    }
}

impl Node {
    pub fn tok(&self) -> Option<Token> {
        match self {
            Node::Tok(t) => Some(*t),
            Node::List(_) => None,
        }
    }
    pub fn list(&self) -> Option<&[Node]> {
        match self {
            Node::List(l) => Some(l),
            Node::Tok(_) => None,
        }
    }
    /// The number of flat tokens this node stands for.
    pub fn width(&self) -> usize {
        match self {
            Node::Tok(_) => 1,
            Node::List(l) => 2 + l.iter().map(Node::width).sum::<usize>(),
        }
    }
    /// A bracketed text string: `('name')`.
    pub fn string(&self) -> Option<String> {
        let l = self.list()?;
        let mut s = String::new();
        for n in l {
            let t = n.tok().filter(|t| t.is_text())?;
            s.push(t.low() as char);
        }
        Some(s)
    }
}

/// Builds messages.
#[derive(Clone, Debug, Default)]
pub struct B(pub Vec<Node>);

impl B {
    pub fn new(t: Token) -> B {
        B(vec![Node::Tok(t)])
    }
    pub fn t(mut self, t: Token) -> B {
        self.0.push(Node::Tok(t));
        self
    }
    pub fn n(mut self, n: Node) -> B {
        self.0.push(n);
        self
    }
    pub fn l(mut self, inner: B) -> B {
        self.0.push(Node::List(inner.0));
        self
    }
    pub fn ls(mut self, nodes: Vec<Node>) -> B {
        self.0.push(Node::List(nodes));
        self
    }
    pub fn s(mut self, text: &str) -> B {
        self.0.push(Node::List(
            text.bytes()
                .filter(u8::is_ascii)
                .map(|b| Node::Tok(Token::text(b)))
                .collect(),
        ));
        self
    }
    pub fn i(mut self, n: i32) -> B {
        self.0.push(Node::Tok(Token::int(n)));
        self
    }
    pub fn msg(self) -> Msg {
        Msg(self.0)
    }
    pub fn node(self) -> Node {
        Node::List(self.0)
    }
}

/// `YES (msg)`, `REJ (msg)`.
pub fn answer(t: Token, m: &Msg) -> Msg {
    Msg(vec![Node::Tok(t), Node::List(m.0.clone())])
}

/// `HUH (… ERR …)`: the message with ERR before flat token `at`.
pub fn huh(m: &Msg, at: usize) -> Msg {
    let mut flat = m.tokens();
    let at = at.min(flat.len());
    flat.insert(at, ERR);
    // Flat tokens stay balanced: ERR is no bracket.
    let inner = Msg::from_tokens(&flat).map(|m| m.0).unwrap_or_default();
    Msg(vec![Node::Tok(token::HUH), Node::List(inner)])
}

/// `PRN (tokens)` of an unbalanced sequence: sent flat, as received.
pub fn prn(tokens: &[Token]) -> Vec<Token> {
    let mut out = vec![token::PRN, BRA];
    out.extend_from_slice(tokens);
    out.push(KET);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn repr() -> Repr {
        Repr::of(&dip_variants::standard().map)
    }

    #[test]
    fn text_round_trips_through_tokens() {
        let r = repr();
        for s in [
            "SUB ((ENG AMY LVP) HLD) ((ENG FLT LON) MTO NTH)",
            "NME ('Holdbot') ('1.0')",
            "HLO (ENG) (1234) ((LVL 20) (MTL 1200))",
            "TME (-5)",
            "NOW (SPR 1901) (RUS FLT (STP SCS))",
        ] {
            let m = Msg::parse(s, &r).unwrap();
            assert_eq!(m.to_text(&r), s);
            let again = Msg::from_tokens(&tokens_of(&bytes_of(&m.tokens())).unwrap()).unwrap();
            assert_eq!(again, m);
        }
    }

    #[test]
    fn unbalanced_brackets_are_refused() {
        assert_eq!(Msg::from_tokens(&[token::SUB, BRA]), Err(ReadError::Brackets));
        assert_eq!(Msg::from_tokens(&[KET]), Err(ReadError::Brackets));
        assert_eq!(Msg::from_tokens(&[]), Err(ReadError::Empty));
        assert_eq!(tokens_of(&[1, 2, 3]), Err(ReadError::Odd));
    }

    /// A known token: a named one, a power or province of the standard
    /// map, a number, an ASCII character.
    fn known_token(r: &Repr) -> impl Strategy<Value = Token> {
        let named: Vec<Token> = token::NAMED.iter().map(|(t, _)| *t).filter(|t| r.known(*t)).collect();
        let powers: Vec<Token> = (0..7).map(|i| Token::new(token::CAT_POWER, i)).collect();
        let provinces: Vec<Token> = dip_variants::standard()
            .map
            .province_ids()
            .filter_map(|p| r.province(p))
            .collect();
        let named = named.into_iter().filter(|&t| t != BRA && t != KET).collect::<Vec<_>>();
        prop_oneof![
            proptest::sample::select(named),
            proptest::sample::select(powers),
            proptest::sample::select(provinces),
            (-8192i32..8192).prop_map(Token::int),
            (0u8..128).prop_map(Token::text),
        ]
    }

    fn message(r: &Repr) -> impl Strategy<Value = Msg> {
        let leaf = known_token(r).prop_map(Node::Tok);
        let node = leaf.prop_recursive(3, 32, 6, |inner| {
            proptest::collection::vec(inner, 0..6).prop_map(Node::List)
        });
        proptest::collection::vec(node, 1..6).prop_map(Msg)
    }

    proptest! {
        /// Any octets: tokens when there is an even number of them; a
        /// message when the brackets match, which gives its tokens back;
        /// HUH anywhere and the text form never fail.
        #[test]
        fn any_octets_read_as_tokens_and_a_message_give_the_same_tokens_back(
            bytes in proptest::collection::vec(any::<u8>(), 0..200),
            at in any::<proptest::sample::Index>(),
        ) {
            let r = repr();
            match tokens_of(&bytes) {
                Err(e) => prop_assert_eq!(e, ReadError::Odd),
                Ok(tokens) => {
                    prop_assert_eq!(bytes_of(&tokens), bytes.clone());
                    let _ = text_of(&tokens, &r);
                    let _ = prn(&tokens);
                    if let Ok(m) = Msg::from_tokens(&tokens) {
                        prop_assert_eq!(m.tokens(), tokens.clone());
                        let h = huh(&m, at.index(tokens.len() + 1));
                        prop_assert!(h.tokens().contains(&ERR));
                    }
                }
            }
        }

        /// Text that reads as a message reads the same when written back.
        #[test]
        fn any_text_that_reads_reads_again_the_same(text in "[A-Za-z0-9 ()'#-]{0,60}") {
            let r = repr();
            if let Ok(m) = Msg::parse(&text, &r) {
                prop_assert_eq!(Msg::parse(&m.to_text(&r), &r), Ok(m));
            }
        }

        #[test]
        fn any_message_of_known_tokens_is_written_and_read_back(m in message(&repr())) {
            let r = repr();
            let text = m.to_text(&r);
            prop_assert_eq!(Msg::parse(&text, &r), Ok(m.clone()), "{}", text);
        }
    }

    #[test]
    fn huh_puts_err_before_the_bad_token() {
        let r = repr();
        let m = Msg::parse("SUB ((ENG AMY LVP) HLD)", &r).unwrap();
        assert_eq!(huh(&m, 7).to_text(&r), "HUH (SUB ((ENG AMY LVP) ERR HLD))");
        assert_eq!(huh(&m, 0).to_text(&r), "HUH (ERR SUB ((ENG AMY LVP) HLD))");
    }
}
