//! Byte spans into program text, and turning them into line:column for messages.

/// A half-open byte range `start..end` into the program text.
///
/// ```
/// # use glemu_programs::{assemble, span::Span, ir::ParamSource};
/// let text = "!!ARBvp1.0\nFOO result.position;\nEND";
/// let e = assemble(text, None).unwrap_err();
/// let Span { start, end } = e.span;
/// assert_eq!(&text[start as usize..end as usize], "FOO");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// Offset of the first byte.
    pub start: u32,
    /// Offset one past the last byte.
    pub end: u32,
}

impl Span {
    pub(crate) fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest span covering both.
    pub(crate) fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// 1-based line and column (in bytes) of byte `offset` in `text`. A CR LF pair counts as
/// one line break, so CRLF texts report the same positions as LF ones.
///
/// ```
/// use glemu_programs::span::line_col;
/// assert_eq!(line_col("ab\ncd", 4), (2, 2));
/// assert_eq!(line_col("ab\r\ncd", 4), (2, 1));
/// ```
pub fn line_col(text: &str, offset: usize) -> (u32, u32) {
    let offset = offset.min(text.len());
    let before = &text.as_bytes()[..offset];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count() as u32;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    (line, (offset - line_start) as u32 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_from_one() {
        let t = "ab\ncd\r\nef";
        assert_eq!(line_col(t, 0), (1, 1));
        assert_eq!(line_col(t, 4), (2, 2));
        assert_eq!(line_col(t, 7), (3, 1));
        assert_eq!(line_col(t, 100), (3, 3));
    }
}
