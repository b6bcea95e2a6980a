//! Particles advanced by a vertex program and captured with transform feedback: each
//! step reads positions and velocities from one buffer and writes the next state to the
//! other (rasterization discarded), ping-ponging. The result is checked against the same
//! integration on the CPU.
use glemu::{gl, Context};

const PARTICLES: usize = 256;
const STEPS: usize = 90;
/// Gravity and time step, as the program's env[0].
const G: f32 = -9.8;
const DT: f32 = 1.0 / 60.0;

/// attrib[0] = position (xyz), attrib[1] = velocity (xyz): v += g dt; p += v dt;
/// a particle below y = 0 bounces with half its speed.
const STEP: &str = "!!NVvp5.0
PARAM k = program.env[0];
TEMP p, v;
MOV v, vertex.attrib[1];
MAD v.y, k.x, k.y, v.y;
MAD p, v, k.y, vertex.attrib[0];
SLT p.w, p.y, 0.0;
MUL p.w, p.w, -1.5;
MAD v.y, v.y, p.w, v.y;
MAX p.y, p.y, 0.0;
MOV p.w, 1.0;
MOV result.attrib[0], p;
MOV result.attrib[1], v;
MOV result.position, p;
END
";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut ctx = Context::new(4, 4)?;
    let vp = ctx.create_program()?;
    ctx.bind_program(gl::VERTEX_PROGRAM_ARB, vp)?;
    ctx.program_string(gl::VERTEX_PROGRAM_ARB, STEP)?;
    ctx.enable(gl::VERTEX_PROGRAM_ARB)?;
    ctx.program_env_parameter_4f(gl::VERTEX_PROGRAM_ARB, 0, [G, DT, 0.0, 0.0])?;

    // Interleaved state per particle: position (4 floats), velocity (4 floats).
    let mut cpu: Vec<[[f32; 4]; 2]> = (0..PARTICLES)
        .map(|i| {
            let a = i as f32 * 0.1;
            [
                [a.cos(), 1.0 + (i % 7) as f32 * 0.1, a.sin(), 1.0],
                [a.sin(), 2.0, -a.cos(), 0.0],
            ]
        })
        .collect();
    let buffers = [ctx.create_buffer()?, ctx.create_buffer()?];
    for &b in &buffers {
        ctx.bind_buffer(gl::ARRAY_BUFFER, b)?;
        ctx.buffer_data(gl::ARRAY_BUFFER, &cpu, gl::DYNAMIC_COPY)?;
    }
    ctx.transform_feedback_attribs(0, &["result.attrib[0]", "result.attrib[1]"])?;
    ctx.transform_feedback_buffer_mode(gl::INTERLEAVED_ATTRIBS)?;
    ctx.enable(gl::RASTERIZER_DISCARD)?;
    ctx.enable_vertex_attrib_array(0)?;
    ctx.enable_vertex_attrib_array(1)?;
    for step in 0..STEPS {
        let (src, dst) = (buffers[step % 2], buffers[(step + 1) % 2]);
        ctx.bind_buffer(gl::ARRAY_BUFFER, src)?;
        ctx.vertex_attrib_pointer(0, 4, gl::FLOAT, false, 32, 0)?;
        ctx.vertex_attrib_pointer(1, 4, gl::FLOAT, false, 32, 16)?;
        ctx.bind_buffer_base(gl::TRANSFORM_FEEDBACK_BUFFER, 0, dst)?;
        ctx.begin_transform_feedback(gl::POINTS)?;
        ctx.draw_arrays(gl::POINTS, 0, PARTICLES as i32)?;
        ctx.end_transform_feedback()?;
    }

    // The same steps on the CPU, in the program's operation order.
    let mut bounced = vec![false; PARTICLES];
    for _ in 0..STEPS {
        for ([p, v], hit) in cpu.iter_mut().zip(bounced.iter_mut()) {
            v[1] = G.mul_add(DT, v[1]);
            for c in 0..4 {
                p[c] = v[c].mul_add(DT, p[c]);
            }
            let below = if p[1] < 0.0 { -1.5 } else { 0.0 };
            *hit |= p[1] < 0.0;
            v[1] = v[1].mul_add(below, v[1]);
            p[1] = p[1].max(0.0);
            p[3] = 1.0;
        }
    }
    ctx.bind_buffer(gl::ARRAY_BUFFER, buffers[STEPS % 2])?;
    let bytes = ctx.get_buffer_sub_data(gl::ARRAY_BUFFER, 0, (PARTICLES * 32) as u64)?;
    let gpu: Vec<[[f32; 4]; 2]> = bytemuck::pod_collect_to_vec(&bytes);
    let worst = gpu
        .iter()
        .zip(&cpu)
        .flat_map(|(g, c)| g.iter().flatten().zip(c.iter().flatten()))
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    let bounced = bounced.iter().filter(|&&b| b).count();
    println!("{PARTICLES} particles, {STEPS} steps: largest difference from the CPU {worst:e}");
    println!("particles that bounced off the ground: {bounced}");
    if worst > 1e-4 {
        return Err(format!("GPU and CPU disagree by {worst}").into());
    }
    println!("ok");
    Ok(())
}
