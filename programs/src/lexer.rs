//! Tokens with byte spans, shared by every dialect's parser.
//!
//! The lexer is deliberately dialect-neutral: keywords are identifiers and the parsers
//! decide what they mean, since `TEXTURE`, `DP4` or `x` are keywords in one place and
//! variable names in another. Two things need care here rather than in the parsers:
//! texture-target names that start with a digit (`2D`, `3D`, `2DMS`) and array ranges
//! (`[0..3]`), whose `..` must not be read as part of a number.

use crate::error::{ErrorKind, ProgramError};
use crate::span::Span;

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    /// `!!ARBvp1.0`, `!!NVfp5.0`, `!!VP1.0` ... (the text after `!!`).
    Header(String),
    Ident(String),
    /// A decimal or `0x` integer, kept as u64 so callers can range-check it.
    Int(u64),
    /// A number with a decimal point or an exponent; `text` is kept so callers can tell
    /// `1.` from `1` where the grammar cares.
    Float(f64),
    Dot,
    DotDot,
    Comma,
    Semi,
    Colon,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    LParen,
    RParen,
    Eq,
    Plus,
    Minus,
    Bar,
    Lt,
    Gt,
    /// End of input (always the last token).
    Eof,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Token {
    pub(crate) tok: Tok,
    pub(crate) span: Span,
}

impl Tok {
    /// How the token reads in an error message.
    pub(crate) fn describe(&self) -> String {
        match self {
            Tok::Header(h) => format!("'!!{h}'"),
            Tok::Ident(s) => format!("'{s}'"),
            Tok::Int(v) => format!("'{v}'"),
            Tok::Float(v) => format!("'{v}'"),
            Tok::Dot => "'.'".into(),
            Tok::DotDot => "'..'".into(),
            Tok::Comma => "','".into(),
            Tok::Semi => "';'".into(),
            Tok::Colon => "':'".into(),
            Tok::LBracket => "'['".into(),
            Tok::RBracket => "']'".into(),
            Tok::LBrace => "'{'".into(),
            Tok::RBrace => "'}'".into(),
            Tok::LParen => "'('".into(),
            Tok::RParen => "')'".into(),
            Tok::Eq => "'='".into(),
            Tok::Plus => "'+'".into(),
            Tok::Minus => "'-'".into(),
            Tok::Bar => "'|'".into(),
            Tok::Lt => "'<'".into(),
            Tok::Gt => "'>'".into(),
            Tok::Eof => "end of program".into(),
        }
    }
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$'
}

fn is_ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// Splits `text` into tokens. `#` starts a comment to the end of the line. Lexing stops
/// after the first `END` identifier only in the parsers (text after `END` is ignored by
/// the specs), so the lexer tokenizes everything; callers that must ignore trailing text
/// should lex lazily with [`Lexer`]. Only the lexer's tests need the whole list at once.
#[cfg(test)]
pub(crate) fn tokenize(text: &str) -> Result<Vec<Token>, ProgramError> {
    let mut lx = Lexer::new(text);
    let mut out = Vec::new();
    loop {
        let t = lx.next_token()?;
        let end = t.tok == Tok::Eof;
        out.push(t);
        if end {
            return Ok(out);
        }
    }
}

/// An incremental lexer, for parsers that stop at `END` and must not reject what follows.
pub(crate) struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
}

impl<'a> Lexer<'a> {
    pub(crate) fn new(text: &'a str) -> Lexer<'a> {
        Lexer {
            src: text.as_bytes(),
            pos: 0,
        }
    }

    fn peek(&self, k: usize) -> u8 {
        self.src.get(self.pos + k).copied().unwrap_or(0)
    }

    fn skip_trivia(&mut self) {
        loop {
            let b = self.peek(0);
            if b == b'#' {
                while self.pos < self.src.len() && self.src[self.pos] != b'\n' {
                    self.pos += 1;
                }
            } else if b.is_ascii_whitespace() && self.pos < self.src.len() {
                self.pos += 1;
            } else {
                return;
            }
        }
    }

    pub(crate) fn next_token(&mut self) -> Result<Token, ProgramError> {
        self.skip_trivia();
        let start = self.pos;
        if self.pos >= self.src.len() {
            return Ok(Token {
                tok: Tok::Eof,
                span: Span::new(start, start),
            });
        }
        let b = self.peek(0);
        let tok = if b == b'!' && self.peek(1) == b'!' {
            self.pos += 2;
            // Header text: letters, digits and dots up to whitespace.
            while self.pos < self.src.len()
                && (is_ident_char(self.src[self.pos]) || self.src[self.pos] == b'.')
            {
                self.pos += 1;
            }
            Tok::Header(String::from_utf8_lossy(&self.src[start + 2..self.pos]).into_owned())
        } else if is_ident_start(b) {
            while is_ident_char(self.peek(0)) {
                self.pos += 1;
            }
            Tok::Ident(String::from_utf8_lossy(&self.src[start..self.pos]).into_owned())
        } else if b.is_ascii_digit() || (b == b'.' && self.peek(1).is_ascii_digit()) {
            self.number(start)?
        } else {
            self.pos += 1;
            match b {
                b'.' if self.peek(0) == b'.' => {
                    self.pos += 1;
                    Tok::DotDot
                }
                b'.' => Tok::Dot,
                b',' => Tok::Comma,
                b';' => Tok::Semi,
                b':' => Tok::Colon,
                b'[' => Tok::LBracket,
                b']' => Tok::RBracket,
                b'{' => Tok::LBrace,
                b'}' => Tok::RBrace,
                b'(' => Tok::LParen,
                b')' => Tok::RParen,
                b'=' => Tok::Eq,
                b'+' => Tok::Plus,
                b'-' => Tok::Minus,
                b'|' => Tok::Bar,
                b'<' => Tok::Lt,
                b'>' => Tok::Gt,
                _ => {
                    let ch = std::str::from_utf8(&self.src[start..])
                        .ok()
                        .and_then(|s| s.chars().next())
                        .map_or_else(|| format!("byte 0x{b:02x}"), |c| format!("'{c}'"));
                    return Err(ProgramError::new(
                        ErrorKind::Lexical,
                        Span::new(start, start + 1),
                        format!("unexpected character {ch}"),
                    ));
                }
            }
        };
        Ok(Token {
            tok,
            span: Span::new(start, self.pos),
        })
    }

    fn number(&mut self, start: usize) -> Result<Tok, ProgramError> {
        let err = |s: usize, e: usize, what: &str| {
            ProgramError::new(ErrorKind::Lexical, Span::new(s, e), what.to_string())
        };
        // Hexadecimal integer (NV_gpu_program4).
        if self.peek(0) == b'0' && (self.peek(1) == b'x' || self.peek(1) == b'X') {
            self.pos += 2;
            let digits = self.pos;
            while self.peek(0).is_ascii_hexdigit() {
                self.pos += 1;
            }
            let s = std::str::from_utf8(&self.src[digits..self.pos]).unwrap_or("");
            if s.is_empty() {
                return Err(err(start, self.pos, "malformed hexadecimal constant"));
            }
            return u64::from_str_radix(s, 16)
                .map(Tok::Int)
                .map_err(|_| err(start, self.pos, "hexadecimal constant too large"));
        }
        while self.peek(0).is_ascii_digit() {
            self.pos += 1;
        }
        // Texture targets that start with a digit: 1D, 2D, 3D, 2DMS.
        if self.peek(0).is_ascii_alphabetic() && !self.exponent_follows() {
            while is_ident_char(self.peek(0)) {
                self.pos += 1;
            }
            return Ok(Tok::Ident(
                String::from_utf8_lossy(&self.src[start..self.pos]).into_owned(),
            ));
        }
        let mut is_float = false;
        if self.peek(0) == b'.' && self.peek(1) != b'.' {
            is_float = true;
            self.pos += 1;
            while self.peek(0).is_ascii_digit() {
                self.pos += 1;
            }
        }
        if self.exponent_follows() {
            is_float = true;
            self.pos += 1;
            if matches!(self.peek(0), b'+' | b'-') {
                self.pos += 1;
            }
            while self.peek(0).is_ascii_digit() {
                self.pos += 1;
            }
        }
        let s = std::str::from_utf8(&self.src[start..self.pos]).unwrap_or("");
        if is_float {
            s.parse::<f64>()
                .map(Tok::Float)
                .map_err(|_| err(start, self.pos, "malformed floating-point constant"))
        } else {
            match s.parse::<u64>() {
                Ok(v) => Ok(Tok::Int(v)),
                // Too large for an integer: still a valid float constant in ARB grammar.
                Err(_) => s
                    .parse::<f64>()
                    .map(Tok::Float)
                    .map_err(|_| err(start, self.pos, "malformed constant")),
            }
        }
    }

    /// `e`/`E` followed by a digit, or by a sign and a digit.
    fn exponent_follows(&self) -> bool {
        matches!(self.peek(0), b'e' | b'E')
            && (self.peek(1).is_ascii_digit()
                || (matches!(self.peek(1), b'+' | b'-') && self.peek(2).is_ascii_digit()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        tokenize(s).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn header_and_comment() {
        assert_eq!(
            toks("!!NVfp5.0 # hi\nEND"),
            vec![
                Tok::Header("NVfp5.0".into()),
                Tok::Ident("END".into()),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn numbers_and_ranges() {
        assert_eq!(
            toks("[0..3] 1. .5 1e3 2.5E-1 0x1F"),
            vec![
                Tok::LBracket,
                Tok::Int(0),
                Tok::DotDot,
                Tok::Int(3),
                Tok::RBracket,
                Tok::Float(1.0),
                Tok::Float(0.5),
                Tok::Float(1000.0),
                Tok::Float(0.25),
                Tok::Int(31),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn digit_targets_are_identifiers() {
        assert_eq!(
            toks("2D, 2DMS 3D"),
            vec![
                Tok::Ident("2D".into()),
                Tok::Comma,
                Tok::Ident("2DMS".into()),
                Tok::Ident("3D".into()),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn spans_are_byte_offsets() {
        let t = tokenize("MOV r0, c;").unwrap();
        assert_eq!(t[1].span, Span::new(4, 6));
    }

    #[test]
    fn bad_character_is_reported() {
        let e = tokenize("MOV @").unwrap_err();
        assert_eq!(e.position(), 4);
        assert!(e.message.contains('@'));
    }
}
