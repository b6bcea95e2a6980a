//! A token stream over the program text up to its `END`, with the helpers every parsing
//! routine needs. Lexing stops at the `END` statement because the specs ignore whatever
//! follows it, even characters the lexer would reject.

use crate::error::{ErrorKind, ProgramError};
use crate::lexer::{Lexer, Tok, Token};
use crate::span::Span;

pub(crate) fn syntax(span: Span, msg: impl Into<String>) -> ProgramError {
    ProgramError::new(ErrorKind::Syntax, span, msg)
}

pub(crate) fn semantic(span: Span, msg: impl Into<String>) -> ProgramError {
    ProgramError::new(ErrorKind::Semantic, span, msg)
}

pub(crate) struct Cursor {
    toks: Vec<Token>,
    pos: usize,
}

impl Cursor {
    /// Lexes `text` up to and including the first `END` that starts a statement.
    pub(crate) fn new(text: &str) -> Result<Cursor, ProgramError> {
        let mut lx = Lexer::new(text);
        // About one token per five bytes of typical program text; a wrong guess only regrows.
        let mut toks: Vec<Token> = Vec::with_capacity(text.len() / 5 + 8);
        loop {
            let t = lx.next_token()?;
            let at_stmt_start = matches!(
                toks.last().map(|t| &t.tok),
                None | Some(Tok::Semi) | Some(Tok::Header(_)) | Some(Tok::Colon)
            );
            match &t.tok {
                Tok::Eof => {
                    toks.push(t);
                    break;
                }
                Tok::Ident(s) if s == "END" && at_stmt_start => {
                    let span = t.span;
                    toks.push(t);
                    toks.push(Token {
                        tok: Tok::Eof,
                        span: Span::new(span.end as usize, span.end as usize),
                    });
                    break;
                }
                _ => toks.push(t),
            }
        }
        Ok(Cursor { toks, pos: 0 })
    }

    pub(crate) fn peek(&self) -> &Tok {
        self.peek_at(0)
    }

    pub(crate) fn peek_at(&self, k: usize) -> &Tok {
        self.toks
            .get(self.pos + k)
            .or(self.toks.last())
            .map_or(&Tok::Eof, |t| &t.tok)
    }

    pub(crate) fn span(&self) -> Span {
        self.span_at(0)
    }

    pub(crate) fn span_at(&self, k: usize) -> Span {
        self.toks
            .get(self.pos + k)
            .or(self.toks.last())
            .map_or(Span::default(), |t| t.span)
    }

    /// Span of the token just consumed.
    pub(crate) fn prev_span(&self) -> Span {
        if self.pos == 0 {
            return self.span();
        }
        self.toks
            .get(self.pos - 1)
            .map_or(Span::default(), |t| t.span)
    }

    /// The token `k` places before the current one (1 = the one just consumed).
    pub(crate) fn peek_back(&self, k: usize) -> &Tok {
        self.pos
            .checked_sub(k)
            .and_then(|i| self.toks.get(i))
            .map_or(&Tok::Eof, |t| &t.tok)
    }

    pub(crate) fn bump(&mut self) -> Span {
        let s = self.span();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        s
    }

    pub(crate) fn eat(&mut self, t: &Tok) -> bool {
        if self.peek() == t {
            self.bump();
            true
        } else {
            false
        }
    }

    pub(crate) fn expect(&mut self, t: &Tok, ctx: &str) -> Result<Span, ProgramError> {
        if self.peek() == t {
            Ok(self.bump())
        } else {
            Err(self.unexpected(&format!("{} {ctx}", t.describe())))
        }
    }

    pub(crate) fn unexpected(&self, wanted: &str) -> ProgramError {
        syntax(
            self.span(),
            format!("expected {wanted}, found {}", self.peek().describe()),
        )
    }

    pub(crate) fn peek_ident(&self) -> Option<&str> {
        match self.peek() {
            Tok::Ident(s) => Some(s.as_str()),
            _ => None,
        }
    }

    pub(crate) fn peek_ident_at(&self, k: usize) -> Option<&str> {
        match self.peek_at(k) {
            Tok::Ident(s) => Some(s.as_str()),
            _ => None,
        }
    }

    pub(crate) fn is_ident(&self, name: &str) -> bool {
        self.peek_ident() == Some(name)
    }

    pub(crate) fn eat_ident(&mut self, name: &str) -> bool {
        if self.is_ident(name) {
            self.bump();
            true
        } else {
            false
        }
    }

    pub(crate) fn ident(&mut self, what: &str) -> Result<(String, Span), ProgramError> {
        match self.peek() {
            Tok::Ident(s) => {
                let s = s.clone();
                Ok((s, self.bump()))
            }
            _ => Err(self.unexpected(what)),
        }
    }

    pub(crate) fn expect_ident(&mut self, name: &str, ctx: &str) -> Result<Span, ProgramError> {
        if self.is_ident(name) {
            Ok(self.bump())
        } else {
            Err(self.unexpected(&format!("'{name}' {ctx}")))
        }
    }

    /// A non-negative integer literal.
    pub(crate) fn int(&mut self, what: &str) -> Result<(u64, Span), ProgramError> {
        match self.peek() {
            Tok::Int(v) => {
                let v = *v;
                Ok((v, self.bump()))
            }
            _ => Err(self.unexpected(what)),
        }
    }

    /// `[ int ]`.
    pub(crate) fn bracket_int(&mut self, what: &str) -> Result<(u32, Span), ProgramError> {
        self.expect(&Tok::LBracket, &format!("before {what}"))?;
        let (v, s) = self.int(what)?;
        self.expect(&Tok::RBracket, &format!("after {what}"))?;
        Ok((clamp_u32(v), s))
    }
}

pub(crate) fn clamp_u32(v: u64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}
