//! Vertex state programs update program parameters in place: an instruction that reads
//! `c[n]` after another wrote it sees the new value. The executor's param file is
//! read-only, so each written `c[n]` lives in a temp for the run: loaded from the env
//! parameter first, read and written there, and copied to its `EnvParam(n)` output last.
//! (Relative reads `c[A0.x + k]` still see the values from before the run.)

use super::VpParser;
use crate::ir::{
    DataType, File, Index, Inst, OutputBinding, ParamSource, Precision, RegInfo, Saturate, Src,
};
use crate::legacy::common::dst;
use crate::span::Span;
use smallvec::smallvec;

impl<'a> VpParser<'a> {
    pub(super) fn route_state_writes_through_temps(&mut self) {
        let b = &mut self.b;
        // (env parameter, output slot, temp, param slot if the program also reads it)
        let mut routes = Vec::new();
        for (slot, out) in b.outputs.iter().enumerate() {
            if let OutputBinding::EnvParam(n) = out.binding {
                routes.push((n, slot as u32));
            }
        }
        if routes.is_empty() {
            return;
        }
        let routes: Vec<(u32, u32, u32, u32)> = routes
            .into_iter()
            .map(|(n, out)| {
                let temp = b.temp(&format!("c[{n}]"), RegInfo::default());
                let param = b.param(ParamSource::Env(n), &format!("c[{n}]"));
                (n, out, temp, param)
            })
            .collect();
        for inst in &mut b.instructions {
            for s in inst.srcs.iter_mut() {
                if let (File::Param, Index::Direct(slot)) = (s.file, s.index) {
                    if let Some(r) = routes.iter().find(|r| r.3 == slot) {
                        s.file = File::Temp;
                        s.index = Index::Direct(r.2);
                    }
                }
            }
            if let Some(d) = inst.dst.as_mut() {
                if let (File::Output, Index::Direct(slot)) = (d.file, d.index) {
                    if let Some(r) = routes.iter().find(|r| r.1 == slot) {
                        d.file = File::Temp;
                        d.index = Index::Direct(r.2);
                    }
                }
            }
        }
        let mov = |dst_file: File, dst_slot: u32, src_file: File, src_slot: u32| Inst {
            op: crate::ir::Opcode::Mov,
            dtype: DataType::F32,
            sat: Saturate::None,
            precision: Precision::Full,
            cc_update: None,
            dst: Some(dst(dst_file, dst_slot, 0xF, Span::default())),
            srcs: smallvec![Src::plain(
                src_file,
                Index::Direct(src_slot),
                Span::default()
            )],
            extra: Default::default(),
            span: Span::default(),
        };
        let prologue = routes
            .iter()
            .map(|&(_, _, temp, param)| mov(File::Temp, temp, File::Param, param));
        let epilogue: Vec<Inst> = routes
            .iter()
            .map(|&(_, out, temp, _)| mov(File::Output, out, File::Temp, temp))
            .collect();
        let body = std::mem::take(&mut b.instructions);
        b.instructions = prologue.chain(body).chain(epilogue).collect();
    }
}
