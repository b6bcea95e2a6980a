//! The front-end core both front ends parse with: the token cursor, the error
//! constructors and the decoding of component names (swizzles and write masks).
//!
//! Every dialect ends at an `END` statement and the specs ignore whatever follows it,
//! even characters the lexer would reject, so a cursor never lexes past the first `END`
//! that starts a statement. The ARB/NV front end lexes everything up to there before it
//! parses ([`Cursor::new`]); the legacy one lexes as it goes ([`LazyCursor`]), so a bad
//! character after a grammar error is never reported in its place.

use crate::error::{ErrorKind, ProgramError};
use crate::ir::Comp;
use crate::lexer::{Lexer, Tok, Token};
use crate::span::Span;

/// An error of the grammar: the text does not parse.
pub(crate) fn syntax(span: Span, msg: impl Into<String>) -> ProgramError {
    ProgramError::new(ErrorKind::Syntax, span, msg)
}

/// An error of a "fails to load if" rule: the text parses but breaks a spec rule.
pub(crate) fn semantic(span: Span, msg: impl Into<String>) -> ProgramError {
    ProgramError::new(ErrorKind::Semantic, span, msg)
}

/// `v` as a u32, saturated (an out-of-range literal then fails the caller's range check).
pub(crate) fn clamp_u32(v: u64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

/// Components named by a swizzle or mask string: letters of `xyzw`, or of `rgba` where
/// `rgba_ok`; `None` if it is not one (empty, another letter, or the two sets mixed).
pub(crate) fn components(s: &str, rgba_ok: bool) -> Option<Vec<Comp>> {
    let from = |set: &str| -> Option<Vec<Comp>> {
        s.chars()
            .map(|c| set.find(c).and_then(|i| Comp::try_from(i).ok()))
            .collect()
    };
    if s.is_empty() {
        return None;
    }
    from("xyzw").or_else(|| if rgba_ok { from("rgba") } else { None })
}

/// The write mask of `comps`: bit c for component c. `None` unless each component
/// appears at most once, in x, y, z, w order.
pub(crate) fn ordered_mask(comps: &[Comp]) -> Option<u8> {
    let mut mask = 0u8;
    let mut last: i32 = -1;
    for &c in comps {
        if i32::from(c) <= last {
            return None;
        }
        last = i32::from(c);
        mask |= 1 << c;
    }
    Some(mask)
}

/// Tokens of a program text up to its `END`, and a position in them.
pub(crate) struct Cursor {
    toks: Vec<Token>,
    pos: usize,
    /// The last token is `Eof` (the text's end, or the one put after `END`).
    ended: bool,
    /// End of the last token consumed.
    prev_end: usize,
}

impl Cursor {
    fn empty(capacity: usize) -> Cursor {
        Cursor {
            toks: Vec::with_capacity(capacity),
            pos: 0,
            ended: false,
            prev_end: 0,
        }
    }

    /// Lexes `text` up to and including the first `END` that starts a statement.
    pub(crate) fn new(text: &str) -> Result<Cursor, ProgramError> {
        let mut lx = Lexer::new(text);
        // About one token per five bytes of typical program text; a wrong guess only regrows.
        let mut c = Cursor::empty(text.len() / 5 + 8);
        while !c.ended {
            c.push(lx.next_token()?);
        }
        Ok(c)
    }

    /// Appends the next lexed token; after `Eof`, or after an `END` that starts a
    /// statement (followed by an `Eof` of its own), the cursor has ended.
    fn push(&mut self, t: Token) {
        let at_stmt_start = matches!(
            self.toks.last().map(|t| &t.tok),
            None | Some(Tok::Semi) | Some(Tok::Header(_)) | Some(Tok::Colon)
        );
        match &t.tok {
            Tok::Eof => {
                self.toks.push(t);
                self.ended = true;
            }
            Tok::Ident(s) if s == "END" && at_stmt_start => {
                let span = t.span;
                self.toks.push(t);
                self.toks.push(Token {
                    tok: Tok::Eof,
                    span: Span::new(span.end as usize, span.end as usize),
                });
                self.ended = true;
            }
            _ => self.toks.push(t),
        }
    }

    pub(crate) fn peek(&self) -> &Tok {
        self.peek_at(0)
    }

    pub(crate) fn peek_at(&self, k: usize) -> &Tok {
        self.token_at(k).map_or(&Tok::Eof, |t| &t.tok)
    }

    fn token_at(&self, k: usize) -> Option<&Token> {
        self.toks.get(self.pos + k).or(self.toks.last())
    }

    pub(crate) fn span(&self) -> Span {
        self.span_at(0)
    }

    pub(crate) fn span_at(&self, k: usize) -> Span {
        self.token_at(k).map_or(Span::default(), |t| t.span)
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

    /// Consumes the current token (the final `Eof` stays current) and returns its span.
    /// A lazy cursor may move past the tokens lexed so far: it lexes before it looks.
    pub(crate) fn bump(&mut self) -> Span {
        let s = self.span();
        if self.pos + 1 < self.toks.len() || !self.ended {
            self.pos += 1;
        }
        self.prev_end = s.end as usize;
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

/// A [`Cursor`] that lexes only as far as the parser looks: a lexical error is reported
/// when the parser reaches it, after any grammar error before it.
pub(crate) struct LazyCursor<'a> {
    text: &'a str,
    lx: Lexer<'a>,
    c: Cursor,
}

impl<'a> LazyCursor<'a> {
    /// A cursor positioned after the `!!` header token.
    pub(crate) fn after_header(text: &'a str) -> Result<LazyCursor<'a>, ProgramError> {
        let mut c = LazyCursor {
            text,
            lx: Lexer::new(text),
            c: Cursor::empty(16),
        };
        c.next()?;
        Ok(c)
    }

    /// Span at the end of the text: where whole-program rules are reported (the specs put
    /// PROGRAM_ERROR_POSITION at `len` for restrictions found only after a full scan).
    pub(crate) fn end_span(&self) -> Span {
        Span::new(self.text.len(), self.text.len())
    }

    /// Lexes until the token `k` places ahead exists (or the cursor has ended).
    fn fill(&mut self, k: usize) -> Result<(), ProgramError> {
        while !self.c.ended && self.c.toks.len() <= self.c.pos + k {
            let t = self.lx.next_token()?;
            self.c.push(t);
        }
        Ok(())
    }

    pub(crate) fn peek_at(&mut self, k: usize) -> Result<&Token, ProgramError> {
        self.fill(k)?;
        let end = self.end_span();
        self.c
            .token_at(k)
            .ok_or_else(|| syntax(end, "unexpected end"))
    }

    pub(crate) fn peek(&mut self) -> Result<&Token, ProgramError> {
        self.peek_at(0)
    }

    pub(crate) fn peek_tok(&mut self) -> Result<Tok, ProgramError> {
        Ok(self.peek()?.tok.clone())
    }

    pub(crate) fn next(&mut self) -> Result<Token, ProgramError> {
        let t = self.peek()?.clone();
        self.c.bump();
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
        Span::new(
            start.start as usize,
            self.c.prev_end.max(start.end as usize),
        )
    }

    /// Consumes the next token if it is `tok`.
    pub(crate) fn eat(&mut self, tok: &Tok) -> Result<Option<Span>, ProgramError> {
        if &self.peek()?.tok == tok {
            Ok(Some(self.next()?.span))
        } else {
            Ok(None)
        }
    }

    /// Consumes the next token, which must be `tok`; `what` names it in the error.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_and_masks() {
        assert_eq!(components("wzyx", false), Some(vec![3, 2, 1, 0]));
        assert_eq!(components("rgba", false), None);
        assert_eq!(components("rgba", true), Some(vec![0, 1, 2, 3]));
        assert_eq!(components("xg", true), None);
        assert_eq!(components("", true), None);
        assert_eq!(ordered_mask(&[0, 2, 3]), Some(0b1101));
        assert_eq!(ordered_mask(&[2, 0]), None);
        assert_eq!(ordered_mask(&[0, 0]), None);
    }

    #[test]
    fn cursors_stop_at_end() {
        // A character the lexer rejects after END is never lexed, eagerly or lazily.
        let text = "!!ARBvp1.0\nMOV a, b;\nEND\n@@";
        let c = Cursor::new(text).unwrap();
        assert_eq!(c.toks.last().map(|t| &t.tok), Some(&Tok::Eof));
        let mut lazy = LazyCursor::after_header(text).unwrap();
        while lazy.peek().unwrap().tok != Tok::Eof {
            lazy.next().unwrap();
        }
        // END inside a statement is an identifier like any other.
        let c = Cursor::new("!!ARBvp1.0\nMOV END, b;\nEND").unwrap();
        assert_eq!(c.peek_at(2), &Tok::Ident("END".into()));
        assert_eq!(c.peek_at(3), &Tok::Comma);
    }

    #[test]
    fn lazy_cursor_reports_a_grammar_error_before_a_later_lexical_one() {
        let text = "!!VP1.0\nMOV o[HPOS] v;\n@";
        let mut lazy = LazyCursor::after_header(text).unwrap();
        for _ in 0..5 {
            lazy.next().unwrap();
        }
        let e = lazy.expect(&Tok::Comma, "','").unwrap_err();
        assert_eq!((e.kind, lazy.text_of(e.span)), (ErrorKind::Syntax, "v"));
        let e = Cursor::new(text).err().map(|e| e.kind);
        assert_eq!(e, Some(ErrorKind::Lexical));
    }
}
