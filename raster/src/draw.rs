//! A draw end to end: setup, binning into 64×64 tiles, tiles rasterized on a rayon pool.

use rayon::prelude::*;

use crate::bin::Bins;
use crate::color::ColorFormat;
use crate::deadline::Deadline;
use crate::draw_ctx::{resolve_targets, DrawCtx};
use crate::error::RasterError;
use crate::fragops;
use crate::framebuffer::Framebuffer;
use crate::framebuffer::TileMem;
use crate::input::DrawInput;
use crate::samples;
use crate::setup::{snap_shared, DrawSetup, SetupCtx, Target};
use crate::shader::{FragmentShader, InterpLocation};
use crate::state::FixedFunctionState;
use crate::tile::{self, Worker};
use std::sync::Mutex;

/// What a draw reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DrawStats {
    /// Samples that passed every test and reached the colour writes (occlusion query).
    pub samples_passed: u64,
    /// Primitives left after setup (culling, zero area, clipping to the framebuffer).
    pub primitives_rasterized: u64,
}

/// Primitives per chunk: the unit of parallel setup and binning. Big enough that a
/// chunk's fixed costs (a pool task, its bin table) vanish, small enough that a wave of
/// them keeps every core busy and its records stay in cache: two waves of 2048-primitive
/// chunks (~200 bytes of record and planes each) were ~7 MB at 2 threads, well past L2,
/// and 512 measured ~3 % less CPU on one-pixel triangles.
pub const CHUNK_PRIMS: usize = 512;

/// Where a draw's primitives come from, a chunk at a time. Chunks are set up on every
/// worker at once, each into its own buffers; tiles then take them in chunk order, so
/// the image is the same whatever the number of threads.
pub trait PrimitiveSource: Sync {
    /// Vertices any chunk's primitives may index (indices below `vertices.len()`).
    fn shared(&self) -> &DrawInput;
    /// Number of chunks.
    fn chunks(&self) -> usize;
    /// Fills `out` (empty, with the shared input's `varyings_per_vertex`) with chunk
    /// `index`'s primitives in submission order, plus any vertices of its own, which its
    /// primitives index from `shared().vertices.len()` on.
    fn chunk(&self, index: usize, out: &mut DrawInput) -> Result<(), RasterError>;
}

/// A whole [`DrawInput`] cut into chunks of [`CHUNK_PRIMS`] primitives.
struct WholeInput<'a>(&'a DrawInput);

impl PrimitiveSource for WholeInput<'_> {
    fn shared(&self) -> &DrawInput {
        self.0
    }
    fn chunks(&self) -> usize {
        self.0.primitives.len().div_ceil(CHUNK_PRIMS)
    }
    fn chunk(&self, index: usize, out: &mut DrawInput) -> Result<(), RasterError> {
        let p = &self.0.primitives;
        let lo = (index * CHUNK_PRIMS).min(p.len());
        let hi = (lo + CHUNK_PRIMS).min(p.len());
        out.primitives.extend_from_slice(&p[lo..hi]);
        Ok(())
    }
}

/// One chunk's buffers: its input, its set-up primitives and its bins. Kept by the
/// rasterizer and reused by every later draw.
#[derive(Debug, Default)]
struct ChunkSlot {
    input: DrawInput,
    setup: DrawSetup,
    bins: Bins,
    /// Setup's outcome; the first failing chunk's error is the draw's.
    failed: Option<RasterError>,
}

/// One pool thread's [`Worker`], on cache lines of its own: side by side in one `Vec`,
/// one worker's last fields (written every strip) could share a line with the next
/// worker's first ones, depending on where the `Vec` landed (at 2 threads
/// fill_1080p_mov's CPU per frame spread over 128-175 ms, 126-130 with this).
#[repr(align(128))]
struct WorkerSlot<T>(Mutex<Option<Worker<T>>>);

/// Runs draws on its own worker pool.
pub struct Rasterizer {
    pool: rayon::ThreadPool,
    /// Chunk buffers between draws (taken by a draw, put back after it).
    slots: Mutex<Vec<ChunkSlot>>,
    /// The shared vertices' snapped positions (setup::snap_shared), kept like `slots`.
    snapped: Mutex<Vec<[i32; 2]>>,
    /// Fully covered blocks may take the block path (off: every quad the per-quad way).
    blocks: bool,
}

impl std::fmt::Debug for Rasterizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rasterizer({} threads)", self.pool.current_num_threads())
    }
}

impl Rasterizer {
    /// A rasterizer with `threads` workers (0 = one per CPU).
    pub fn new(threads: usize) -> Result<Self, RasterError> {
        let builder = rayon::ThreadPoolBuilder::new().num_threads(threads);
        // Unit tests force an instruction set per thread: the pool runs with its creator's.
        #[cfg(test)]
        let builder = {
            let isa = crate::simd::forced();
            builder.start_handler(move |_| crate::simd::set_forced(isa))
        };
        let pool = builder
            .build()
            .map_err(|e| RasterError::ThreadPool(e.to_string()))?;
        Ok(Rasterizer {
            pool,
            slots: Mutex::new(Vec::new()),
            snapped: Mutex::new(Vec::new()),
            blocks: std::env::var_os("GLEMU_NO_BLOCKS").is_none(),
        })
    }

    /// Lets fully covered 8×8 blocks take the block path (the default; the environment
    /// variable `GLEMU_NO_BLOCKS` turns it off) or sends every quad through the per-quad
    /// path, the reference the block path must equal bit for bit.
    pub fn set_block_path(&mut self, on: bool) {
        self.blocks = on;
    }

    /// Worker threads in the pool.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Runs `f` on the rasterizer's pool, so rayon parallel iterators inside it (the
    /// pipeline's vertex work, readback rows) spread over the same workers as the tiles.
    pub fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        self.pool.install(f)
    }

    /// Rasterizes `input` into `fb` with `shader`. Primitives reach each pixel in
    /// submission order; the result does not depend on the thread count.
    pub fn draw<S: FragmentShader>(
        &self,
        fb: &mut Framebuffer,
        state: &FixedFunctionState,
        input: &DrawInput,
        shader: &S,
    ) -> Result<DrawStats, RasterError> {
        self.draw_source(fb, state, &WholeInput(input), shader)
    }

    /// Rasterizes the primitives of `source`, chunk by chunk: a wave of chunks is set up
    /// and binned on every worker while the tiles of the previous wave are rasterized.
    /// Primitives reach each pixel in submission order; the result does not depend on
    /// the thread count.
    pub fn draw_source<S: FragmentShader>(
        &self,
        fb: &mut Framebuffer,
        state: &FixedFunctionState,
        source: &dyn PrimitiveSource,
        shader: &S,
    ) -> Result<DrawStats, RasterError> {
        if source.chunks() == 0 {
            return Ok(DrawStats::default());
        }
        let mut snapped =
            std::mem::take(&mut *self.snapped.lock().unwrap_or_else(|e| e.into_inner()));
        self.pool
            .install(|| snap_shared(&source.shared().vertices, &mut snapped));
        let result = self.draw_snapped(fb, state, source, shader, &snapped);
        *self.snapped.lock().unwrap_or_else(|e| e.into_inner()) = snapped;
        result
    }

    /// [`Rasterizer::draw_source`] once the shared vertices are snapped.
    fn draw_snapped<S: FragmentShader>(
        &self,
        fb: &mut Framebuffer,
        state: &FixedFunctionState,
        source: &dyn PrimitiveSource,
        shader: &S,
        snapped: &[[i32; 2]],
    ) -> Result<DrawStats, RasterError> {
        let info = shader.info();
        let target = Target {
            width: fb.width(),
            height: fb.height(),
            depth_format: fb.depth_format(),
            multisample: fb.samples() > 1 && state.multisample.enabled,
        };
        let n_chunks = source.chunks();
        let setup_ctx = SetupCtx::new(source.shared(), snapped, state, info, target)?;
        let ns = fb.samples();
        let sample_fixed = samples::sample_positions_fixed(ns)
            .ok_or_else(|| RasterError::NotSupported(format!("{ns} samples")))?;
        let sample_pos: Vec<[f32; 2]> = (0..ns)
            .filter_map(|s| samples::sample_position(ns, s))
            .collect();
        let full_mask = if ns >= 32 { u32::MAX } else { (1u32 << ns) - 1 };
        let ms = &state.multisample;
        let msaa = ns > 1 && ms.enabled;
        let sample_shading = ms.sample_shading.is_some_and(|f| f * ns as f32 > 1.0);
        let per_sample = msaa
            && (info.per_sample
                || sample_shading
                || info
                    .varyings
                    .iter()
                    .any(|v| v.location == InterpLocation::Sample));
        let formats: Vec<ColorFormat> = (0..fb.color_targets())
            .filter_map(|i| fb.color_format(i))
            .collect();
        let ds = &state.depth_stencil;
        let tests = fragops::tests_active(ds);
        // Moving the tests before the shader is invisible unless the shader can change
        // depth or coverage, or has side effects that must see failing fragments.
        let changes_tests = info.writes_depth
            || info.may_kill
            || info.side_effects
            || info.writes_sample_mask
            || (msaa && ms.alpha_to_coverage);
        let early = tests && (ds.force_early_tests || info.early_fragment_tests || !changes_tests);
        let ctx = DrawCtx {
            shader,
            info,
            state,
            samples: ns,
            sample_fixed,
            sample_pos,
            fb_height: fb.height(),
            targets: resolve_targets(state, &formats),
            depth_format: fb.depth_format(),
            per_sample,
            early,
            tests,
            msaa,
            full_mask,
            coverage_mask: if msaa {
                ms.sample_mask & full_mask
            } else {
                full_mask
            },
            // Per-sample shading pushes each sample as a fragment of its own.
            blocks: self.blocks && !per_sample,
            strips: false,
            block_target: None,
            // A traced draw keeps whole quads: `glemu trace` follows one lane per batch.
            pack: info.lanes_independent
                && !info.side_effects
                && !per_sample
                && !shader.wants_early_rejects(),
        };
        let strips = ctx.blocks && tile::strips_allowed(&ctx);
        let ctx = DrawCtx {
            strips,
            block_target: if strips {
                tile::block_target(&ctx)
            } else {
                None
            },
            ..ctx
        };
        let grid = fb.tiles();
        let mut mems = fb.tile_mems();
        let threads = self.pool.current_num_threads();
        // Enough chunks per wave that every worker has several to take.
        let wave = n_chunks.min(4 * threads.max(1)).max(1);
        let mut slots = std::mem::take(&mut *self.slots.lock().unwrap_or_else(|e| e.into_inner()));
        let want = if n_chunks > wave { 2 * wave } else { wave };
        if slots.len() < want {
            slots.resize_with(want, ChunkSlot::default);
        }
        let workers: Vec<WorkerSlot<S::Scratch>> = (0..threads.max(1))
            .map(|_| WorkerSlot(Mutex::new(None)))
            .collect();
        let nv = source.shared().varyings_per_vertex;
        let prepare = |slots: &mut [ChunkSlot], first: usize| {
            slots.par_iter_mut().enumerate().for_each(|(j, s)| {
                s.input.vertices.clear();
                s.input.varyings.clear();
                s.input.primitives.clear();
                s.input.varyings_per_vertex = nv;
                s.failed = source
                    .chunk(first + j, &mut s.input)
                    .and_then(|()| setup_ctx.run(&s.input, &s.input.primitives, &mut s.setup))
                    .err();
                if s.failed.is_some() {
                    s.setup.prims.clear();
                }
                s.bins.build(&s.setup, grid);
            });
            match slots.iter_mut().find_map(|s| s.failed.take()) {
                Some(e) => Err(e),
                None => Ok(()),
            }
        };
        let raster_wave = |slots: &[ChunkSlot], mems: &mut [TileMem<'_>]| {
            let (lo, hi) = slots
                .iter()
                .filter(|s| !s.bins.is_empty())
                .map(|s| s.bins.range())
                .fold((usize::MAX, 0), |(a, b), (l, h)| (a.min(l), b.max(h)));
            let results: Vec<Result<u64, RasterError>> = mems
                .get_mut(lo.min(hi)..hi)
                .unwrap_or(&mut [])
                .par_iter_mut()
                .enumerate()
                .filter_map(|(k, mem)| {
                    let t = lo + k;
                    if slots.iter().all(|s| s.bins.tile(t).is_empty()) {
                        return None;
                    }
                    if let Err(e) = Deadline::check(state.deadline) {
                        return Some(Err(e));
                    }
                    // Each pool thread keeps one worker for the whole draw. A shader that
                    // ran rayon work of its own could re-enter here on the same thread;
                    // that call gets a worker of its own instead of deadlocking.
                    let me = rayon::current_thread_index().unwrap_or(0);
                    let mut guard = workers.get(me).and_then(|c| c.0.try_lock().ok());
                    let mut own = None;
                    let w = match guard.as_mut() {
                        Some(g) => g.get_or_insert_with(|| Worker::new(shader.new_scratch())),
                        None => own.insert(Worker::new(shader.new_scratch())),
                    };
                    let mut passed = 0;
                    for s in slots {
                        let list = s.bins.tile(t);
                        if !list.is_empty() {
                            match tile::run_tile(&ctx, &s.setup, mem, list, w) {
                                Ok(p) => passed += p,
                                Err(e) => return Some(Err(e)),
                            }
                        }
                    }
                    Some(Ok(passed))
                })
                .collect();
            let mut passed = 0;
            for r in results {
                passed += r?;
            }
            Ok::<u64, RasterError>(passed)
        };
        let mut stats = DrawStats::default();
        let result = self.pool.install(|| {
            let (mut cur, mut next) = slots.split_at_mut(wave);
            let count = |first: usize| (n_chunks - first).min(wave);
            prepare(&mut cur[..count(0)], 0)?;
            let mut first = 0;
            while first < n_chunks {
                Deadline::check(state.deadline)?;
                let n = count(first);
                let after = first + n;
                let done = &cur[..n];
                stats.primitives_rasterized +=
                    done.iter().map(|s| s.setup.prims.len() as u64).sum::<u64>();
                let (passed, ahead) = rayon::join(
                    || raster_wave(done, &mut mems),
                    || {
                        if after < n_chunks {
                            prepare(&mut next[..count(after)], after)
                        } else {
                            Ok(())
                        }
                    },
                );
                stats.samples_passed += passed?;
                ahead?;
                std::mem::swap(&mut cur, &mut next);
                first = after;
            }
            Ok(())
        });
        drop(mems);
        *self.slots.lock().unwrap_or_else(|e| e.into_inner()) = slots;
        result.map(|()| stats)
    }
}

#[cfg(test)]
#[path = "draw_tests.rs"]
mod tests;
