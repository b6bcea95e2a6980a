from gen import *
from raster import n, RED, GREEN, BLUE, WHITE, BLACK
from geometry import bary_probe
import math
LG = "legacy"
def lscene(name, what, spec, nv, gl, test, req, gl_req=("GL_ARB_vertex_program", "GL_ARB_fragment_program"), tol=1, pixels=0, why="exact / smooth values", vdata=None, self_twin=False):
    scene(LG, name, what, spec, tol, pixels, why, nv, gl if gl is not None else nv, test, nv_req=req, gl_req=gl_req, vdata=vdata, self_twin=self_twin)
GRID = [(3, 5), (17, 40), (31, 31), (45, 12), (60, 58)]

# --- plain ARB, self twins
lscene("arbfp_tex_modulate_local", "ARBfp1.0 without a vertex program (fixed-function vertex stage): TEX of the rgbw texture modulated by program.local[0].",
       "ARB_fragment_program 3.11 (TEX, MUL, program.local); fixed-function vertex transform with identity matrices",
       [("fragment program", """!!ARBfp1.0
PARAM k = program.local[0];
TEMP t;
TEX t, fragment.texcoord[0], texture[0], 2D;
MUL result.color, t, k;
END""")], None,
       "clear color 0.0 0.0 0.0 1.0\nclear\ntexture rgbw 0 (8, 8)\nparameter local_fp 0 (0.5, 0.75, 1.0, 1.0)\ndraw rect -1 -1 2 2\n" +
       "\n".join(probe(x, y, (c[0]*.5, c[1]*.75, c[2], 1)) for (x, y, c) in [(10, 10, RED), (50, 10, GREEN), (10, 50, BLUE), (50, 50, WHITE)]),
       ("GL_ARB_fragment_program",), gl_req=("GL_ARB_fragment_program",), self_twin=True)

lscene("arbvp_lighting_state", "ARBvp1.0 diffuse lighting from GL state: N.L with state.light[0].position, times state.material.diffuse, plus state.lightmodel.ambient; fixed-function fragment stage.",
       "ARB_vertex_program 2.14.4 state bindings (state.light[n].position, state.material.diffuse, state.lightmodel.ambient, state.matrix.mvp)",
       [("vertex program", """!!ARBvp1.0
PARAM mvp[4] = { state.matrix.mvp };
PARAM lp = state.light[0].position;
PARAM md = state.material.diffuse;
PARAM amb = state.lightmodel.ambient;
TEMP d;
DP4 result.position.x, mvp[0], vertex.position;
DP4 result.position.y, mvp[1], vertex.position;
DP4 result.position.z, mvp[2], vertex.position;
DP4 result.position.w, mvp[3], vertex.position;
DP3 d.x, vertex.normal, lp;
MAX d.x, d.x, 0.0;
MAD result.color, md, d.x, amb;
MOV result.color.w, 1.0;
END""")], None,
       "clear color 0.0 0.0 0.0 1.0\nclear\nlight 0 position (0.0, 0.6, 0.8, 0.0)\nmaterial front diffuse (1.0, 0.5, 0.25, 1.0)\nlight model ambient (0.1, 0.1, 0.1, 1.0)\ndraw arrays GL_TRIANGLE_STRIP 0 4\n" +
       bary_probe(0, 0, [((0, 0), (0.9, 0.5, 0.3, 1)), ((64, 0), (0.7, 0.4, 0.25, 1)), ((0, 64), (0.1, 0.1, 0.1, 1))]) + "\n" +
       bary_probe(63, 63, [((64, 0), (0.7, 0.4, 0.25, 1)), ((0, 64), (0.1, 0.1, 0.1, 1)), ((64, 64), (1.0, 0.6, 0.35, 1))]) + "\n" +
       bary_probe(20, 20, [((0, 0), (0.9, 0.5, 0.3, 1)), ((64, 0), (0.7, 0.4, 0.25, 1)), ((0, 64), (0.1, 0.1, 0.1, 1))]),
       ("GL_ARB_vertex_program",), gl_req=("GL_ARB_vertex_program",), self_twin=True,
       vdata="vertex/float/4 normal/float/3\n-1.0 -1.0 0.0 1.0  0.0 0.0 1.0\n1.0 -1.0 0.0 1.0  0.0 1.0 0.0\n-1.0 1.0 0.0 1.0  0.0 -1.0 0.0\n1.0 1.0 0.0 1.0  0.0 0.6 0.8",
       tol=2, why="colour interpolation; 8-bit rounding")

lscene("arbfp_cmp_kil_lrp", "ARBfp1.0 CMP, LRP, SWZ with negation and a KIL on a computed vector.",
       "ARB_fragment_program 3.11.5 (CMP, LRP, SWZ extended swizzle, KIL)",
       [("fragment program", """!!ARBfp1.0
TEMP a, r;
SUB a, fragment.texcoord[0], {0.25, 0.25, 0.0, 0.0};
KIL a;
LRP r, fragment.texcoord[0].x, {1.0, 0.0, 0.0, 1.0}, {0.0, 0.0, 1.0, 1.0};
SUB a, fragment.texcoord[0], 0.5;
CMP r.y, a.y, 0.25, 0.75;
SWZ a, fragment.texcoord[0], 1, -y, 0, x;
ADD r.z, r.z, a.y;
MOV result.color, r;
END""")], None,
       "clear color 0.0 0.0 0.0 1.0\nclear\ndraw rect -1 -1 2 2\n" +
       "\n".join(probe(x, y, ((x+.5)/64, .25 if (y+.5)/64 < .5 else .75, 1 - (x+.5)/64 - (y+.5)/64, 1) if (x+.5)/64 >= .25 and (y+.5)/64 >= .25 else (0, 0, 0, 1))
                 for (x, y) in [(3, 5), (30, 20), (40, 40), (60, 20), (20, 50)]),
       ("GL_ARB_fragment_program",), gl_req=("GL_ARB_fragment_program",), self_twin=True, tol=2)

lscene("arbfp_shadow_option", "ARBfp1.0 with OPTION ARB_fragment_program_shadow: SHADOW2D compare against the piglit depth ramp (GREATER, INTENSITY).",
       "ARB_fragment_program_shadow; ARB_shadow",
       [("fragment program", """!!ARBfp1.0
OPTION ARB_fragment_program_shadow;
TEMP c;
MOV c, fragment.texcoord[0];
MOV c.z, c.y;
TEX result.color, c, texture[0], SHADOW2D;
END""")], None,
       "clear color 0.0 0.0 0.0 1.0\nclear\ntexture shadow2D 0 (16, 16)\ntexparameter 2D min nearest\ntexparameter 2D mag nearest\ndraw rect -1 -1 2 2\n" +
       "\n".join(probe(x, y, [1.0 if (y+.5)/64 > math.floor((x+.5)/4)/15 else 0.0]*4) for (x, y) in [(3, 30), (30, 50), (30, 10), (60, 62)]),
       ("GL_ARB_fragment_program", "GL_ARB_fragment_program_shadow"), gl_req=("GL_ARB_fragment_program", "GL_ARB_fragment_program_shadow"), self_twin=True)

lscene("arbvp_position_invariant", "ARBvp1.0 with OPTION ARB_position_invariant under a pixel ortho projection: the position comes from the fixed-function transform; the program only writes colour.",
       "ARB_vertex_program 2.14.6.1 (ARB_position_invariant option)",
       [("vertex program", """!!ARBvp1.0
OPTION ARB_position_invariant;
MUL result.color, vertex.position, {0.015625, 0.015625, 0.0, 0.0};
MOV result.color.zw, {0.0, 0.0, 0.5, 1.0};
END""")], None,
       "clear color 0.0 0.0 0.0 1.0\nclear\northo\ndraw rect 8 8 48 48\n" + probe(4, 4, BLACK) + "\n" + probe(60, 60, BLACK) + "\n" + probe(10, 30, (10.5/64, 30.5/64, .5, 1)) + "\n" + probe(50, 50, (50.5/64, 50.5/64, .5, 1)),
       ("GL_ARB_vertex_program",), gl_req=("GL_ARB_vertex_program",), self_twin=True, tol=2)

lscene("arbfp_coord_origin_upper_left", "ARBfp1.0 with OPTION ARB_fragment_coord_origin_upper_left and ARB_fragment_coord_pixel_center_integer: fragment.position has y measured from the top and integer pixel centres.",
       "ARB_fragment_coord_conventions (fragment program options)",
       [("fragment program", """!!ARBfp1.0
OPTION ARB_fragment_coord_origin_upper_left;
OPTION ARB_fragment_coord_pixel_center_integer;
MUL result.color, fragment.position, {0.015625, 0.015625, 0.0, 0.0};
MOV result.color.zw, {0.0, 0.0, 0.25, 1.0};
END""")], None,
       "clear color 0.0 0.0 0.0 1.0\nclear\ndraw rect -1 -1 2 2\n" + "\n".join(probe(x, y, (x/64, (63 - y)/64, .25, 1)) for (x, y) in GRID),
       ("GL_ARB_fragment_program", "GL_ARB_fragment_coord_conventions"), gl_req=("GL_ARB_fragment_program", "GL_ARB_fragment_coord_conventions"), self_twin=True)

# --- ARB with NV options (GLSL twins)
VS_GL = """#version 450
layout(location = 0) in vec4 piglit_vertex;
layout(location = 1) in vec4 piglit_texcoord;
out vec4 tc;
void main() { gl_Position = piglit_vertex; tc = piglit_texcoord; }"""
def wf(body, decls=""): return "#version 450\nin vec4 tc;\nout vec4 color;\n%s\nvoid main() {\n%s\n}" % (decls, body)
lscene("arbfp_nvfp2_flow", "ARBfp1.0 with OPTION NV_fragment_program2: condition codes, IF/ELSE/ENDIF, REP with a loop count from a program parameter (as fp2 requires) and per-pixel BRK exits, DIV and a subroutine call.",
       "NV_fragment_program2 (ARB_fragment_program option: IF, REP, BRK, CAL/RET, DIV, condition codes); NV_fragment_program_option",
       [("fragment program", """!!ARBfp1.0
OPTION NV_fragment_program2;
PARAM count = program.local[0];
TEMP a, acc, k;
MUL a, fragment.texcoord[0], 4.0;
FLR a, a;
MOV acc, 0.0;
MOV k, 0.0;
REP count;
  SGEC k.z, k.x, a.x;
  BRK (NE.z);
  ADD acc.x, acc.x, 0.25;
  ADD k.x, k.x, 1.0;
  SGEC k.y, k.x, a.y;
  BRK (NE.y);
ENDREP;
SUBC a.z, fragment.texcoord[0].y, 0.5;
IF GT.z;
  DIV acc.y, fragment.texcoord[0].x, 2.0;
ELSE;
  CAL blue;
ENDIF;
MOV result.color, acc;
MOV result.color.w, 1.0;
RET;
blue:
  MOV acc.z, 1.0;
  RET;
END""")],
       [("vertex shader", VS_GL), ("fragment shader", wf("""vec2 a = floor(tc.xy * 4.0);
vec4 acc = vec4(0.0);
float k = 0.0;
for (int i = 0; i < int(a.x); i++) { acc.x += 0.25; k += 1.0; if (k >= a.y) break; }
if (tc.y - 0.5 > 0.0) acc.y = tc.x / 2.0; else acc.z = 1.0;
color = vec4(acc.xyz, 1.0);"""))],
       "clear color 0.0 0.0 0.0 1.0\nclear\nNV: parameter local_fp 0 (4.0, 0.0, 0.0, 0.0)\ndraw rect -1 -1 2 2\n" +
       "\n".join(probe(x, y, ((lambda n, lim: (min(n, max(1, lim)) * .25 if n > 0 else 0))(math.floor(4*(x+.5)/64), math.floor(4*(y+.5)/64)),
                               ((x+.5)/128 if (y+.5)/64 > .5 else 0), (0 if (y+.5)/64 > .5 else 1), 1)) for (x, y) in [(3, 5), (20, 40), (40, 20), (60, 60), (50, 3)]),
       ("GL_ARB_fragment_program", "GL_NV_fragment_program2"), gl_req=("GL >= 4.5", "GLSL >= 4.50"), tol=2)

lscene("arbvp_nvvp3_vertex_texture", "ARBvp1.0 with OPTION NV_vertex_program3: a vertex program fetches the 2x2 rgbw texture (TXL at LOD 0) at each vertex of a 3x3 grid (texcoords 0, 1/3, 2/3, 1: no texel ties); colours interpolate across the grid.",
       "NV_vertex_program3 (vertex texture fetch in ARB vertex programs, TXL); ARB_vertex_program",
       [("vertex program", """!!ARBvp1.0
OPTION NV_vertex_program3;
TEMP c;
MOV result.position, vertex.position;
MOV c, vertex.texcoord[0];
MOV c.w, 0.0;
TXL result.color, c, texture[0], 2D;
END""")],
       [("vertex shader", """#version 450
layout(location = 0) in vec4 piglit_vertex;
layout(location = 1) in vec4 piglit_texcoord;
layout(binding = 0) uniform sampler2D tex0;
out vec4 c;
void main() { gl_Position = piglit_vertex; c = textureLod(tex0, piglit_texcoord.xy, 0.0); }"""), ("fragment shader", "#version 450\nin vec4 c;\nout vec4 color;\nvoid main() { color = c; }")],
       "clear color 0.0 0.0 0.0 1.0\nclear\ntexture rgbw 0 (2, 2)\ndraw grid 3 3\n" + "\n".join(probe(x, y, c) for (x, y, c) in [(5, 5, RED), (58, 5, GREEN), (5, 58, BLUE), (58, 58, WHITE)]),
       ("GL_ARB_vertex_program", "GL_NV_vertex_program3"), gl_req=("GL >= 4.5", "GLSL >= 4.50"), tol=3, why="colour interpolation between vertex fetches; 8-bit rounding")

# --- VP1.x / VP2 (ARB twins where possible)
ARBFF = None
lscene("vp1_transform_color", "!!VP1.0: DP4 with a matrix in c[0..3] (program parameters = env parameters), o[HPOS] and o[COL0]; fixed-function fragment stage.",
       "NV_vertex_program (VP1.0 registers v[], c[], o[], DP4, MOV, MUL)",
       [("vertex program", """!!VP1.0
DP4 o[HPOS].x, c[0], v[OPOS];
DP4 o[HPOS].y, c[1], v[OPOS];
DP4 o[HPOS].z, c[2], v[OPOS];
DP4 o[HPOS].w, c[3], v[OPOS];
MUL o[COL0], v[COL0], c[4];
END""")],
       [("vertex program", """!!ARBvp1.0
PARAM m[4] = { program.env[0..3] };
DP4 result.position.x, m[0], vertex.position;
DP4 result.position.y, m[1], vertex.position;
DP4 result.position.z, m[2], vertex.position;
DP4 result.position.w, m[3], vertex.position;
MUL result.color, vertex.color, program.env[4];
END""")],
       "clear color 0.0 0.0 0.0 1.0\nclear\nparameter env_vp 0 (0.5, 0.0, 0.0, 0.25)\nparameter env_vp 1 (0.0, 0.5, 0.0, 0.0)\nparameter env_vp 2 (0.0, 0.0, 1.0, 0.0)\nparameter env_vp 3 (0.0, 0.0, 0.0, 1.0)\nparameter env_vp 4 (1.0, 0.5, 1.0, 1.0)\ndraw arrays GL_TRIANGLE_STRIP 0 4\n" +
       probe(2, 30, BLACK) + "\n" + probe(41, 31, (0.5, 0.25, 0.5, 1)),
       ("GL_NV_vertex_program",), gl_req=("GL_ARB_vertex_program",), tol=2,
       vdata="vertex/float/4 color/float/4\n-1.0 -1.0 0.0 1.0  0.5 0.5 0.5 1.0\n1.0 -1.0 0.0 1.0  0.5 0.5 0.5 1.0\n-1.0 1.0 0.0 1.0  0.5 0.5 0.5 1.0\n1.0 1.0 0.0 1.0  0.5 0.5 0.5 1.0")

lscene("vp1_arl_palette", "!!VP1.0 ARL: A0.x from a per-vertex index selects a colour from c[8..11] with relative addressing c[A0.x + 8]; flat quads per index.",
       "NV_vertex_program (ARL, relative addressing c[A0.x + n])",
       [("vertex program", """!!VP1.0
MOV o[HPOS], v[OPOS];
ARL A0.x, v[TEX0].x;
MOV o[COL0], c[A0.x + 8];
END""")],
       [("vertex program", """!!ARBvp1.0
PARAM pal[4] = { program.env[8..11] };
ADDRESS a;
MOV result.position, vertex.position;
ARL a.x, vertex.texcoord[0].x;
MOV result.color, pal[a.x];
END""")],
       "clear color 0.0 0.0 0.0 1.0\nclear\nparameter env_vp 8 (1.0, 0.0, 0.0, 1.0)\nparameter env_vp 9 (0.0, 1.0, 0.0, 1.0)\nparameter env_vp 10 (0.0, 0.0, 1.0, 1.0)\nparameter env_vp 11 (1.0, 1.0, 0.0, 1.0)\n"
       "draw arrays GL_TRIANGLES 0 12\n" + "\n".join(probe(x, y, c) for (x, y, c) in [(8, 8, RED), (40, 8, GREEN), (8, 40, BLUE), (40, 40, (1, 1, 0, 1))]),
       ("GL_NV_vertex_program",), gl_req=("GL_ARB_vertex_program",),
       vdata="vertex/float/4 texcoord0/float/4\n" + "\n".join("%r %r 0.0 1.0  %r 0 0 1" % (x0 + dx, y0 + dy, k + 0.3)
                   for k, (x0, y0) in enumerate([(-1.0, -1.0), (0.0, -1.0), (-1.0, 0.0), (0.0, 0.0)])
                   for (dx, dy) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)]))

lscene("vp11_dph_rcc_sub_abs", "!!VP1.1 instructions DPH, RCC, SUB and ABS computing a per-vertex colour (fixed-function fragment stage).",
       "NV_vertex_program1_1 (DPH, RCC, SUB, ABS)",
       [("vertex program", """!!VP1.1
MOV o[HPOS], v[OPOS];
DPH R0.x, v[OPOS], c[0];
ABS R1, v[OPOS];
SUB R2, R1, c[1];
RCC R3.x, c[2].x;
MOV o[COL0].x, R0.x;
MOV o[COL0].y, R2.y;
MUL o[COL0].z, R3.x, R1.x;
MOV o[COL0].w, c[2].w;
END""")],
       [("vertex program", """!!ARBvp1.0
TEMP r0, r1, r2;
MOV result.position, vertex.position;
DPH r0.x, vertex.position, program.env[0];
ABS r1, vertex.position;
SUB r2, r1, program.env[1];
RCP r0.y, program.env[2].x;
MOV result.color.x, r0.x;
MOV result.color.y, r2.y;
MUL result.color.z, r0.y, r1.x;
MOV result.color.w, program.env[2].w;
END""")],
       "clear color 0.0 0.0 0.0 1.0\nclear\nparameter env_vp 0 (0.25, 0.25, 0.0, 0.5)\nparameter env_vp 1 (0.0, 0.5, 0.0, 0.0)\nparameter env_vp 2 (2.0, 0.0, 0.0, 1.0)\ndraw arrays GL_TRIANGLE_STRIP 0 4\n" +
       "\n".join(probe(x, y, (0.25*n(x+.5-.5+.5)*0 + (0.25*((x+.5)/32-1) + 0.25*((y+.5)/32-1) + 0.5), 0.5, 0.5, 1)) for (x, y) in [(31, 31)]),
       ("GL_NV_vertex_program1_1",), gl_req=("GL_ARB_vertex_program",), tol=2, why="per-vertex values interpolated; |x|, |y| are 1 at every vertex",
       vdata="vertex/float/4\n-1.0 -1.0 0.0 1.0\n1.0 -1.0 0.0 1.0\n-1.0 1.0 0.0 1.0\n1.0 1.0 0.0 1.0")

lscene("vp2_branch_call_loop", "!!VP2.0: a BRA loop with a condition-code test calling a subroutine (CAL/RET) floor(c[0].x) times accumulates a per-vertex brightness; colour = 0.25 * iterations.",
       "NV_vertex_program2 (BRA, CAL, RET, labels, FLRC/ADDC condition codes, (GT.x) branch conditions)",
       [("vertex program", """!!VP2.0
MOV o[HPOS], v[OPOS];
MOV R0, c[0].z;
MOV R1, c[0].y;
FLRC R2.x, v[TEX0].x;
BRA done (LE.x);
top:
CAL accumulate;
ADDC R2.x, R2.x, -c[0].w;
BRA top (GT.x);
done:
MOV o[COL0], R0;
MOV o[COL0].w, c[0].w;
RET;
accumulate:
ADD R0, R0, R1;
RET;
END""")],
       [("vertex shader", """#version 450 compatibility
out vec4 c;
void main() {
  gl_Position = gl_Vertex;
  float acc = 0.0;
  for (int i = 0; i < int(floor(gl_MultiTexCoord0.x)); i++) acc += 0.25;
  c = vec4(vec3(acc), 1.0);
}"""), ("fragment shader", "#version 450\nin vec4 c;\nout vec4 color;\nvoid main() { color = c; }")],
       "clear color 0.0 0.0 0.0 1.0\nclear\nparameter env_vp 0 (0.0, 0.25, 0.0, 1.0)\ndraw arrays GL_TRIANGLES 0 12\n" +
       "\n".join(probe(x, y, (k*.25, k*.25, k*.25, 1)) for (x, y, k) in [(8, 8, 0), (40, 8, 1), (8, 40, 2), (40, 40, 3)]),
       ("GL_NV_vertex_program2",), gl_req=("GL >= 4.5", "GLSL >= 4.50"),
       vdata="vertex/float/4 texcoord0/float/4\n" + "\n".join("%r %r 0.0 1.0  %r 0 0 1" % (x0 + dx, y0 + dy, k + 0.5)
                   for k, (x0, y0) in enumerate([(-1.0, -1.0), (0.0, -1.0), (-1.0, 0.0), (0.0, 0.0)])
                   for (dx, dy) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)]))

# --- FP1.0
lscene("fp1_tex_local_param", "!!FP1.0: TEX from TEX0, MULR with a numbered local parameter p[0] into o[COLR]; fixed-function vertex stage.",
       "NV_fragment_program (f[TEX0], TEX, MULR, p[n] local parameters, o[COLR])",
       [("fragment program", """!!FP1.0
TEX R0, f[TEX0], TEX0, 2D;
MULR o[COLR], R0, p[0];
END""")],
       [("fragment program", """!!ARBfp1.0
TEMP r0;
TEX r0, fragment.texcoord[0], texture[0], 2D;
MUL result.color, r0, program.local[0];
END""")],
       "clear color 0.0 0.0 0.0 1.0\nclear\ntexture rgbw 0 (8, 8)\nparameter local_fp 0 (0.25, 0.5, 1.0, 1.0)\ndraw rect -1 -1 2 2\n" +
       "\n".join(probe(x, y, (c[0]*.25, c[1]*.5, c[2], 1)) for (x, y, c) in [(10, 10, RED), (50, 10, GREEN), (10, 50, BLUE), (50, 50, WHITE)]),
       ("GL_NV_fragment_program",), gl_req=("GL_ARB_fragment_program",))

lscene("fp1_cc_half_sat", "!!FP1.0 condition codes and precisions: MOVRC sets RC, conditional writes (GT.x)/(LT.y), half-precision H registers, fixed-point X ops with _SAT, DEFINE/DECLARE constants.",
       "NV_fragment_program (R/H/X precision suffixes, C suffix, condition-code masks, _SAT, DEFINE, DECLARE)",
       [("fragment program", """!!FP1.0
DEFINE half = {0.5, 0.5, 0.5, 0.5};
DECLARE tint = {0.2, 0.4, 0.6, 1.0};
ADDRC RC.xy, f[TEX0], -half;
MOVR R0, tint;
MOVR R0.x (GT.x), {1.0}.x;
MOVH H2, f[TEX0];
MOVR R0.y (LT.y), H2.x;
ADDX_SAT R0.z, f[TEX0].y, half.x;
MOVR o[COLR], R0;
END""")],
       [("vertex shader", VS_GL), ("fragment shader", wf("""vec4 r = vec4(0.2, 0.4, 0.6, 1.0);
vec2 d = tc.xy - 0.5;
if (d.x > 0.0) r.x = 1.0;
if (d.y < 0.0) r.y = tc.x;
r.z = clamp(tc.y + 0.5, 0.0, 1.0);
color = r;"""))],
       "clear color 0.0 0.0 0.0 1.0\nclear\ndraw rect -1 -1 2 2\n" +
       "\n".join(probe(x, y, (1 if (x+.5)/64 > .5 else .2, (x+.5)/64 if (y+.5)/64 < .5 else .4, min(1, (y+.5)/64 + .5), 1)) for (x, y) in GRID),
       ("GL_NV_fragment_program",), gl_req=("GL >= 4.5", "GLSL >= 4.50"), tol=2, why="half and fixed-point (X, 10-bit) precision stay within 1/255 of the probes")

lscene("fp1_ddx_ddy_pack", "!!FP1.0 DDX/DDY of a linear function (exact screen derivatives) and PK2H/UP2H round trips.",
       "NV_fragment_program (DDX, DDY, PK2H, UP2H)",
       [("fragment program", """!!FP1.0
MULR R0, f[TEX0], {4.0, 2.0, 0.0, 0.0};
DDXR R1, R0;
DDYR R2, R0;
MULR R3.x, R1.x, 16.0;
MULR R3.y, R2.y, 32.0;
PK2H R4.x, f[TEX0];
UP2H R5, R4.x;
MOVR o[COLR], {0.0, 0.0, 0.0, 1.0};
MOVR o[COLR].xy, R3;
MOVR o[COLR].z, R5.y;
END""")],
       [("vertex shader", VS_GL), ("fragment shader", wf("""vec2 r = tc.xy * vec2(4.0, 2.0);
color = vec4(dFdx(r.x) * 16.0, dFdy(r.y) * 32.0, unpackHalf2x16(packHalf2x16(tc.xy)).y, 1.0);"""))],
       "clear color 0.0 0.0 0.0 1.0\nclear\ndraw rect -1 -1 2 2\n" + "\n".join(probe(x, y, (1, 1, (y+.5)/64, 1)) for (x, y) in GRID),
       ("GL_NV_fragment_program",), gl_req=("GL >= 4.5", "GLSL >= 4.50"), tol=2, why="derivatives of linear functions are exact: 4/64*16 = 1, 2/64*32 = 1")

def exp_log(k):
    fl = math.floor(k)
    e = math.floor(math.log2(abs(k)))
    return (k - fl, abs(k) / 2**e - 1.0, min(1.0, 2**k * 0.1), e * 0.25 + 0.25)
KS = [1.25, 2.5, 3.75, 5.5]
lscene("vp1_exp_log", "!!VP1.0 EXP and LOG: per-vertex constants k = 1.25, 2.5, 3.75, 5.5 (one per triangle) give frac(k) = EXP.y (red), mantissa - 1 = LOG.y (green), 0.1 * 2^k from EXP.z (blue, an 11-bit approximation) and floor(log2 k) = LOG.x (alpha).",
       "NV_vertex_program 2.14.1.10.15 EXP, 2.14.1.10.16 LOG (x, y exact; z approximate to 2^-11)",
       [("vertex program", """!!VP1.0
MOV o[HPOS], v[OPOS];
EXP R0, v[TEX0].x;
LOG R1, v[TEX0].x;
MOV o[COL0].x, R0.y;
ADD o[COL0].y, R1.y, -c[0].x;
MUL o[COL0].z, R0.z, c[0].y;
MAD o[COL0].w, R1.x, c[0].z, c[0].z;
END""")],
       [("vertex program", """!!ARBvp1.0
TEMP r0, r1;
MOV result.position, vertex.position;
EXP r0, vertex.texcoord[0].x;
LOG r1, vertex.texcoord[0].x;
MOV result.color.x, r0.y;
ADD result.color.y, r1.y, -program.env[0].x;
MUL result.color.z, r0.z, program.env[0].y;
MAD result.color.w, r1.x, program.env[0].z, program.env[0].z;
END""")],
       "clear color 0.0 0.0 0.0 1.0\nclear\nparameter env_vp 0 (1.0, 0.1, 0.25, 0.0)\ndraw arrays GL_TRIANGLES 0 12\n" +
       "\n".join(probe(x, y, exp_log(KS[k])) for k, (x, y) in enumerate([(8, 8), (40, 8), (8, 40), (40, 40)])),
       ("GL_NV_vertex_program",), gl_req=("GL_ARB_vertex_program",), tol=2, why="EXP.z / LOG.z are approximations (2^-11); 8-bit rounding",
       vdata="vertex/float/4 texcoord0/float/4\n" + "\n".join("%r %r 0.0 1.0  %r 0 0 1" % (x0 + dx, y0 + dy, KS[k])
                   for k, (x0, y0) in enumerate([(-1.0, -1.0), (0.0, -1.0), (-1.0, 0.0), (0.0, 0.0)])
                   for (dx, dy) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)]))

lscene("arbfp_nvfp_option", "ARBfp1.0 with OPTION NV_fragment_program: condition-code updates (SUBC) and conditional writes, precision suffixes, DDX, PK2H and UP2H (a scalar operation here).",
       "NV_fragment_program_option (ARB_fragment_program option: CC, R/H/X suffixes, DDX/DDY, PK*/UP*)",
       [("fragment program", """!!ARBfp1.0
OPTION NV_fragment_program;
TEMP a, d, p, r;
SUBC a.xy, fragment.texcoord[0], 0.5;
MOV r, {0.2, 0.2, 0.2, 1.0};
MOV r.x (GT.x), 1.0;
MOVR r.y (LT.y), 0.6;
DDX d.x, fragment.texcoord[0].x;
MULR r.z, d.x, 32.0;
PK2H p.x, fragment.texcoord[0];
UP2H p, p.x;
MOVH r.w, p.z;
MOV result.color, r;
END""")],
       [("vertex shader", VS_GL), ("fragment shader", wf("""vec4 r = vec4(0.2, 0.2, 0.2, 1.0);
vec2 a = tc.xy - 0.5;
if (a.x > 0.0) r.x = 1.0;
if (a.y < 0.0) r.y = 0.6;
r.z = dFdx(tc.x) * 32.0;
r.w = unpackHalf2x16(packHalf2x16(tc.xy)).x;
color = r;"""))],
       "clear color 0.0 0.0 0.0 1.0\nclear\ndraw rect -1 -1 2 2\n" +
       "\n".join(probe(x, y, (1 if (x+.5)/64 > .5 else .2, .6 if (y+.5)/64 < .5 else .2, .5, (x+.5)/64)) for (x, y) in GRID),
       ("GL_ARB_fragment_program", "GL_NV_fragment_program_option"), gl_req=("GL >= 4.5", "GLSL >= 4.50"), tol=2,
       why="half-precision alpha within 1/255; derivative of a linear function is exact")

lscene("vp11_position_invariant", "!!VP1.1 with OPTION NV_position_invariant under a pixel ortho projection: the position comes from the fixed-function transform, the program writes only o[COL0].",
       "NV_vertex_program1_1 (NV_position_invariant option)",
       [("vertex program", """!!VP1.1
OPTION NV_position_invariant;
MUL o[COL0], v[OPOS], c[0];
MOV o[COL0].zw, c[1];
END""")],
       [("vertex program", """!!ARBvp1.0
OPTION ARB_position_invariant;
MUL result.color, vertex.position, program.env[0];
MOV result.color.zw, program.env[1];
END""")],
       "clear color 0.0 0.0 0.0 1.0\nclear\nparameter env_vp 0 (0.015625, 0.015625, 0.0, 0.0)\nparameter env_vp 1 (0.0, 0.0, 0.5, 1.0)\northo\ndraw rect 8 8 48 48\n" +
       probe(4, 4, BLACK) + "\n" + probe(60, 60, BLACK) + "\n" + probe(10, 30, (10.5/64, 30.5/64, .5, 1)) + "\n" + probe(50, 50, (50.5/64, 50.5/64, .5, 1)),
       ("GL_NV_vertex_program1_1",), gl_req=("GL_ARB_vertex_program",), tol=2)

lscene("arbfp_fog_linear_option", "ARBfp1.0 with OPTION ARB_fog_linear: after the program, the colour is blended with FOG_COLOR by the linear factor (END - c) / (END - START) of the fog coordinate c the ARB vertex program writes (c = s across the window).",
       "ARB_fragment_program 3.11.4.5 (ARB_fog_linear program option), ARB_vertex_program result.fogcoord; OpenGL 3.10 fog (linear)",
       [("vertex program", """!!ARBvp1.0
MOV result.position, vertex.position;
MOV result.color, {0.2, 0.4, 1.0, 1.0};
MOV result.fogcoord.x, vertex.texcoord[0].x;
END"""), ("fragment program", """!!ARBfp1.0
OPTION ARB_fog_linear;
MOV result.color, fragment.color;
END""")], None,
       "clear color 0.0 0.0 0.0 1.0\nclear\nfog GL_FOG_COLOR (1.0, 0.0, 0.0, 1.0)\nfog GL_FOG_START (0.0)\nfog GL_FOG_END (1.0)\ndraw rect -1 -1 2 2\n" +
       "\n".join(probe(x, y, (lambda s: ((1 - s) * 0.2 + s, (1 - s) * 0.4, (1 - s) * 1.0, 1))((x + .5) / 64)) for (x, y) in GRID),
       ("GL_ARB_vertex_program", "GL_ARB_fragment_program"), gl_req=("GL_ARB_vertex_program", "GL_ARB_fragment_program"), self_twin=True, tol=2,
       why="linear fog factor of an interpolated coordinate; 8-bit rounding")

lscene("arbfp_state_fog_params", "ARBfp1.0 reading fog state directly: state.fog.color and state.fog.params (density, start, end, 1/(end - start)) set by the scene become the colour.",
       "ARB_fragment_program 3.11.3.1 state bindings (state.fog.color, state.fog.params)",
       [("fragment program", """!!ARBfp1.0
PARAM fc = state.fog.color;
PARAM fp = state.fog.params;
TEMP r;
MUL r.xyz, fc, 0.5;
MUL r.w, fp.y, fp.w;
ADD r.x, r.x, fp.x;
MOV result.color, r;
END""")], None,
       "clear color 0.0 0.0 0.0 1.0\nclear\nfog GL_FOG_COLOR (0.8, 0.4, 1.0, 1.0)\nfog GL_FOG_DENSITY (0.25)\nfog GL_FOG_START (1.0)\nfog GL_FOG_END (3.0)\ndraw rect -1 -1 2 2\n" +
       probe(32, 32, (0.4 + 0.25, 0.2, 0.5, 1.0 * 0.5)),
       ("GL_ARB_fragment_program",), gl_req=("GL_ARB_fragment_program",), self_twin=True, tol=1, why="exact")

lscene("arbvp_texture_matrix", "ARBvp1.0 transforming texture coordinates by state.matrix.texture[0] (set with `matrix texture0`): a scale by 0.5 and an offset of 0.25 in s, and a swap of s and t through the matrix columns.",
       "ARB_vertex_program 2.14.4.3 state.matrix.texture[n] (row access), matrix state loaded column-major",
       [("vertex program", """!!ARBvp1.0
PARAM tm[4] = { state.matrix.texture[0] };
TEMP t;
MOV result.position, vertex.position;
DP4 t.x, tm[0], vertex.texcoord[0];
DP4 t.y, tm[1], vertex.texcoord[0];
MOV result.color, {0.0, 0.0, 0.5, 1.0};
MOV result.color.xy, t;
END""")], None,
       "clear color 0.0 0.0 0.0 1.0\nclear\nmatrix texture0 (0.0, 0.5, 0.0, 0.0,  0.5, 0.0, 0.0, 0.0,  0.0, 0.0, 1.0, 0.0,  0.25, 0.0, 0.0, 1.0)\ndraw rect -1 -1 2 2\n" +
       "\n".join(probe(x, y, (lambda s, t: (0.5 * t + 0.25, 0.5 * s, 0.5, 1))((x + .5) / 64, (y + .5) / 64)) for (x, y) in GRID),
       ("GL_ARB_vertex_program",), gl_req=("GL_ARB_vertex_program",), self_twin=True, tol=2, why="interpolated values; 8-bit rounding")

lscene("arbvp_nvvp2_option_branch", "ARBvp1.0 with OPTION NV_vertex_program2: a BRA loop with condition codes and a CAL/RET subroutine, like the VP2.0 scene, in ARB syntax: colour = 0.25 * floor(vertex.texcoord[0].x).",
       "NV_vertex_program2_option (ARB_vertex_program option: BRA, CAL, RET, labels, condition codes, FLR)",
       [("vertex program", """!!ARBvp1.0
OPTION NV_vertex_program2;
TEMP acc, cnt;
MOV result.position, vertex.position;
MOV acc, 0.0;
FLRC cnt.x, vertex.texcoord[0].x;
BRA done (LE.x);
top:
CAL addone;
ADDC cnt.x, cnt.x, -1.0;
BRA top (GT.x);
done:
MOV result.color, acc;
MOV result.color.w, 1.0;
RET;
addone:
ADD acc.xyz, acc, 0.25;
RET;
END""")],
       [("vertex shader", """#version 450 compatibility
out vec4 c;
void main() {
  gl_Position = gl_Vertex;
  float acc = 0.0;
  for (int i = 0; i < int(floor(gl_MultiTexCoord0.x)); i++) acc += 0.25;
  c = vec4(vec3(acc), 1.0);
}"""), ("fragment shader", "#version 450\nin vec4 c;\nout vec4 color;\nvoid main() { color = c; }")],
       "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_TRIANGLES 0 12\n" +
       "\n".join(probe(x, y, (k*.25, k*.25, k*.25, 1)) for (x, y, k) in [(8, 8, 0), (40, 8, 1), (8, 40, 2), (40, 40, 3)]),
       ("GL_ARB_vertex_program", "GL_NV_vertex_program2_option"), gl_req=("GL >= 4.5", "GLSL >= 4.50"),
       vdata="vertex/float/4 texcoord0/float/4\n" + "\n".join("%r %r 0.0 1.0  %r 0 0 1" % (x0 + dx, y0 + dy, k + 0.5)
                   for k, (x0, y0) in enumerate([(-1.0, -1.0), (0.0, -1.0), (-1.0, 0.0), (0.0, 0.0)])
                   for (dx, dy) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)]))
