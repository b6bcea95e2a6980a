//! Tessellation control programs: the invocations of one patch run in lock-step and
//! read each other's results (`vertex.out[m]`, `primitive.out`).
//!
//! NV_tessellation_program5 section 2.X.5 runs the threads of a patch as one group in
//! which "all active threads will complete the execution of one instruction before
//! starting the execution of the subsequent instruction". Here invocation `i` is lane
//! `i % MAX_LANES` of batch `i / MAX_LANES` (a patch has up to 32 output vertices, so
//! one or two batches). Every step runs the instruction of the group that comes first
//! in lock-step order across all batches (the lowest pc within a subroutine level, lanes
//! inside a CAL before the lanes waiting after it); a group at the same place in another
//! batch runs the same instruction next, before anything later. After an instruction
//! that writes a result register the output patch is published:
//!
//! - `vertex.out[m].*` inputs (binding [`InputBinding::VertexOut`], vertex copy `m`)
//!   receive invocation `m`'s per-vertex results;
//! - per-patch results (`result.patch.*`) are one value shared by all invocations: a
//!   lane whose register now differs from the shared value wrote it, and the highest
//!   such invocation wins (the spec leaves different values written by one instruction
//!   undefined); the value is copied to every lane's result register and to the
//!   `primitive.out.*` inputs ([`InputBinding::PatchOut`]).
//!
//! Reads therefore see every write of earlier instructions, including the other side of
//! an IF/ELSE whose first block ran earlier (the spec leaves that order undefined; here
//! the IF block runs first), and results never written read zero (undefined in the
//! spec).

use super::batches::{bad_state, lanes_of, total_stats};
use super::env::RunEnv;
use super::error::{ExecError, ExecStats};
use super::executor::Executor;
use super::run::position;
use super::state::{LaneState, RegFile};
use super::trace::{Hook, LaneTrace, Lanes, NoHook, Recording, TracingEnv};
use super::{LaneMask, Vec4, MAX_LANES};
use crate::ir::{File, InputBinding, OutputBinding, Program};
use smallvec::SmallVec;

/// Output slots behind the inputs that read the output patch.
struct Links {
    /// (`vertex.out` input slot, output slot of the same varying if the program has one).
    vertex_out: Vec<(usize, Option<usize>)>,
    /// (`primitive.out` input slot, index into `shared`).
    patch_out: Vec<(usize, Option<usize>)>,
    /// Per-patch output slots.
    shared: Vec<usize>,
}

impl Links {
    fn of(prog: &Program) -> Links {
        let out_slot = |s| {
            prog.outputs
                .iter()
                .position(|o| o.binding == OutputBinding::Varying(s))
        };
        let shared: Vec<usize> = prog
            .outputs
            .iter()
            .enumerate()
            .filter_map(|(i, o)| match o.binding {
                OutputBinding::Varying(s) if s.is_per_patch() => Some(i),
                _ => None,
            })
            .collect();
        let mut links = Links {
            vertex_out: Vec::new(),
            patch_out: Vec::new(),
            shared,
        };
        for (i, inp) in prog.inputs.iter().enumerate() {
            match inp.binding {
                InputBinding::VertexOut(s) => links.vertex_out.push((i, out_slot(s))),
                InputBinding::PatchOut(s) => {
                    let k = out_slot(s).and_then(|k| links.shared.iter().position(|x| *x == k));
                    links.patch_out.push((i, k));
                }
                _ => {}
            }
        }
        links
    }
}

/// One register of every lane, low and (for `LONG` registers) high halves.
#[derive(Copy, Clone, Default, PartialEq)]
struct Value {
    lo: [u32; 4],
    hi: [u32; 4],
}

fn lane_value(file: &RegFile, slot: usize, lane: usize) -> Value {
    let mut v = Value::default();
    if let Some(r) = file.lo.get(slot) {
        for c in 0..4 {
            v.lo[c] = r[c][lane];
        }
    }
    if file.is_long(slot) {
        if let Some(r) = file.hi.get(slot) {
            for c in 0..4 {
                v.hi[c] = r[c][lane];
            }
        }
    }
    v
}

/// Set components `comps` (bit c = component c) of register `slot` in every lane.
fn broadcast(file: &mut RegFile, slot: usize, v: &Value, comps: u8) {
    let long = file.is_long(slot);
    let put = |r: Option<&mut Vec4>, vals: &[u32; 4]| {
        if let Some(r) = r {
            for c in (0..4).filter(|c| comps & (1 << c) != 0) {
                r[c] = [vals[c]; MAX_LANES];
            }
        }
    };
    put(file.lo.get_mut(slot), &v.lo);
    if long {
        put(file.hi.get_mut(slot), &v.hi);
    }
}

/// Publish the output patch to every invocation (see the module comment).
fn publish(states: &mut [LaneState], links: &Links, invocations: usize, shared: &mut [Value]) {
    for (j, &k) in links.shared.iter().enumerate() {
        let Some(cur) = shared.get_mut(j) else {
            continue;
        };
        let old = *cur;
        let mut changed = 0u8;
        for (b, st) in states.iter().enumerate() {
            for l in 0..lanes_of(b, invocations) {
                let v = lane_value(&st.outputs, k, l);
                for c in 0..4 {
                    if v.lo[c] != old.lo[c] || v.hi[c] != old.hi[c] {
                        cur.lo[c] = v.lo[c];
                        cur.hi[c] = v.hi[c];
                        changed |= 1 << c;
                    }
                }
            }
        }
        if changed != 0 {
            for st in states.iter_mut() {
                broadcast(&mut st.outputs, k, cur, changed);
            }
        }
    }
    for &(input, k) in &links.patch_out {
        let v = k.and_then(|k| shared.get(k)).copied().unwrap_or_default();
        for st in states.iter_mut() {
            broadcast(&mut st.inputs, input, &v, 0xf);
        }
    }
    for &(input, k) in &links.vertex_out {
        let values: SmallVec<[Value; 32]> = (0..invocations)
            .map(|m| match (k, states.get(m / MAX_LANES)) {
                (Some(k), Some(st)) => lane_value(&st.outputs, k, m % MAX_LANES),
                _ => Value::default(),
            })
            .collect();
        for st in states.iter_mut() {
            let n = st.n_inputs;
            for (m, v) in values.iter().enumerate() {
                broadcast(&mut st.inputs, m * n + input, v, 0xf);
            }
        }
    }
}

impl Executor {
    /// Run the `invocations` threads of one patch of a tessellation control program in
    /// lock-step: invocation `i` is lane `i % MAX_LANES` of `states[i / MAX_LANES]`.
    /// Each state needs at least `invocations` vertex copies when the program reads
    /// `vertex.out` (copy `m` holds output vertex `m`). The caller sets the other
    /// inputs; the `vertex.out` and `primitive.out` inputs are the executor's. On
    /// return each lane's outputs hold its vertex, and every lane's per-patch outputs
    /// hold the patch's values.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// # use glemu_programs::ir::{OutputBinding, VaryingSlot};
    /// let t = "!!NVtcp5.0\nVERTICES_OUT 3;\nMOV result.patch.tessouter[0].x, 7.5;\nMOV result.attrib[0], 1;\nEND";
    /// let p = Arc::new(assemble(t, None).unwrap());
    /// let ex = Executor::new(p.clone());
    /// let params: Vec<[u32; 4]> = p.params.iter().map(|s| match s { ParamSource::Constant(c) => *c, _ => [0; 4] }).collect();
    /// let mut states = vec![LaneState::with_vertices(&p, MAX_LANES, 3)];
    /// ex.run_patch(&mut states, 3, &params, &mut NullEnv).unwrap();
    /// let outer = OutputBinding::Varying(VaryingSlot::TessOuter(0));
    /// let o = p.outputs.iter().position(|s| s.binding == outer).unwrap();
    /// assert!((0..3).all(|l| states[0].output_f32(o, l)[0] == 7.5));
    /// ```
    pub fn run_patch<E: RunEnv + ?Sized>(
        &self,
        states: &mut [LaneState],
        invocations: usize,
        params: &[[u32; 4]],
        env: &mut E,
    ) -> Result<ExecStats, ExecError> {
        self.patch(states, invocations, params, env, &mut [] as &mut [NoHook])
    }

    /// [`Executor::run_patch`] recording what some invocations do (`glemu trace`):
    /// `traces[b]` follows lanes of `states[b]` (invocation `b * MAX_LANES + lane`), as
    /// [`Executor::run_traced`] does. The results are the same.
    pub fn run_patch_traced<E: RunEnv + ?Sized>(
        &self,
        states: &mut [LaneState],
        invocations: usize,
        params: &[[u32; 4]],
        env: &mut E,
        traces: &mut [Vec<LaneTrace>],
    ) -> Result<ExecStats, ExecError> {
        let mut env = TracingEnv(Recording {
            inner: env,
            // Which batch runs changes every step: each batch's hook keeps its own lanes.
            lanes: LaneMask::MAX,
            samples: Vec::new(),
        });
        // A hook for every batch (each clears the lookups of lanes it does not follow).
        let mut hooks: Vec<Lanes<'_>> = traces.iter_mut().map(|t| Lanes(t)).collect();
        hooks.resize_with(states.len(), || Lanes(&mut []));
        self.patch(states, invocations, params, &mut env, &mut hooks)
    }

    /// The lock-step loop; `hooks[b]` sees every instruction batch `b` runs.
    fn patch<E: RunEnv + ?Sized, H: Hook<E>>(
        &self,
        states: &mut [LaneState],
        invocations: usize,
        params: &[[u32; 4]],
        env: &mut E,
        hooks: &mut [H],
    ) -> Result<ExecStats, ExecError> {
        let prog = &**self.program();
        self.check_hooks(env)?;
        let links = Links::of(prog);
        let mut batches = self.start_batches(states, invocations, |b, st| {
            if !links.vertex_out.is_empty() && st.vertices < invocations {
                return Err(bad_state(format!(
                    "lane state {b} has {} vertex copies for {invocations} output vertices",
                    st.vertices
                )));
            }
            Ok(())
        })?;
        // One batch whose invocations read no other invocation's results: lock-step
        // order is the batch's own group order, so a kernel that publishes the
        // per-patch results after each result write runs the patch.
        let single = invocations > 0 && invocations <= MAX_LANES;
        if !H::ON && single && links.vertex_out.is_empty() && links.patch_out.is_empty() {
            if let Some((first, rest)) = states.split_first_mut() {
                let active = super::lanes_mask(invocations);
                if let Some(r) = self.run_patch_native(first, active, params, env) {
                    let stats = r?;
                    // The other batches hold no invocation; they receive the shared
                    // values (every lane of the first holds them).
                    for &k in &links.shared {
                        let v = lane_value(&first.outputs, k, 0);
                        for st in rest.iter_mut() {
                            broadcast(&mut st.outputs, k, &v, 0xf);
                        }
                    }
                    return Ok(stats);
                }
                // Interpreted steps of a kernel that handed the batch back wrote here.
                first.reset_run();
            }
        } else if !H::ON && invocations > 0 {
            // Lock-step between batches, or invocations reading each other's results:
            // kernels that stop at each point where that order matters.
            let mut shared = vec![Value::default(); links.shared.len()];
            publish(states, &links, invocations, &mut shared);
            let mut publish_all =
                |sts: &mut [LaneState]| publish(sts, &links, invocations, &mut shared);
            if let Some(r) =
                self.run_patch_lockstep_native(states, invocations, params, env, &mut publish_all)
            {
                return r;
            }
        }
        let mut shared = vec![Value::default(); links.shared.len()];
        publish(states, &links, invocations, &mut shared);
        loop {
            let mut next: Option<(usize, usize, SmallVec<[u32; 4]>)> = None;
            for (b, batch) in batches.iter_mut().enumerate() {
                if let Some(gi) = self.pick(&mut batch.groups) {
                    let at = position(&batch.groups[gi]);
                    if next.as_ref().is_none_or(|(_, _, best)| at < *best) {
                        next = Some((b, gi, at));
                    }
                }
            }
            let Some((b, gi, _)) = next else { break };
            let (Some(batch), Some(st)) = (batches.get_mut(b), states.get_mut(b)) else {
                break;
            };
            let pc = batch.groups[gi].pc;
            let mut once = true;
            let hook = hooks.get_mut(b);
            self.run_batch_hooked(batch, st, params, env, hook, |_, _| {
                std::mem::take(&mut once).then_some(gi)
            })?;
            let writes_result = prog
                .instructions
                .get(pc as usize)
                .and_then(|i| i.dst.as_ref())
                .is_some_and(|d| d.file == File::Output);
            if writes_result {
                publish(states, &links, invocations, &mut shared);
            }
        }
        Ok(total_stats(&batches))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assemble;
    use crate::exec::NullEnv;
    use crate::exec::{LaneTrace, TraceOperand};
    use crate::ir::{Stage, VaryingSlot};
    use std::sync::Arc;

    /// Runs `body` as a control program with `n` output vertices over one patch; returns
    /// result.attrib[0].x of every vertex (as f32) and the patch's outer level 0.
    fn run(n: usize, body: &str) -> (Vec<f32>, f32) {
        let (v, outer, _) = run_traced(n, body, false);
        (v, outer)
    }

    /// [`run`], with every invocation traced when `traced`.
    fn run_traced(n: usize, body: &str, traced: bool) -> (Vec<f32>, f32, Vec<Vec<LaneTrace>>) {
        let text = format!("!!NVtcp5.0\nVERTICES_OUT {n};\n{body}\nEND\n");
        let p =
            Arc::new(assemble(&text, Some(Stage::TessControl)).unwrap_or_else(|e| panic!("{e}")));
        let ex = Executor::new(p.clone());
        let params: Vec<[u32; 4]> = p
            .params
            .iter()
            .map(|s| match s {
                crate::ir::ParamSource::Constant(c) => *c,
                _ => [0; 4],
            })
            .collect();
        let mut states: Vec<LaneState> = (0..n.div_ceil(MAX_LANES))
            .map(|_| LaneState::with_vertices(&p, MAX_LANES, n))
            .collect();
        let inv = p
            .inputs
            .iter()
            .position(|i| i.binding == InputBinding::PrimitiveInvocation);
        for (b, st) in states.iter_mut().enumerate() {
            for l in 0..MAX_LANES {
                if let Some(i) = inv {
                    st.set_input(i, l, [(b * MAX_LANES + l) as u32; 4]);
                }
            }
        }
        let mut traces: Vec<Vec<LaneTrace>> = (0..states.len())
            .map(|b| (0..lanes_of(b, n)).map(LaneTrace::new).collect())
            .collect();
        if traced {
            ex.run_patch_traced(&mut states, n, &params, &mut NullEnv, &mut traces)
        } else {
            ex.run_patch(&mut states, n, &params, &mut NullEnv)
        }
        .unwrap_or_else(|e| panic!("{e}"));
        let slot = |s| {
            p.outputs
                .iter()
                .position(|o| o.binding == OutputBinding::Varying(s))
        };
        let attr = slot(VaryingSlot::Attrib(0));
        let verts = (0..n)
            .map(|m| {
                attr.map_or(0.0, |k| {
                    states[m / MAX_LANES].output_f32(k, m % MAX_LANES)[0]
                })
            })
            .collect();
        let outer = slot(VaryingSlot::TessOuter(0)).map_or(0.0, |k| states[0].output_f32(k, 0)[0]);
        (verts, outer, traces)
    }

    const ID: &str = "INT TEMP id;\nTEMP t;\nMOV.S id, primitive.invocation.x;\nI2F t.x, id.x;\n";

    #[test]
    fn vertex_out_reads_see_neighbours_written_earlier() {
        // Each vertex writes 10*i, then reads its right neighbour (wrapping at 4).
        let (v, _) = run(
            4,
            &format!(
                "{ID}ATTRIB o[] = {{ vertex.out.attrib[0] }};\nINT TEMP n;\n\
                 MUL result.attrib[0].x, t.x, 10;\n\
                 ADD.S n.x, id.x, 1;\nAND.S n.x, n.x, 3;\n\
                 ADD result.attrib[0].y, o[n.x][0].x, 0;\n\
                 MOV result.attrib[0].x, o[n.x][0].y;\n"
            ),
        );
        // .x = neighbour's .y = neighbour's neighbour's x (written one instruction
        // earlier, so defined).
        assert_eq!(v, vec![20.0, 30.0, 0.0, 10.0]);
    }

    #[test]
    fn primitive_out_read_after_another_lane_writes() {
        let (v, outer) = run(
            3,
            &format!(
                "{ID}SEQ.S.CC id.y, id.x, 2;\nIF NE.y;\nMOV result.patch.tessouter[0].x, 7.5;\nENDIF;\n\
                 ADD result.attrib[0].x, primitive.out.tessouter[0].x, t.x;\n"
            ),
        );
        assert_eq!(v, vec![7.5, 8.5, 9.5]);
        assert_eq!(outer, 7.5);
    }

    #[test]
    fn bar_orders_writes_before_it_ahead_of_reads_after_it() {
        // The last invocation writes the level; after BAR every invocation reads it.
        let (v, outer) = run(
            20,
            &format!(
                "{ID}SEQ.S.CC id.y, id.x, 19;\nIF NE.y;\nMOV result.patch.tessouter[0].x, 4;\nENDIF;\n\
                 BAR;\nADD result.attrib[0].x, primitive.out.tessouter[0].x, t.x;\n"
            ),
        );
        let want: Vec<f32> = (0..20).map(|i| 4.0 + i as f32).collect();
        assert_eq!(v, want);
        assert_eq!(outer, 4.0);
    }

    #[test]
    fn a_value_read_before_it_is_written_reads_zero() {
        // Lock-step: invocation 0 reads the level before invocation 1 writes it.
        let (v, outer) = run(
            2,
            &format!(
                "{ID}MOV result.attrib[0].x, primitive.out.tessouter[0].x;\n\
                 SEQ.S.CC id.y, id.x, 1;\nIF NE.y;\nMOV result.patch.tessouter[0].x, 3;\nENDIF;\n"
            ),
        );
        assert_eq!(v, vec![0.0, 0.0]);
        assert_eq!(outer, 3.0);
    }

    #[test]
    fn per_patch_values_accumulate_across_instructions() {
        // A read-modify-write of a per-patch value by one invocation at a time (each
        // IF body is one instruction group) counts every invocation.
        let (_, outer) = run(
            3,
            "INT TEMP id;\nMOV.S id, primitive.invocation.x;\nREP 3;\n\
             SEQ.S.CC id.y, id.x, 0;\nIF NE.y;\n\
             ADD result.patch.tessouter[0].x, primitive.out.tessouter[0].x, 1.0;\nENDIF;\n\
             SUB.S id.x, id.x, 1;\nENDREP;\n",
        );
        assert_eq!(outer, 3.0);
    }

    #[test]
    fn else_blocks_see_the_if_blocks_writes() {
        let (v, _) = run(
            4,
            &format!(
                "{ID}SLT.CC t.y, t.x, 2;\nIF NE.y;\nMOV result.patch.attrib[0].x, 5.0;\n\
                 ELSE;\nADD result.attrib[0].x, primitive.out.patch.attrib[0].x, t.x;\nENDIF;\n"
            ),
        );
        assert_eq!(v, vec![0.0, 0.0, 7.0, 8.0]);
    }

    #[test]
    fn lanes_inside_a_call_run_before_lanes_after_it() {
        // Invocation 0 calls a subroutine that sets the level; the others skip the
        // CAL and read the level after it.
        let (v, _) = run(
            3,
            "INT TEMP id;\nmain:\nMOV.S id, primitive.invocation.x;\n\
             SEQ.S.CC id.y, id.x, 0;\nCAL setlevel (NE.y);\n\
             MOV result.attrib[0].x, primitive.out.tessouter[0].x;\nRET;\n\
             setlevel:\nMOV result.patch.tessouter[0].x, 6.0;\nRET;\n",
        );
        assert_eq!(v, vec![6.0; 3]);
    }

    #[test]
    fn thirty_two_vertex_patches_run_as_one_group() {
        // Vertex i reads vertex 31-i (in the other batch for all but none) after
        // everyone wrote; invocation 31 (batch 1) sets a level all of them read.
        let (v, outer) = run(
            32,
            &format!(
                "{ID}ATTRIB o[] = {{ vertex.out.attrib[0] }};\nINT TEMP n;\n\
                 MOV result.attrib[0].y, t.x;\n\
                 SEQ.S.CC id.y, id.x, 31;\nIF NE.y;\nMOV result.patch.tessouter[0].x, 100;\nENDIF;\n\
                 SUB.S n.x, 31, id.x;\n\
                 ADD result.attrib[0].x, o[n.x][0].y, primitive.out.tessouter[0].x;\n"
            ),
        );
        let want: Vec<f32> = (0..32).map(|i| 100.0 + (31 - i) as f32).collect();
        assert_eq!(v, want);
        assert_eq!(outer, 100.0);
    }

    #[test]
    fn a_traced_patch_runs_as_the_untraced_one_and_follows_every_invocation() {
        let body = format!(
            "{ID}ATTRIB o[] = {{ vertex.out.attrib[0] }};\nINT TEMP n;\n\
             MOV result.attrib[0].y, t.x;\n\
             SUB.S n.x, 31, id.x;\n\
             ADD result.attrib[0].x, o[n.x][0].y, 0;\n"
        );
        let (plain, _, _) = run_traced(32, &body, false);
        let (traced, _, traces) = run_traced(32, &body, true);
        assert_eq!(plain, traced);
        // Invocation 0 (batch 0) read invocation 31's y; invocation 31 (batch 1, lane 15)
        // read invocation 0's.
        for (b, lane, read) in [(0, 0, 31.0f32), (1, 15, 0.0)] {
            let last = traces[b][lane].steps.last().expect("steps");
            assert_eq!(
                last.reads.first(),
                Some(&TraceOperand::Value {
                    bits: [u64::from(read.to_bits()); 4],
                    wide: false
                }),
                "batch {b} lane {lane}"
            );
        }
        assert!(traces.iter().flatten().all(|t| t.steps.len() == 5));
    }
}
