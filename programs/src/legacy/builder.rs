//! The program the legacy front ends build: temps by register name, and inputs, outputs
//! and parameters through the slot builder the ARB/NV front end uses too (one slot per
//! distinct binding, in order of first use), each with a symbol so `--ir` can show the
//! original spelling.

use crate::ir::{
    Declarations, Dialect, File, InputBinding, InputSlot, Inst, Interp, Options, OutputBinding,
    OutputSlot, ParamSource, Program, RegInfo, Stage, Symbol, TexTarget,
};
use crate::slots::Slots;
use std::collections::HashMap;

#[derive(Default)]
pub(crate) struct Builder {
    pub temps: Vec<RegInfo>,
    temp_names: HashMap<String, u32>,
    pub inputs: Vec<InputSlot>,
    pub outputs: Vec<OutputSlot>,
    pub params: Vec<ParamSource>,
    pub symbols: Vec<Symbol>,
    pub address_regs: u32,
    pub texture_targets: Vec<(u32, TexTarget)>,
    pub instructions: Vec<Inst>,
    slots: Slots,
}

impl Builder {
    /// The temp slot of register `name` (R0, H3, the CC/RC/HC scratch registers ...).
    pub(crate) fn temp(&mut self, name: &str, info: RegInfo) -> u32 {
        if let Some(&slot) = self.temp_names.get(name) {
            return slot;
        }
        let slot = self.temps.len() as u32;
        self.temps.push(info);
        self.temp_names.insert(name.to_string(), slot);
        self.symbol(name, File::Temp, slot);
        slot
    }

    pub(crate) fn input(&mut self, binding: InputBinding, name: &str) -> u32 {
        let new = self.inputs.len() as u32;
        let slot = self.slots.input(
            &mut self.inputs,
            binding,
            Interp::default(),
            RegInfo::default(),
        );
        if slot == new {
            self.symbol(name, File::Input, slot);
        }
        slot
    }

    pub(crate) fn output(&mut self, binding: OutputBinding, info: RegInfo, name: &str) -> u32 {
        let new = self.outputs.len() as u32;
        let slot = self.slots.output(&mut self.outputs, binding, info);
        if slot == new {
            self.symbol(name, File::Output, slot);
        }
        slot
    }

    /// A parameter slot; identical sources share one slot.
    pub(crate) fn param(&mut self, source: ParamSource, name: &str) -> u32 {
        let new = self.params.len() as u32;
        let slot = self.slots.param(&mut self.params, source);
        if slot == new {
            self.symbol(name, File::Param, slot);
        }
        slot
    }

    /// Reserves `len` consecutive env parameter slots `c[0..len]` starting at slot 0, so
    /// relative addressing `c[A0.x + n]` can index them; must run before any other param
    /// (then `param(Env(n))` finds slot `n`).
    pub(crate) fn env_block(&mut self, len: u32) {
        for n in 0..len {
            self.slots.param(&mut self.params, ParamSource::Env(n));
        }
        self.symbols.push(Symbol {
            name: "c".to_string(),
            file: File::Param,
            first: 0,
            len,
        });
    }

    fn symbol(&mut self, name: &str, file: File, slot: u32) {
        self.symbols.push(Symbol {
            name: name.to_string(),
            file,
            first: slot,
            len: 1,
        });
    }

    pub(crate) fn finish(
        self,
        stage: Stage,
        dialect: Dialect,
        options: Options,
        entry: u32,
    ) -> Program {
        Program {
            stage,
            dialect,
            entry,
            labels: Vec::new(),
            options,
            decls: Declarations::default(),
            instructions: self.instructions,
            temps: self.temps,
            temp_arrays: Vec::new(),
            address_regs: self.address_regs,
            inputs: self.inputs,
            outputs: self.outputs,
            params: self.params,
            buffers: Vec::new(),
            counters: Vec::new(),
            images: Vec::new(),
            subroutine_vars: Vec::new(),
            texture_targets: self.texture_targets,
            symbols: self.symbols,
        }
    }
}
