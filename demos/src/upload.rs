//! Small helpers for getting data and programs into a context.

use crate::Result;
use glemu::{gl, Context};

/// Creates an array buffer holding `data` and leaves it bound to `ARRAY_BUFFER`.
pub fn array_buffer(ctx: &mut Context, data: &[f32]) -> Result<u32> {
    let id = ctx.create_buffer()?;
    ctx.bind_buffer(gl::ARRAY_BUFFER, id)?;
    ctx.buffer_data(gl::ARRAY_BUFFER, data, gl::STATIC_DRAW)?;
    Ok(id)
}

/// Makes a program object for `target`, loads `text` and enables the target.
pub fn program(ctx: &mut Context, target: u32, text: &str) -> Result<u32> {
    let id = ctx.create_program()?;
    ctx.bind_program(target, id)?;
    ctx.program_string(target, text)?;
    ctx.enable(target)?;
    Ok(id)
}

/// Makes a 2D texture on the active unit from RGBA8 rows (bottom row first), with
/// mipmaps, trilinear filtering and `REPEAT` wrapping.
pub fn texture_rgba8(ctx: &mut Context, width: u32, height: u32, rgba: &[u8]) -> Result<u32> {
    let id = ctx.create_texture(gl::TEXTURE_2D)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_buffers_hold_the_floats() {
        let mut ctx = Context::new(4, 4).unwrap();
        array_buffer(&mut ctx, &[1.0, -2.0]).unwrap();
        let bytes = ctx.get_buffer_sub_data(gl::ARRAY_BUFFER, 0, 8).unwrap();
        assert_eq!(bytemuck::pod_collect_to_vec::<u8, f32>(&bytes), [1.0, -2.0]);
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
