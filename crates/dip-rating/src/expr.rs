//! Formulas of the Analyse control language: parsing, evaluation, a fast
//! numeric form for the iteration, and `print` with printf formats.
//!
//! Grammar (case-insensitive names):
//!
//! ```text
//! expr   := or
//! or     := and ( ("OR" | "|" | "||") and )*
//! and    := not ( ("AND" | "&" | "&&") not )*
//! not    := "NOT" not | cmp
//! cmp    := sum ( ("=" | "==" | "<>" | "!=" | "<" | "<=" | ">" | ">=") sum )?
//! sum    := prod ( ("+" | "-") prod )*
//! prod   := pow ( ("*" | "/" | "%" | "MOD") pow )*
//! pow    := unary ( "^" pow )?
//! unary  := ("-" | "+") unary | atom
//! atom   := number | 'string' | "string" | name | name "(" args ")" | "(" expr ")"
//! name   := (letter | "$" | "_") (letter | digit | "$" | "_" | ".")*
//! ```

use std::fmt::Write as _;

/// A value: a number, a string or NONE (an unset job parameter).
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Num(f64),
    Str(String),
    None,
}

impl Value {
    pub fn num(&self) -> f64 {
        match self {
            Value::Num(x) => *x,
            Value::Str(s) => s.trim().parse().unwrap_or(0.0),
            Value::None => 0.0,
        }
    }
    pub fn text(&self) -> String {
        match self {
            Value::Num(x) => fmt_num(*x),
            Value::Str(s) => s.clone(),
            Value::None => "NONE".to_string(),
        }
    }
}

/// Shortest plain form of a number (integers without a fraction).
pub fn fmt_num(x: f64) -> String {
    if x.is_finite() && x == x.trunc() && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Pow,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

/// A parsed formula. `usize` fields are byte offsets into the formula text.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Num(f64),
    Str(String),
    Var(String, usize),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    Call(String, Vec<Expr>, usize),
}

/// A formula error: the byte offset in the formula and what went wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct ExprError {
    pub at: usize,
    pub msg: String,
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(f64),
    Str(String),
    Name(String),
    Op(&'static str),
    End,
}

struct Lexer<'a> {
    s: &'a [u8],
    src: &'a str,
    i: usize,
}

fn is_name_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'$' || c == b'_' || c >= 0x80
}
fn is_name_char(c: u8) -> bool {
    is_name_start(c) || c.is_ascii_digit() || c == b'.'
}

impl<'a> Lexer<'a> {
    /// The next token and where it starts.
    fn next(&mut self) -> Result<(Tok, usize), ExprError> {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
        let start = self.i;
        let Some(&c) = self.s.get(self.i) else {
            return Ok((Tok::End, start));
        };
        let t = if c.is_ascii_digit() || (c == b'.' && self.s.get(self.i + 1).is_some_and(|d| d.is_ascii_digit())) {
            self.number()?
        } else if is_name_start(c) {
            self.name()
        } else if c == b'\'' || c == b'"' {
            self.string(c)?
        } else {
            self.operator(c)?
        };
        Ok((t, start))
    }

    /// Digits with an optional point and exponent.
    fn number(&mut self) -> Result<Tok, ExprError> {
        let start = self.i;
        let mut j = self.i;
        while j < self.s.len() && (self.s[j].is_ascii_digit() || self.s[j] == b'.') {
            j += 1;
        }
        if j < self.s.len() && (self.s[j] == b'e' || self.s[j] == b'E') {
            let mut k = j + 1;
            if k < self.s.len() && (self.s[k] == b'+' || self.s[k] == b'-') {
                k += 1;
            }
            // an `e` not followed by digits is not part of the number
            if k < self.s.len() && self.s[k].is_ascii_digit() {
                while k < self.s.len() && self.s[k].is_ascii_digit() {
                    k += 1;
                }
                j = k;
            }
        }
        let text = &self.src[self.i..j];
        let v: f64 = text.parse().map_err(|_| ExprError {
            at: start,
            msg: format!("bad number `{text}`"),
        })?;
        self.i = j;
        Ok(Tok::Num(v))
    }

    /// A name in capitals, or the word operators AND, OR, NOT and MOD.
    fn name(&mut self) -> Tok {
        let mut j = self.i;
        while j < self.s.len() && is_name_char(self.s[j]) {
            j += 1;
        }
        // a name never ends with '.'
        while j > self.i + 1 && self.s[j - 1] == b'.' {
            j -= 1;
        }
        let name = self.src[self.i..j].to_ascii_uppercase();
        self.i = j;
        match name.as_str() {
            "AND" => Tok::Op("&"),
            "OR" => Tok::Op("|"),
            "NOT" => Tok::Op("NOT"),
            "MOD" => Tok::Op("%"),
            _ => Tok::Name(name),
        }
    }

    /// A string in the quote `q` (' or "); a doubled quote stands for itself.
    fn string(&mut self, q: u8) -> Result<Tok, ExprError> {
        let start = self.i;
        let mut j = self.i + 1;
        let mut out = String::new();
        loop {
            match self.s.get(j) {
                None => {
                    return Err(ExprError {
                        at: start,
                        msg: "string is not closed".into(),
                    })
                }
                Some(&c) if c == q => {
                    if self.s.get(j + 1) == Some(&q) {
                        out.push(q as char);
                        j += 2;
                        continue;
                    }
                    j += 1;
                    break;
                }
                Some(_) => {
                    let ch = self.src[j..].chars().next().unwrap_or(' ');
                    out.push(ch);
                    j += ch.len_utf8();
                }
            }
        }
        self.i = j;
        Ok(Tok::Str(out))
    }

    /// An operator or punctuation of one or two characters; the other
    /// spellings (`!=`, `==`, `&&`, `||`, `**`) become the one the parser knows.
    fn operator(&mut self, c: u8) -> Result<Tok, ExprError> {
        let two = self.src.get(self.i..self.i + 2).unwrap_or("");
        let op2: Option<&'static str> = match two {
            "<=" => Some("<="),
            ">=" => Some(">="),
            "<>" => Some("<>"),
            "!=" => Some("<>"),
            "==" => Some("="),
            "&&" => Some("&"),
            "||" => Some("|"),
            ":=" => Some(":="),
            "**" => Some("^"),
            _ => None,
        };
        if let Some(op) = op2 {
            self.i += 2;
            return Ok(Tok::Op(op));
        }
        let op: &'static str = match c {
            b'+' => "+",
            b'-' => "-",
            b'*' => "*",
            b'/' => "/",
            b'%' => "%",
            b'^' => "^",
            b'(' => "(",
            b')' => ")",
            b',' => ",",
            b'=' => "=",
            b'<' => "<",
            b'>' => ">",
            b'&' => "&",
            b'|' => "|",
            b';' => ";",
            b':' => ":",
            b'[' => "[",
            b']' => "]",
            _ => {
                let ch = self.src[self.i..].chars().next().unwrap_or('?');
                return Err(ExprError {
                    at: self.i,
                    msg: format!("unexpected character `{ch}`"),
                });
            }
        };
        self.i += 1;
        Ok(Tok::Op(op))
    }
}

/// A formula parser over a token stream; also used by commands that read a
/// name, then `=`, then a formula.
pub struct Parser<'a> {
    lex: Lexer<'a>,
    tok: Tok,
    at: usize,
    depth: u32,
}

impl<'a> Parser<'a> {
    pub fn new(src: &'a str) -> Result<Self, ExprError> {
        let mut lex = Lexer {
            s: src.as_bytes(),
            src,
            i: 0,
        };
        let (tok, at) = lex.next()?;
        Ok(Parser { lex, tok, at, depth: 0 })
    }
    fn bump(&mut self) -> Result<(), ExprError> {
        let (t, a) = self.lex.next()?;
        self.tok = t;
        self.at = a;
        Ok(())
    }
    /// Offset of the current token.
    pub fn pos(&self) -> usize {
        self.at
    }
    pub fn at_end(&self) -> bool {
        self.tok == Tok::End
    }
    /// The rest of the text from the current token on.
    pub fn rest(&self) -> &'a str {
        &self.lex.src[self.at.min(self.lex.src.len())..]
    }
    /// Consumes an operator token if it is `op`.
    pub fn eat(&mut self, op: &str) -> Result<bool, ExprError> {
        if matches!(&self.tok, Tok::Op(o) if *o == op) {
            self.bump()?;
            return Ok(true);
        }
        Ok(false)
    }
    /// Consumes a name token.
    pub fn name(&mut self) -> Result<Option<String>, ExprError> {
        if let Tok::Name(n) = &self.tok {
            let n = n.clone();
            self.bump()?;
            return Ok(Some(n));
        }
        Ok(None)
    }
    fn err<T>(&self, msg: impl Into<String>) -> Result<T, ExprError> {
        Err(ExprError {
            at: self.at,
            msg: msg.into(),
        })
    }
    pub fn expr(&mut self) -> Result<Expr, ExprError> {
        self.depth += 1;
        if self.depth > 200 {
            return self.err("formula is nested too deeply");
        }
        let r = self.or();
        self.depth -= 1;
        r
    }
    fn or(&mut self) -> Result<Expr, ExprError> {
        let mut l = self.and()?;
        while self.eat("|")? {
            let r = self.and()?;
            l = Expr::Bin(BinOp::Or, Box::new(l), Box::new(r));
        }
        Ok(l)
    }
    fn and(&mut self) -> Result<Expr, ExprError> {
        let mut l = self.not()?;
        while self.eat("&")? {
            let r = self.not()?;
            l = Expr::Bin(BinOp::And, Box::new(l), Box::new(r));
        }
        Ok(l)
    }
    fn not(&mut self) -> Result<Expr, ExprError> {
        if self.eat("NOT")? {
            self.depth += 1;
            if self.depth > 200 {
                return self.err("formula is nested too deeply");
            }
            let e = self.not()?;
            self.depth -= 1;
            return Ok(Expr::Not(Box::new(e)));
        }
        self.cmp()
    }
    fn cmp(&mut self) -> Result<Expr, ExprError> {
        let l = self.sum()?;
        let op = match &self.tok {
            Tok::Op("=") => BinOp::Eq,
            Tok::Op("<>") => BinOp::Ne,
            Tok::Op("<") => BinOp::Lt,
            Tok::Op("<=") => BinOp::Le,
            Tok::Op(">") => BinOp::Gt,
            Tok::Op(">=") => BinOp::Ge,
            _ => return Ok(l),
        };
        self.bump()?;
        let r = self.sum()?;
        Ok(Expr::Bin(op, Box::new(l), Box::new(r)))
    }
    fn sum(&mut self) -> Result<Expr, ExprError> {
        let mut l = self.prod()?;
        loop {
            let op = match &self.tok {
                Tok::Op("+") => BinOp::Add,
                Tok::Op("-") => BinOp::Sub,
                _ => return Ok(l),
            };
            self.bump()?;
            let r = self.prod()?;
            l = Expr::Bin(op, Box::new(l), Box::new(r));
        }
    }
    fn prod(&mut self) -> Result<Expr, ExprError> {
        let mut l = self.pow()?;
        loop {
            let op = match &self.tok {
                Tok::Op("*") => BinOp::Mul,
                Tok::Op("/") => BinOp::Div,
                Tok::Op("%") => BinOp::Mod,
                _ => return Ok(l),
            };
            self.bump()?;
            let r = self.pow()?;
            l = Expr::Bin(op, Box::new(l), Box::new(r));
        }
    }
    fn pow(&mut self) -> Result<Expr, ExprError> {
        let l = self.unary()?;
        if self.eat("^")? {
            self.depth += 1;
            if self.depth > 200 {
                return self.err("formula is nested too deeply");
            }
            let r = self.pow()?;
            self.depth -= 1;
            return Ok(Expr::Bin(BinOp::Pow, Box::new(l), Box::new(r)));
        }
        Ok(l)
    }
    fn unary(&mut self) -> Result<Expr, ExprError> {
        if self.eat("-")? {
            self.depth += 1;
            if self.depth > 200 {
                return self.err("formula is nested too deeply");
            }
            let e = self.unary()?;
            self.depth -= 1;
            return Ok(Expr::Neg(Box::new(e)));
        }
        if self.eat("+")? {
            self.depth += 1;
            if self.depth > 200 {
                return self.err("formula is nested too deeply");
            }
            let e = self.unary()?;
            self.depth -= 1;
            return Ok(e);
        }
        self.atom()
    }
    fn atom(&mut self) -> Result<Expr, ExprError> {
        let at = self.at;
        match self.tok.clone() {
            Tok::Num(v) => {
                self.bump()?;
                Ok(Expr::Num(v))
            }
            Tok::Str(s) => {
                self.bump()?;
                Ok(Expr::Str(s))
            }
            Tok::Name(n) => {
                self.bump()?;
                if self.eat("(")? {
                    let mut args = Vec::new();
                    if !self.eat(")")? {
                        loop {
                            args.push(self.expr()?);
                            if self.eat(")")? {
                                break;
                            }
                            if !self.eat(",")? {
                                return self.err(format!("expected `,` or `)` in the arguments of {n}"));
                            }
                        }
                    }
                    check_call(&n, args.len(), at)?;
                    return Ok(Expr::Call(n, args, at));
                }
                Ok(Expr::Var(n, at))
            }
            Tok::Op("(") => {
                self.bump()?;
                let e = self.expr()?;
                if !self.eat(")")? {
                    return self.err("expected `)`");
                }
                Ok(e)
            }
            Tok::End => self.err("expected a value, found the end of the formula"),
            Tok::Op(o) => self.err(format!("expected a value, found `{o}`")),
        }
    }
}

const FUNCS: &[(&str, usize, usize)] = &[
    ("LOG", 1, 1),
    ("LN", 1, 1),
    ("LOG10", 1, 1),
    ("EXP", 1, 1),
    ("SQRT", 1, 1),
    ("ABS", 1, 1),
    ("INT", 1, 1),
    ("ROUND", 1, 1),
    ("FLOOR", 1, 1),
    ("CEIL", 1, 1),
    ("SIGN", 1, 1),
    ("POW", 2, 2),
    ("MIN", 1, 64),
    ("MAX", 1, 64),
    ("IF", 3, 3),
    ("PRINT", 1, 64),
    ("STR", 1, 1),
    ("VAL", 1, 1),
    ("LEN", 1, 1),
    ("UPPER", 1, 1),
    ("LOWER", 1, 1),
];

fn check_call(name: &str, n: usize, at: usize) -> Result<(), ExprError> {
    match FUNCS.iter().find(|f| f.0 == name) {
        None => Err(ExprError {
            at,
            msg: format!("unknown function `{name}`"),
        }),
        Some(&(_, lo, hi)) if n < lo || n > hi => Err(ExprError {
            at,
            msg: if lo == hi {
                format!("{name} takes {lo} argument(s), found {n}")
            } else {
                format!("{name} takes {lo} to {hi} arguments, found {n}")
            },
        }),
        _ => Ok(()),
    }
}

/// Parses a whole formula.
pub fn parse(src: &str) -> Result<Expr, ExprError> {
    let mut p = Parser::new(src)?;
    let e = p.expr()?;
    if !p.at_end() {
        return p.err("unexpected text after the formula");
    }
    Ok(e)
}

/// How numbers are rounded to integers (ROUNDING command, `%d`, INT).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Rounding {
    #[default]
    Nearest,
    Zero,
    Up,
    Down,
}

impl Rounding {
    pub fn apply(self, x: f64) -> f64 {
        match self {
            Rounding::Nearest => x.round(),
            Rounding::Zero => x.trunc(),
            Rounding::Up => x.ceil(),
            Rounding::Down => x.floor(),
        }
    }
}

/// Where formulas find their variables. Names are upper case.
pub trait Scope {
    fn get(&self, name: &str) -> Option<Value>;
    fn rounding(&self) -> Rounding {
        Rounding::Nearest
    }
}

fn truth(b: bool) -> Value {
    Value::Num(if b { 1.0 } else { 0.0 })
}

/// The longest string a formula may make (1 MiB): `SET s = s + s`
/// repeated would otherwise grow without limit.
pub const MAX_STRING: usize = 1 << 20;

/// Evaluates a formula. Unknown names are an error (with their offset).
pub fn eval(e: &Expr, s: &dyn Scope) -> Result<Value, ExprError> {
    Ok(match e {
        Expr::Num(v) => Value::Num(*v),
        Expr::Str(t) => Value::Str(t.clone()),
        Expr::Var(n, at) => match s.get(n) {
            Some(v) => v,
            None => {
                return Err(ExprError {
                    at: *at,
                    msg: format!("unknown variable `{n}`"),
                })
            }
        },
        Expr::Neg(a) => Value::Num(-eval(a, s)?.num()),
        Expr::Not(a) => truth(eval(a, s)?.num() == 0.0),
        Expr::Bin(op, a, b) => {
            let x = eval(a, s)?;
            let y = eval(b, s)?;
            match op {
                BinOp::Add => match (&x, &y) {
                    (Value::Str(_), _) | (_, Value::Str(_)) => {
                        let (p, q) = (x.text(), y.text());
                        if p.len() + q.len() > MAX_STRING {
                            return Err(ExprError {
                                at: 0,
                                msg: format!(
                                    "a string would grow to {} bytes; strings are limited to {MAX_STRING} bytes",
                                    p.len() + q.len()
                                ),
                            });
                        }
                        Value::Str(p + &q)
                    }
                    _ => Value::Num(x.num() + y.num()),
                },
                BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                    let ord = match (&x, &y) {
                        (Value::Num(p), Value::Num(q)) => p.partial_cmp(q),
                        _ => Some(x.text().to_uppercase().cmp(&y.text().to_uppercase())),
                    };
                    use std::cmp::Ordering::*;
                    truth(match op {
                        BinOp::Eq => ord == Some(Equal),
                        BinOp::Ne => ord != Some(Equal),
                        BinOp::Lt => ord == Some(Less),
                        BinOp::Le => matches!(ord, Some(Less | Equal)),
                        BinOp::Gt => ord == Some(Greater),
                        _ => matches!(ord, Some(Greater | Equal)),
                    })
                }
                _ => Value::Num(num_op(*op, x.num(), y.num())),
            }
        }
        Expr::Call(f, args, _) => call(f, args, s)?,
    })
}

fn num_op(op: BinOp, x: f64, y: f64) -> f64 {
    match op {
        BinOp::Add => x + y,
        BinOp::Sub => x - y,
        BinOp::Mul => x * y,
        BinOp::Div => x / y,
        BinOp::Mod => x % y,
        BinOp::Pow => x.powf(y),
        BinOp::Eq => (x == y) as i32 as f64,
        BinOp::Ne => (x != y) as i32 as f64,
        BinOp::Lt => (x < y) as i32 as f64,
        BinOp::Le => (x <= y) as i32 as f64,
        BinOp::Gt => (x > y) as i32 as f64,
        BinOp::Ge => (x >= y) as i32 as f64,
        BinOp::And => (x != 0.0 && y != 0.0) as i32 as f64,
        BinOp::Or => (x != 0.0 || y != 0.0) as i32 as f64,
    }
}

fn call(f: &str, args: &[Expr], s: &dyn Scope) -> Result<Value, ExprError> {
    if f == "IF" {
        let c = eval(&args[0], s)?.num();
        return eval(if c != 0.0 { &args[1] } else { &args[2] }, s);
    }
    let vals: Vec<Value> = args.iter().map(|a| eval(a, s)).collect::<Result<_, _>>()?;
    let x = vals.first().map(Value::num).unwrap_or(0.0);
    Ok(Value::Num(match f {
        "LOG" | "LN" => x.ln(),
        "LOG10" => x.log10(),
        "EXP" => x.exp(),
        "SQRT" => x.sqrt(),
        "ABS" => x.abs(),
        "INT" => s.rounding().apply(x),
        "ROUND" => x.round(),
        "FLOOR" => x.floor(),
        "CEIL" => x.ceil(),
        "SIGN" => {
            if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                0.0
            }
        }
        "POW" => x.powf(vals[1].num()),
        "MIN" => vals.iter().map(Value::num).fold(f64::INFINITY, f64::min),
        "MAX" => vals.iter().map(Value::num).fold(f64::NEG_INFINITY, f64::max),
        "VAL" => x,
        "LEN" => vals[0].text().chars().count() as f64,
        "STR" => return Ok(Value::Str(vals[0].text())),
        "UPPER" => return Ok(Value::Str(vals[0].text().to_uppercase())),
        "LOWER" => return Ok(Value::Str(vals[0].text().to_lowercase())),
        "PRINT" => return Ok(Value::Str(printf(&vals[0].text(), &vals[1..], s.rounding()))),
        _ => 0.0,
    }))
}

/// C-style formatting: `%[flags][width][.precision](d|i|u|f|e|E|g|G|s|x|X|o|c|%)`.
/// Flags: `-` left, `+` sign, space, `0` zero pad, `#` alternate.
/// `%d` rounds according to `rounding`. Missing arguments print as empty.
pub fn printf(fmt: &str, args: &[Value], rounding: Rounding) -> String {
    let mut out = String::new();
    let cs: Vec<char> = fmt.chars().collect();
    let mut i = 0;
    let mut next = 0;
    while i < cs.len() {
        let c = cs[i];
        if c == '\\' && i + 1 < cs.len() && "nt\\".contains(cs[i + 1]) {
            out.push(match cs[i + 1] {
                'n' => '\n',
                't' => '\t',
                _ => '\\',
            });
            i += 2;
            continue;
        }
        if c != '%' {
            out.push(c);
            i += 1;
            continue;
        }
        i += 1;
        if i < cs.len() && cs[i] == '%' {
            out.push('%');
            i += 1;
            continue;
        }
        let spec = Spec::read(&cs, &mut i);
        let Some(&conv) = cs.get(i) else {
            out.push('%');
            break;
        };
        i += 1;
        let arg = args.get(next).cloned().unwrap_or(Value::Str(String::new()));
        let Some((sign, body)) = spec.convert(conv, &arg, rounding) else {
            // not a conversion: printed as written, and takes no argument
            out.push('%');
            out.push(conv);
            continue;
        };
        next += 1;
        spec.pad(&mut out, sign, &body, !matches!(conv, 's' | 'c'));
    }
    out
}

/// The flags, width and precision of one `%` conversion.
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    zero: bool,
    alt: bool,
    width: usize,
    prec: Option<usize>,
}

impl Spec {
    /// Reads flags, width, precision and C's length modifiers (ignored)
    /// from `cs[*i..]`, leaving `*i` at the conversion character.
    fn read(cs: &[char], i: &mut usize) -> Spec {
        let mut s = Spec {
            left: false,
            plus: false,
            space: false,
            zero: false,
            alt: false,
            width: 0,
            prec: None,
        };
        while *i < cs.len() && "-+ 0#".contains(cs[*i]) {
            match cs[*i] {
                '-' => s.left = true,
                '+' => s.plus = true,
                ' ' => s.space = true,
                '0' => s.zero = true,
                _ => s.alt = true,
            }
            *i += 1;
        }
        while *i < cs.len() && cs[*i].is_ascii_digit() {
            s.width = (s.width * 10 + cs[*i] as usize - '0' as usize).min(1000);
            *i += 1;
        }
        if *i < cs.len() && cs[*i] == '.' {
            *i += 1;
            let mut p = 0usize;
            while *i < cs.len() && cs[*i].is_ascii_digit() {
                p = (p * 10 + cs[*i] as usize - '0' as usize).min(300);
                *i += 1;
            }
            s.prec = Some(p);
        }
        while *i < cs.len() && "lhLqjzt".contains(cs[*i]) {
            *i += 1;
        }
        s
    }

    /// The sign shown before a number.
    fn sign(&self, neg: bool) -> &'static str {
        if neg {
            "-"
        } else if self.plus {
            "+"
        } else if self.space {
            " "
        } else {
            ""
        }
    }

    /// The sign and digits (or text) of `arg` for conversion `conv`;
    /// `None` when `conv` is no conversion.
    fn convert(&self, conv: char, arg: &Value, rounding: Rounding) -> Option<(&'static str, String)> {
        let (prec, alt) = (self.prec, self.alt);
        Some(match conv {
            'd' | 'i' | 'u' => {
                let v = rounding.apply(arg.num());
                let mut b = format!("{}", v.abs() as i128);
                if let Some(p) = prec {
                    while b.len() < p {
                        b.insert(0, '0');
                    }
                }
                (self.sign(v < 0.0), b)
            }
            'x' | 'X' | 'o' => {
                let v = rounding.apply(arg.num()).abs() as u64;
                let b = match conv {
                    'x' => format!("{}{v:x}", if alt { "0x" } else { "" }),
                    'X' => format!("{}{v:X}", if alt { "0X" } else { "" }),
                    _ => format!("{}{v:o}", if alt { "0" } else { "" }),
                };
                ("", b)
            }
            'f' | 'F' => {
                let v = arg.num();
                (
                    self.sign(v.is_sign_negative() && v != 0.0),
                    format!("{:.*}", prec.unwrap_or(6), v.abs()),
                )
            }
            'e' | 'E' => {
                let v = arg.num();
                let b = c_exp(v.abs(), prec.unwrap_or(6), conv == 'E');
                (self.sign(v < 0.0), b)
            }
            'g' | 'G' => {
                let v = arg.num();
                let p = prec.unwrap_or(6).max(1);
                let b = c_general(v.abs(), p, alt, conv == 'G');
                (self.sign(v < 0.0), b)
            }
            'c' => ("", arg.text().chars().next().map(String::from).unwrap_or_default()),
            's' => {
                let t = arg.text();
                (
                    "",
                    match prec {
                        Some(p) => t.chars().take(p).collect(),
                        None => t,
                    },
                )
            }
            _ => return None,
        })
    }

    /// Writes sign and body padded to the width: spaces on the left (or on
    /// the right with `-`), zeros after the sign with `0` for numbers.
    fn pad(&self, out: &mut String, sign: &str, body: &str, numeric: bool) {
        let len = sign.chars().count() + body.chars().count();
        let pad = self.width.saturating_sub(len);
        if self.left {
            let _ = write!(out, "{sign}{body}{}", " ".repeat(pad));
        } else if self.zero && numeric {
            let _ = write!(out, "{sign}{}{body}", "0".repeat(pad));
        } else {
            let _ = write!(out, "{}{sign}{body}", " ".repeat(pad));
        }
    }
}

fn c_exp(v: f64, prec: usize, upper: bool) -> String {
    if !v.is_finite() {
        return format!("{v}");
    }
    let s = format!("{:.*e}", prec, v);
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    let e: i32 = e.parse().unwrap_or(0);
    let r = format!("{m}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs());
    if upper {
        r.to_uppercase()
    } else {
        r
    }
}

fn c_general(v: f64, p: usize, alt: bool, upper: bool) -> String {
    if v == 0.0 {
        return "0".into();
    }
    if !v.is_finite() {
        return format!("{v}");
    }
    let e = v.log10().floor() as i32;
    let exp_form = c_exp(v, p - 1, upper);
    let e = exp_form
        .rsplit_once(if upper { 'E' } else { 'e' })
        .and_then(|(_, x)| x.parse::<i32>().ok())
        .unwrap_or(e);
    let mut s = if e < -4 || e >= p as i32 {
        exp_form
    } else {
        format!("{:.*}", (p as i32 - 1 - e).max(0) as usize, v)
    };
    if !alt {
        if let Some((m, x)) = s.split_once(['e', 'E']) {
            let m = strip_zeros(m);
            s = format!("{m}{}{x}", if upper { 'E' } else { 'e' });
        } else {
            s = strip_zeros(&s);
        }
    }
    s
}

fn strip_zeros(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

// ---------------------------------------------------------------------------
// Numeric programs: formulas compiled for the iteration's inner loop.

#[derive(Debug, Clone, Copy)]
enum Op {
    Const(f64),
    Slot(u16),
    Neg,
    Not,
    Bin(BinOp),
    Call1(fn(f64) -> f64),
    Min(u8),
    Max(u8),
    If,
}

/// A purely numeric formula with its variables resolved to slots; evaluated
/// with a small stack, no allocation.
#[derive(Debug, Clone)]
pub struct NumProg {
    ops: Vec<Op>,
}

/// How a compiled variable is found: a slot in the evaluation array or a
/// constant fixed at compile time.
pub enum Resolved {
    Slot(u16),
    Const(f64),
}

impl NumProg {
    /// Compiles `e`; `None` if it uses strings or functions without a numeric
    /// form (callers then fall back to [`eval`]).
    pub fn compile(e: &Expr, resolve: &dyn Fn(&str) -> Option<Resolved>) -> Option<NumProg> {
        let mut ops = Vec::new();
        let depth = emit(e, resolve, &mut ops, 0)?;
        if depth > 64 {
            return None;
        }
        Some(NumProg { ops })
    }

    /// Evaluates with the variable slots in `slots`.
    #[inline]
    pub fn run(&self, slots: &[f64]) -> f64 {
        let mut st = [0.0f64; 64];
        let mut sp = 0usize;
        for op in &self.ops {
            match *op {
                Op::Const(v) => {
                    st[sp] = v;
                    sp += 1;
                }
                Op::Slot(i) => {
                    st[sp] = slots.get(i as usize).copied().unwrap_or(0.0);
                    sp += 1;
                }
                Op::Neg => st[sp - 1] = -st[sp - 1],
                Op::Not => st[sp - 1] = (st[sp - 1] == 0.0) as i32 as f64,
                Op::Bin(b) => {
                    sp -= 1;
                    st[sp - 1] = num_op(b, st[sp - 1], st[sp]);
                }
                Op::Call1(f) => st[sp - 1] = f(st[sp - 1]),
                Op::Min(n) => {
                    let n = n as usize;
                    let v = st[sp - n..sp].iter().copied().fold(f64::INFINITY, f64::min);
                    sp -= n - 1;
                    st[sp - 1] = v;
                }
                Op::Max(n) => {
                    let n = n as usize;
                    let v = st[sp - n..sp].iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    sp -= n - 1;
                    st[sp - 1] = v;
                }
                Op::If => {
                    sp -= 2;
                    st[sp - 1] = if st[sp - 1] != 0.0 { st[sp] } else { st[sp + 1] };
                }
            }
        }
        if sp == 0 {
            0.0
        } else {
            st[sp - 1]
        }
    }
}

/// Emits ops; returns the maximum stack depth used.
fn emit(e: &Expr, r: &dyn Fn(&str) -> Option<Resolved>, ops: &mut Vec<Op>, d: usize) -> Option<usize> {
    Some(match e {
        Expr::Num(v) => {
            ops.push(Op::Const(*v));
            d + 1
        }
        Expr::Str(_) => return None,
        Expr::Var(n, _) => {
            ops.push(match r(n)? {
                Resolved::Slot(i) => Op::Slot(i),
                Resolved::Const(v) => Op::Const(v),
            });
            d + 1
        }
        Expr::Neg(a) => {
            let m = emit(a, r, ops, d)?;
            ops.push(Op::Neg);
            m
        }
        Expr::Not(a) => {
            let m = emit(a, r, ops, d)?;
            ops.push(Op::Not);
            m
        }
        Expr::Bin(op, a, b) => {
            let m1 = emit(a, r, ops, d)?;
            let m2 = emit(b, r, ops, d + 1)?;
            ops.push(Op::Bin(*op));
            m1.max(m2)
        }
        Expr::Call(f, args, _) => {
            let f1: Option<fn(f64) -> f64> = match f.as_str() {
                "LOG" | "LN" => Some(f64::ln),
                "LOG10" => Some(f64::log10),
                "EXP" => Some(f64::exp),
                "SQRT" => Some(f64::sqrt),
                "ABS" => Some(f64::abs),
                "ROUND" => Some(f64::round),
                "FLOOR" => Some(f64::floor),
                "CEIL" => Some(f64::ceil),
                "VAL" => Some(|x| x),
                _ => None,
            };
            if let Some(f1) = f1 {
                let m = emit(&args[0], r, ops, d)?;
                ops.push(Op::Call1(f1));
                return Some(m);
            }
            match f.as_str() {
                "MIN" | "MAX" | "IF" | "POW" => {
                    let mut m = d;
                    for (k, a) in args.iter().enumerate() {
                        m = m.max(emit(a, r, ops, d + k)?);
                    }
                    ops.push(match f.as_str() {
                        "MIN" => Op::Min(args.len() as u8),
                        "MAX" => Op::Max(args.len() as u8),
                        "POW" => Op::Bin(BinOp::Pow),
                        _ => Op::If,
                    });
                    m
                }
                _ => return None,
            }
        }
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn analyse_string_doubling_grows_without_limit() {
        struct S(std::cell::RefCell<String>);
        impl super::Scope for S {
            fn get(&self, n: &str) -> Option<super::Value> {
                (n.eq_ignore_ascii_case("s")).then(|| super::Value::Str(self.0.borrow().clone()))
            }
        }
        let s = S(std::cell::RefCell::new("ab".into()));
        let e = super::parse("s + s").unwrap();
        let mut failed = false;
        for _ in 0..40 {
            match super::eval(&e, &s) {
                Ok(v) => *s.0.borrow_mut() = v.text(),
                Err(err) => {
                    assert!(err.msg.contains("limited"), "{}", err.msg);
                    failed = true;
                    break;
                }
            }
        }
        assert!(failed);
    }

    use super::*;
    struct S;
    impl Scope for S {
        fn get(&self, n: &str) -> Option<Value> {
            match n {
                "I" => Some(Value::Num(3.0)),
                "NAME" => Some(Value::Str("Anna".into())),
                "LEVEL" => Some(Value::Num(1.23456)),
                _ => None,
            }
        }
    }

    #[test]
    fn default_print_formula() {
        let e = parse("print('%4d. %-25s %8.3f',I,NAME,LEVEL)").unwrap();
        assert_eq!(
            eval(&e, &S).unwrap(),
            Value::Str(format!("   3. {:<25} {:>8}", "Anna", "1.235"))
        );
    }

    #[test]
    fn precedence_and_comparisons() {
        let v = |s: &str| eval(&parse(s).unwrap(), &S).unwrap().num();
        assert_eq!(v("1 + 2 * 3 ^ 2"), 19.0);
        assert_eq!(v("2 ^ 3 ^ 2"), 512.0);
        assert_eq!(v("-2 ^ 2"), 4.0);
        assert_eq!(v("(1 < 2) and not (3 <= 2)"), 1.0);
        assert_eq!(v("if(I = 3, 10, 20)"), 10.0);
        assert_eq!(v("max(1, I, 2) + min(4, 5)"), 7.0);
        assert!((v("exp(log(10))") - 10.0).abs() < 1e-12);
        assert_eq!(v("7 mod 4"), 3.0);
    }

    #[test]
    fn errors_have_offsets() {
        assert_eq!(parse("1 + ").unwrap_err().at, 4);
        assert_eq!(parse("foo(1)").unwrap_err().at, 0);
        assert_eq!(parse("(1 + 2").unwrap_err().at, 6);
        assert_eq!(eval(&parse("1 + XYZ").unwrap(), &S).unwrap_err().at, 4);
    }

    #[test]
    fn printf_forms() {
        let n = |x: f64| Value::Num(x);
        assert_eq!(
            printf(
                "%05.1f|%-4d|%+d|%e|%g|%g",
                &[n(3.17159), n(7.0), n(5.0), n(1234.5), n(0.0001), n(123456789.0)],
                Rounding::Nearest
            ),
            "003.2|7   |+5|1.234500e+03|0.0001|1.23457e+08"
        );
        assert_eq!(printf("%d %d", &[n(2.5), n(-2.5)], Rounding::Zero), "2 -2");
        assert_eq!(printf("%d", &[n(2.5)], Rounding::Up), "3");
        assert_eq!(printf("100%%", &[], Rounding::Nearest), "100%");
        assert_eq!(printf("a\\nb\\tc", &[], Rounding::Nearest), "a\nb\tc");
    }

    #[test]
    fn numeric_program_matches_eval() {
        let e = parse("WEIGHT * P * (SUMLEVEL-LEVEL) / (N-1)").unwrap();
        let names = ["WEIGHT", "P", "SUMLEVEL", "LEVEL", "N"];
        let prog = NumProg::compile(&e, &|n| {
            names.iter().position(|x| *x == n).map(|i| Resolved::Slot(i as u16))
        })
        .unwrap();
        assert_eq!(prog.run(&[2.0, 1.5, 7.0, 1.0, 4.0]), 2.0 * 1.5 * 6.0 / 3.0);
    }
}
