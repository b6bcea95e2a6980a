//! A draw end to end: setup, binning into 64×64 tiles, tiles rasterized on a rayon pool.

use rayon::prelude::*;

use crate::color::ColorFormat;
use crate::error::RasterError;
use crate::fragops;
use crate::framebuffer::{Framebuffer, TILE};
use crate::input::DrawInput;
use crate::samples;
use crate::setup::{self, DrawSetup, Target};
use crate::shader::{FragmentShader, InterpLocation, ShaderInfo};
use crate::state::DrawState;
use crate::tile::{self, Worker};

/// What a draw reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DrawStats {
    /// Samples that passed every test and reached the colour writes (occlusion query).
    pub samples_passed: u64,
    /// Primitives left after setup (culling, zero area, clipping to the framebuffer).
    pub primitives_rasterized: u64,
}

/// Runs draws on its own worker pool.
pub struct Rasterizer {
    pool: rayon::ThreadPool,
}

impl std::fmt::Debug for Rasterizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rasterizer({} threads)", self.pool.current_num_threads())
    }
}

/// Per-draw facts every tile needs.
pub(crate) struct DrawCtx<'a, S> {
    pub shader: &'a S,
    pub info: &'a ShaderInfo,
    pub state: &'a DrawState,
    pub setup: &'a DrawSetup,
    pub samples: u32,
    /// Sample offsets in 1/256 pixel.
    pub sample_fixed: Vec<(i64, i64)>,
    pub sample_pos: Vec<[f32; 2]>,
    pub fb_height: u32,
    /// How each attachment is written.
    pub targets: Vec<Option<tile::RtInfo>>,
    pub depth_format: crate::framebuffer::DepthFormat,
    /// Shade each covered sample separately.
    pub per_sample: bool,
    /// Depth/stencil before the shader.
    pub early: bool,
    /// Depth/stencil work exists.
    pub tests: bool,
    /// Coverage is evaluated per sample (multisampled and GL_MULTISAMPLE on).
    pub msaa: bool,
    pub full_mask: u32,
    /// Coverage ANDed with the sample mask state.
    pub coverage_mask: u32,
}

impl Rasterizer {
    /// A rasterizer with `threads` workers (0 = one per CPU).
    pub fn new(threads: usize) -> Result<Self, RasterError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| RasterError::ThreadPool(e.to_string()))?;
        Ok(Rasterizer { pool })
    }

    /// Worker threads in the pool.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Rasterizes `input` into `fb` with `shader`. Primitives reach each pixel in
    /// submission order; the result does not depend on the thread count.
    pub fn draw<S: FragmentShader>(
        &self,
        fb: &mut Framebuffer,
        state: &DrawState,
        input: &DrawInput,
        shader: &S,
    ) -> Result<DrawStats, RasterError> {
        let info = shader.info();
        let target = Target {
            width: fb.width(),
            height: fb.height(),
            depth_format: fb.depth_format(),
            multisample: fb.samples() > 1 && state.multisample.enabled,
        };
        let setup = setup::setup_draw(input, state, info, target)?;
        if setup.prims.is_empty() {
            return Ok(DrawStats::default());
        }
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
            setup: &setup,
            samples: ns,
            sample_fixed,
            sample_pos,
            fb_height: fb.height(),
            targets: tile::resolve_targets(state, &formats),
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
        };
        let bins = bin(&setup, fb.tiles());
        let mems = fb.tile_mems();
        let jobs: Vec<_> = mems
            .into_iter()
            .zip(bins)
            .filter(|(_, b)| !b.is_empty())
            .collect();
        let results: Vec<Result<u64, RasterError>> = self.pool.install(|| {
            jobs.into_par_iter()
                .map_init(
                    || Worker::new(shader.new_scratch()),
                    |w, (mut mem, list)| tile::run_tile(&ctx, &mut mem, &list, w),
                )
                .collect()
        });
        let mut stats = DrawStats {
            samples_passed: 0,
            primitives_rasterized: setup.prims.len() as u64,
        };
        for r in results {
            stats.samples_passed += r?;
        }
        Ok(stats)
    }
}

/// Primitive indices per tile (row-major tiles), in submission order.
fn bin(setup: &DrawSetup, (tiles_x, tiles_y): (usize, usize)) -> Vec<Vec<u32>> {
    let mut bins = vec![Vec::new(); tiles_x * tiles_y];
    for (i, p) in setup.prims.iter().enumerate() {
        let [x0, y0, x1, y1] = p.bbox;
        if x0 >= x1 || y0 >= y1 {
            continue;
        }
        let tx0 = x0.max(0) as usize / TILE;
        let ty0 = y0.max(0) as usize / TILE;
        let tx1 = ((x1 - 1).max(0) as usize / TILE).min(tiles_x.saturating_sub(1));
        let ty1 = ((y1 - 1).max(0) as usize / TILE).min(tiles_y.saturating_sub(1));
        for ty in ty0..=ty1 {
            for tx in tx0..=tx1 {
                if tile_touches(p, tx, ty) {
                    if let Some(b) = bins.get_mut(ty * tiles_x + tx) {
                        b.push(i as u32);
                    }
                }
            }
        }
    }
    bins
}

/// Conservative test whether a primitive's edges can cover any sample of a tile.
fn tile_touches(p: &crate::setup::PrimSetup, tx: usize, ty: usize) -> bool {
    let s = crate::setup::SUBPIXEL;
    let x_lo = (tx * TILE) as i64 * s;
    let y_lo = (ty * TILE) as i64 * s;
    let (x_hi, y_hi) = (x_lo + TILE as i64 * s - 1, y_lo + TILE as i64 * s - 1);
    p.edges[..p.n_edges].iter().all(|e| {
        let x = if e.a > 0 { x_hi } else { x_lo };
        let y = if e.b > 0 { y_hi } else { y_lo };
        e.at(x, y) >= 0
    })
}

#[cfg(test)]
#[path = "draw_tests.rs"]
mod tests;
