//! The one-line protocol between the harness and the child process that runs a scene:
//! the child prints its status as a tagged line, the parent finds the last such line in
//! whatever else the child printed.

use crate::report::Status;

/// Prefix of the result line.
pub const RESULT_TAG: &str = "reftests-result\t";

/// The child's result line for `status` (without a newline). Tabs and newlines in
/// messages become spaces so the line stays one line.
pub fn format_result(status: &Status) -> String {
    let clean = |m: &str| m.replace(['\n', '\r', '\t'], " ");
    match status {
        Status::Pass => format!("{RESULT_TAG}PASS"),
        Status::Fail(m) => format!("{RESULT_TAG}FAIL\t{}", clean(m)),
        Status::Skip(m) => format!("{RESULT_TAG}SKIP\t{}", clean(m)),
    }
}

/// The status from the last result line of a child's stdout; `None` if the child
/// printed none (it crashed or was killed).
pub fn parse_result(stdout: &str) -> Option<Status> {
    let line = stdout
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix(RESULT_TAG))?;
    let (word, message) = line.split_once('\t').unwrap_or((line, ""));
    Some(match word {
        "PASS" => Status::Pass,
        "SKIP" => Status::Skip(message.to_string()),
        "FAIL" => Status::Fail(message.to_string()),
        other => Status::Fail(format!("unknown result `{other}` from the scene process")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_status() {
        for s in [
            Status::Pass,
            Status::Fail("line 3: probe at (1, 2)".into()),
            Status::Skip("GL_NV_x is not supported".into()),
        ] {
            let out = format!("noise\n{}\nmore noise\n", format_result(&s));
            assert_eq!(parse_result(&out), Some(s));
        }
    }

    #[test]
    fn messages_stay_on_one_line_and_last_line_wins() {
        let line = format_result(&Status::Fail("a\tb\nc".into()));
        assert_eq!(line.lines().count(), 1);
        assert_eq!(parse_result(&line), Some(Status::Fail("a b c".into())));
        let two = format!("{}\n{}\n", format_result(&Status::Pass), line);
        assert_eq!(parse_result(&two), Some(Status::Fail("a b c".into())));
    }

    #[test]
    fn missing_or_unknown_result() {
        assert_eq!(parse_result("thread panicked\n"), None);
        let odd = format!("{RESULT_TAG}MAYBE");
        assert!(matches!(parse_result(&odd), Some(Status::Fail(_))));
    }
}
