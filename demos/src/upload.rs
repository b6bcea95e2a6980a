//! Small helpers for getting data and programs into a context.

use crate::Result;
use glemu::{gl, Context, Error};

/// The one name a `gen_*(1)` call returned.
fn one(ids: Vec<u32>, what: &str) -> Result<u32> {
    ids.first()
        .copied()
        .ok_or_else(|| Error::out_of_memory(format!("no {what} name was generated")).into())
}

/// Little-endian bytes of `f32`s, as `buffer_data` takes them.
pub fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_le_bytes()).collect()
}

/// Creates an array buffer holding `data` and leaves it bound to `ARRAY_BUFFER`.
pub fn array_buffer(ctx: &mut Context, data: &[f32]) -> Result<u32> {
    let id = one(ctx.gen_buffers(1), "buffer")?;
    ctx.bind_buffer(gl::ARRAY_BUFFER, id)?;
    ctx.buffer_data(gl::ARRAY_BUFFER, &f32_bytes(data), gl::STATIC_DRAW)?;
    Ok(id)
}

/// Makes a program object for `target`, loads `text` and enables the target.
pub fn program(ctx: &mut Context, target: u32, text: &str) -> Result<u32> {
    let id = one(ctx.gen_programs(1), "program")?;
    ctx.bind_program(target, id)?;
    ctx.program_string(target, text)?;
    ctx.enable(target)?;
    Ok(id)
}

/// Makes a 2D texture on the active unit from RGBA8 rows (bottom row first), with
/// mipmaps, trilinear filtering and `REPEAT` wrapping.
pub fn texture_rgba8(ctx: &mut Context, width: u32, height: u32, rgba: &[u8]) -> Result<u32> {
    let id = one(ctx.gen_textures(1), "texture")?;
    ctx.bind_texture(gl::TEXTURE_2D, id)?;
    ctx.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::RGBA8,
        width,
        height,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        Some(rgba),
    )?;
    ctx.generate_mipmap(gl::TEXTURE_2D)?;
    ctx.tex_parameter_i(
        gl::TEXTURE_2D,
        gl::TEXTURE_MIN_FILTER,
        gl::LINEAR_MIPMAP_LINEAR as i32,
    )?;
    ctx.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MAG_FILTER, gl::LINEAR as i32)?;
    ctx.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_WRAP_S, gl::REPEAT as i32)?;
    ctx.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_WRAP_T, gl::REPEAT as i32)?;
    Ok(id)
}

/// Sets env parameters `first..` of `target` from consecutive vectors.
pub fn env_params(ctx: &mut Context, target: u32, first: u32, v: &[[f32; 4]]) -> Result<()> {
    for (i, p) in (first..).zip(v) {
        ctx.program_env_parameter_4f(target, i, *p)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_little_endian() {
        assert_eq!(f32_bytes(&[1.0]), vec![0, 0, 0x80, 0x3F]);
    }

    #[test]
    fn a_bad_program_is_an_error() {
        let mut ctx = Context::new(4, 4).unwrap();
        let e = program(
            &mut ctx,
            gl::FRAGMENT_PROGRAM_ARB,
            "!!NVfp5.0\nBOGUS;\nEND\n",
        );
        assert!(e.is_err());
        program(&mut ctx, gl::FRAGMENT_PROGRAM_ARB, "!!NVfp5.0\nEND\n").unwrap();
    }
}
