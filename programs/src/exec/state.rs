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
    pub fn new(program: &Program, width: usize) -> LaneState {
        LaneState::with_vertices(program, width, 1)
    }

    /// Like [`LaneState::new`], with `vertices` copies of every input slot (per-vertex
    /// inputs of geometry and tessellation programs; at least 1).
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
    pub fn width(&self) -> usize {
        self.width
    }

    /// Mask of all lanes of the batch.
    pub fn all_lanes(&self) -> LaneMask {
        lanes_mask(self.width)
    }

    /// Number of per-vertex input copies.
    pub fn vertices(&self) -> usize {
        self.vertices
    }

    /// Input slot `slot` (vertex copy 0) for all lanes: `[comp][lane]`, raw bits.
    pub fn input_mut(&mut self, slot: usize) -> Option<&mut Vec4> {
        self.input_vertex_mut(0, slot)
    }

    /// Input slot `slot` of vertex copy `vertex`.
    pub fn input_vertex_mut(&mut self, vertex: usize, slot: usize) -> Option<&mut Vec4> {
        if vertex >= self.vertices || slot >= self.n_inputs {
            return None;
        }
        self.inputs.lo.get_mut(vertex * self.n_inputs + slot)
    }

    /// High halves of a `LONG` input slot (vertex copy `vertex`); `None` when the slot is
    /// not 64-bit.
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
    pub fn set_input_f32(&mut self, slot: usize, lane: usize, value: [f32; 4]) -> bool {
        self.set_input(slot, lane, value.map(f32::to_bits))
    }

    /// Output slot `slot` for all lanes: `[comp][lane]`, raw bits (for a `LONG` output,
    /// the low halves).
    pub fn output(&self, slot: usize) -> Option<&Vec4> {
        self.outputs.lo.get(slot)
    }

    /// High halves of a `LONG` output slot.
    pub fn output_hi(&self, slot: usize) -> Option<&Vec4> {
        if !self.outputs.is_long(slot) {
            return None;
        }
        self.outputs.hi.get(slot)
    }

    /// The four components of output `slot` for one lane (zeros if it does not exist).
    pub fn output_lane(&self, slot: usize, lane: usize) -> [u32; 4] {
        match (self.output(slot), lane < MAX_LANES) {
            (Some(r), true) => [r[0][lane], r[1][lane], r[2][lane], r[3][lane]],
            _ => [0; 4],
        }
    }

    /// [`LaneState::output_lane`] as floats.
    pub fn output_f32(&self, slot: usize, lane: usize) -> [f32; 4] {
        self.output_lane(slot, lane).map(f32::from_bits)
    }

    /// Temporary register `reg` of one lane (for tests and debugging tools).
    pub fn temp_lane(&self, reg: usize, lane: usize) -> [u32; 4] {
        match (self.temps.lo.get(reg), lane < MAX_LANES) {
            (Some(r), true) => [r[0][lane], r[1][lane], r[2][lane], r[3][lane]],
            _ => [0; 4],
        }
    }

    /// Address register `reg` of one lane.
    pub fn address_lane(&self, reg: usize, lane: usize) -> [i32; 4] {
        match (self.address.get(reg), lane < MAX_LANES) {
            (Some(r), true) => [r[0][lane], r[1][lane], r[2][lane], r[3][lane]],
            _ => [0; 4],
        }
    }

    /// Lanes that executed KIL (or a failed KIL test) in the last run.
    pub fn kill_mask(&self) -> LaneMask {
        self.kill
    }

    /// Mark helper lanes (fragment lanes that only exist to complete a 2×2 quad): they run
    /// the program, so derivatives stay exact, but their stores, atomics and emits are
    /// suppressed (atomics return zero).
    pub fn set_helper_mask(&mut self, mask: LaneMask) {
        self.helper = mask;
    }

    /// The helper-lane mask.
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
