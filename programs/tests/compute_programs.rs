//! NV_compute_program5's load rules: what `!!NVcp5.0` programs may contain and what makes
//! them fail to load, each with the spec sentence it checks.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu_programs::ir::{BufferKind, Extra, InputBinding, MemSpace, Opcode, Stage};
use glemu_programs::{assemble, detect_header};

fn loads(text: &str) -> glemu_programs::Program {
    assemble(text, None).unwrap_or_else(|e| panic!("should load: {}\n{text}", e.render(text)))
}

fn rejects(text: &str, why: &str) {
    match assemble(text, None) {
        Ok(_) => panic!("should not load:\n{text}"),
        Err(e) => assert!(
            e.message.contains(why),
            "error '{}' does not mention '{why}'\n{text}",
            e.message
        ),
    }
}

fn cp(body: &str) -> String {
    format!("!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nOPTION NV_shader_thread_group;\nOPTION NV_shader_atomic_float;\nGROUP_SIZE 8 4;\nSHARED_MEMORY 64;\nSHARED s[] = {{ program.sharedmem }};\nUINT TEMP r, a;\n{body}\nEND")
}

#[test]
fn header_and_group_size() {
    let h = detect_header("!!NVcp5.0\nEND").unwrap();
    assert_eq!(h.stage, Stage::Compute);
    let p = loads("!!NVcp5.0\nGROUP_SIZE 16;\nEND");
    assert_eq!(p.decls.group_size, Some([16, 1, 1]));
    assert_eq!(
        loads("!!NVcp5.0\nGROUP_SIZE 2 3 4;\nEND").decls.group_size,
        Some([2, 3, 4])
    );
    // "A program will fail to load unless it contains exactly one GROUP_SIZE declaration."
    rejects("!!NVcp5.0\nEND", "must declare GROUP_SIZE");
    rejects(
        "!!NVcp5.0\nGROUP_SIZE 2;\nGROUP_SIZE 2;\nEND",
        "declared more than once",
    );
    // "Each argument must be less than or equal to MAX_COMPUTE_LOCAL_WORK_SIZE."
    rejects("!!NVcp5.0\nGROUP_SIZE 1025;\nEND", "between 1 and 1024");
    rejects("!!NVcp5.0\nGROUP_SIZE 0;\nEND", "between 1 and 1024");
    rejects("!!NVcp5.0\nGROUP_SIZE 64 32;\nEND", "the limit is 1024");
    rejects("!!NVcp5.0\nGROUP_SIZE 1 2 3 4;\nEND", "';'");
    // Declarations come first, and belong to compute programs.
    rejects("!!NVcp5.0\nTEMP t;\nGROUP_SIZE 2;\nEND", "must come before");
    rejects(
        "!!NVfp5.0\nGROUP_SIZE 2;\nMOV result.color, 0;\nEND",
        "only allowed in compute programs",
    );
    rejects("!!NVcp4.0\nGROUP_SIZE 2;\nEND", "unknown program header");
}

#[test]
fn shared_memory_declarations() {
    let p = loads(&cp("SHARED one = program.sharedmem[4];\nSHARED few[4] = { program.sharedmem[8..11] };\nLDS.U8 r, one;\nLDS.U8 r, few[3];"));
    assert_eq!(p.decls.shared_memory, Some(64));
    let shared: Vec<(u32, Option<u32>)> = p
        .buffers
        .iter()
        .filter(|b| b.kind == BufferKind::Shared)
        .map(|b| (b.first, b.len))
        .collect();
    assert_eq!(shared, [(0, None), (4, Some(1)), (8, Some(4))]);
    rejects(
        "!!NVcp5.0\nGROUP_SIZE 1;\nSHARED_MEMORY 8;\nSHARED_MEMORY 8;\nEND",
        "declared more than once",
    );
    rejects(
        "!!NVcp5.0\nGROUP_SIZE 1;\nSHARED_MEMORY 49153;\nEND",
        "exceeds the limit of 49152",
    );
    // Bindings past the declared size, or without one.
    rejects(
        &cp("SHARED x[4] = { program.sharedmem[62..65] };"),
        "beyond SHARED_MEMORY 64",
    );
    rejects(
        "!!NVcp5.0\nGROUP_SIZE 1;\nSHARED s[] = { program.sharedmem };\nEND",
        "declares no SHARED_MEMORY",
    );
    rejects(
        &cp("SHARED x[2] = { program.sharedmem[0..3] };"),
        "does not match",
    );
    rejects(&cp("SHARED x = program.sharedmem;"), "needs braces");
    rejects(
        "!!NVvp5.0\nSHARED s[] = { program.sharedmem };\nMOV result.position, 0;\nEND",
        "only allowed in compute programs",
    );
}

#[test]
fn lds_sts_atoms_take_a_storage_modifier_and_a_shared_variable() {
    let p = loads(&cp(
        "LDS.U32 r, s[a.x];\nLDS.S8 r, s[3];\nLDS.F32X4 r, s[16];\nLDS.U32.CC r, s[a.x + 4];\nSTS.U32 r, s[a.x];\nSTS.U16 r, s[62];\n\
         ATOMS.ADD.U32 r.x, r.x, s[a.x];\nATOMS.MIN.S32 r.x, r.x, s[0];\nATOMS.EXCH.U64 r.x, r.x, s[8];\nATOMS.CSWAP.U32 r.x, r, s[4];\n\
         ATOMS.ADD.F32 r.x, r.x, s[4];\nATOMS.IWRAP.U32 r.x, 7, s[4];",
    ));
    let ops: Vec<(Opcode, bool)> = p
        .instructions
        .iter()
        .map(|i| {
            (
                i.op,
                matches!(&i.extra, Extra::Mem(m) if matches!(m.space, MemSpace::Shared { .. })),
            )
        })
        .collect();
    assert!(ops.iter().all(|(_, shared)| *shared));
    assert_eq!(ops[0].0, Opcode::Load);
    assert_eq!(ops[4].0, Opcode::Store);
    assert_eq!(ops[6].0, Opcode::Atom);
    // "requires exactly one storage modifier" / "supports no base data type modifiers".
    rejects(&cp("LDS r, s[0];"), "needs a storage modifier");
    rejects(&cp("LDS.U r, s[0];"), "not allowed on LDS");
    rejects(&cp("STS.U32.U8 r, s[0];"), "more than one storage type");
    // "a program will fail to load if any other type of operand is used".
    rejects(
        &cp("STORAGE b[] = { program.storage[0] };\nLDS.U32 r, b[0];"),
        "needs a SHARED variable",
    );
    rejects(&cp("LDS.U32 r, a;"), "needs a SHARED variable");
    // ATOMS's table of atomic and storage modifiers.
    rejects(
        &cp("ATOMS.MIN.F32 r.x, r.x, s[0];"),
        "ATOMS does not support",
    );
    rejects(
        &cp("ATOMS.IWRAP.S32 r.x, r.x, s[0];"),
        "ATOMS does not support",
    );
    rejects(
        &cp("ATOMS.AND.U64 r.x, r.x, s[0];"),
        "ATOMS does not support",
    );
    rejects(
        &cp("ATOMS.U32 r.x, r.x, s[0];"),
        "atomic operation modifier",
    );
    // "... with an offset that would access memory beyond the declared shared memory size"
    rejects(&cp("LDS.U32 r, s[61];"), "beyond SHARED_MEMORY 64");
    rejects(&cp("STS.U32X4 r, s[56];"), "beyond SHARED_MEMORY 64");
    rejects(&cp("LDS.U32 r, s[64];"), "out of bounds");
    // "... if it uses the ATOMS, LDS, or STS instructions in a program without a
    // SHARED_MEMORY declaration"
    rejects(
        "!!NVcp5.0\nGROUP_SIZE 1;\nSHARED s = program.sharedmem[0];\nUINT TEMP r;\nLDS.U8 r, s;\nEND",
        "declares no SHARED_MEMORY",
    );
    // Only compute programs have shared memory.
    rejects(
        "!!NVfp5.0\nUINT TEMP r;\nLDS.U32 r, r;\nMOV result.color, 0;\nEND",
        "'LDS' is not allowed in fragment programs",
    );
}

#[test]
fn invocation_bindings_and_no_results() {
    let p = loads(&cp(
        "MOV.U r, invocation.localid;\nMOV.U r, invocation.globalid;\nMOV.U r, invocation.groupid;\n\
         MOV.U r, invocation.groupcount;\nMOV.U r, invocation.groupsize;\nMOV.U r, invocation.localindex;\n\
         MOV.U r, invocation.threadid;\nMOV.U r, invocation.threadltmask;\nATTRIB gid = invocation.globalid;\nMOV.U r, gid;",
    ));
    let b: Vec<&InputBinding> = p.inputs.iter().map(|i| &i.binding).collect();
    assert_eq!(
        &b[..6],
        [
            &InputBinding::LocalId,
            &InputBinding::GlobalId,
            &InputBinding::GroupId,
            &InputBinding::GroupCount,
            &InputBinding::GroupSize,
            &InputBinding::LocalIndex
        ]
    );
    rejects(
        &cp("MOV.U r, invocation.position;"),
        "not a compute program attribute",
    );
    rejects(
        &cp("MOV result.color, r;"),
        "compute programs have no results",
    );
    rejects(
        &cp("MOV.U r, vertex.position;"),
        "does not start an attribute binding",
    );
    rejects(
        &cp("MOV.U r, fragment.color;"),
        "does not start an attribute binding",
    );
    rejects(
        "!!NVfp5.0\nMOV result.color, invocation.localid;\nEND",
        "does not start an attribute binding in a fragment program",
    );
}

#[test]
fn barriers_and_stage_rules() {
    loads(&cp("BAR;\nMEMBAR;\nMEMBAR.CTA;\nBAR;"));
    rejects(&cp("BAR.CTA;"), "not an instruction modifier");
    rejects(
        "!!NVfp5.0\nMEMBAR.CTA;\nMOV result.color, 0;\nEND",
        "not an instruction modifier",
    );
    rejects(&cp("DDX r, r;"), "'DDX' is not allowed in compute programs");
    rejects(&cp("KIL r;"), "'KIL' is not allowed in compute programs");
    rejects(&cp("EMIT;"), "'EMIT' is not allowed in compute programs");
    // Textures, storage, images and global memory are the compute program's inputs.
    loads(&cp(
        "TEMP f;\nINT TEMP c;\nTXF f, c, texture[0], 2D;\nTEX f, f, texture[1], 2D;\nSTORAGE b[] = { program.storage[0] };\n\
         LDB.U32 r, b[a.x];\nLOADIM.U32 r, c, image[0], 2D;\nLONG TEMP p;\nLOAD.U32 r, p.x;\nATOM.ADD.U32 r.x, r.x, p.x;",
    ));
    // Loaded as another target, a compute program is the wrong target, and vice versa.
    assert!(assemble("!!NVcp5.0\nGROUP_SIZE 1;\nEND", Some(Stage::Vertex)).is_err());
    assert!(assemble(
        "!!NVvp5.0\nMOV result.position, 0;\nEND",
        Some(Stage::Compute)
    )
    .is_err());
}
