//! A token cursor over the lazy lexer with a small lookahead buffer.
//!
//! The legacy grammars stop at `END` and ignore whatever follows it, so tokens are lexed
//! only as the parser asks for them: a stray character after `END` must not fail the load.

use crate::error::{ErrorKind, ProgramError};
use crate::lexer::{Lexer, Tok, Token};
use crate::span::Span;
use std::collections::VecDeque;

pub(crate) struct Cursor<'a> {
    text: &'a str,
    lx: Lexer<'a>,
    buf: VecDeque<Token>,
    text_len: usize,
    prev_end: usize,
}

pub(crate) fn syntax(span: Span, msg: impl Into<String>) -> ProgramError {
    ProgramError::new(ErrorKind::Syntax, span, msg)
}

pub(crate) fn semantic(span: Span, msg: impl Into<String>) -> ProgramError {
    ProgramError::new(ErrorKind::Semantic, span, msg)
}

impl<'a> Cursor<'a> {
    /// A cursor positioned after the `!!` header token.
    pub(crate) fn after_header(text: &'a str) -> Result<Cursor<'a>, ProgramError> {
        let mut c = Cursor {
            text,
            lx: Lexer::new(text),
            buf: VecDeque::new(),
            text_len: text.len(),
            prev_end: 0,
        };
        c.next()?;
        Ok(c)
    }

    /// Span at the end of the text: where whole-program rules are reported (the specs put
    /// PROGRAM_ERROR_POSITION at `len` for restrictions found only after a full scan).
    pub(crate) fn end_span(&self) -> Span {
        Span::new(self.text_len, self.text_len)
    }

    fn fill(&mut self, k: usize) -> Result<(), ProgramError> {
        while self.buf.len() <= k {
            let t = self.lx.next_token()?;
            self.buf.push_back(t);
        }
        Ok(())
    }

    pub(crate) fn peek_at(&mut self, k: usize) -> Result<&Token, ProgramError> {
        self.fill(k)?;
        self.buf
            .get(k)
            .ok_or_else(|| syntax(Span::new(self.text_len, self.text_len), "unexpected end"))
    }

    pub(crate) fn peek(&mut self) -> Result<&Token, ProgramError> {
        self.peek_at(0)
    }

    pub(crate) fn peek_tok(&mut self) -> Result<Tok, ProgramError> {
        Ok(self.peek()?.tok.clone())
    }

    pub(crate) fn next(&mut self) -> Result<Token, ProgramError> {
        self.fill(0)?;
        let t = self
            .buf
            .pop_front()
            .ok_or_else(|| syntax(Span::new(self.text_len, self.text_len), "unexpected end"))?;
        self.prev_end = t.span.end as usize;
        Ok(t)
    }

    /// The program text a span covers, for messages that quote an operand.
    pub(crate) fn text_of(&self, span: Span) -> &'a str {
        self.text
            .get(span.start as usize..span.end as usize)
            .unwrap_or("?")
    }

    /// The span from `start` to the end of the last consumed token.
    pub(crate) fn since(&self, start: Span) -> Span {
        Span::new(start.start as usize, self.prev_end.max(start.end as usize))
    }

    /// Consumes the next token if it is `tok`.
    pub(crate) fn eat(&mut self, tok: &Tok) -> Result<Option<Span>, ProgramError> {
        if &self.peek()?.tok == tok {
            Ok(Some(self.next()?.span))
        } else {
            Ok(None)
        }
    }

    pub(crate) fn expect(&mut self, tok: &Tok, what: &str) -> Result<Span, ProgramError> {
        let t = self.next()?;
        if &t.tok == tok {
            Ok(t.span)
        } else {
            Err(syntax(
                t.span,
                format!("expected {what}, found {}", t.tok.describe()),
            ))
        }
    }

    /// The next token must be an identifier.
    pub(crate) fn ident(&mut self, what: &str) -> Result<(String, Span), ProgramError> {
        let t = self.next()?;
        match t.tok {
            Tok::Ident(s) => Ok((s, t.span)),
            other => Err(syntax(
                t.span,
                format!("expected {what}, found {}", other.describe()),
            )),
        }
    }

    /// Whether the next token is the identifier `name`.
    pub(crate) fn at_ident(&mut self, name: &str) -> Result<bool, ProgramError> {
        Ok(matches!(&self.peek()?.tok, Tok::Ident(s) if s == name))
    }
}
