//! API call sequences (issue 17 point 10): proptest drives random sequences of Context
//! calls — names, buffers, mapping (with held `bytes()` guards), textures, framebuffers,
//! vertex arrays, draws, readback — with arguments that are often wrong. No call may
//! panic or hang, every call returns a result, generated names are never 0 nor a name in
//! use, and the context still draws and reads back afterwards. Bounded: 300 sequences of
//! up to 40 calls on a 16×16 context (a few seconds).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu::{gl, Context};
use proptest::prelude::*;
use std::collections::HashSet;

/// Targets, formats and modes the calls pick from, with a few values GL rejects.
const BUFFER_TARGETS: &[u32] = &[
    gl::ARRAY_BUFFER,
    gl::ELEMENT_ARRAY_BUFFER,
    gl::COPY_READ_BUFFER,
    gl::COPY_WRITE_BUFFER,
    gl::SHADER_STORAGE_BUFFER,
    gl::TEXTURE_2D,
];
const TEX_FORMATS: &[u32] = &[
    gl::RGBA8,
    gl::RGBA32F,
    gl::R32UI,
    gl::DEPTH24_STENCIL8,
    0x1234,
];
const MODES: &[u32] = &[
    gl::POINTS,
    gl::LINES,
    gl::TRIANGLES,
    gl::TRIANGLE_STRIP,
    0x7777,
];

#[derive(Debug, Clone)]
enum Call {
    GenBuffers(usize),
    BindBuffer(usize, u32),
    BufferData(usize, u64),
    BufferSubData(usize, u64, usize),
    GetBufferSubData(usize, u64, u64),
    CopyBuffer(u64, u64, u64),
    MapRange(usize, u64, u64, u32),
    /// Holds `bytes()` of the latest mapping while making the inner call.
    WhileHeld(Box<Call>),
    Unmap(usize),
    DeleteBuffers(u32),
    GenTextures(usize),
    TexImage(usize, u32, u32, bool),
    GenFramebuffers(usize),
    AttachTexture(u32, u32, i32),
    BindFramebuffer(u32),
    VertexArray(u32, i32, u64),
    Draw(usize, i32, i32),
    Clear,
    ReadPixels(i32, i32, i32, i32),
}

/// Names the calls pick from: small ones, 0 and the largest.
fn name() -> impl Strategy<Value = u32> {
    prop_oneof![0u32..8, Just(u32::MAX), Just(u32::MAX - 1)]
}

fn leaf() -> impl Strategy<Value = Call> {
    prop_oneof![
        (0usize..4).prop_map(Call::GenBuffers),
        (0..BUFFER_TARGETS.len(), name()).prop_map(|(t, n)| Call::BindBuffer(t, n)),
        (0..BUFFER_TARGETS.len(), 0u64..4096).prop_map(|(t, s)| Call::BufferData(t, s)),
        (0..BUFFER_TARGETS.len(), 0u64..5000, 0usize..64)
            .prop_map(|(t, o, l)| Call::BufferSubData(t, o, l)),
        (0..BUFFER_TARGETS.len(), 0u64..5000, 0u64..5000)
            .prop_map(|(t, o, l)| Call::GetBufferSubData(t, o, l)),
        (0u64..5000, 0u64..5000, 0u64..256).prop_map(|(a, b, n)| Call::CopyBuffer(a, b, n)),
        (
            0..BUFFER_TARGETS.len(),
            0u64..5000,
            0u64..5000,
            any::<u32>()
        )
            .prop_map(|(t, o, l, a)| Call::MapRange(t, o, l, a & 0xFF)),
        (0..BUFFER_TARGETS.len()).prop_map(Call::Unmap),
        name().prop_map(Call::DeleteBuffers),
        (0usize..3).prop_map(Call::GenTextures),
        (0..TEX_FORMATS.len(), 0u32..70, 0u32..70, any::<bool>())
            .prop_map(|(f, w, h, d)| Call::TexImage(f, w, h, d)),
        (0usize..3).prop_map(Call::GenFramebuffers),
        (name(), 0u32..4, -1i32..3).prop_map(|(t, a, l)| Call::AttachTexture(t, a, l)),
        name().prop_map(Call::BindFramebuffer),
        (0u32..20, -8i32..64, 0u64..64).prop_map(|(i, s, o)| Call::VertexArray(i, s, o)),
        (0..MODES.len(), -2i32..8, -2i32..300).prop_map(|(m, f, n)| Call::Draw(m, f, n)),
        Just(Call::Clear),
        (-4i32..20, -4i32..20, -2i32..20, -2i32..20)
            .prop_map(|(x, y, w, h)| Call::ReadPixels(x, y, w, h)),
    ]
}

fn call() -> impl Strategy<Value = Call> {
    prop_oneof![
        9 => leaf(),
        1 => leaf().prop_map(|c| Call::WhileHeld(Box::new(c))),
    ]
}

struct State {
    ctx: Context,
    mapping: Option<glemu::context::buffers::Mapping>,
    /// Names generated and not deleted, per object kind.
    buffers: HashSet<u32>,
    textures: HashSet<u32>,
    framebuffers: HashSet<u32>,
}

fn fresh_names(kind: &str, live: &mut HashSet<u32>, got: glemu::Result<Vec<u32>>) {
    let Ok(ids) = got else { return };
    for id in ids {
        assert_ne!(id, 0, "{kind}: gen returned 0");
        assert!(live.insert(id), "{kind}: gen returned {id}, a name in use");
    }
}

impl State {
    fn apply(&mut self, c: &Call) {
        let ctx = &mut self.ctx;
        let t = |i: usize| BUFFER_TARGETS[i % BUFFER_TARGETS.len()];
        match c {
            Call::GenBuffers(n) => fresh_names("buffers", &mut self.buffers, ctx.gen_buffers(*n)),
            Call::BindBuffer(i, n) => {
                if ctx.bind_buffer(t(*i), *n).is_ok() {
                    self.buffers.insert(*n);
                }
            }
            Call::BufferData(i, s) => drop(ctx.buffer_data_size(t(*i), *s, gl::STATIC_DRAW)),
            Call::BufferSubData(i, o, l) => drop(ctx.buffer_sub_data(t(*i), *o, &vec![7u8; *l])),
            Call::GetBufferSubData(i, o, l) => drop(ctx.get_buffer_sub_data(t(*i), *o, *l)),
            Call::CopyBuffer(a, b, n) => drop(ctx.copy_buffer_sub_data(
                gl::COPY_READ_BUFFER,
                gl::COPY_WRITE_BUFFER,
                *a,
                *b,
                *n,
            )),
            Call::MapRange(i, o, l, a) => {
                if let Ok(m) = ctx.map_buffer_range(t(*i), *o, *l, *a) {
                    self.mapping = Some(m);
                }
            }
            Call::WhileHeld(inner) => {
                let Some(m) = self.mapping.take() else {
                    return self.apply(inner);
                };
                if let Ok(mut held) = m.bytes() {
                    if let Some(b) = held.first_mut() {
                        *b = b.wrapping_add(1);
                    }
                    // The inner call must not wait for the held lock.
                    assert!(m.read(0, 1).is_err() && m.bytes().is_err());
                    let mut rest = State {
                        ctx: std::mem::replace(&mut self.ctx, placeholder()),
                        mapping: None,
                        buffers: std::mem::take(&mut self.buffers),
                        textures: std::mem::take(&mut self.textures),
                        framebuffers: std::mem::take(&mut self.framebuffers),
                    };
                    rest.apply(inner);
                    drop(held);
                    self.ctx = rest.ctx;
                    self.buffers = rest.buffers;
                    self.textures = rest.textures;
                    self.framebuffers = rest.framebuffers;
                } else {
                    self.apply(inner);
                }
                self.mapping = Some(m);
            }
            Call::Unmap(i) => drop(ctx.unmap_buffer(t(*i))),
            Call::DeleteBuffers(n) => {
                ctx.delete_buffers(&[*n]);
                self.buffers.remove(n);
            }
            Call::GenTextures(n) => {
                fresh_names("textures", &mut self.textures, ctx.gen_textures(*n));
                if let Some(&id) = self.textures.iter().next() {
                    let _ = ctx.bind_texture(gl::TEXTURE_2D, id);
                }
            }
            Call::TexImage(f, w, h, with_data) => {
                let fmt = TEX_FORMATS[*f % TEX_FORMATS.len()];
                let data = vec![1u8; (*w as usize) * (*h as usize) * 4];
                let data = with_data.then_some(&data[..]);
                let _ = ctx.tex_image_2d(
                    gl::TEXTURE_2D,
                    0,
                    fmt,
                    *w,
                    *h,
                    gl::RGBA,
                    gl::UNSIGNED_BYTE,
                    data,
                );
            }
            Call::GenFramebuffers(n) => fresh_names(
                "framebuffers",
                &mut self.framebuffers,
                ctx.gen_framebuffers(*n),
            ),
            Call::AttachTexture(tex, a, l) => drop(ctx.framebuffer_texture_2d(
                gl::FRAMEBUFFER,
                gl::COLOR_ATTACHMENT0 + a,
                gl::TEXTURE_2D,
                *tex,
                *l,
            )),
            Call::BindFramebuffer(f) => {
                if ctx.bind_framebuffer(gl::FRAMEBUFFER, *f).is_ok() {
                    self.framebuffers.insert(*f);
                }
            }
            Call::VertexArray(i, s, o) => {
                let _ = ctx.vertex_attrib_pointer(*i, *s, gl::FLOAT, false, 0, *o);
                let _ = ctx.enable_vertex_attrib_array(*i);
            }
            Call::Draw(m, f, n) => drop(ctx.draw_arrays(MODES[*m % MODES.len()], *f, *n)),
            Call::Clear => drop(ctx.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT)),
            Call::ReadPixels(x, y, w, h) => {
                drop(ctx.read_pixels(*x, *y, *w, *h, gl::RGBA, gl::UNSIGNED_BYTE))
            }
        }
    }
}

fn placeholder() -> Context {
    Context::new(1, 1).unwrap_or_else(|e| panic!("{e}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_call_sequences_never_panic(calls in prop::collection::vec(call(), 1..40)) {
        let mut s = State {
            ctx: Context::new(16, 16).unwrap_or_else(|e| panic!("{e}")),
            mapping: None,
            buffers: HashSet::new(),
            textures: HashSet::new(),
            framebuffers: HashSet::new(),
        };
        s.ctx.set_draw_time_limit(Some(std::time::Duration::from_secs(2)));
        for c in &calls {
            s.apply(c);
        }
        // The context still works: back to the window, clear, read.
        drop(s.mapping.take());
        s.ctx.bind_framebuffer(gl::FRAMEBUFFER, 0).unwrap_or_else(|e| panic!("{e}"));
        s.ctx.clear_color([0.0, 1.0, 0.0, 1.0]).unwrap_or_else(|e| panic!("{e}"));
        s.ctx.disable(gl::SCISSOR_TEST).unwrap_or_else(|e| panic!("{e}"));
        s.ctx.clear(gl::COLOR_BUFFER_BIT).unwrap_or_else(|e| panic!("{e}"));
        let px = s.ctx.read_pixels(3, 3, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE).unwrap_or_else(|e| panic!("{e}"));
        prop_assert_eq!(px, vec![0, 255, 0, 255]);
    }
}
