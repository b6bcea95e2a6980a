//! A readable dump of a compiled [`Program`] for `glemu check --ir`: a header with the
//! slots (named after the declared symbols when there are any), then one instruction per
//! line with its index, opcode and modifiers, operands and extras.

use crate::ir::*;
use std::collections::HashMap;
use std::fmt::Write;

/// Renders `p` as text, one instruction per line.
///
/// ```
/// let p = glemu_programs::assemble("!!ARBvp1.0\nMOV result.position, vertex.position;\nEND", None).unwrap();
/// let text = glemu_programs::print::print_program(&p);
/// assert!(text.lines().any(|l| l.contains("MOV")));
/// ```
pub fn print_program(p: &Program) -> String {
    let names = Names::new(p);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "; {} program ({:?}), entry {}",
        p.stage.name(),
        p.dialect,
        p.entry
    );
    if !p.options.names.is_empty() {
        let _ = writeln!(out, "; options: {}", p.options.names.join(" "));
    }
    let d = &p.decls;
    if *d != Declarations::default() {
        let _ = writeln!(out, "; decls: {d:?}");
    }
    let _ = writeln!(out, "; temps: {} {:?}", p.temps.len(), p.temp_arrays);
    if p.address_regs > 0 {
        let _ = writeln!(out, "; address registers: {}", p.address_regs);
    }
    for (i, s) in p.inputs.iter().enumerate() {
        let _ = writeln!(
            out,
            "; {} = {:?}{}{}",
            names.slot(File::Input, i as u32),
            s.binding,
            interp_text(s.interp),
            info_text(s.info)
        );
    }
    for (i, s) in p.outputs.iter().enumerate() {
        let _ = writeln!(
            out,
            "; {} = {:?}{}",
            names.slot(File::Output, i as u32),
            s.binding,
            info_text(s.info)
        );
    }
    for (i, s) in p.params.iter().enumerate() {
        let v = match s {
            ParamSource::Constant(c) => format!(
                "{{{}}} (bits {:08x} {:08x} {:08x} {:08x})",
                c.iter()
                    .map(|b| f32::from_bits(*b).to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                c[0],
                c[1],
                c[2],
                c[3]
            ),
            other => format!("{other:?}"),
        };
        let _ = writeln!(out, "; {} = {v}", names.slot(File::Param, i as u32));
    }
    for b in &p.buffers {
        let _ = writeln!(
            out,
            "; buffer {} = {:?} binding {}{} first {} len {:?}",
            b.name,
            b.kind,
            b.binding,
            if b.bindings > 1 {
                format!("..{}", b.binding + b.bindings - 1)
            } else {
                String::new()
            },
            b.first,
            b.len
        );
    }
    for c in &p.counters {
        let _ = writeln!(
            out,
            "; counter {} = binding {} first {} len {}",
            c.name, c.binding, c.first, c.len
        );
    }
    for i in &p.images {
        let _ = writeln!(
            out,
            "; image {} = units {}..{}",
            i.name,
            i.first,
            i.first + i.len
        );
    }
    for s in &p.subroutine_vars {
        let _ = writeln!(
            out,
            "; subroutine {} = slots {}..{} functions {:?}",
            s.name,
            s.first,
            s.first + s.len,
            s.functions
        );
    }
    for (u, t) in &p.texture_targets {
        let _ = writeln!(out, "; texture[{u}] = {}", crate::front::target_name(*t));
    }
    for (i, inst) in p.instructions.iter().enumerate() {
        let _ = writeln!(out, "{i:4}: {}", inst_text(inst, &names));
    }
    out
}

fn interp_text(i: Interp) -> String {
    let mut s = String::new();
    for (on, name) in [
        (i.flat, " FLAT"),
        (i.centroid, " CENTROID"),
        (i.noperspective, " NOPERSPECTIVE"),
        (i.sample, " SAMPLE"),
    ] {
        if on {
            s.push_str(name);
        }
    }
    s
}

fn info_text(i: RegInfo) -> String {
    let mut s = String::new();
    match i.ty {
        VarType::Float => {}
        VarType::Int => s.push_str(" INT"),
        VarType::Uint => s.push_str(" UINT"),
    }
    if i.long {
        s.push_str(" LONG");
    }
    if i.short {
        s.push_str(" SHORT");
    }
    s
}

/// Slot → symbol name lookup.
struct Names {
    by_slot: HashMap<(u8, u32), (String, u32)>,
    buffers: Vec<String>,
}

fn file_key(f: File) -> u8 {
    match f {
        File::Temp => 0,
        File::Input => 1,
        File::Param => 2,
        File::Output => 3,
        File::Address => 4,
        File::Buffer => 5,
        File::Immediate => 6,
    }
}

fn file_prefix(f: File) -> &'static str {
    match f {
        File::Temp => "t",
        File::Input => "in",
        File::Param => "p",
        File::Output => "out",
        File::Address => "a",
        File::Buffer => "buf",
        File::Immediate => "imm",
    }
}

impl Names {
    fn new(p: &Program) -> Names {
        let mut by_slot = HashMap::new();
        for s in &p.symbols {
            for k in 0..s.len {
                by_slot
                    .entry((file_key(s.file), s.first + k))
                    .or_insert((s.name.clone(), k));
            }
        }
        Names {
            by_slot,
            buffers: p.buffers.iter().map(|b| b.name.clone()).collect(),
        }
    }

    fn slot(&self, f: File, i: u32) -> String {
        let base = format!("{}{i}", file_prefix(f));
        match self.by_slot.get(&(file_key(f), i)) {
            Some((n, 0)) => format!("{base}({n})"),
            Some((n, k)) => format!("{base}({n}[{k}])"),
            None => base,
        }
    }
}

fn comp(c: Comp) -> char {
    ['x', 'y', 'z', 'w'].get(c as usize).copied().unwrap_or('?')
}

fn swz(s: &[Comp; 4]) -> String {
    if *s == [0, 1, 2, 3] {
        String::new()
    } else {
        format!(".{}", s.iter().map(|c| comp(*c)).collect::<String>())
    }
}

fn index_text(f: File, idx: &Index, names: &Names) -> String {
    match idx {
        Index::Direct(i) => names.slot(f, *i),
        Index::Relative {
            reg,
            offset,
            base,
            len,
        } => {
            format!(
                "{}[{}{offset:+}; {base}..{}]",
                file_prefix(f),
                index_reg(reg),
                base + len
            )
        }
    }
}

fn index_reg(r: &IndexReg) -> String {
    match r {
        IndexReg::Address { reg, comp: c } => format!("a{reg}.{}", comp(*c)),
        IndexReg::Temp { reg, comp: c } => format!("t{reg}.{}", comp(*c)),
        IndexReg::Input { slot, comp: c } => format!("in{slot}.{}", comp(*c)),
        IndexReg::LoopCounter => "aL".into(),
    }
}

fn cond_text(c: &CondTest) -> String {
    format!(
        "{}{}{}",
        format!("{:?}", c.op).to_uppercase(),
        c.cc,
        swz(&c.swizzle)
    )
}

fn rel_text(i: &Index) -> String {
    match i {
        Index::Direct(i) => i.to_string(),
        Index::Relative { reg, offset, .. } => format!("{}{offset:+}", index_reg(reg)),
    }
}

fn src_text(s: &Src, names: &Names) -> String {
    let mut r = match s.file {
        File::Buffer => {
            let n = names
                .buffers
                .get(s.buffer as usize)
                .cloned()
                .unwrap_or_else(|| format!("buf{}", s.buffer));
            // A variable over several binding points shows its binding index first.
            let binding = s
                .vertex
                .as_ref()
                .map(|v| format!("[{}]", rel_text(v)))
                .unwrap_or_default();
            format!("{n}{binding}[{}]", rel_text(&s.index))
        }
        File::Immediate => format!(
            "{{{:016x} {:016x} {:016x} {:016x}}}",
            s.imm[0], s.imm[1], s.imm[2], s.imm[3]
        ),
        f => index_text(f, &s.index, names),
    };
    if let Some(v) = s.vertex.as_ref().filter(|_| s.file != File::Buffer) {
        r = format!(
            "vertex[{}].{r}",
            match v {
                Index::Direct(i) => i.to_string(),
                Index::Relative { reg, offset, .. } => format!("{}{offset:+}", index_reg(reg)),
            }
        );
    }
    if let Some(e) = &s.ext_swizzle {
        let parts: Vec<String> = e
            .iter()
            .map(|x| match x {
                ExtSwizzle::Zero => "0".into(),
                ExtSwizzle::One => "1".into(),
                ExtSwizzle::Comp(c) => comp(*c).to_string(),
                ExtSwizzle::NegZero => "-0".into(),
                ExtSwizzle::NegOne => "-1".into(),
                ExtSwizzle::NegComp(c) => format!("-{}", comp(*c)),
            })
            .collect();
        r = format!("{r}, {}", parts.join(", "));
    } else {
        r.push_str(&swz(&s.swizzle));
    }
    if s.abs {
        r = format!("|{r}|");
    }
    if s.negate {
        r = format!("-{r}");
    }
    r
}

fn dst_text(d: &Dst, names: &Names) -> String {
    let mut r = index_text(d.file, &d.index, names);
    if d.mask != 0xF {
        r.push('.');
        for c in 0..4u8 {
            if d.mask & (1 << c) != 0 {
                r.push(comp(c));
            }
        }
    }
    if let Some(c) = &d.cond {
        r = format!("{r} ({})", cond_text(c));
    }
    r
}

fn inst_text(i: &Inst, names: &Names) -> String {
    let mut s = format!("{:?}.{:?}", i.op, i.dtype).to_uppercase();
    match i.sat {
        Saturate::None => {}
        Saturate::Sat => s.push_str(".SAT"),
        Saturate::SSat => s.push_str(".SSAT"),
    }
    match i.precision {
        Precision::Full => {}
        Precision::Half => s.push_str(".HALF"),
        Precision::Fixed => s.push_str(".FIXED"),
    }
    if let Some(cc) = i.cc_update {
        let _ = write!(s, ".CC{cc}");
    }
    let mut ops: Vec<String> = Vec::new();
    if let Some(d) = &i.dst {
        ops.push(dst_text(d, names));
    }
    ops.extend(i.srcs.iter().map(|x| src_text(x, names)));
    match &i.extra {
        Extra::None => {}
        Extra::Tex(t) => {
            let unit = match &t.unit {
                TexUnit::Fixed(u) => format!("texture[{u}]"),
                TexUnit::Relative {
                    reg,
                    offset,
                    base,
                    len,
                } => {
                    format!(
                        "texture[{}{offset:+}; {base}..{}]",
                        index_reg(reg),
                        base + len
                    )
                }
            };
            let mut x = format!("{unit}, {}", crate::front::target_name(t.target));
            if t.gather_comp != 0 {
                let _ = write!(x, " comp {}", comp(t.gather_comp));
            }
            match &t.offset {
                None => {}
                Some(TexOffset::Const(o)) => {
                    let _ = write!(x, ", ({}, {}, {})", o[0], o[1], o[2]);
                }
                Some(TexOffset::Register(r)) => {
                    let _ = write!(x, ", offset({})", src_text(r, names));
                }
            }
            ops.push(x);
        }
        Extra::Mem(m) => {
            let mut x = format!("{:?} {:?}x{}", m.space, m.ty.scalar, m.ty.count);
            if let Some(a) = m.atom {
                let _ = write!(x, " {a:?}");
            }
            if m.coherent {
                x.push_str(" COH");
            }
            if m.volatile {
                x.push_str(" VOL");
            }
            if let Some(e) = &m.element {
                let _ = write!(x, " element[{}]", rel_text(e));
            }
            if let Some(t) = m.target {
                let _ = write!(x, " {t:?}");
            }
            ops.push(x);
        }
        Extra::Flow { target, cond } => {
            let mut x = format!("-> {target}");
            if let Some(c) = cond {
                let _ = write!(x, " if {}", cond_text(c));
            }
            ops.push(x);
        }
        Extra::CallIndirect {
            var,
            array_index,
            cond,
        } => {
            let mut x = format!("subroutine var {var}");
            if let Some(ix) = array_index {
                let _ = write!(
                    x,
                    "[{}]",
                    match ix {
                        Index::Direct(i) => i.to_string(),
                        Index::Relative { reg, offset, .. } =>
                            format!("{}{offset:+}", index_reg(reg)),
                    }
                );
            }
            if let Some(c) = cond {
                let _ = write!(x, " if {}", cond_text(c));
            }
            ops.push(x);
        }
        Extra::Convert { from, to, rounding } => {
            ops.push(format!("{to:?} from {from:?} {rounding:?}"))
        }
    }
    if ops.is_empty() {
        s
    } else {
        format!("{s} {}", ops.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assemble;

    #[test]
    fn prints_names_and_operands() {
        let p = assemble(
            "!!NVvp4.0\nTEMP r;\nPARAM k = {1, 2, 3, 4};\nADD.SAT r.xy (GT.x), -|vertex.position|, k.wzyx;\nMOV result.position, r;\nEND",
            None,
        )
        .unwrap();
        let text = print_program(&p);
        assert!(
            text.contains("ADD.F32.SAT t0(r).xy (GT0.xxxx), -|in0|, p0(k).wzyx"),
            "{text}"
        );
        assert!(text.contains("MOV.F32 out0, t0(r)"), "{text}");
        assert!(text.contains("in0 = VertexPosition"), "{text}");
    }

    #[test]
    fn prints_flow_targets() {
        let p = assemble(
            "!!NVfp4.0\nTEMP t;\nMOVC t, t;\nIF NE.x;\nELSE;\nENDIF;\nEND",
            None,
        )
        .unwrap();
        let text = print_program(&p);
        assert!(text.contains("   1: IF.F32 -> 2 if NE0.xxxx"), "{text}");
        assert!(text.contains("   2: ELSE.F32 -> 3"), "{text}");
    }
}
