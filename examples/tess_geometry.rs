//! One triangle patch through NV_tessellation_program5 (control program: levels; evaluation
//! program: positions on the triangle domain) and an NV_geometry_program5 program that
//! shrinks every generated triangle toward its centre, so the tessellation shows as
//! separate triangles. A PRIMITIVES_GENERATED query counts them. Writes
//! `tess_geometry.png`.
use glemu::{gl, Context};

/// The tessellation level of every edge and of the inside.
const LEVEL: f32 = 4.0;

const VERTEX: &str = "!!NVvp5.0
MOV result.position, vertex.attrib[0];
END
";

const CONTROL: &str = "!!NVtcp5.0
VERTICES_OUT 3;
PARAM level = program.env[0];
ATTRIB ipos = vertex.position;
INT TEMP id;
MOV.S id.x, primitive.invocation.x;
MOV result.position, ipos[id.x];
MOV result.patch.tessouter[0].x, level.x;
MOV result.patch.tessouter[1].x, level.x;
MOV result.patch.tessouter[2].x, level.x;
MOV result.patch.tessinner[0].x, level.x;
END
";

const EVAL: &str = "!!NVtep5.0
TESS_MODE TRIANGLES;
TESS_SPACING EQUAL;
TESS_VERTEX_ORDER CCW;
TEMP p;
MUL p, vertex.tesscoord.x, vertex[0].position;
MAD p, vertex.tesscoord.y, vertex[1].position, p;
MAD result.position, vertex.tesscoord.z, vertex[2].position, p;
END
";

const GEOMETRY: &str = "!!NVgp5.0
PRIMITIVE_IN TRIANGLES;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 3;
TEMP c;
ADD c, vertex[0].position, vertex[1].position;
ADD c, c, vertex[2].position;
MUL c, c, 0.33333333;
LRP result.position, 0.75, vertex[0].position, c;
MOV result.color, {1, 0.6, 0.1, 1};
EMIT;
LRP result.position, 0.75, vertex[1].position, c;
MOV result.color, {1, 0.6, 0.1, 1};
EMIT;
LRP result.position, 0.75, vertex[2].position, c;
MOV result.color, {1, 0.6, 0.1, 1};
EMIT;
END
";

const FRAGMENT: &str = "!!NVfp5.0
MOV result.color, fragment.color;
END
";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut ctx = Context::new(128, 128)?;
    for (target, text) in [
        (gl::VERTEX_PROGRAM_ARB, VERTEX),
        (gl::TESS_CONTROL_PROGRAM_NV, CONTROL),
        (gl::TESS_EVALUATION_PROGRAM_NV, EVAL),
        (gl::GEOMETRY_PROGRAM_NV, GEOMETRY),
        (gl::FRAGMENT_PROGRAM_ARB, FRAGMENT),
    ] {
        let p = ctx.create_program()?;
        ctx.bind_program(target, p)?;
        ctx.program_string(target, text)?;
        ctx.enable(target)?;
    }
    ctx.program_env_parameter_4f(gl::TESS_CONTROL_PROGRAM_NV, 0, [LEVEL, 0.0, 0.0, 0.0])?;
    let patch: [[f32; 2]; 3] = [[-0.9, -0.9], [0.9, -0.9], [0.0, 0.9]];
    let b = ctx.create_buffer()?;
    ctx.bind_buffer(gl::ARRAY_BUFFER, b)?;
    ctx.buffer_data(gl::ARRAY_BUFFER, &patch, gl::STATIC_DRAW)?;
    ctx.vertex_attrib_pointer(0, 2, gl::FLOAT, false, 0, 0)?;
    ctx.enable_vertex_attrib_array(0)?;
    ctx.patch_vertices(3)?;

    ctx.clear_color([0.05, 0.05, 0.1, 1.0])?;
    ctx.clear(gl::COLOR_BUFFER_BIT)?;
    let q = ctx.create_query()?;
    ctx.begin_query(gl::PRIMITIVES_GENERATED, q)?;
    ctx.draw_arrays(gl::PATCHES, 0, 3)?;
    ctx.end_query(gl::PRIMITIVES_GENERATED)?;
    let triangles = ctx.get_query_object_uiv(q, gl::QUERY_RESULT)?;
    let lit = ctx.read_image()?.pixels().filter(|p| p.0[0] == 255).count();
    println!("tessellation level {LEVEL}: {triangles} triangles generated, {lit} pixels lit");
    ctx.save_png("tess_geometry.png")?;
    println!("wrote tess_geometry.png");
    Ok(())
}
