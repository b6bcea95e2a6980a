//! Classifying scene results against the expected-failure list and summarising them.

use std::collections::BTreeMap;

/// What running one scene gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every probe passed.
    Pass,
    /// A probe failed or the scene could not run; the reason.
    Fail(String),
    /// A `[require]` line is not met; the reason.
    Skip(String),
}

/// The harness's verdict on one scene.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Passed and not listed.
    Pass,
    /// Failed and not listed.
    Fail(String),
    /// Skipped (listed or not).
    Skip(String),
    /// Failed as the list says; the listed reason.
    Xfail(String),
    /// Listed as an expected failure but passed: the list is out of date.
    UnexpectedPass(String),
}

impl Verdict {
    /// Whether the harness must exit non-zero because of this verdict.
    pub fn is_failure(&self) -> bool {
        matches!(self, Verdict::Fail(_) | Verdict::UnexpectedPass(_))
    }

    /// One short word for the per-scene line.
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Pass => "PASS",
            Verdict::Fail(_) => "FAIL",
            Verdict::Skip(_) => "SKIP",
            Verdict::Xfail(_) => "XFAIL",
            Verdict::UnexpectedPass(_) => "XPASS",
        }
    }
}

/// Combines a scene's status with its expected-failure entry, if any.
pub fn classify(status: &Status, expected: Option<&str>) -> Verdict {
    match (status, expected) {
        (Status::Skip(r), _) => Verdict::Skip(r.clone()),
        (Status::Pass, None) => Verdict::Pass,
        (Status::Pass, Some(reason)) => Verdict::UnexpectedPass(format!(
            "passes but is listed in expected-failures.txt ({reason}); remove the entry"
        )),
        (Status::Fail(r), None) => Verdict::Fail(r.clone()),
        (Status::Fail(_), Some(reason)) => Verdict::Xfail(reason.to_string()),
    }
}

/// Counts for one group.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Passed scenes.
    pub passed: usize,
    /// Failed scenes, unexpected passes included.
    pub failed: usize,
    /// Skipped scenes.
    pub skipped: usize,
    /// Expected failures that failed.
    pub xfail: usize,
}

impl Counts {
    fn add(&mut self, v: &Verdict) {
        match v {
            Verdict::Pass => self.passed += 1,
            Verdict::Fail(_) | Verdict::UnexpectedPass(_) => self.failed += 1,
            Verdict::Skip(_) => self.skipped += 1,
            Verdict::Xfail(_) => self.xfail += 1,
        }
    }

    /// `N passed, M failed` plus `, K skipped` and `, X xfail` when non-zero.
    pub fn line(&self) -> String {
        let mut s = format!("{} passed, {} failed", self.passed, self.failed);
        if self.skipped > 0 {
            s.push_str(&format!(", {} skipped", self.skipped));
        }
        if self.xfail > 0 {
            s.push_str(&format!(", {} xfail", self.xfail));
        }
        s
    }
}

/// Per-group and total counts.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Group name → counts, in name order.
    pub groups: BTreeMap<String, Counts>,
    /// All groups together, plus failures not tied to a scene (stale list entries).
    pub total: Counts,
}

impl Summary {
    /// Records one scene's verdict under `group`.
    pub fn add(&mut self, group: &str, v: &Verdict) {
        self.groups.entry(group.to_string()).or_default().add(v);
        self.total.add(v);
    }

    /// Records a failure that belongs to no scene (e.g. a list entry naming no scene).
    pub fn add_global_failure(&mut self) {
        self.total.failed += 1;
    }

    /// One `group: ...` line per group, then the total line.
    pub fn lines(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .groups
            .iter()
            .map(|(g, c)| format!("{g}: {}", c.line()))
            .collect();
        out.push(self.total.line());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classification_table() {
        let fail = Status::Fail("probe".into());
        assert_eq!(classify(&Status::Pass, None), Verdict::Pass);
        assert_eq!(classify(&fail, None), Verdict::Fail("probe".into()));
        assert_eq!(classify(&fail, Some("why")), Verdict::Xfail("why".into()));
        assert!(classify(&Status::Pass, Some("why")).is_failure());
        assert_eq!(
            classify(&Status::Skip("ext".into()), Some("why")),
            Verdict::Skip("ext".into())
        );
        assert!(!Verdict::Xfail(String::new()).is_failure());
    }

    #[test]
    fn summary_lines() {
        let mut s = Summary::default();
        s.add("raster", &Verdict::Pass);
        s.add("raster", &Verdict::Fail("x".into()));
        s.add("msaa", &Verdict::Skip("y".into()));
        s.add("msaa", &Verdict::Xfail("z".into()));
        s.add("msaa", &Verdict::UnexpectedPass("w".into()));
        s.add_global_failure();
        assert_eq!(
            s.lines(),
            vec![
                "msaa: 0 passed, 1 failed, 1 skipped, 1 xfail".to_string(),
                "raster: 1 passed, 1 failed".to_string(),
                "1 passed, 3 failed, 1 skipped, 1 xfail".to_string(),
            ]
        );
    }
}
