#![warn(missing_docs)]
//! glemu-textures: texture formats, images with mip chains, samplers and the texture
//! instructions of the NVIDIA assembly languages, executed for batches of lanes.
//!
//! The pieces, in the order data flows through them:
//!
//! * [`format`](mod@format): internal formats ([`Format`]) and the exact decode/encode of one texel
//!   to a *canonical texel* `[u32; 4]` (f32 bits or raw integers).
//! * [`upload`]: GL pixel transfer (format/type pairs such as RGBA/UNSIGNED_BYTE) into a
//!   texture; [`download`]: the reverse, packing read values (glReadPixels).
//! * [`texture`]: [`Texture`] (target, format, levels), sub-image updates, mipmap
//!   generation, layer/level views.
//! * [`sampler`]: [`SamplerState`] — wrap, filters, LOD, compare, swizzle, border, sRGB.
//! * [`request`] + [`sample`]: one texture instruction ([`TexOp`]) over up to 64 lanes in
//!   structure-of-arrays form ([`Lanes`]), results as raw bits: [`execute`];
//!   [`aniso`] is its anisotropic (elliptical weighted average) filter.
//! * [`bound`]: [`Bound`], a texture with its sampler prepared once per draw, whose
//!   lookups pick their specialised path (SIMD kernels per filter/wrap/format) up front.
//! * [`image`]: image load/store/atomics (LOADIM/STOREIM/ATOMIM).
//! * [`patterns`]: piglit's test textures, byte-exact; [`load`]: PNG/JPEG files.

pub mod aniso;
#[cfg(target_arch = "x86_64")]
mod avx2;
pub mod bc;
pub mod bound;
mod call;
pub mod cube;
pub mod download;
pub mod error;
mod fast;
mod filter_math;
pub mod format;
pub mod image;
pub mod load;
pub mod lod;
#[cfg(target_arch = "x86_64")]
mod lod_avx2;
pub mod nv;
pub mod pack;
pub mod patterns;
pub mod request;
pub mod sample;
pub mod sampler;
pub mod simd;
pub mod texture;
pub mod upload;
pub mod wrap;

pub use bound::Bound;
pub use error::TexError;
pub use format::{Base, Channel, Format, SampleType};
pub use request::{Lanes, LodMode, OpKind, TexOp};
pub use sample::{execute, execute_reference, MAX_LANES};
pub use sampler::{CompareFunc, DepthMode, Filter, MinFilter, SamplerState, Swizzle, Wrap};
pub use texture::{Level, Target, Texture};
