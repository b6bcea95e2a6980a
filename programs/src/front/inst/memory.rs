//! Memory instructions' operands: buffer and shared-memory accesses (LOAD, STORE, ATOM on
//! BUFFER/SHARED variables), the memory access info, atomics and image units.

use super::*;

impl Parser {
    /// LDB/STB/ATOMB lower to LOAD/STORE/ATOM with a `Storage` memory space; their last
    /// source is the STORAGE variable as a `File::Buffer` operand whose index is the byte
    /// offset (and whose `vertex` selects the binding point of a `program.storage[a..b]`
    /// variable).
    pub(super) fn storage_inst(
        &mut self,
        info: &OpInfo,
        m: &Mods,
        mut inst: Inst,
    ) -> Result<Inst, ProgramError> {
        let name = info.name;
        let dtype = inst.dtype;
        if name != "STB" {
            let (dst, _) = self.dst_operand(false)?;
            inst.dst = Some(dst);
            self.comma()?;
        }
        if name != "LDB" {
            let d = self.src(Shape::Vector, dtype, true, name)?;
            inst.srcs.push(d);
            self.comma()?;
        }
        let (buffer, addr) = self.buffer_operand(BufferKind::Storage, name)?;
        inst.srcs.push(addr);
        inst.extra = self.mem_info(m, MemSpace::Storage { buffer }, name, inst.span)?;
        Ok(inst)
    }

    /// LDS/STS/ATOMS (NV_compute_program5) lower to LOAD/STORE/ATOM with a `Shared`
    /// memory space; their last source is the SHARED variable (see `buffer_operand`).
    pub(super) fn shared_inst(
        &mut self,
        info: &OpInfo,
        m: &Mods,
        mut inst: Inst,
    ) -> Result<Inst, ProgramError> {
        let name = info.name;
        if let Some((_, span)) = m.dtype {
            return Err(semantic(
                span,
                format!("{name} takes a storage modifier (such as .U32), not a data type"),
            ));
        }
        let Some((ty, tspan)) = m.mem else {
            return Err(semantic(
                inst.span,
                format!("{name} needs a storage modifier such as .U32"),
            ));
        };
        if name == "ATOMS" {
            // NV_compute_program5's table X.Y for ATOMS.
            use MemScalar::*;
            let ok = match m.atom.map(|a| a.0) {
                Some(AtomOp::Add | AtomOp::Exch) => matches!(ty.scalar, U32 | S32 | U64 | F32),
                Some(AtomOp::Min | AtomOp::Max | AtomOp::And | AtomOp::Or | AtomOp::Xor) => {
                    matches!(ty.scalar, U32 | S32)
                }
                Some(AtomOp::IWrap | AtomOp::DWrap) => ty.scalar == U32,
                Some(AtomOp::CSwap) => matches!(ty.scalar, U32 | S32 | U64),
                _ => true,
            };
            if !ok || ty.count != 1 {
                return Err(semantic(
                    tspan,
                    "ATOMS does not support this storage modifier with its operation",
                ));
            }
        }
        let dtype = inst.dtype;
        if name != "STS" {
            let (dst, _) = self.dst_operand(false)?;
            inst.dst = Some(dst);
            self.comma()?;
        }
        if name != "LDS" {
            let d = self.src(Shape::Vector, dtype, true, name)?;
            inst.srcs.push(d);
            self.comma()?;
        }
        let (buffer, addr) = self.buffer_operand(BufferKind::Shared, name)?;
        inst.srcs.push(addr);
        inst.extra = self.mem_info(m, MemSpace::Shared { buffer }, name, inst.span)?;
        Ok(inst)
    }

    pub(super) fn buffer_index(&mut self, name: &str, index: u32) -> Result<Index, ProgramError> {
        if self.c.peek() != &Tok::LBracket {
            return Ok(Index::Direct(0));
        }
        let len = self
            .prog
            .buffers
            .get(index as usize)
            .and_then(|b| b.len)
            .unwrap_or(u32::MAX / 2);
        self.array_index_rel(name, 0, len)
    }

    pub(super) fn mem_info(
        &self,
        m: &Mods,
        space: MemSpace,
        name: &str,
        span: Span,
    ) -> Result<Extra, ProgramError> {
        let ty = match (m.mem, m.dtype) {
            (Some((t, _)), _) => t,
            // "These instructions must specify exactly one of these modifiers"
            // (NV_gpu_program5 2.X.4.1; LDC, LOAD, STORE, ATOM and the storage-buffer
            // LDB, STB, ATOMB). Image stores, and image loads with
            // EXT_shader_image_load_formatted, may be formatted instead (`image_info`).
            _ if !matches!(name, "STOREIM" | "LOADIM") => {
                return Err(semantic(
                    span,
                    format!(
                    "{name} requires exactly one storage modifier such as .F32, .S32X2 or .U32X4"
                ),
                ))
            }
            // A formatted STOREIM or LOADIM: the data type modifier (or F32) says how to
            // read the operand or write the result.
            (None, dt) => MemType {
                scalar: match dt.map_or(DataType::F32, |d| d.0) {
                    DataType::F32 | DataType::F64 => MemScalar::F32,
                    DataType::S32 | DataType::S64 => MemScalar::S32,
                    DataType::U32 | DataType::U64 => MemScalar::U32,
                },
                count: 1,
            },
        };
        let atomic = matches!(name, "ATOM" | "ATOMIM" | "ATOMB" | "ATOMS");
        if atomic && m.atom.is_none() {
            return Err(semantic(
                span,
                format!("{name} needs an atomic operation modifier such as .ADD"),
            ));
        }
        if let (true, Some((a, aspan))) = (atomic, m.atom) {
            self.check_atomic(name, a, ty, aspan)?;
        }
        if atomic && ty.count != 1 && ty.scalar != MemScalar::F16 {
            return Err(semantic(
                span,
                format!(
                    "{name} operates on a single value; vector storage modifiers are not allowed"
                ),
            ));
        }
        Ok(Extra::Mem(Box::new(MemInfo {
            space,
            ty,
            atom: m.atom.map(|a| a.0),
            coherent: m.coherent,
            volatile: m.volatile,
            target: None,
            element: None,
            formatted: false,
        })))
    }

    /// The atomic operation and storage modifier pairs of the ATOM table (NV_gpu_program5),
    /// the ATOMB table (NV_shader_storage_buffer_object: F32 ADD/EXCH as well) and the
    /// ATOMIM table (EXT_shader_image_load_store: 32-bit integers only), widened by
    /// OPTION NV_shader_atomic_float (F32 ADD/EXCH on ATOM, ATOMIM) and
    /// NV_shader_atomic_int64 (S64 everywhere but IWRAP/DWRAP, U64 MIN/MAX/AND/OR/XOR on
    /// ATOM, ATOMB).
    pub(super) fn check_atomic(
        &self,
        name: &str,
        a: AtomOp,
        ty: MemType,
        span: Span,
    ) -> Result<(), ProgramError> {
        use AtomOp::*;
        use MemScalar::*;
        let image = name == "ATOMIM";
        let core = match (a, ty.scalar) {
            // NV_shader_atomic_fp16_vector, whose option the storage modifier needed.
            (Add | Min | Max | Exch, F16) => ty.count > 1,
            (_, U32) => true,
            (IWrap | DWrap, _) => false,
            (_, S32) => true,
            (Add | Exch | CSwap, U64) => !image,
            (Add | Exch, F32) => name == "ATOMB",
            _ => false,
        };
        if core {
            return Ok(());
        }
        let option = match (a, ty.scalar) {
            (Add | Exch, F32) => Some("NV_shader_atomic_float"),
            (IWrap | DWrap, _) => None,
            (_, S64) | (Min | Max | And | Or | Xor, U64) if !image => {
                Some("NV_shader_atomic_int64")
            }
            _ => None,
        };
        let op = format!("{a:?}").to_uppercase();
        let what = format!("{name}.{op} with the .{:?} storage modifier", ty.scalar);
        match option {
            Some(o) => self.require_option(&[o], &what, span),
            None => Err(semantic(
                span,
                format!("{what} is not supported by the spec's atomic table"),
            )),
        }
    }

    /// `mem_info` plus the image target and the run-time IMAGE array element.
    pub(super) fn image_info(
        &self,
        m: &Mods,
        space: MemSpace,
        element: Option<Index>,
        target: TexTarget,
        name: &str,
        span: Span,
    ) -> Result<Extra, ProgramError> {
        // ATOMIM is always unformatted; STOREIM without a storage modifier is a formatted
        // store, and so is LOADIM with EXT_shader_image_load_formatted.
        let formatted = m.mem.is_none();
        if formatted && name == "LOADIM" && !self.opts.image_load_formatted {
            return Err(semantic(
                span,
                "LOADIM needs a storage modifier such as .U32 (a formatted load with .F, .S or .U needs OPTION EXT_shader_image_load_formatted)",
            ));
        }
        if formatted && name == "ATOMIM" {
            return Err(semantic(
                span,
                format!("{name} needs a storage modifier such as .U32"),
            ));
        }
        let mut extra = self.mem_info(m, space, name, span)?;
        if let Extra::Mem(info) = &mut extra {
            info.target = Some(target);
            info.element = element;
            info.formatted = formatted;
        }
        Ok(extra)
    }

    pub(super) fn image_unit(&mut self) -> Result<(MemSpace, Option<Index>, Span), ProgramError> {
        let (n, s) = self.c.ident("an image")?;
        if n == "image" && !self.syms.contains_key(&n) {
            let (u, us) = self.c.bracket_int("an image unit")?;
            if u >= self.lim.max_image_units {
                return Err(semantic(
                    us,
                    format!(
                        "image unit {u} exceeds the limit of {max_image_units}",
                        max_image_units = self.lim.max_image_units
                    ),
                ));
            }
            let image = match self
                .prog
                .images
                .iter()
                .position(|i| i.name.is_empty() && i.first == u)
            {
                Some(i) => i as u32,
                None => {
                    self.prog.images.push(ImageVar {
                        name: String::new(),
                        first: u,
                        len: 1,
                    });
                    self.prog.images.len() as u32 - 1
                }
            };
            return Ok((MemSpace::Image { image }, None, s));
        }
        let Some(Sym::Image { index }) = self.syms.get(&n).map(|x| x.0.clone()) else {
            return Err(semantic(s, format!("'{n}' is not an IMAGE variable")));
        };
        if self.c.peek() == &Tok::LBracket {
            // A constant element of an IMAGE array is a single-unit image of its own.
            let (first, len, var_name) = match self.prog.images.get(index as usize) {
                Some(v) => (v.first, v.len, v.name.clone()),
                None => return Err(semantic(s, format!("'{n}' is not an IMAGE variable"))),
            };
            match self.array_index_rel(&n, 0, len)? {
                Index::Direct(k) => {
                    let unit = first + k;
                    let name = format!("{var_name}[{k}]");
                    let image = match self.prog.images.iter().position(|i| i.name == name) {
                        Some(i) => i as u32,
                        None => {
                            self.prog.images.push(ImageVar {
                                name,
                                first: unit,
                                len: 1,
                            });
                            self.prog.images.len() as u32 - 1
                        }
                    };
                    return Ok((MemSpace::Image { image }, None, s));
                }
                rel @ Index::Relative { .. } => {
                    return Ok((MemSpace::Image { image: index }, Some(rel), s));
                }
            }
        }
        Ok((MemSpace::Image { image: index }, None, s))
    }

    pub(super) fn image_target(&mut self) -> Result<TexTarget, ProgramError> {
        let (t, s) = self.c.ident("an image target")?;
        let target = match t.as_str() {
            "1D" => TexTarget::T1D,
            "2D" => TexTarget::T2D,
            "3D" => TexTarget::T3D,
            "RECT" => TexTarget::Rect,
            "CUBE" => TexTarget::Cube,
            "BUFFER" => TexTarget::Buffer,
            "ARRAY1D" => TexTarget::Array1D,
            "ARRAY2D" => TexTarget::Array2D,
            "ARRAYCUBE" => TexTarget::ArrayCube,
            "2DMS" => TexTarget::T2DMs,
            "ARRAY2DMS" => TexTarget::Array2DMs,
            _ => return Err(semantic(s, format!("'{t}' is not an image target"))),
        };
        Ok(target)
    }
}

impl Parser {
    /// The STORAGE (LDB/STB/ATOMB) or SHARED (LDS/STS/ATOMS) variable operand of `op`:
    /// `name`, `name[n]`, `name[reg.c]`, `name[reg.c + n]` (a STORAGE variable spanning
    /// several binding points indexed by binding point first), as a `File::Buffer`
    /// source whose index is the byte offset; the executor resolves it like any array
    /// index.
    pub(crate) fn buffer_operand(
        &mut self,
        kind: BufferKind,
        op: &str,
    ) -> Result<(u32, Src), ProgramError> {
        let what = if kind == BufferKind::Shared {
            "SHARED"
        } else {
            "STORAGE"
        };
        let (n, s) = self.c.ident(&format!("a {what} variable"))?;
        let buffer = match self.syms.get(&n).map(|x| x.0.clone()) {
            Some(Sym::Buffer { index, .. })
                if self
                    .prog
                    .buffers
                    .get(index as usize)
                    .is_some_and(|b| b.kind == kind) =>
            {
                index
            }
            _ => {
                return Err(semantic(
                    s,
                    format!("{op} needs a {what} variable, '{n}' is not one"),
                ))
            }
        };
        let (binding, len) = if kind == BufferKind::Shared {
            let len = self
                .prog
                .buffers
                .get(buffer as usize)
                .and_then(|b| b.len)
                .or(self.prog.decls.shared_memory)
                .unwrap_or(u32::MAX / 2);
            (None, len.max(1))
        } else {
            (self.buffer_binding_index(&n, buffer, s)?, u32::MAX / 2)
        };
        let index = if self.c.peek() == &Tok::LBracket {
            self.array_index_rel(&n, 0, len)?
        } else {
            Index::Direct(0)
        };
        let span = s.to(self.c.prev_span());
        Ok((
            buffer,
            Src {
                vertex: binding,
                buffer,
                ..Src::plain(File::Buffer, index, span)
            },
        ))
    }
}
