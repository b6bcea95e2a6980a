//! Render to a 4x multisampled framebuffer object, resolve it into a texture with
//! `blit_framebuffer`, then draw that texture to the default framebuffer: the triangle's
//! edges come out with partial coverage. Writes `fbo_msaa.png`.
use glemu::{gl, Context};

const SIZE: u32 = 64;

fn program(ctx: &mut Context, target: u32, text: &str) -> glemu::Result<u32> {
    let p = ctx.create_program()?;
    ctx.bind_program(target, p)?;
    ctx.program_string(target, text)?;
    ctx.enable(target)?;
    Ok(p)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut ctx = Context::new(SIZE, SIZE)?;
    program(
        &mut ctx,
        gl::VERTEX_PROGRAM_ARB,
        "!!NVvp5.0\nMOV result.position, vertex.attrib[0];\nMOV result.texcoord[0], vertex.attrib[1];\nEND\n",
    )?;
    let white = program(
        &mut ctx,
        gl::FRAGMENT_PROGRAM_ARB,
        "!!NVfp5.0\nMOV result.color, {1, 1, 1, 1};\nEND\n",
    )?;
    let textured = program(
        &mut ctx,
        gl::FRAGMENT_PROGRAM_ARB,
        "!!NVfp5.0\nTEX result.color, fragment.texcoord[0], texture[0], 2D;\nEND\n",
    )?;

    // Attribute 0: a triangle (vertices 0..3), then a full-screen strip (3..7);
    // attribute 1: the strip's texture coordinates.
    #[rustfmt::skip]
    let xy: [[f32; 2]; 7] = [
        [-0.9, -0.7], [0.8, -0.9], [-0.2, 0.9],
        [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0], [1.0, 1.0],
    ];
    let uv: [[f32; 2]; 7] = [
        [0.0; 2],
        [0.0; 2],
        [0.0; 2],
        [0.0, 0.0],
        [1.0, 0.0],
        [0.0, 1.0],
        [1.0, 1.0],
    ];
    for (attrib, data) in [(0, &xy), (1, &uv)] {
        let b = ctx.create_buffer()?;
        ctx.bind_buffer(gl::ARRAY_BUFFER, b)?;
        ctx.buffer_data(gl::ARRAY_BUFFER, data, gl::STATIC_DRAW)?;
        ctx.vertex_attrib_pointer(attrib, 2, gl::FLOAT, false, 0, 0)?;
        ctx.enable_vertex_attrib_array(attrib)?;
    }

    // The multisampled framebuffer object: one 4-sample RGBA8 renderbuffer.
    let rb = ctx.create_renderbuffer()?;
    ctx.bind_renderbuffer(gl::RENDERBUFFER, rb)?;
    ctx.renderbuffer_storage_multisample(gl::RENDERBUFFER, 4, gl::RGBA8, SIZE, SIZE)?;
    let msaa = ctx.create_framebuffer()?;
    ctx.bind_framebuffer(gl::FRAMEBUFFER, msaa)?;
    ctx.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, rb)?;
    assert_eq!(
        ctx.check_framebuffer_status(gl::FRAMEBUFFER)?,
        gl::FRAMEBUFFER_COMPLETE
    );
    ctx.clear_color([0.0, 0.0, 0.0, 1.0])?;
    ctx.clear(gl::COLOR_BUFFER_BIT)?;
    ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, white)?;
    ctx.draw_arrays(gl::TRIANGLES, 0, 3)?;

    // Resolve: blit the samples, averaged, into a single-sampled texture.
    let tex = ctx.create_texture(gl::TEXTURE_2D)?;
    ctx.bind_texture(gl::TEXTURE_2D, tex)?;
    ctx.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, SIZE as i32, SIZE as i32)?;
    let resolved = ctx.create_framebuffer()?;
    ctx.bind_framebuffer(gl::DRAW_FRAMEBUFFER, resolved)?;
    ctx.framebuffer_texture_2d(
        gl::DRAW_FRAMEBUFFER,
        gl::COLOR_ATTACHMENT0,
        gl::TEXTURE_2D,
        tex,
        0,
    )?;
    ctx.bind_framebuffer(gl::READ_FRAMEBUFFER, msaa)?;
    let all = [0, 0, SIZE as i32, SIZE as i32];
    ctx.blit_framebuffer(all, all, gl::COLOR_BUFFER_BIT, gl::NEAREST)?;

    // Draw the resolved texture to the default framebuffer.
    ctx.bind_framebuffer(gl::FRAMEBUFFER, 0)?;
    ctx.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32)?;
    ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, textured)?;
    ctx.draw_arrays(gl::TRIANGLE_STRIP, 3, 4)?;

    let img = ctx.read_image()?;
    let partial = img.pixels().filter(|p| p.0[0] > 0 && p.0[0] < 255).count();
    let inside = img.pixels().filter(|p| p.0[0] == 255).count();
    println!("pixels fully inside: {inside}, on edges with partial coverage: {partial}");
    ctx.save_png("fbo_msaa.png")?;
    println!("wrote fbo_msaa.png");
    Ok(())
}
