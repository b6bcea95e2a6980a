//! The registers of a batch of lanes, stored as structure of arrays.

use super::{lanes_mask, LaneMask, Vec4, MAX_LANES};
use crate::ir::{Program, RegInfo};

/// A register file: the low 32 bits of every component, plus the high 32 bits for
/// registers declared `LONG` (64-bit components). `hi` is empty when no register is long.
#[derive(Clone, Debug, Default)]
pub(crate) struct RegFile {
    pub lo: Vec<Vec4>,
    pub hi: Vec<Vec4>,
    pub long: Vec<bool>,
}

impl RegFile {
    fn new(infos: impl Iterator<Item = RegInfo>, copies: usize) -> RegFile {
        let per: Vec<bool> = infos.map(|i| i.long).collect();
        let any_long = per.iter().any(|&l| l);
        let n = per.len() * copies.max(1);
        let mut long = Vec::with_capacity(n);
        for _ in 0..copies.max(1) {
            long.extend_from_slice(&per);
        }
        RegFile {
            lo: vec![[[0; MAX_LANES]; 4]; n],
            hi: if any_long {
                vec![[[0; MAX_LANES]; 4]; n]
            } else {
                Vec::new()
            },
            long,
        }
    }

    pub(crate) fn is_long(&self, i: usize) -> bool {
        self.long.get(i).copied().unwrap_or(false)
    }

    fn clear(&mut self) {
        for r in self.lo.iter_mut().chain(self.hi.iter_mut()) {
            *r = [[0; MAX_LANES]; 4];
        }
    }
}

/// Condition-code flag bits of one component.
pub(crate) const SF: u8 = 1;
pub(crate) const ZF: u8 = 2;
pub(crate) const OF: u8 = 4;
pub(crate) const CF: u8 = 8;

/// Registers of up to [`MAX_LANES`] invocations of one program.
///
/// Build it once per program (or per thread) and reuse it across batches: set the inputs,
/// call [`Executor::run`](super::Executor::run), read the outputs and the kill mask.
/// Temporaries, outputs, address registers and condition codes are cleared at the start
/// of every run, so results never depend on an earlier batch.
///
/// Geometry, tessellation-control and tessellation-evaluation programs read per-vertex
/// inputs (`vertex[n].attrib`): a state built with [`LaneState::with_vertices`] holds
/// `vertices` copies of every input slot; inputs read without a vertex index
/// (`primitive.id` ...) use copy 0.
///
/// ```
/// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
/// # use std::sync::Arc;
/// let p = Arc::new(assemble("!!NVvp4.0\nADD result.position, vertex.attrib[0], vertex.attrib[0];\nEND", None).unwrap());
/// let ex = Executor::new(p);
/// let mut st = ex.new_state(2);
/// st.set_input_f32(0, 1, [1.0, 2.0, 3.0, 4.0]);
/// let all = st.all_lanes();
/// ex.run(&mut st, all, &[], &mut NullEnv).unwrap();
/// assert_eq!(st.output_f32(0, 1), [2.0, 4.0, 6.0, 8.0]);
/// assert_eq!(st.output_f32(0, 0), [0.0; 4]);
/// ```
#[derive(Clone, Debug)]
pub struct LaneState {
    pub(crate) width: usize,
    pub(crate) vertices: usize,
    pub(crate) temps: RegFile,
    pub(crate) inputs: RegFile,
    pub(crate) outputs: RegFile,
    pub(crate) address: Vec<[[i32; MAX_LANES]; 4]>,
    pub(crate) cc: [[[u8; MAX_LANES]; 4]; 2],
    pub(crate) kill: LaneMask,
    pub(crate) helper: LaneMask,
    pub(crate) n_inputs: usize,
    /// The executor's source-operand buffer (768 bytes), kept between runs: a fragment
    /// batch often runs only a few instructions, and allocating it per run cost ~6% of a
    /// one-MOV fill.
    pub(crate) operand_buf: Option<Box<[super::Vec4; 3]>>,
}

impl LaneState {
    /// Registers for `width` lanes (clamped to `1..=MAX_LANES`) of `program`.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// let p = Arc::new(assemble("!!NVvp4.0\nADD result.position, vertex.attrib[0], vertex.attrib[0];\nEND", None).unwrap());
    /// let ex = Executor::new(p);
    /// let st = LaneState::new(ex.program(), 40);
    /// assert_eq!((st.width(), st.vertices()), (MAX_LANES, 1));
    /// ```
    pub fn new(program: &Program, width: usize) -> LaneState {
        LaneState::with_vertices(program, width, 1)
    }

    /// Like [`LaneState::new`], with `vertices` copies of every input slot (per-vertex
    /// inputs of geometry and tessellation programs; at least 1).
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// let p = assemble("!!NVgp4.0\nPRIMITIVE_IN LINES;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\nMOV result.attrib[0], vertex[1].attrib[0];\nEND", None).unwrap();
    /// let mut st = LaneState::with_vertices(&p, 1, 2);
    /// assert_eq!(st.vertices(), 2);
    /// st.input_vertex_mut(1, 0).unwrap()[0][0] = 5.0f32.to_bits();
    /// Executor::new(Arc::new(p)).run(&mut st, 1, &[], &mut NullEnv).unwrap();
    /// assert_eq!(st.output_f32(0, 0)[0], 5.0);
    /// ```
    pub fn with_vertices(program: &Program, width: usize, vertices: usize) -> LaneState {
        let vertices = vertices.max(1);
        LaneState {
            width: width.clamp(1, MAX_LANES),
            vertices,
            temps: RegFile::new(program.temps.iter().copied(), 1),
            inputs: RegFile::new(program.inputs.iter().map(|s| s.info), vertices),
            outputs: RegFile::new(program.outputs.iter().map(|s| s.info), 1),
            address: vec![[[0; MAX_LANES]; 4]; program.address_regs as usize],
            cc: [[[0; MAX_LANES]; 4]; 2],
            kill: 0,
            helper: 0,
            n_inputs: program.inputs.len(),
            operand_buf: None,
        }
    }

    /// Number of lanes.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// let p = Arc::new(assemble("!!NVvp4.0\nADD result.position, vertex.attrib[0], vertex.attrib[0];\nEND", None).unwrap());
    /// let ex = Executor::new(p);
    /// assert_eq!(ex.new_state(3).width(), 3);
    /// assert_eq!(ex.new_state(0).width(), 1);
    /// ```
    pub fn width(&self) -> usize {
        self.width
    }

    /// Mask of all lanes of the batch.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// let p = Arc::new(assemble("!!NVvp4.0\nADD result.position, vertex.attrib[0], vertex.attrib[0];\nEND", None).unwrap());
    /// let ex = Executor::new(p);
    /// assert_eq!(ex.new_state(3).all_lanes(), 0b111);
    /// ```
    pub fn all_lanes(&self) -> LaneMask {
        lanes_mask(self.width)
    }

    /// Number of per-vertex input copies.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// let p = assemble("!!NVgp4.0\nPRIMITIVE_IN LINES;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\nMOV result.attrib[0], vertex[1].attrib[0];\nEND", None).unwrap();
    /// let mut st = LaneState::with_vertices(&p, 1, 2);
    /// assert_eq!(st.vertices(), 2);
    /// assert!(st.input_vertex_mut(2, 0).is_none());
    /// ```
    pub fn vertices(&self) -> usize {
        self.vertices
    }

    /// Input slot `slot` (vertex copy 0) for all lanes: `[comp][lane]`, raw bits.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// let p = Arc::new(assemble("!!NVvp4.0\nADD result.position, vertex.attrib[0], vertex.attrib[0];\nEND", None).unwrap());
    /// let ex = Executor::new(p);
    /// let mut st = ex.new_state(2);
    /// st.input_mut(0).unwrap()[2] = [3.0f32.to_bits(); MAX_LANES];
    /// ex.run(&mut st, 0b11, &[], &mut NullEnv).unwrap();
    /// assert_eq!(st.output_f32(0, 1)[2], 6.0);
    /// assert!(st.input_mut(1).is_none());
    /// ```
    pub fn input_mut(&mut self, slot: usize) -> Option<&mut Vec4> {
        self.input_vertex_mut(0, slot)
    }

    /// Input slot `slot` of vertex copy `vertex`.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// let p = assemble("!!NVgp4.0\nPRIMITIVE_IN LINES;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\nMOV result.attrib[0], vertex[1].attrib[0];\nEND", None).unwrap();
    /// let mut st = LaneState::with_vertices(&p, 1, 2);
    /// st.input_vertex_mut(0, 0).unwrap()[0][0] = 1.0f32.to_bits();
    /// st.input_vertex_mut(1, 0).unwrap()[0][0] = 2.0f32.to_bits();
    /// Executor::new(Arc::new(p)).run(&mut st, 1, &[], &mut NullEnv).unwrap();
    /// assert_eq!(st.output_f32(0, 0)[0], 2.0);
    /// ```
    pub fn input_vertex_mut(&mut self, vertex: usize, slot: usize) -> Option<&mut Vec4> {
        if vertex >= self.vertices || slot >= self.n_inputs {
            return None;
        }
        self.inputs.lo.get_mut(vertex * self.n_inputs + slot)
    }

    /// High halves of a `LONG` input slot (vertex copy `vertex`); `None` when the slot is
    /// not 64-bit.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// let p = assemble("!!NVvp5.0\nLONG ATTRIB d = vertex.attrib[0];\nATTRIB f = vertex.attrib[1];\nMOV result.position, f;\nMOV.U64 result.attrib[0], d;\nEND", None).unwrap();
    /// let mut st = LaneState::new(&p, 1);
    /// let d = p.inputs.iter().position(|s| s.info.long).unwrap();
    /// assert!(st.input_hi_mut(0, d).is_some());
    /// assert!(st.input_hi_mut(0, 1 - d).is_none());
    /// ```
    pub fn input_hi_mut(&mut self, vertex: usize, slot: usize) -> Option<&mut Vec4> {
        if vertex >= self.vertices || slot >= self.n_inputs {
            return None;
        }
        let i = vertex * self.n_inputs + slot;
        if !self.inputs.is_long(i) {
            return None;
        }
        self.inputs.hi.get_mut(i)
    }

    /// Set the four components of input `slot` (vertex copy 0) for one lane. Returns
    /// false (and changes nothing) when the slot or lane does not exist.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// let p = Arc::new(assemble("!!NVvp4.0\nADD result.position, vertex.attrib[0], vertex.attrib[0];\nEND", None).unwrap());
    /// let ex = Executor::new(p);
    /// let mut st = ex.new_state(1);
    /// assert!(st.set_input(0, 0, [0x3f80_0000; 4]));
    /// assert!(!st.set_input(7, 0, [0; 4]));
    /// ex.run(&mut st, 1, &[], &mut NullEnv).unwrap();
    /// assert_eq!(st.output_f32(0, 0), [2.0; 4]);
    /// ```
    pub fn set_input(&mut self, slot: usize, lane: usize, value: [u32; 4]) -> bool {
        if lane >= MAX_LANES {
            return false;
        }
        match self.input_mut(slot) {
            Some(r) => {
                for (c, v) in value.iter().enumerate() {
                    r[c][lane] = *v;
                }
                true
            }
            None => false,
        }
    }

    /// [`LaneState::set_input`] with float values.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// let p = Arc::new(assemble("!!NVvp4.0\nADD result.position, vertex.attrib[0], vertex.attrib[0];\nEND", None).unwrap());
    /// let ex = Executor::new(p);
    /// let mut st = ex.new_state(1);
    /// assert!(st.set_input_f32(0, 0, [-1.0, 0.0, 1.0, 2.0]));
    /// ex.run(&mut st, 1, &[], &mut NullEnv).unwrap();
    /// assert_eq!(st.output_f32(0, 0), [-2.0, 0.0, 2.0, 4.0]);
    /// ```
    pub fn set_input_f32(&mut self, slot: usize, lane: usize, value: [f32; 4]) -> bool {
        self.set_input(slot, lane, value.map(f32::to_bits))
    }

    /// Output slot `slot` for all lanes: `[comp][lane]`, raw bits (for a `LONG` output,
    /// the low halves).
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// let p = Arc::new(assemble("!!NVvp4.0\nADD result.position, vertex.attrib[0], vertex.attrib[0];\nEND", None).unwrap());
    /// let ex = Executor::new(p);
    /// let mut st = ex.new_state(2);
    /// st.set_input_f32(0, 1, [1.0; 4]);
    /// ex.run(&mut st, 0b10, &[], &mut NullEnv).unwrap();
    /// let x: &Lanes = &st.output(0).unwrap()[0];
    /// assert_eq!((x[0], x[1]), (0, 2.0f32.to_bits()));
    /// assert!(st.output(1).is_none());
    /// ```
    pub fn output(&self, slot: usize) -> Option<&Vec4> {
        self.outputs.lo.get(slot)
    }

    /// High halves of a `LONG` output slot. NV_gpu_program5 allows `LONG` only on TEMP and
    /// vertex-program ATTRIB declarations, so program outputs carry 32-bit halves (PK64 /
    /// UP64 split 64-bit values) and this is `None` for them.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// let p = assemble("!!NVvp5.0\nLONG ATTRIB d = vertex.attrib[0];\nOUTPUT o = result.attrib[0];\nUP64.U o, d;\nMOV result.position, 0;\nEND", None).unwrap();
    /// let ex = Executor::new(Arc::new(p));
    /// let mut st = ex.new_state(1);
    /// st.input_mut(0).unwrap()[0][0] = 2;
    /// st.input_hi_mut(0, 0).unwrap()[0][0] = 1;
    /// ex.run(&mut st, 1, &[], &mut NullEnv).unwrap();
    /// let o = 0; // result.attrib[0], declared first
    /// assert_eq!((st.output(o).unwrap()[0][0], st.output(o).unwrap()[1][0]), (2, 1));
    /// assert!(st.output_hi(o).is_none());
    /// ```
    pub fn output_hi(&self, slot: usize) -> Option<&Vec4> {
        if !self.outputs.is_long(slot) {
            return None;
        }
        self.outputs.hi.get(slot)
    }

    /// The four components of output `slot` for one lane (zeros if it does not exist).
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// let p = Arc::new(assemble("!!NVvp4.0\nADD result.position, vertex.attrib[0], vertex.attrib[0];\nEND", None).unwrap());
    /// let ex = Executor::new(p);
    /// let mut st = ex.new_state(1);
    /// st.set_input_f32(0, 0, [0.5; 4]);
    /// ex.run(&mut st, 1, &[], &mut NullEnv).unwrap();
    /// assert_eq!(st.output_lane(0, 0), [0x3f80_0000; 4]);
    /// assert_eq!(st.output_lane(9, 0), [0; 4]);
    /// ```
    pub fn output_lane(&self, slot: usize, lane: usize) -> [u32; 4] {
        match (self.output(slot), lane < MAX_LANES) {
            (Some(r), true) => [r[0][lane], r[1][lane], r[2][lane], r[3][lane]],
            _ => [0; 4],
        }
    }

    /// [`LaneState::output_lane`] as floats.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// let p = Arc::new(assemble("!!NVvp4.0\nADD result.position, vertex.attrib[0], vertex.attrib[0];\nEND", None).unwrap());
    /// let ex = Executor::new(p);
    /// let mut st = ex.new_state(1);
    /// st.set_input_f32(0, 0, [0.5; 4]);
    /// ex.run(&mut st, 1, &[], &mut NullEnv).unwrap();
    /// assert_eq!(st.output_f32(0, 0), [1.0; 4]);
    /// ```
    pub fn output_f32(&self, slot: usize, lane: usize) -> [f32; 4] {
        self.output_lane(slot, lane).map(f32::from_bits)
    }

    /// Temporary register `reg` of one lane (for tests and debugging tools).
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// let p = assemble("!!NVvp4.0\nINT TEMP t;\nMOV.S t, {1, -2, 3, 4};\nMOV result.position, 0;\nEND", None).unwrap();
    /// let params: Vec<[u32; 4]> = p.params.iter().map(|s| match s { ParamSource::Constant(c) => *c, _ => [0; 4] }).collect();
    /// let ex = Executor::new(Arc::new(p));
    /// let mut st = ex.new_state(1);
    /// ex.run(&mut st, 1, &params, &mut NullEnv).unwrap();
    /// assert_eq!(st.temp_lane(0, 0), [1, (-2i32) as u32, 3, 4]);
    /// ```
    pub fn temp_lane(&self, reg: usize, lane: usize) -> [u32; 4] {
        match (self.temps.lo.get(reg), lane < MAX_LANES) {
            (Some(r), true) => [r[0][lane], r[1][lane], r[2][lane], r[3][lane]],
            _ => [0; 4],
        }
    }

    /// Address register `reg` of one lane.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// let p = assemble("!!ARBvp1.0\nADDRESS a;\nARL a.x, vertex.attrib[0].x;\nMOV result.position, vertex.attrib[0];\nEND", None).unwrap();
    /// let ex = Executor::new(Arc::new(p));
    /// let mut st = ex.new_state(1);
    /// st.set_input_f32(0, 0, [-2.5, 0.0, 0.0, 0.0]);
    /// ex.run(&mut st, 1, &[], &mut NullEnv).unwrap();
    /// assert_eq!(st.address_lane(0, 0), [-3, 0, 0, 0]);
    /// ```
    pub fn address_lane(&self, reg: usize, lane: usize) -> [i32; 4] {
        match (self.address.get(reg), lane < MAX_LANES) {
            (Some(r), true) => [r[0][lane], r[1][lane], r[2][lane], r[3][lane]],
            _ => [0; 4],
        }
    }

    /// Condition-code register `cc` (0 or 1) of one lane: per component the flag bits
    /// SF = 1, ZF = 2, OF = 4, CF = 8 (zeros for registers or lanes that do not exist).
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*};
    /// # use std::sync::Arc;
    /// let p = assemble("!!NVfp4.0\nTEMP t;\nMOVC t, fragment.color;\nMOV result.color, t;\nEND", None).unwrap();
    /// let ex = Executor::new(Arc::new(p));
    /// let mut st = ex.new_state(1);
    /// st.set_input_f32(0, 0, [-1.0, 0.0, 2.0, f32::NAN]);
    /// ex.run(&mut st, 1, &[], &mut NullEnv).unwrap();
    /// assert_eq!(st.cc_lane(0, 0), [1, 2, 0, 3]);
    /// assert_eq!(st.cc_lane(2, 0), [0; 4]);
    /// ```
    pub fn cc_lane(&self, cc: usize, lane: usize) -> [u8; 4] {
        match (self.cc.get(cc), lane < MAX_LANES) {
            (Some(r), true) => [r[0][lane], r[1][lane], r[2][lane], r[3][lane]],
            _ => [0; 4],
        }
    }

    /// Lanes that executed KIL (or a failed KIL test) in the last run.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// let p = assemble("!!ARBfp1.0\nKIL fragment.texcoord[0];\nMOV result.color, fragment.color;\nEND", None).unwrap();
    /// let ex = Executor::new(Arc::new(p));
    /// let mut st = ex.new_state(2);
    /// st.set_input_f32(0, 1, [0.0, -1.0, 0.0, 0.0]);
    /// ex.run(&mut st, 0b11, &[], &mut NullEnv).unwrap();
    /// assert_eq!(st.kill_mask(), 0b10);
    /// ```
    pub fn kill_mask(&self) -> LaneMask {
        self.kill
    }

    /// Mark helper lanes (fragment lanes that only exist to complete a 2×2 quad): they run
    /// the program, so derivatives stay exact, but their stores, atomics and emits are
    /// suppressed (atomics return zero).
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// # struct Counter(u32);
    /// # impl Env for Counter {
    /// #     fn counter_atomic(&mut self, _: u32, _: u32, f: &dyn Fn(u32) -> u32) -> Result<Option<u32>, EnvError> {
    /// #         let old = self.0;
    /// #         self.0 = f(old);
    /// #         Ok(Some(old))
    /// #     }
    /// # }
    /// let p = assemble("!!NVfp5.0\nOPTION NV_shader_atomic_counters;\nCOUNTER c = program.counter[0][0];\nUINT TEMP r;\nATOMCTR.U32.INCR r.x, c;\nEND", None).unwrap();
    /// let ex = Executor::new(Arc::new(p));
    /// let mut st = ex.new_state(4);
    /// st.set_helper_mask(0b1100);
    /// let mut env = Counter(0);
    /// ex.run(&mut st, 0b1111, &[], &mut env).unwrap();
    /// assert_eq!(env.0, 2);
    /// ```
    pub fn set_helper_mask(&mut self, mask: LaneMask) {
        self.helper = mask;
    }

    /// The helper-lane mask.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// let p = Arc::new(assemble("!!NVvp4.0\nADD result.position, vertex.attrib[0], vertex.attrib[0];\nEND", None).unwrap());
    /// let ex = Executor::new(p);
    /// let mut st = ex.new_state(4);
    /// assert_eq!(st.helper_mask(), 0);
    /// st.set_helper_mask(0b0110);
    /// assert_eq!(st.helper_mask(), 0b0110);
    /// ```
    pub fn helper_mask(&self) -> LaneMask {
        self.helper
    }

    /// Clear temporaries, outputs, address registers, condition codes and the kill mask.
    pub(crate) fn reset_run(&mut self) {
        self.temps.clear();
        self.outputs.clear();
        for a in &mut self.address {
            *a = [[0; MAX_LANES]; 4];
        }
        self.cc = [[[0; MAX_LANES]; 4]; 2];
        self.kill = 0;
    }
}
