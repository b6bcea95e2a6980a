//! Vertex arrays: generic attributes (`glVertexAttrib[I]Pointer`) and the conventional
//! arrays ARB/NV vertex programs read (`glVertexPointer`, `glColorPointer`, ...), sourced
//! from the buffer bound to `ARRAY_BUFFER` when the pointer is set.

use super::state::{MAX_TEXTURE_COORDS, MAX_VERTEX_ATTRIBS};
use super::Context;
use crate::error::{Error, Result};
use crate::gl;
use glemu_pipeline::fetch::{
    AttribBinding, AttribConversion, AttribFormat, AttribSlot, AttribType, VertexArray,
};
use std::collections::BTreeMap;

/// One array's pointer state.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct ArrayState {
    pub enabled: bool,
    /// Buffer object the pointer was set from (0 = none).
    pub buffer: u32,
    pub offset: u64,
    pub stride: u32,
    pub format: AttribFormat,
    pub divisor: u32,
    /// The vertex buffer binding a generic attribute reads (ARB_vertex_attrib_binding;
    /// `glVertexAttribPointer` makes it the attribute's own index).
    pub binding: u32,
    /// Bytes from the binding's offset to this attribute's first element.
    pub relative_offset: u32,
}

impl ArrayState {
    /// A slot nothing has set: four floats, disabled, generic attribute `i` reading
    /// binding `i`.
    pub(super) fn initial(slot: AttribSlot) -> ArrayState {
        ArrayState {
            enabled: false,
            buffer: 0,
            offset: 0,
            stride: 16,
            format: AttribFormat::float(4),
            divisor: 0,
            binding: match slot {
                AttribSlot::Generic(i) => i,
                _ => 0,
            },
            relative_offset: 0,
        }
    }
}

/// One vertex buffer binding point (`glBindVertexBuffer`, `glVertexBindingDivisor`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct VertexBuffer {
    pub buffer: u32,
    pub offset: u64,
    pub stride: u32,
    pub divisor: u32,
}

impl Default for VertexBuffer {
    fn default() -> VertexBuffer {
        VertexBuffer {
            buffer: 0,
            offset: 0,
            stride: 16,
            divisor: 0,
        }
    }
}

/// The arrays of the bound vertex array object (`slots`) plus the saved state of every
/// other one. The bound VAO's state lives in `slots` and in the context's
/// `ELEMENT_ARRAY_BUFFER` binding so draws and buffer deletion need not know about VAOs.
#[derive(Debug, Default)]
pub(crate) struct Arrays {
    pub slots: BTreeMap<AttribSlot, ArrayState>,
    /// The bound VAO's vertex buffer bindings (absent: the initial state).
    pub bindings: BTreeMap<u32, VertexBuffer>,
    pub client_active_texture: u32,
    /// Bound VAO name (0 = default object).
    pub bound_vao: u32,
    /// Generated names; `None` until first bound (GL creates the object on bind).
    pub vaos: BTreeMap<u32, Option<SavedVao>>,
    /// State of the default VAO while a named one is bound.
    pub default_vao: SavedVao,
    pub next_vao: u32,
}

/// What GL keeps in a vertex array object besides the bound one's live state.
#[derive(Debug, Default, Clone)]
pub(crate) struct SavedVao {
    pub slots: BTreeMap<AttribSlot, ArrayState>,
    pub bindings: BTreeMap<u32, VertexBuffer>,
    pub element_buffer: u32,
}

impl Arrays {
    pub(crate) fn unbind_buffer(&mut self, id: u32) {
        for b in self.bindings.values_mut() {
            if b.buffer == id {
                b.buffer = 0;
            }
        }
        for a in self.slots.values_mut() {
            if a.buffer == id {
                a.buffer = 0;
            }
        }
    }

    /// Gives every generic attribute the buffer, offset, stride and divisor of the
    /// binding it reads: the resolved per-slot state draws use.
    pub(super) fn resolve_bindings(&mut self) {
        for (slot, a) in self.slots.iter_mut() {
            if let AttribSlot::Generic(_) = slot {
                let b = self.bindings.get(&a.binding).copied().unwrap_or_default();
                a.buffer = b.buffer;
                a.offset = b.offset + u64::from(a.relative_offset);
                a.stride = b.stride;
                a.divisor = b.divisor;
            }
        }
    }
}

fn attrib_type(ty: u32) -> Result<AttribType> {
    Ok(match ty {
        gl::BYTE => AttribType::Byte,
        gl::UNSIGNED_BYTE => AttribType::UnsignedByte,
        gl::SHORT => AttribType::Short,
        gl::UNSIGNED_SHORT => AttribType::UnsignedShort,
        gl::INT => AttribType::Int,
        gl::UNSIGNED_INT => AttribType::UnsignedInt,
        gl::HALF_FLOAT => AttribType::Half,
        gl::FLOAT => AttribType::Float,
        gl::DOUBLE => AttribType::Double,
        gl::INT_2_10_10_10_REV => AttribType::Int2101010Rev,
        gl::UNSIGNED_INT_2_10_10_10_REV => AttribType::UnsignedInt2101010Rev,
        t => return Err(Error::invalid_enum("vertex attribute type", t)),
    })
}

fn is_float_type(t: AttribType) -> bool {
    matches!(t, AttribType::Half | AttribType::Float | AttribType::Double)
}

/// An attribute format as `glVertexAttrib[I]Pointer` and `glVertexAttrib[I]Format` give
/// it: `size` 1..4 or `BGRA`, a type of table 10.3 (`INVALID_ENUM` otherwise, and for
/// float types of the integer calls), and the size/type/normalization rules of
/// section 10.3.2 (`INVALID_VALUE` / `INVALID_OPERATION`).
pub(super) fn attrib_format(
    size: i32,
    ty: u32,
    conversion: AttribConversion,
) -> Result<AttribFormat> {
    let t = attrib_type(ty)?;
    let packed = matches!(
        t,
        AttribType::Int2101010Rev | AttribType::UnsignedInt2101010Rev
    );
    if conversion == AttribConversion::Integer && (is_float_type(t) || packed) {
        return Err(Error::invalid_enum("integer vertex attribute type", ty));
    }
    let (size, bgra) = if size == gl::BGRA as i32 {
        (4, true)
    } else {
        (size, false)
    };
    if !(1..=4).contains(&size) {
        return Err(Error::invalid_value(format!(
            "attribute size {size} is not 1..4"
        )));
    }
    let conversion = match conversion {
        AttribConversion::Normalized if is_float_type(t) => AttribConversion::Float,
        c => c,
    };
    let format = AttribFormat {
        ty: t,
        size: size as u8,
        bgra,
        conversion,
    };
    format.validate().map_err(crate::error::from_pipeline)?;
    Ok(format)
}

/// # Chapter 10.3 — Vertex arrays
///
/// Vertex array objects, `vertex_attrib_pointer` and the conventional arrays.
impl Context {
    /// `glGenVertexArrays`: `n` fresh names; each becomes an object when first bound.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// let ids = ctx.gen_vertex_arrays(2).unwrap();
    /// assert_eq!(ids.len(), 2);
    /// assert!(!ids.contains(&0) && ids[0] != ids[1]);
    /// assert!(!ctx.is_vertex_array(ids[0]));
    /// ```
    pub fn gen_vertex_arrays(&mut self, n: usize) -> Result<Vec<u32>> {
        let room = self.memory_room();
        let a = &mut self.arrays;
        super::names::generate(
            "vertex array",
            n,
            room,
            &mut a.next_vao,
            &mut a.vaos,
            super::names::NONE_OUTSIDE,
            || None,
        )
    }

    /// `glIsVertexArray`: true for generated names that have been bound at least once.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// let ids = ctx.gen_vertex_arrays(1).unwrap();
    /// ctx.bind_vertex_array(ids[0]).unwrap();
    /// assert!(ctx.is_vertex_array(ids[0]));
    /// assert!(!ctx.is_vertex_array(0));
    /// ```
    pub fn is_vertex_array(&self, id: u32) -> bool {
        matches!(self.arrays.vaos.get(&id), Some(Some(_)))
    }

    /// `glBindVertexArray`: 0 is the default object (compatibility profile). Names not
    /// returned by `gen_vertex_arrays` (or already deleted) are `INVALID_OPERATION`.
    /// Switches attribute pointers, enables, divisors and `ELEMENT_ARRAY_BUFFER`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let ids = ctx.gen_vertex_arrays(1).unwrap();
    /// ctx.bind_vertex_array(ids[0]).unwrap();
    /// ctx.bind_vertex_array(0).unwrap();
    /// assert_eq!(ctx.bind_vertex_array(99).unwrap_err().gl, GlError::InvalidOperation);
    /// ```
    pub fn bind_vertex_array(&mut self, id: u32) -> Result<()> {
        if id != 0 && !self.arrays.vaos.contains_key(&id) {
            return Err(Error::invalid_operation(format!(
                "{id} is not a vertex array name from gen_vertex_arrays"
            )));
        }
        if id == self.arrays.bound_vao {
            return Ok(());
        }
        let element_buffer = self
            .buffers
            .bound
            .get(&gl::ELEMENT_ARRAY_BUFFER)
            .copied()
            .unwrap_or(0);
        let old = SavedVao {
            slots: std::mem::take(&mut self.arrays.slots),
            bindings: std::mem::take(&mut self.arrays.bindings),
            element_buffer,
        };
        self.store_vao(self.arrays.bound_vao, old);
        let new = if id == 0 {
            std::mem::take(&mut self.arrays.default_vao)
        } else {
            self.arrays
                .vaos
                .get_mut(&id)
                .and_then(|v| v.take())
                .unwrap_or_default()
        };
        self.arrays.slots = new.slots;
        self.arrays.bindings = new.bindings;
        if new.element_buffer == 0 {
            self.buffers.bound.remove(&gl::ELEMENT_ARRAY_BUFFER);
        } else {
            self.buffers
                .bound
                .insert(gl::ELEMENT_ARRAY_BUFFER, new.element_buffer);
        }
        self.arrays.bound_vao = id;
        // The bound object's entry must still read as existing for `is_vertex_array`.
        if id != 0 {
            self.arrays.vaos.insert(id, Some(SavedVao::default()));
        }
        Ok(())
    }

    fn store_vao(&mut self, id: u32, state: SavedVao) {
        if id == 0 {
            self.arrays.default_vao = state;
        } else if let Some(v) = self.arrays.vaos.get_mut(&id) {
            *v = Some(state);
        }
    }

    /// `glDeleteVertexArrays`: unknown names and 0 are ignored; deleting the bound
    /// object binds the default one first.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// let ids = ctx.gen_vertex_arrays(1).unwrap();
    /// ctx.bind_vertex_array(ids[0]).unwrap();
    /// ctx.delete_vertex_arrays(&ids);
    /// assert!(!ctx.is_vertex_array(ids[0]));
    /// assert_eq!(ctx.bind_vertex_array(ids[0]).unwrap_err().gl, glemu::GlError::InvalidOperation);
    /// ```
    pub fn delete_vertex_arrays(&mut self, ids: &[u32]) {
        for &id in ids {
            if id == 0 || !self.arrays.vaos.contains_key(&id) {
                continue;
            }
            if id == self.arrays.bound_vao {
                // Binding 0 cannot fail.
                let _ = self.bind_vertex_array(0);
            }
            self.arrays.vaos.remove(&id);
        }
    }

    pub(super) fn generic_slot(index: u32) -> Result<AttribSlot> {
        if index as usize >= MAX_VERTEX_ATTRIBS {
            return Err(Error::invalid_value(format!(
                "vertex attribute {index} (max {})",
                MAX_VERTEX_ATTRIBS - 1
            )));
        }
        Ok(AttribSlot::Generic(index))
    }

    fn set_pointer(
        &mut self,
        slot: AttribSlot,
        size: i32,
        ty: u32,
        conversion: AttribConversion,
        stride: i32,
        offset: u64,
    ) -> Result<()> {
        let format = attrib_format(size, ty, conversion)?;
        if stride < 0 {
            return Err(Error::invalid_value(format!("negative stride {stride}")));
        }
        let buffer = self
            .buffers
            .bound
            .get(&gl::ARRAY_BUFFER)
            .copied()
            .unwrap_or(0);
        if buffer == 0 && offset != 0 {
            return Err(Error::invalid_operation(
                "no ARRAY_BUFFER is bound (client-memory arrays are not supported)",
            ));
        }
        let stride = if stride == 0 {
            format.element_size()
        } else {
            stride as u32
        };
        let e = self
            .arrays
            .slots
            .entry(slot)
            .or_insert(ArrayState::initial(slot));
        e.buffer = buffer;
        e.offset = offset;
        e.stride = stride;
        e.format = format;
        if let AttribSlot::Generic(i) = slot {
            // GL 4.6 section 10.3.2: the pointer call is VertexAttribFormat(relative
            // offset 0), VertexAttribBinding(i, i) and BindVertexBuffer(i, ...); other
            // attributes reading binding i see the new buffer too.
            e.binding = i;
            e.relative_offset = 0;
            let b = self.arrays.bindings.entry(i).or_default();
            b.buffer = buffer;
            b.offset = offset;
            b.stride = stride;
            self.arrays.resolve_bindings();
        }
        Ok(())
    }

    /// `glVertexAttribPointer` from the buffer bound to `ARRAY_BUFFER` (`offset` bytes in).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.vertex_attrib_pointer(0, 4, gl::FLOAT, false, 0, 0).unwrap();
    /// assert_eq!(ctx.vertex_attrib_pointer(0, 5, gl::FLOAT, false, 0, 0).unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn vertex_attrib_pointer(
        &mut self,
        index: u32,
        size: i32,
        ty: u32,
        normalized: bool,
        stride: i32,
        offset: u64,
    ) -> Result<()> {
        let conv = if normalized {
            AttribConversion::Normalized
        } else {
            AttribConversion::Float
        };
        self.set_pointer(Self::generic_slot(index)?, size, ty, conv, stride, offset)
    }

    /// `glVertexAttribIPointer`: integer attributes, passed through unconverted.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.vertex_attrib_i_pointer(1, 2, gl::INT, 0, 0).unwrap();
    /// assert_eq!(ctx.vertex_attrib_i_pointer(1, 2, gl::FLOAT, 0, 0).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn vertex_attrib_i_pointer(
        &mut self,
        index: u32,
        size: i32,
        ty: u32,
        stride: i32,
        offset: u64,
    ) -> Result<()> {
        self.set_pointer(
            Self::generic_slot(index)?,
            size,
            ty,
            AttribConversion::Integer,
            stride,
            offset,
        )
    }

    /// `glEnableVertexAttribArray`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.enable_vertex_attrib_array(0).unwrap();
    /// assert!(ctx.enable_vertex_attrib_array(99).is_err());
    /// ```
    pub fn enable_vertex_attrib_array(&mut self, index: u32) -> Result<()> {
        self.set_array_enabled(Self::generic_slot(index)?, true);
        Ok(())
    }

    /// `glDisableVertexAttribArray`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.disable_vertex_attrib_array(0).unwrap();
    /// ```
    pub fn disable_vertex_attrib_array(&mut self, index: u32) -> Result<()> {
        self.set_array_enabled(Self::generic_slot(index)?, false);
        Ok(())
    }

    /// `glVertexAttribDivisor`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.vertex_attrib_divisor(2, 1).unwrap();
    /// ```
    pub fn vertex_attrib_divisor(&mut self, index: u32, divisor: u32) -> Result<()> {
        // GL 4.6 section 10.3.2: VertexAttribBinding(index, index) then
        // VertexBindingDivisor(index, divisor).
        self.vertex_attrib_binding(index, index)?;
        self.vertex_binding_divisor(index, divisor)
    }

    fn set_array_enabled(&mut self, slot: AttribSlot, on: bool) {
        self.arrays
            .slots
            .entry(slot)
            .or_insert(ArrayState::initial(slot))
            .enabled = on;
    }

    fn client_slot(&self, array: u32) -> Result<AttribSlot> {
        Ok(match array {
            gl::VERTEX_ARRAY => AttribSlot::Position,
            gl::NORMAL_ARRAY => AttribSlot::Normal,
            gl::COLOR_ARRAY => AttribSlot::Color,
            gl::SECONDARY_COLOR_ARRAY => AttribSlot::SecondaryColor,
            gl::FOG_COORD_ARRAY => AttribSlot::FogCoord,
            gl::TEXTURE_COORD_ARRAY => AttribSlot::TexCoord(self.arrays.client_active_texture),
            a => return Err(Error::invalid_enum("client array", a)),
        })
    }

    /// `glEnableClientState` (`VERTEX_ARRAY`, `COLOR_ARRAY`, `TEXTURE_COORD_ARRAY` of the
    /// client active texture, ...).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.enable_client_state(gl::VERTEX_ARRAY).unwrap();
    /// assert!(ctx.enable_client_state(gl::TRIANGLES).is_err());
    /// ```
    pub fn enable_client_state(&mut self, array: u32) -> Result<()> {
        let s = self.client_slot(array)?;
        self.set_array_enabled(s, true);
        Ok(())
    }

    /// `glDisableClientState`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.disable_client_state(gl::COLOR_ARRAY).unwrap();
    /// ```
    pub fn disable_client_state(&mut self, array: u32) -> Result<()> {
        let s = self.client_slot(array)?;
        self.set_array_enabled(s, false);
        Ok(())
    }

    /// `glClientActiveTexture` with `unit` as an index.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.client_active_texture(1).unwrap();
    /// assert!(ctx.client_active_texture(64).is_err());
    /// ```
    pub fn client_active_texture(&mut self, unit: u32) -> Result<()> {
        if unit as usize >= MAX_TEXTURE_COORDS {
            return Err(super::bad_texture_unit(unit, MAX_TEXTURE_COORDS));
        }
        self.arrays.client_active_texture = unit;
        Ok(())
    }

    /// `glVertexPointer`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.vertex_pointer(3, gl::FLOAT, 0, 0).unwrap();
    /// ```
    pub fn vertex_pointer(&mut self, size: i32, ty: u32, stride: i32, offset: u64) -> Result<()> {
        self.set_pointer(
            AttribSlot::Position,
            size,
            ty,
            AttribConversion::Float,
            stride,
            offset,
        )
    }

    /// `glColorPointer` (integer types are normalized).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.color_pointer(4, gl::UNSIGNED_BYTE, 0, 0).unwrap();
    /// ```
    pub fn color_pointer(&mut self, size: i32, ty: u32, stride: i32, offset: u64) -> Result<()> {
        self.set_pointer(
            AttribSlot::Color,
            size,
            ty,
            AttribConversion::Normalized,
            stride,
            offset,
        )
    }

    /// `glSecondaryColorPointer`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.secondary_color_pointer(3, gl::FLOAT, 0, 0).unwrap();
    /// ```
    pub fn secondary_color_pointer(
        &mut self,
        size: i32,
        ty: u32,
        stride: i32,
        offset: u64,
    ) -> Result<()> {
        self.set_pointer(
            AttribSlot::SecondaryColor,
            size,
            ty,
            AttribConversion::Normalized,
            stride,
            offset,
        )
    }

    /// `glNormalPointer` (3 components, integer types normalized).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.normal_pointer(gl::FLOAT, 0, 0).unwrap();
    /// ```
    pub fn normal_pointer(&mut self, ty: u32, stride: i32, offset: u64) -> Result<()> {
        self.set_pointer(
            AttribSlot::Normal,
            3,
            ty,
            AttribConversion::Normalized,
            stride,
            offset,
        )
    }

    /// `glFogCoordPointer` (1 component).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.fog_coord_pointer(gl::FLOAT, 0, 0).unwrap();
    /// ```
    pub fn fog_coord_pointer(&mut self, ty: u32, stride: i32, offset: u64) -> Result<()> {
        self.set_pointer(
            AttribSlot::FogCoord,
            1,
            ty,
            AttribConversion::Float,
            stride,
            offset,
        )
    }

    /// `glTexCoordPointer` for the client active texture.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.tex_coord_pointer(2, gl::FLOAT, 0, 0).unwrap();
    /// ```
    pub fn tex_coord_pointer(
        &mut self,
        size: i32,
        ty: u32,
        stride: i32,
        offset: u64,
    ) -> Result<()> {
        let unit = self.arrays.client_active_texture;
        self.set_pointer(
            AttribSlot::TexCoord(unit),
            size,
            ty,
            AttribConversion::Float,
            stride,
            offset,
        )
    }

    /// The attribute bindings of a draw: every slot with its enabled array (if any) and
    /// current value.
    pub(crate) fn attrib_bindings(&self) -> Result<Vec<AttribBinding>> {
        let st = &self.st;
        let f = |v: [f32; 4]| v.map(f32::to_bits);
        let mut slots: Vec<(AttribSlot, [u32; 4])> = vec![
            (AttribSlot::Position, f([0.0, 0.0, 0.0, 1.0])),
            (AttribSlot::Normal, f(st.current_normal)),
            (AttribSlot::Color, f(st.current_color)),
            (AttribSlot::SecondaryColor, f(st.current_secondary_color)),
            (
                AttribSlot::FogCoord,
                f([st.current_fog_coord, 0.0, 0.0, 1.0]),
            ),
        ];
        for (i, t) in st.current_texcoord.iter().enumerate() {
            slots.push((AttribSlot::TexCoord(i as u32), f(*t)));
        }
        for (i, a) in st.current_attrib.iter().enumerate() {
            slots.push((AttribSlot::Generic(i as u32), *a));
        }
        slots
            .into_iter()
            .map(|(slot, current)| {
                let array = match self.arrays.slots.get(&slot) {
                    Some(a) if a.enabled => {
                        if a.buffer == 0 {
                            return Err(Error::invalid_operation(format!(
                                "array {slot:?} is enabled but has no buffer"
                            )));
                        }
                        Some(VertexArray {
                            buffer: self.buffer_store(a.buffer)?,
                            offset: a.offset,
                            stride: a.stride,
                            format: a.format,
                            divisor: a.divisor,
                        })
                    }
                    _ => None,
                };
                Ok(AttribBinding {
                    slot,
                    array,
                    current,
                })
            })
            .collect()
    }
}
