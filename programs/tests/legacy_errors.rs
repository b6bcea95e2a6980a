//! One test per load-time rule of NV_vertex_program, NV_vertex_program1_1,
//! NV_vertex_program2 (VP2 and VSP1.0 environments) and NV_fragment_program: each
//! program breaks exactly one rule and must fail with `ErrorKind::Semantic` at the
//! offending token (or at the end of the text for whole-program rules), naming the rule.
//! A few grammar checks follow, which are `ErrorKind::Syntax`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu_programs::{assemble, ErrorKind, ProgramError};

/// Where the error must be: the first occurrence of a marker, or the end of the text.
enum At<'a> {
    First(&'a str),
    End,
}

fn fails(text: &str, kind: ErrorKind, at: At, phrase: &str) -> ProgramError {
    let e = match assemble(text, None) {
        Ok(_) => panic!("loaded but must fail:\n{text}"),
        Err(e) => e,
    };
    assert_eq!(e.kind, kind, "{}", e.render(text));
    let want = match at {
        At::First(m) => text.find(m).expect("marker in text"),
        At::End => text.len(),
    };
    assert_eq!(e.position(), want, "{}", e.render(text));
    assert!(
        e.message.contains(phrase),
        "message {:?} lacks {phrase:?}",
        e.message
    );
    e
}

fn semantic(text: &str, at: At, phrase: &str) {
    fails(text, ErrorKind::Semantic, at, phrase);
}

fn syntax(text: &str, at: At, phrase: &str) {
    fails(text, ErrorKind::Syntax, at, phrase);
}

fn repeat(line: &str, n: usize) -> String {
    line.repeat(n)
}

// ---- NV_vertex_program (VP1.0) -------------------------------------------------------

#[test]
fn vp1_must_write_hpos() {
    semantic("!!VP1.0\nMOV o[COL0], v[0];\nEND\n", At::End, "HPOS");
}

#[test]
fn vp1_at_most_128_instructions() {
    let ok = format!("!!VP1.0\n{}END", repeat("MOV o[HPOS], v[0];\n", 128));
    assert!(assemble(&ok, None).is_ok());
    let text = format!(
        "!!VP1.0\n{}ADD o[HPOS], v[0], v[0];\nEND",
        repeat("MOV o[HPOS], v[0];\n", 128)
    );
    semantic(&text, At::First("ADD"), "at most 128");
}

#[test]
fn vp1_one_unique_program_parameter() {
    semantic(
        "!!VP1.0\nMOV o[HPOS], v[0];\nADD R0, c[1], c[2];\nEND",
        At::First("c[2]"),
        "one unique program parameter",
    );
}

#[test]
fn vp1_one_unique_vertex_attribute() {
    semantic(
        "!!VP1.0\nMOV o[HPOS], v[0];\nADD R0, v[OPOS], v[NRML];\nEND",
        At::First("v[NRML]"),
        "one unique vertex attribute",
    );
}

#[test]
fn vp1_aliased_attribute_names_are_the_same_register() {
    // v[0] and v[OPOS] name one register, so this is one unique attribute.
    assert!(assemble("!!VP1.0\nADD o[HPOS], v[0], v[OPOS];\nEND", None).is_ok());
}

#[test]
fn vp1_relative_parameters_with_different_offsets_are_two_parameters() {
    semantic(
        "!!VP1.0\nARL A0.x, v[0].x;\nADD o[HPOS], c[A0.x + 1], c[A0.x + 2];\nEND",
        At::First("c[A0.x + 2]"),
        "one unique program parameter",
    );
}

// ---- vertex state programs (VSP1.0) --------------------------------------------------

#[test]
fn vsp_must_write_a_program_parameter() {
    semantic("!!VSP1.0\nMOV R0, v[0];\nEND", At::End, "program parameter");
}

#[test]
fn vsp_at_most_128_instructions() {
    let text = format!(
        "!!VSP1.0\n{}MUL c[1], v[0], c[0];\nEND",
        repeat("MOV c[0], v[0];\n", 128)
    );
    semantic(&text, At::First("MUL"), "at most 128");
}

#[test]
fn vsp_one_unique_program_parameter() {
    semantic(
        "!!VSP1.0\nADD c[0], c[1], c[2];\nEND",
        At::First("c[2]"),
        "one unique program parameter",
    );
}

#[test]
fn vsp_reads_only_attribute_zero() {
    syntax(
        "!!VSP1.0\nADD c[0], v[0], v[1];\nEND",
        At::First("1]"),
        "only read v[0]",
    );
}

#[test]
fn vsp_may_not_write_results() {
    syntax(
        "!!VSP1.0\nMOV o[HPOS], v[0];\nMOV c[0], v[0];\nEND",
        At::First("o[HPOS]"),
        "may not write result registers",
    );
}

// ---- NV_vertex_program1_1 ------------------------------------------------------------

#[test]
fn vp11_position_invariant_may_not_write_hpos() {
    semantic(
        "!!VP1.1\nOPTION NV_position_invariant;\nMOV o[HPOS], v[0];\nEND",
        At::First("o[HPOS]"),
        "position-invariant",
    );
}

#[test]
fn vp11_position_invariant_has_no_relative_addressing() {
    semantic(
        "!!VP1.1\nOPTION NV_position_invariant;\nARL A0.x, v[0].x;\nMOV o[COL0], c[A0.x];\nEND",
        At::First("A0.x]"),
        "relative addressing",
    );
}

#[test]
fn vp11_position_invariant_at_most_124_instructions() {
    let body = repeat("MOV o[COL0], v[0];\n", 124);
    let ok = format!("!!VP1.1\nOPTION NV_position_invariant;\n{body}END");
    assert!(assemble(&ok, None).is_ok());
    let text =
        format!("!!VP1.1\nOPTION NV_position_invariant;\n{body}ADD o[COL0], v[0], v[0];\nEND");
    semantic(&text, At::First("ADD"), "at most 124");
}

#[test]
fn vp11_without_option_still_needs_hpos() {
    semantic("!!VP1.1\nMOV o[COL0], v[0];\nEND", At::End, "HPOS");
}

// ---- NV_vertex_program2 --------------------------------------------------------------

#[test]
fn vp2_at_most_256_instructions() {
    let text = format!(
        "!!VP2.0\n{}ADD o[HPOS], v[0], v[0];\nEND",
        repeat("MOV o[HPOS], v[0];\n", 256)
    );
    semantic(&text, At::First("ADD"), "at most 256");
}

#[test]
fn vp2_position_invariant_at_most_252_instructions() {
    let text = format!(
        "!!VP2.0\nOPTION NV_position_invariant;\n{}ADD o[COL0], v[0], v[0];\nEND",
        repeat("MOV o[COL0], v[0];\n", 252)
    );
    semantic(&text, At::First("ADD"), "at most 252");
}

#[test]
fn vp2_position_invariant_may_not_write_hpos() {
    semantic(
        "!!VP2.0\nOPTION NV_position_invariant;\nMOV o[HPOS].x, v[0];\nEND",
        At::First("o[HPOS]"),
        "may not write HPOS",
    );
}

#[test]
fn vp2_position_invariant_keeps_relative_addressing() {
    let text =
        "!!VP2.0\nOPTION NV_position_invariant;\nARL A0, v[0];\nMOV o[COL0], c[A0.y + 9];\nEND";
    assert!(assemble(text, None).is_ok());
}

#[test]
fn vp2_branch_to_undefined_label() {
    semantic(
        "!!VP2.0\nMOV o[HPOS], v[0];\nBRA nowhere;\nEND",
        At::First("nowhere"),
        "undefined label",
    );
}

#[test]
fn vp2_call_to_undefined_label() {
    semantic(
        "!!VP2.0\nMOV o[HPOS], v[0];\nCAL missing (GT.x);\nEND",
        At::First("missing"),
        "undefined label",
    );
}

#[test]
fn vp2_label_defined_twice() {
    semantic(
        "!!VP2.0\nl1:\nMOV o[HPOS], v[0];\nl1:\nEND",
        At::First("l1:\nEND"),
        "defined twice",
    );
}

#[test]
fn vp2_one_unique_program_parameter() {
    semantic(
        "!!VP2.0\nARL A0, v[0];\nADD o[HPOS], c[A0.x + 1], c[A0.y + 1];\nEND",
        At::First("c[A0.y"),
        "one unique program parameter",
    );
}

#[test]
fn vp2_one_unique_vertex_attribute() {
    semantic(
        "!!VP2.0\nMAD o[HPOS], v[1], |v[2]|, v[1];\nEND",
        At::First("v[2]"),
        "one unique vertex attribute",
    );
}

#[test]
fn vp2_must_write_hpos() {
    semantic("!!VP2.0\nMOV o[CLP0].x, v[0];\nEND", At::End, "HPOS");
}

// ---- NV_fragment_program (FP1.0) -----------------------------------------------------

#[test]
fn fp_not_both_colr_and_colh() {
    semantic(
        "!!FP1.0\nMOV o[COLR], R0;\nMOV o[COLH], H0;\nEND",
        At::First("o[COLH]"),
        "both o[COLR] and o[COLH]",
    );
}

#[test]
fn fp_must_write_an_output() {
    semantic("!!FP1.0\nMOV R0, f[COL0];\nEND", At::End, "no output");
}

#[test]
fn fp_define_name_may_not_be_a_register() {
    semantic(
        "!!FP1.0\nDEFINE R0 = 1;\nEND",
        At::First("R0"),
        "temporary register",
    );
    semantic(
        "!!FP1.0\nDECLARE H63;\nEND",
        At::First("H63"),
        "temporary register",
    );
}

#[test]
fn fp_define_name_may_not_be_a_keyword() {
    semantic(
        "!!FP1.0\nDEFINE MOVR = 1;\nEND",
        At::First("MOVR"),
        "keyword",
    );
    semantic("!!FP1.0\nDECLARE RC;\nEND", At::First("RC"), "keyword");
}

#[test]
fn fp_define_name_may_not_be_a_texture_unit() {
    semantic(
        "!!FP1.0\nDECLARE TEX15 = {1};\nEND",
        At::First("TEX15"),
        "texture unit",
    );
}

#[test]
fn fp_define_name_may_not_start_with_a_digit() {
    semantic("!!FP1.0\nDEFINE 2x = 1;\nEND", At::First("2x"), "digit");
}

#[test]
fn fp_named_parameter_must_be_defined_first() {
    semantic(
        "!!FP1.0\nMOV o[COLR], later;\nDEFINE later = 1;\nEND",
        At::First("later"),
        "previous DEFINE or DECLARE",
    );
}

#[test]
fn fp_define_value_must_be_defined_first() {
    semantic(
        "!!FP1.0\nDEFINE a = {b, 1};\nEND",
        At::First("b,"),
        "previous DEFINE or DECLARE",
    );
}

#[test]
fn fp_no_redefinition() {
    semantic(
        "!!FP1.0\nDEFINE a = 1;\nDECLARE a;\nEND",
        At::First("a;"),
        "re-define",
    );
}

#[test]
fn fp_declare_value_must_be_a_constant() {
    semantic(
        "!!FP1.0\nDECLARE a = 3;\nDECLARE b = a;\nEND",
        At::First("a;\nEND"),
        "not a constant",
    );
}

#[test]
fn fp_at_most_1024_instructions() {
    let body = repeat("MOV o[COLR], R0;\n", 1024);
    let ok = format!("!!FP1.0\nDEFINE k = 1;\n{body}END");
    assert!(assemble(&ok, None).is_ok());
    let text = format!("!!FP1.0\n{body}ADD o[COLR], R0, R1;\nEND");
    semantic(&text, At::First("ADD"), "at most 1024");
}

#[test]
fn fp_at_most_64_register_units() {
    // 31 fp32 temps (62 units) + o[COLR] (2) = 64: fine; one H register more is 65.
    let mut ok = String::from("!!FP1.0\n");
    for r in 0..31 {
        ok.push_str(&format!("MOV R{r}, f[COL0];\n"));
    }
    ok.push_str("MOV o[COLR], R0;\n");
    assert!(assemble(&format!("{ok}END"), None).is_ok());
    let text = format!("{ok}MOV H0, R1;\nEND");
    semantic(&text, At::End, "register units");
}

#[test]
fn fp_one_unique_attribute() {
    semantic(
        "!!FP1.0\nADD o[COLR], f[TEX0], f[TEX1];\nEND",
        At::First("f[TEX1]"),
        "one unique attribute",
    );
}

#[test]
fn fp_one_unique_program_parameter() {
    semantic(
        "!!FP1.0\nADD o[COLR], p[0], p[1];\nEND",
        At::First("p[1]"),
        "more than one unique program parameter",
    );
    semantic(
        "!!FP1.0\nDECLARE a;\nADD o[COLR], a, {1};\nEND",
        At::First("{1}"),
        "more than one unique program parameter",
    );
}

#[test]
fn fp_merged_constants_hold_at_most_four_values() {
    // The four invalid instructions the spec lists.
    for (op2, marker) in [
        ("-4", "-4"),
        ("|-4|", "|-4|"),
        ("-{-1,-2,-3,-4}", "-{-1"),
        ("{4,5,6,7}.x", "{4,5"),
    ] {
        let text = format!("!!FP1.0\nADD R0, {{1,2,3,4}}, {op2};\nMOV o[COLR], R0;\nEND");
        semantic(&text, At::First(marker), "at most four");
    }
}

#[test]
fn fp_texture_unit_has_one_target() {
    semantic(
        "!!FP1.0\nTEX R0, f[TEX0], TEX2, 2D;\nTXP R1, f[TEX0], TEX2, CUBE;\nMOV o[COLR], R0;\nEND",
        At::First("CUBE"),
        "same target",
    );
}

#[test]
fn fp_pack_results_need_32_bit_registers() {
    for op in ["PK2H", "PK2US", "PK4B", "PK4UB"] {
        let text = format!("!!FP1.0\n{op} H0, R0;\nMOV o[COLR], R0;\nEND");
        semantic(&text, At::First("H0"), "32-bit scalar");
        let text = format!("!!FP1.0\n{op} o[COLH], R0;\nEND");
        semantic(&text, At::First("o[COLH]"), "32-bit scalar");
    }
    assert!(assemble("!!FP1.0\nPK2H o[DEPR].z, R0;\nEND", None).is_ok());
}

#[test]
fn fp_unpack_operands_need_32_bit_registers() {
    for op in ["UP2H", "UP2US", "UP4B", "UP4UB"] {
        let text = format!("!!FP1.0\n{op} R0, H1.x;\nMOV o[COLR], R0;\nEND");
        semantic(&text, At::First("H1"), "not an fp16");
    }
}

#[test]
fn fp_rfl_may_not_write_w() {
    semantic(
        "!!FP1.0\nRFL R0, R1, R2;\nMOV o[COLR], R0;\nEND",
        At::First("R0, R1"),
        "w component",
    );
}

// ---- grammar (syntax errors) ---------------------------------------------------------

#[test]
fn newer_opcodes_need_newer_headers() {
    syntax(
        "!!VP1.0\nSUB o[HPOS], v[0], v[0];\nEND",
        At::First("SUB"),
        "!!VP1.1",
    );
    syntax(
        "!!VP1.1\nSEQ o[HPOS], v[0], v[0];\nEND",
        At::First("SEQ"),
        "!!VP2.0",
    );
    syntax(
        "!!VP1.1\nMOVC o[HPOS], v[0];\nEND",
        At::First("MOVC"),
        "!!VP2.0",
    );
    syntax(
        "!!VSP1.0\nDPH c[0], v[0], v[0];\nEND",
        At::First("DPH"),
        "!!VSP1.0",
    );
}

#[test]
fn vp_grammar_details() {
    syntax(
        "!!VP1.0\nMOV o[HPOS], +v[0];\nEND",
        At::First("+"),
        "'+' sign",
    );
    syntax(
        "!!VP1.1\nMOV o[HPOS], |v[0]|;\nEND",
        At::First("|"),
        "!!VP2.0",
    );
    syntax(
        "!!VP1.0\nMOV o[HPOS], c[96];\nEND",
        At::First("96"),
        "out of range",
    );
    syntax(
        "!!VP1.0\nMOV o[HPOS], c[A0.y];\nEND",
        At::First("y]"),
        "address component",
    );
    syntax(
        "!!VP1.0\nMOV o[HPOS], c[A0.x + 64];\nEND",
        At::First("64"),
        "out of range",
    );
    syntax("!!VP1.0\nRCP o[HPOS], v[0];\nEND", At::First(";"), "scalar");
    syntax(
        "!!VP1.0\nMOV o[HPOS], v[0].xy;\nEND",
        At::First("xy"),
        "one or four",
    );
    syntax(
        "!!VP1.0\nMOV o[HPOS].yx, v[0];\nEND",
        At::First("yx"),
        "write mask",
    );
    syntax("!!VP1.0\nMOV R12, v[0];\nEND", At::First("R12"), "R0-R11");
    syntax(
        "!!VP1.0\nMOV o[CLP0], v[0];\nEND",
        At::First("CLP0"),
        "unknown result",
    );
    syntax("!!VP1.0\nMOV o[HPOS], v[0];\n", At::End, "END");
    syntax(
        "!!VP1.0\nOPTION NV_position_invariant;\nEND",
        At::First("OPTION"),
        "OPTION",
    );
    syntax("!!VP1.0\nl:\nEND", At::First("l:"), "!!VP2.0");
    syntax(
        "!!VP1.0\nMOV v[0], R0;\nEND",
        At::First("v[0]"),
        "read-only",
    );
    syntax(
        "!!VP1.0\nMOV o[HPOS], o[COL0];\nEND",
        At::First("o[COL0]"),
        "cannot be read",
    );
}

#[test]
fn fp_grammar_details() {
    syntax(
        "!!FP1.0\nMOVX_SATC o[COLR], R0;\nEND",
        At::First("MOVX"),
        "unknown instruction",
    );
    syntax(
        "!!FP1.0\nDDXX o[COLR], R0;\nEND",
        At::First("DDXX"),
        "unknown instruction",
    );
    syntax(
        "!!FP1.0\nMOV o[COLR], R0.xyz;\nEND",
        At::First("xyz"),
        "one or four",
    );
    syntax("!!FP1.0\nRCP o[COLR], R0;\nEND", At::First(";"), "scalar");
    syntax(
        "!!FP1.0\nMOV o[COLR], RC;\nEND",
        At::First("RC;"),
        "write-only",
    );
    syntax("!!FP1.0\nMOV o[COLR], p[64];\nEND", At::First("64"), "p[]");
    syntax(
        "!!FP1.0\nTEX o[COLR], R0, TEX16, 2D;\nEND",
        At::First("TEX16"),
        "TEX0-TEX15",
    );
    syntax(
        "!!FP1.0\nTEX o[COLR], R0, TEX1, 4D;\nEND",
        At::First("4D"),
        "texture target",
    );
    syntax(
        "!!FP1.0\nMOV o[COLR], {1,2,3,4,5};\nEND",
        At::First(",5"),
        "at most 4",
    );
    syntax(
        "!!FP1.0\nMOV o[COLR], f[TEX8];\nEND",
        At::First("TEX8"),
        "unknown fragment",
    );
    syntax(
        "!!FP1.0\nMOV f[TEX0], R0;\nEND",
        At::First("f[TEX0]"),
        "read-only",
    );
}
