//! `expected-failures.txt`: scenes that cannot pass yet, each with the reason.
//!
//! Format: one scene per line, `ID  REASON...` (ID as in [`crate::discover::SceneEntry`]),
//! `#` starts a comment line, blank lines are ignored. A listed scene that fails is
//! reported as "xfail"; one that passes is a failure ("unexpected pass"), so the list
//! has to be kept true.

use std::collections::BTreeMap;
use std::fmt;

/// A malformed line of the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected-failures.txt:{}: {}", self.line, self.message)
    }
}

impl std::error::Error for ListError {}

/// Scene id → reason.
pub type ExpectedFailures = BTreeMap<String, String>;

/// Parses the list. Every entry needs a reason, and an id may appear only once.
pub fn parse(text: &str) -> Result<ExpectedFailures, ListError> {
    let mut out = ExpectedFailures::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |message: String| ListError {
            line: i + 1,
            message,
        };
        let (id, reason) = match line.split_once(char::is_whitespace) {
            Some((id, reason)) if !reason.trim().is_empty() => (id, reason.trim()),
            _ => return Err(err(format!("`{line}` has no reason"))),
        };
        if out.insert(id.to_string(), reason.to_string()).is_some() {
            return Err(err(format!("`{id}` is listed twice")));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_entries_and_skips_comments() {
        let l = parse("# header\n\nraster/a   not supported: wide lines\nmsaa/b reason two\n")
            .expect("valid");
        assert_eq!(l.len(), 2);
        assert_eq!(l["raster/a"], "not supported: wide lines");
        assert_eq!(l["msaa/b"], "reason two");
    }

    #[test]
    fn rejects_missing_reason_and_duplicates() {
        let e = parse("raster/a\n").expect_err("no reason");
        assert_eq!(e.line, 1);
        let e = parse("a r\n# c\na r2\n").expect_err("duplicate");
        assert_eq!(e.line, 3);
        assert!(e.message.contains("twice"));
    }
}
