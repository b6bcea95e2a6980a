//! The slot builder both front ends allocate inputs, outputs and parameters with: each
//! distinct binding a program names gets one slot of its IR register file, in order of
//! first use, and later uses of the same binding share it. Arrays (relative addressing)
//! get fresh consecutive slots instead, so an index always lands inside its own array.
//!
//! The builder keeps only the maps from bindings to slots; the slot vectors stay in the
//! `Program` (or the legacy builder) being filled, which both front ends also read.

use crate::ir::StateBinding;
use crate::ir::{InputBinding, InputSlot, Interp, OutputBinding, OutputSlot, ParamSource, RegInfo};
use std::collections::HashMap;

/// What makes two parameter vectors the same slot. `Named` parameters are one per name
/// (their initial value belongs to the name).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum ParamKey {
    Constant([u32; 4]),
    Env(u32),
    Local(u32),
    State(StateBinding),
    Named(String),
}

impl ParamKey {
    fn of(src: &ParamSource) -> ParamKey {
        match src {
            ParamSource::Constant(v) => ParamKey::Constant(*v),
            ParamSource::Env(i) => ParamKey::Env(*i),
            ParamSource::Local(i) => ParamKey::Local(*i),
            ParamSource::State(s) => ParamKey::State(s.clone()),
            ParamSource::Named { name, .. } => ParamKey::Named(name.clone()),
        }
    }
}

/// Binding → slot maps of one program under construction.
#[derive(Default)]
pub(crate) struct Slots {
    inputs: HashMap<(InputBinding, Interp), u32>,
    outputs: HashMap<OutputBinding, u32>,
    params: HashMap<ParamKey, u32>,
}

impl Slots {
    /// The input slot of `binding` with `interp`: an earlier one of the same pair, or a
    /// new one typed `info`. An existing slot keeps its type; the caller reconciles.
    pub(crate) fn input(
        &mut self,
        inputs: &mut Vec<InputSlot>,
        binding: InputBinding,
        interp: Interp,
        info: RegInfo,
    ) -> u32 {
        let key = (binding, interp);
        if let Some(&slot) = self.inputs.get(&key) {
            return slot;
        }
        let slot = inputs.len() as u32;
        inputs.push(InputSlot {
            binding: key.0.clone(),
            interp,
            info,
        });
        self.inputs.insert(key, slot);
        slot
    }

    /// Interpolation modes `binding` already has slots with.
    pub(crate) fn input_interps<'a>(
        &'a self,
        binding: &'a InputBinding,
    ) -> impl Iterator<Item = Interp> + 'a {
        self.inputs
            .keys()
            .filter(move |(b, _)| b == binding)
            .map(|(_, i)| *i)
    }

    /// Fresh consecutive input slots for an array of `bindings`; returns the first.
    /// They are not shared: a single use of one of the bindings gets its own slot.
    pub(crate) fn input_array(
        inputs: &mut Vec<InputSlot>,
        bindings: impl IntoIterator<Item = InputBinding>,
        interp: Interp,
        info: RegInfo,
    ) -> u32 {
        let first = inputs.len() as u32;
        inputs.extend(bindings.into_iter().map(|binding| InputSlot {
            binding,
            interp,
            info,
        }));
        first
    }

    /// The output slot of `binding`: an earlier one, or a new one typed `info`.
    pub(crate) fn output(
        &mut self,
        outputs: &mut Vec<OutputSlot>,
        binding: OutputBinding,
        info: RegInfo,
    ) -> u32 {
        if let Some(&slot) = self.outputs.get(&binding) {
            return slot;
        }
        let slot = outputs.len() as u32;
        outputs.push(OutputSlot {
            binding: binding.clone(),
            info,
        });
        self.outputs.insert(binding, slot);
        slot
    }

    /// Fresh consecutive output slots for an array of `bindings`; returns the first. A
    /// binding without a slot yet takes its array element as its slot, so a later single
    /// use writes the array.
    pub(crate) fn output_array(
        &mut self,
        outputs: &mut Vec<OutputSlot>,
        bindings: impl IntoIterator<Item = OutputBinding>,
        info: RegInfo,
    ) -> u32 {
        let first = outputs.len() as u32;
        for binding in bindings {
            let slot = outputs.len() as u32;
            outputs.push(OutputSlot {
                binding: binding.clone(),
                info,
            });
            self.outputs.entry(binding).or_insert(slot);
        }
        first
    }

    /// The parameter slot of `src`: an earlier identical one, or a new one.
    pub(crate) fn param(&mut self, params: &mut Vec<ParamSource>, src: ParamSource) -> u32 {
        let key = ParamKey::of(&src);
        if let Some(&slot) = self.params.get(&key) {
            return slot;
        }
        let slot = params.len() as u32;
        params.push(src);
        self.params.insert(key, slot);
        slot
    }

    /// Fresh consecutive parameter slots for an array of `sources`; returns the first.
    /// They are not shared, so an array's elements stay consecutive.
    pub(crate) fn param_array(
        params: &mut Vec<ParamSource>,
        sources: impl IntoIterator<Item = ParamSource>,
    ) -> u32 {
        let first = params.len() as u32;
        params.extend(sources);
        first
    }
}
