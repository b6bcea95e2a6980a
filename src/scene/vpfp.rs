//! piglit's historic `.vpfp` format (`tests/shaders/vpfp-generic.cpp`): a vertex program,
//! a fragment program, then `!!test` blocks of `texcoord[N]`, `NVparameter[N]` and
//! `expected` lines. Each test draws a window-covering quad with an ortho(0,1,0,1)
//! projection, `c[0..3]` tracking the modelview-projection matrix, and compares the
//! centre pixel with `expected` (±0.01).

use super::run::{Outcome, Report};
use crate::{gl, Context, Error};

const SIZE: u32 = 64;

struct Test {
    line: usize,
    texcoords: Vec<(u32, [f32; 4])>,
    params: Vec<(u32, [f32; 4])>,
    expected: Option<[f32; 4]>,
}

fn indexed(word: &str, name: &str) -> Option<u32> {
    word.strip_prefix(name)?
        .strip_prefix('[')?
        .strip_suffix(']')?
        .parse()
        .ok()
}

fn vec4(words: &[&str], line: usize) -> Result<[f32; 4], String> {
    if words.len() != 4 {
        return Err(format!("line {line}: expected 4 numbers"));
    }
    let mut v = [0.0; 4];
    for (o, w) in v.iter_mut().zip(words) {
        *o = w
            .parse()
            .map_err(|_| format!("line {line}: bad number '{w}'"))?;
    }
    Ok(v)
}

/// Splits a vpfp file into (vertex program, fragment program, tests).
fn parse(text: &str) -> Result<(String, String, Vec<Test>), String> {
    let mut programs: Vec<String> = Vec::new();
    let mut tests: Vec<Test> = Vec::new();
    let mut in_program = false;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.starts_with("!!test") {
            in_program = false;
            tests.push(Test {
                line,
                texcoords: Vec::new(),
                params: Vec::new(),
                expected: None,
            });
            continue;
        }
        if l.starts_with("!!") {
            in_program = true;
            programs.push(String::new());
        }
        if in_program {
            if let Some(p) = programs.last_mut() {
                p.push_str(raw);
                p.push('\n');
            }
            if l == "END" {
                in_program = false;
            }
            continue;
        }
        if l.is_empty() || l.starts_with(';') || l.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = l.split_whitespace().collect();
        let t = tests
            .last_mut()
            .ok_or_else(|| format!("line {line}: '{l}' outside a !!test block"))?;
        let (head, rest) = words
            .split_first()
            .ok_or_else(|| format!("line {line}: empty"))?;
        if let Some(n) = indexed(head, "texcoord") {
            t.texcoords.push((n, vec4(rest, line)?));
        } else if let Some(n) = indexed(head, "NVparameter") {
            t.params.push((n, vec4(rest, line)?));
        } else if *head == "expected" {
            t.expected = Some(vec4(rest, line)?);
        } else {
            return Err(format!("line {line}: unknown vpfp line '{l}'"));
        }
    }
    let [vp, fp] = &programs[..] else {
        return Err(format!(
            "expected a vertex and a fragment program, found {} programs",
            programs.len()
        ));
    };
    Ok((vp.clone(), fp.clone(), tests))
}

fn run_test(vp: &str, fp: &str, t: &Test) -> Result<Option<String>, Error> {
    let mut ctx = Context::new(SIZE, SIZE)?;
    ctx.bind_program(gl::VERTEX_PROGRAM_ARB, 1)?;
    ctx.program_string(gl::VERTEX_PROGRAM_ARB, vp)?;
    ctx.enable(gl::VERTEX_PROGRAM_ARB)?;
    ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, 2)?;
    ctx.program_string(gl::FRAGMENT_PROGRAM_ARB, fp)?;
    ctx.enable(gl::FRAGMENT_PROGRAM_ARB)?;
    ctx.matrix_mode(gl::PROJECTION)?;
    ctx.ortho(0.0, 1.0, 0.0, 1.0, -1.0, 1.0)?;
    ctx.matrix_mode(gl::MODELVIEW)?;
    ctx.track_matrix_nv(gl::VERTEX_PROGRAM_ARB, 0, 0x8629, 0x862A)?;
    for (n, v) in &t.texcoords {
        ctx.multi_tex_coord_4f(*n, *v)?;
    }
    for (n, v) in &t.params {
        ctx.program_env_parameter_4f(gl::VERTEX_PROGRAM_ARB, *n, *v)?;
    }
    ctx.clear_color([0.0, 0.0, 0.0, 0.0])?;
    ctx.clear(gl::COLOR_BUFFER_BIT)?;
    let quad: [[f32; 2]; 4] = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]];
    ctx.bind_buffer(gl::ARRAY_BUFFER, 1)?;
    ctx.buffer_data(gl::ARRAY_BUFFER, &quad, gl::STATIC_DRAW)?;
    ctx.vertex_pointer(2, gl::FLOAT, 0, 0)?;
    ctx.enable_client_state(gl::VERTEX_ARRAY)?;
    ctx.draw_arrays(gl::TRIANGLE_STRIP, 0, 4)?;
    let Some(want) = t.expected else {
        return Ok(None);
    };
    let got = ctx.read_pixel(SIZE as i32 / 2, SIZE as i32 / 2)?;
    let bad = got
        .iter()
        .zip(&want)
        .any(|(g, w)| (g - w.clamp(0.0, 1.0)).abs() > 0.01);
    Ok(bad.then(|| format!("line {}: expected {want:?}, observed {got:?}", t.line)))
}

/// Runs a `.vpfp` file: PASS when every test's centre pixel matches.
///
/// ```
/// let r = glemu::scene::vpfp::run_vpfp("no programs here");
/// assert_eq!(r.outcome, glemu::scene::Outcome::Fail);
/// ```
pub fn run_vpfp(text: &str) -> Report {
    let mut report = Report {
        outcome: Outcome::Pass,
        messages: Vec::new(),
        triangles: 0,
        pixels: 0,
    };
    let (vp, fp, tests) = match parse(text) {
        Ok(p) => p,
        Err(e) => {
            report.outcome = Outcome::Fail;
            report.messages.push(e);
            return report;
        }
    };
    for t in &tests {
        match run_test(&vp, &fp, t) {
            Ok(None) => {}
            Ok(Some(m)) => {
                report.outcome = Outcome::Fail;
                report.messages.push(m);
            }
            Err(e) => {
                report.outcome = Outcome::Fail;
                report.messages.push(format!("line {}: {e}", t.line));
            }
        }
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_programs_and_tests() {
        let (vp, fp, tests) = parse("!!VP1.0\nMOV o[HPOS], v[OPOS];\nEND\n\n!!ARBfp1.0\nEND\n\n!!test\n; c\ntexcoord[0] 1 2 3 4\nNVparameter[17] 0 0 0 1\nexpected 1 0 0 1\n").unwrap();
        assert!(vp.starts_with("!!VP1.0"));
        assert!(fp.starts_with("!!ARBfp1.0"));
        assert_eq!(tests.len(), 1);
        assert_eq!(tests[0].params, vec![(17, [0.0, 0.0, 0.0, 1.0])]);
        assert!(parse("!!test\nbogus 1\n").is_err());
    }
}
