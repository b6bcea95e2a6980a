//! Fused block kernels: one fragment program compiled together with the colour store of
//! a strip of a fully covered 8×8 block (two pixel rows of eight, the sixteen lanes of a
//! batch as four 2×2 quads left to right).
//!
//! After the program, the kernel packs one output as RGBA8 UNORM (the raster's `unorm8`:
//! clamp to [0, 1], times 255, rounded by adding 2^23) and stores each row with a select
//! by the lanes left alive (the caller's coverage words, minus the lanes the program
//! killed). The program's outputs then never go through the lane state, and the raster's
//! separate pack and row-store calls go. A strip the kernel cannot finish (the interpreter
//! reruns it) is handed back with its rows for the caller to store.

use super::lower::{Lower, Reg};
use super::native::StripArgs;
use super::{Kernel, Kernels};
use crate::exec::MAX_LANES;
use crate::ir::Program;
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, ConstantData, Endianness, InstBuilder, MemFlagsData, Value};
use std::mem::{offset_of, size_of};
use std::sync::{Arc, Mutex};

// The epilogue reads four chunks of four coverage words, and stores two 16-byte halves
// of each row: a strip is sixteen lanes (`StripArgs::new`'s `[u32; MAX_LANES]`).
const _: () = assert!(MAX_LANES == 16);

/// What a fused block kernel stores after the program (the state it is specialised on).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockSpec {
    /// The program output slot packed as RGBA8 and stored.
    pub color: usize,
    /// Store alpha as 255 whatever the program wrote (alpha-to-one).
    pub alpha_one: bool,
    /// Samples per pixel of the rows (0 and 1: one; else 2, 4, 8 or 16): a row is
    /// eight pixels of that many words, and a lane's packed colour goes to each sample
    /// whose bit its coverage word has.
    pub samples: u32,
}

impl BlockSpec {
    /// Words per pixel of the rows the kernel stores.
    #[inline]
    pub fn samples(&self) -> usize {
        self.samples.max(1) as usize
    }
}

/// A program compiled with a [`BlockSpec`]'s store: see
/// [`Executor::block_kernel`](crate::exec::Executor::block_kernel).
#[derive(Debug)]
pub struct BlockKernel {
    pub(crate) kernel: Kernel,
    pub(crate) spec: BlockSpec,
}

/// Memory a strip's rows and coverage live in: 4-byte aligned words only.
fn unaligned() -> MemFlagsData {
    MemFlagsData::new()
        .with_notrap()
        .with_endianness(Endianness::Little)
}

fn le() -> MemFlagsData {
    MemFlagsData::new().with_endianness(Endianness::Little)
}

type Builder<'f> = cranelift_frontend::FunctionBuilder<'f>;

/// A vector of the four words `w`.
fn words(b: &mut Builder<'_>, ty: types::Type, w: [u32; 4]) -> Value {
    let bytes: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
    let c = b.func.dfg.constants.insert(ConstantData::from(bytes));
    b.ins().vconst(ty, c)
}

/// What both epilogues start from: the program's colour, and the strip record, a zero
/// vector, the kill mask in every word, the coverage pointer and the two rows' pointers.
struct Opening {
    color: Option<Reg>,
    strip: Value,
    zero: Value,
    kills: Value,
    cov_ptr: Value,
    rows: [Value; 2],
}

/// The epilogues' [`Opening`], emitted at the end of the kernel's body (`None` for a
/// function without an entry block, which the lowering never makes).
fn opening(l: &mut Lower<'_, '_>, spec: &BlockSpec) -> Option<Opening> {
    let color: Option<Reg> = l.output_value(spec.color);
    let kill = l.kill_value();
    let b = l.builder();
    let entry = b.func.layout.entry_block()?;
    let strip = b.func.dfg.block_params(entry)[1];
    let i4 = types::I32X4;
    let zero = words(b, i4, [0; 4]);
    let kills = b.ins().splat(i4, kill);
    let (rows_at, cov_at) = (offset_of!(StripArgs, rows), offset_of!(StripArgs, cov));
    let cov_ptr = b.ins().load(types::I64, unaligned(), strip, cov_at as i32);
    let rows = [0, 1].map(|row| {
        let at = rows_at + row * size_of::<*mut u32>();
        b.ins().load(types::I64, unaligned(), strip, at as i32)
    });
    Some(Opening {
        color,
        strip,
        zero,
        kills,
        cov_ptr,
        rows,
    })
}

/// The store after the program: pack `spec.color`, select by coverage and kill, store.
pub(crate) fn epilogue(l: &mut Lower<'_, '_>, spec: &BlockSpec) {
    if spec.samples() > 1 {
        return epilogue_samples(l, spec);
    }
    let Some(Opening {
        color,
        strip,
        zero,
        kills,
        cov_ptr,
        rows,
    }) = opening(l, spec)
    else {
        return;
    };
    let b = l.builder();
    let i4 = types::I32X4;
    // Which lanes the store writes: covered and not killed.
    let alive: [Value; 4] = std::array::from_fn(|k| {
        let cov = b.ins().load(i4, unaligned(), cov_ptr, 16 * k as i32);
        let covered = b.ins().icmp(IntCC::NotEqual, cov, zero);
        let lane = words(b, i4, lane_bits(k));
        let killed = b.ins().band(kills, lane);
        let kept = b.ins().icmp(IntCC::Equal, killed, zero);
        b.ins().band(covered, kept)
    });
    // Every lane alive (the common case): the rows are stored without reading them
    // first. The read was a cache miss on the framebuffer that the select waited for
    // (two thirds of a one-instruction program's kernel samples sat on those loads).
    split_whole(b, strip, alive, |b, select| {
        // Half h of both rows is chunks 2h and 2h + 1: packed, selected and stored
        // before the next pair starts, so few values stay live.
        for half in 0..2 {
            let ks = [2 * half, 2 * half + 1];
            let packed = ks.map(|k| pack(b, spec, color.as_ref().map(|c| c.map(|comp| comp[k]))));
            let prow = rows_of(b, packed);
            let arow = select.then(|| rows_of(b, ks.map(|k| alive[k])));
            for (row, &ptr) in rows.iter().enumerate() {
                let off = 16 * half as i32;
                let new = match arow {
                    Some(arow) => {
                        let cur = b.ins().load(i4, unaligned(), ptr, off);
                        b.ins().bitselect(arow[row], prow[row], cur)
                    }
                    None => prow[row],
                };
                b.ins().store(unaligned(), new, ptr, off);
            }
        }
    });
}

/// [`epilogue`] into multisampled rows (`spec.samples()` = ns words a pixel): each
/// lane's colour packed once and stored to every sample whose bit its coverage word has,
/// unless the program killed the lane. A row of the strip is 2·ns vectors of four words,
/// each within one quad's chunk, so each is that chunk's packed words (and coverage)
/// permuted.
fn epilogue_samples(l: &mut Lower<'_, '_>, spec: &BlockSpec) {
    let ns = spec.samples();
    let Some(Opening {
        color,
        strip,
        zero,
        kills,
        cov_ptr,
        rows,
    }) = opening(l, spec)
    else {
        return;
    };
    let b = l.builder();
    let i4 = types::I32X4;
    // Each lane's samples to store: its coverage, none where the program killed it.
    let live: [Value; 4] = std::array::from_fn(|k| {
        let cov = b.ins().load(i4, unaligned(), cov_ptr, 16 * k as i32);
        let lane = words(b, i4, lane_bits(k));
        let killed = b.ins().band(kills, lane);
        let killed = b.ins().icmp(IntCC::NotEqual, killed, zero);
        b.ins().band_not(cov, killed)
    });
    // Every sample of every lane (a strip that passed its depth test whole, the common
    // case): the rows are stored without reading them.
    let full = words(b, i4, [(1u32 << ns) - 1; 4]);
    let fulls = live.map(|v| b.ins().icmp(IntCC::Equal, v, full));
    split_whole(b, strip, fulls, |b, select| {
        // Quad q's words (chunk q) are columns 2q and 2q + 1 of both rows: packed, then
        // stored before the next quad's, so few values stay live.
        for q in 0..4 {
            let packed = pack(b, spec, color.as_ref().map(|c| c.map(|comp| comp[q])));
            for (row, &ptr) in rows.iter().enumerate() {
                // The row's words of columns 2q, 2q + 1: 2·ns words from word 2q·ns.
                for v in 0..ns / 2 {
                    let word = |t: usize| 2 * q * ns + 4 * v + t;
                    // Lane of chunk q each word belongs to, and its sample.
                    let lane = |t: usize| 2 * row + (word(t) / ns) % 2;
                    let sample = |t: usize| word(t) % ns;
                    let val = permute(b, packed, std::array::from_fn(lane));
                    let off = 4 * word(0) as i32;
                    let new = match select {
                        true => {
                            let m = permute(b, live[q], std::array::from_fn(lane));
                            let bits = words(b, i4, std::array::from_fn(|t| 1 << sample(t)));
                            let m = b.ins().band(m, bits);
                            let m = b.ins().icmp(IntCC::NotEqual, m, zero);
                            let cur = b.ins().load(i4, unaligned(), ptr, off);
                            b.ins().bitselect(m, val, cur)
                        }
                        false => val,
                    };
                    b.ins().store(unaligned(), new, ptr, off);
                }
            }
        }
    });
}

/// The epilogues' branch: when every lane of the four `conds` holds, `store(b, false)`
/// in a block that also sets `StripArgs::whole` (the caller counts strips stored whole),
/// else `store(b, true)`, which selects what it stores; the builder is left in the block
/// after both.
fn split_whole(
    b: &mut Builder<'_>,
    strip: Value,
    conds: [Value; 4],
    mut store: impl FnMut(&mut Builder<'_>, bool),
) {
    let both = [
        b.ins().band(conds[0], conds[1]),
        b.ins().band(conds[2], conds[3]),
    ];
    let all = b.ins().band(both[0], both[1]);
    let all = b.ins().vall_true(all);
    let (whole, part, join) = (b.create_block(), b.create_block(), b.create_block());
    b.ins().brif(all, whole, &[], part, &[]);
    b.seal_block(whole);
    b.seal_block(part);
    for (blk, select) in [(whole, false), (part, true)] {
        b.switch_to_block(blk);
        if !select {
            let one = b.ins().iconst(types::I32, 1);
            let at = offset_of!(StripArgs, whole) as i32;
            b.ins().store(unaligned(), one, strip, at);
        }
        store(b, select);
        b.ins().jump(join, &[]);
    }
    b.seal_block(join);
    b.switch_to_block(join);
}

/// The words of `x` (four) in the order `lanes`: word t of the result is word lanes[t].
fn permute(b: &mut Builder<'_>, x: Value, lanes: [usize; 4]) -> Value {
    let mask: Vec<u8> = lanes
        .iter()
        .flat_map(|&l| (0..4).map(move |i| (4 * l + i) as u8))
        .collect();
    let m = b.func.dfg.immediates.push(ConstantData::from(mask));
    let x = b.ins().bitcast(types::I8X16, le(), x);
    let s = b.ins().shuffle(x, x, m);
    b.ins().bitcast(types::I32X4, le(), s)
}

/// One chunk's colour (f32 bits per channel; None reads as zeros) as RGBA8 UNORM words:
/// the raster's `unorm8` of each channel, `v.max(0.0).min(1.0) * 255 + 2^23`, low byte.
fn pack(b: &mut Builder<'_>, spec: &BlockSpec, c: Option<[Value; 4]>) -> Value {
    let (i4, f4) = (types::I32X4, types::F32X4);
    let mut p = match spec.alpha_one {
        true => words(b, i4, [0xff00_0000; 4]),
        false => words(b, i4, [0; 4]),
    };
    // A colour the program never writes reads as zeros: its bytes are unorm8(0) = 0.
    let Some(c) = c else { return p };
    let zero = words(b, f4, [0; 4]);
    let one = words(b, f4, [1.0f32.to_bits(); 4]);
    let scale = words(b, f4, [255.0f32.to_bits(); 4]);
    let magic = words(b, f4, [8_388_608.0f32.to_bits(); 4]);
    let byte = words(b, i4, [0xff; 4]);
    for (ch, bits) in c.into_iter().enumerate() {
        if spec.alpha_one && ch == 3 {
            continue;
        }
        let v = b.ins().bitcast(f4, le(), bits);
        // `0 < v ? v : 0` and `v < 1 ? v : 1`: the shapes the x64 back end emits as
        // MAXPS / MINPS, whose choice of the second operand when one is NaN gives Rust's
        // `max(0.0)` (NaN gives 0); after it `v` is never NaN.
        let gt = b.ins().fcmp(FloatCC::LessThan, zero, v);
        let gt = b.ins().bitcast(f4, le(), gt);
        let v = b.ins().bitselect(gt, v, zero);
        let lt = b.ins().fcmp(FloatCC::LessThan, v, one);
        let lt = b.ins().bitcast(f4, le(), lt);
        let v = b.ins().bitselect(lt, v, one);
        let v = b.ins().fmul(v, scale);
        let v = b.ins().fadd(v, magic);
        let v = b.ins().bitcast(i4, le(), v);
        let v = b.ins().band(v, byte);
        let v = match ch {
            0 => v,
            _ => b.ins().ishl_imm_u(v, 8 * ch as i64),
        };
        p = b.ins().bor(p, v);
    }
    p
}

/// Lane bits of chunk `k` (lanes 4k..4k+3).
fn lane_bits(k: usize) -> [u32; 4] {
    std::array::from_fn(|i| 1u32 << (4 * k + i))
}

/// Half of each row of a strip from two adjacent chunks: row 0 is lanes 0, 1 of each
/// chunk, row 1 lanes 2, 3 (64-bit interleaves).
fn rows_of(b: &mut Builder<'_>, c: [Value; 2]) -> [Value; 2] {
    let lo: [u8; 16] = std::array::from_fn(|i| if i < 8 { i as u8 } else { 8 + i as u8 });
    let hi: [u8; 16] = lo.map(|i| i + 8);
    let x = b.ins().bitcast(types::I8X16, le(), c[0]);
    let y = b.ins().bitcast(types::I8X16, le(), c[1]);
    [lo, hi].map(|mask| {
        let m = b
            .func
            .dfg
            .immediates
            .push(ConstantData::from(mask.to_vec()));
        let s = b.ins().shuffle(x, y, m);
        b.ins().bitcast(types::I32X4, le(), s)
    })
}

/// Fused kernels of one executor, by spec: compiled on first use.
#[derive(Debug, Default)]
pub(crate) struct BlockKernels {
    compiled: Mutex<Vec<(BlockSpec, Option<Arc<BlockKernel>>)>>,
}

impl Kernels {
    /// The fused kernel of `prog` for `spec`, compiled on first use; None when the
    /// program does not compile.
    pub(crate) fn block(&self, prog: &Program, spec: &BlockSpec) -> Option<Arc<BlockKernel>> {
        let mut list = match self.blocks.compiled.lock() {
            Ok(l) => l,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some((_, k)) = list.iter().find(|(s, _)| s == spec) {
            return k.clone();
        }
        let k = super::compile_block(prog, spec).ok().map(|kernel| {
            Arc::new(BlockKernel {
                kernel,
                spec: *spec,
            })
        });
        list.push((*spec, k.clone()));
        k
    }
}
