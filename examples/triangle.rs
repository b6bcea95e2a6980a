//! A triangle through NV_gpu_program5 vertex and fragment programs, written to
//! `triangle.png`.
use glemu::{gl, Context};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut ctx = Context::new(256, 256)?;
    ctx.bind_program(gl::VERTEX_PROGRAM_ARB, 1)?;
    ctx.program_string(gl::VERTEX_PROGRAM_ARB, "!!NVvp5.0\nMOV result.position, vertex.attrib[0];\nMOV result.attrib[0], vertex.attrib[1];\nEND\n")?;
    ctx.enable(gl::VERTEX_PROGRAM_ARB)?;
    ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, 2)?;
    ctx.program_string(
        gl::FRAGMENT_PROGRAM_ARB,
        "!!NVfp5.0\nMOV result.color, fragment.attrib[0];\nEND\n",
    )?;
    ctx.enable(gl::FRAGMENT_PROGRAM_ARB)?;
    #[rustfmt::skip]
    let verts: [f32; 24] = [
        -0.8, -0.8, 0.0, 1.0,  1.0, 0.0, 0.0, 1.0,
         0.8, -0.8, 0.0, 1.0,  0.0, 1.0, 0.0, 1.0,
         0.0,  0.8, 0.0, 1.0,  0.0, 0.0, 1.0, 1.0,
    ];
    ctx.bind_buffer(gl::ARRAY_BUFFER, 1)?;
    ctx.buffer_data(gl::ARRAY_BUFFER, &verts, gl::STATIC_DRAW)?;
    ctx.vertex_attrib_pointer(0, 4, gl::FLOAT, false, 32, 0)?;
    ctx.vertex_attrib_pointer(1, 4, gl::FLOAT, false, 32, 16)?;
    ctx.enable_vertex_attrib_array(0)?;
    ctx.enable_vertex_attrib_array(1)?;
    ctx.clear_color([0.1, 0.1, 0.1, 1.0])?;
    ctx.clear(gl::COLOR_BUFFER_BIT)?;
    ctx.draw_arrays(gl::TRIANGLES, 0, 3)?;
    ctx.save_png("triangle.png")?;
    println!("wrote triangle.png");
    Ok(())
}
