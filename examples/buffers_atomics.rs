//! A fragment program that reads its colour from a parameter buffer (CBUFFER, LDC),
//! counts fragments with an atomic counter (ATOMCTR) and builds a histogram of fragment
//! columns in a storage buffer (ATOMB): the three kinds of buffer a program can bind,
//! each fed by a Context call, read back and checked.
use glemu::{gl, Context};

const W: u32 = 64;
const H: u32 = 16;
/// Histogram buckets: one per 16 columns.
const BUCKETS: usize = (W / 16) as usize;

const VERTEX: &str = "!!NVvp5.0
MOV result.position, vertex.attrib[0];
END
";

const FRAGMENT: &str = "!!NVfp5.0
OPTION NV_shader_atomic_counters;
OPTION NV_shader_storage_buffer;
CBUFFER params[] = { program.buffer[0] };
STORAGE histogram = program.storage[0];
COUNTER fragments = program.counter[0][0];
TEMP colour, x;
INT TEMP offset;
UINT TEMP old;
LDC.F32X4 colour, params[0];
ATOMCTR.INCR old.x, fragments;
MUL x.x, fragment.position.x, 0.0625;
FLR.S offset.x, x.x;
MUL.S offset.x, offset.x, 4;
ATOMB.ADD.U32 old.y, 1, histogram[offset.x];
MOV result.color, colour;
END
";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut ctx = Context::new(W, H)?;
    for (target, text) in [
        (gl::VERTEX_PROGRAM_ARB, VERTEX),
        (gl::FRAGMENT_PROGRAM_ARB, FRAGMENT),
    ] {
        let p = ctx.create_program()?;
        ctx.bind_program(target, p)?;
        ctx.program_string(target, text)?;
        ctx.enable(target)?;
    }
    let tri: [[f32; 2]; 3] = [[-1.0, -1.0], [3.0, -1.0], [-1.0, 3.0]];
    let vb = ctx.create_buffer()?;
    ctx.bind_buffer(gl::ARRAY_BUFFER, vb)?;
    ctx.buffer_data(gl::ARRAY_BUFFER, &tri, gl::STATIC_DRAW)?;
    ctx.vertex_attrib_pointer(0, 2, gl::FLOAT, false, 0, 0)?;
    ctx.enable_vertex_attrib_array(0)?;

    // program.buffer[0]: the colour, as the first vec4 of a parameter buffer.
    let params = ctx.create_buffer()?;
    ctx.bind_buffer(gl::UNIFORM_BUFFER, params)?;
    ctx.buffer_data(
        gl::UNIFORM_BUFFER,
        &[[0.25f32, 0.5, 1.0, 1.0]],
        gl::DYNAMIC_DRAW,
    )?;
    ctx.bind_buffer_base(gl::FRAGMENT_PROGRAM_PARAMETER_BUFFER_NV, 0, params)?;
    // program.storage[0]: the histogram, zeroed.
    let histogram = ctx.create_buffer()?;
    ctx.bind_buffer(gl::SHADER_STORAGE_BUFFER, histogram)?;
    ctx.buffer_data(
        gl::SHADER_STORAGE_BUFFER,
        &[0u32; BUCKETS],
        gl::DYNAMIC_COPY,
    )?;
    ctx.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 0, histogram)?;
    // program.counter[0]: one 32-bit counter.
    let counter = ctx.create_buffer()?;
    ctx.bind_buffer(gl::ATOMIC_COUNTER_BUFFER, counter)?;
    ctx.buffer_data(gl::ATOMIC_COUNTER_BUFFER, &[0u32], gl::DYNAMIC_COPY)?;
    ctx.bind_buffer_base(gl::ATOMIC_COUNTER_BUFFER, 0, counter)?;

    ctx.draw_arrays(gl::TRIANGLES, 0, 3)?;

    let count: Vec<u32> =
        bytemuck::pod_collect_to_vec(&ctx.get_buffer_sub_data(gl::ATOMIC_COUNTER_BUFFER, 0, 4)?);
    let buckets: Vec<u32> = bytemuck::pod_collect_to_vec(&ctx.get_buffer_sub_data(
        gl::SHADER_STORAGE_BUFFER,
        0,
        4 * BUCKETS as u64,
    )?);
    let centre = ctx.read_pixel(W as i32 / 2, H as i32 / 2)?;
    println!("fragments counted: {}", count[0]);
    println!("histogram of columns (16 per bucket): {buckets:?}");
    println!("colour from the parameter buffer: {centre:?}");
    if count[0] != W * H || buckets.iter().any(|&b| b != 16 * H) {
        return Err("the counter or the histogram is wrong".into());
    }
    println!("ok");
    Ok(())
}
