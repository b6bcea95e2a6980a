from gen import *
import math
R = "raster"
def n(p, size=64): return p / (size / 2.0) - 1.0
VPC = """!!NVvp5.0
MOV result.position, vertex.attrib[0];
MOV result.color, vertex.attrib[1];
END"""
FPC = """!!NVfp5.0
MOV result.color, fragment.color;
END"""
VSC = """#version 450
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
out vec4 c;
void main() { gl_Position = pos; c = col; }"""
FSC = """#version 450
in vec4 c;
out vec4 color;
void main() { color = c; }"""
def vd(rows):
    return "0/float/4 1/float/4\n" + "\n".join("%s %s 0.0 1.0  %s" % (repr(n(x)), repr(n(y)), " ".join(repr(float(c)) for c in col)) for (x, y, col) in rows)
def cs(name, what, spec, rows, test, tol=1, pixels=0, why="flat colours", nvvp=VPC, nvfp=FPC, glvs=VSC, glfs=FSC, vdata=None, **kw):
    scene(R, name, what, spec, tol, pixels, why, [("vertex program", nvvp), ("fragment program", nvfp)],
          [("vertex shader", glvs), ("fragment shader", glfs)], test, vdata=vd(rows) if rows is not None else vdata, **kw)

Q = (0.25, 0.25, 0.25, 1.0)
tri = []
c = (32.5, 32.5)
sq = [(8.5, 8.5), (56.5, 8.5), (56.5, 56.5), (8.5, 56.5)]
for i in range(4):
    a = sq[i]; b = sq[(i+1) % 4]
    tri += [(a[0], a[1], Q), (b[0], b[1], Q), (c[0], c[1], Q)]
cs("fill_shared_edges_additive", "Four triangles meeting at a pixel centre, with diagonal shared edges through pixel centres, drawn with additive blending: every covered pixel is hit exactly once (0.25), never twice, no gaps.",
   "OpenGL 3.5.1 polygon rasterization (shared-edge rule: a fragment on a shared edge belongs to exactly one polygon); glemu DESIGN fill convention = llvmpipe's",
   tri, "clear color 0.0 0.0 0.0 0.0\nclear\nenable GL_BLEND\nblend func GL_ONE GL_ONE\ndraw arrays GL_TRIANGLES 0 12\n" +
   "\n".join(probe(x, y, Q) for (x, y) in [(20, 20), (44, 20), (20, 44), (44, 44), (32, 32), (32, 10), (10, 32), (32, 20)]),
   why="exact; the outer edges through pixel centres follow the fill convention (llvmpipe's) and are checked by the PNG")

import random
rnd = random.Random(7)
rows = []
for k in range(12):
    cx = rnd.randint(6, 58) + rnd.randint(0, 15)/16; cy = rnd.randint(6, 58) + rnd.randint(0, 15)/16
    col = (rnd.choice([0.2, 0.6, 1.0]), rnd.choice([0.2, 0.6, 1.0]), rnd.choice([0.2, 0.6, 1.0]), 1.0)
    pts = [(cx + rnd.randint(-96, 96)/16, cy + rnd.randint(-96, 96)/16) for _ in range(3)]
    rows += [(p[0], p[1], col) for p in pts]
cs("subpixel_triangles", "Twelve overlapping triangles with vertices on a 1/16-pixel grid (exactly representable with 8 subpixel bits), drawn in order: coverage of slivers and tiny triangles, submission order.",
   "OpenGL 3.5.1 polygon rasterization (pixel centre sampling); submission order of fragment writes",
   rows, "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_TRIANGLES 0 36", why="exact colours; coverage must match the reference pixel for pixel")

L = (1.0, 0.8, 0.2, 1.0)
lrows = [(4.5, 10.5, L), (59.5, 10.5, L), (50.5, 4.5, L), (50.5, 59.5, L), (8.25, 20.25, L), (40.75, 52.75, L),
         (12.3, 60.1, L), (44.6, 30.8, L)]
cs("lines_diamond_exit", "Independent GL_LINES: horizontal and vertical lines along pixel centres, a 45-degree line and a shallow x-major line, width 1.",
   "OpenGL 3.4.1 basic line segment rasterization (diamond-exit rule)",
   lrows, "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_LINES 0 8\n" +
   "\n".join(probe(x, y, L) for (x, y) in [(30, 10), (50, 30), (24, 36)]) + "\n" + probe(30, 11, (0, 0, 0, 1)),
   pixels=4, why="line endpoints: the diamond-exit rule leaves implementations a choice at exact ties; at most 4 endpoint pixels may differ")

srows = [(8.5, 8.5, (1, 0, 0, 1)), (56.5, 8.5, (0, 1, 0, 1)), (56.5, 56.5, (0, 0, 1, 1)), (8.5, 56.5, (1, 1, 1, 1))]
cs("line_loop_colors", "GL_LINE_LOOP through four corners with per-vertex colours: smooth colour interpolation along each line and the closing segment.",
   "OpenGL 3.4.1 line segment rasterization and attribute interpolation along lines; 2.6.1 LINE_LOOP",
   srows, "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_LINE_LOOP 0 4\n" + probe(32, 32, (0, 0, 0, 1)),
   tol=3, pixels=6, why="interpolated colours along lines; endpoint pixels of a loop depend on the diamond-exit tie choice")

W = (0.3, 1.0, 0.6, 1.0)
cs("wide_lines", "Line width 3 on horizontal and vertical lines: a 3-pixel-wide span centred on the line.",
   "OpenGL 3.4.2 wide lines (non-antialiased: spans of width w perpendicular to the major axis)",
   [(6.0, 20.5, W), (58.0, 20.5, W), (40.5, 30.0, W), (40.5, 60.0, W)],
   "clear color 0.0 0.0 0.0 1.0\nclear\nline width 3\ndraw arrays GL_LINES 0 4\n" +
   "\n".join(probe(x, y, W) for (x, y) in [(20, 19), (20, 20), (20, 21), (39, 45), (40, 45), (41, 45)]) + "\n" +
   "\n".join(probe(x, y, (0, 0, 0, 1)) for (x, y) in [(20, 18), (20, 22), (38, 45), (42, 45)]),
   pixels=4, why="line ends (endpoint caps) may differ by a pixel per end")

P = (1.0, 0.5, 0.0, 1.0)
cs("points_sizes", "GL_POINTS of size 1, 3 and 4: size 4 centred on a pixel corner covers 4x4 pixels, size 3 centred on a pixel centre covers 3x3.",
   "OpenGL 3.3 points (non-antialiased square points)",
   [(10.5, 10.5, P), (20.0, 20.0, P), (40.5, 40.5, P), (50.0, 14.0, P)],
   "clear color 0.0 0.0 0.0 1.0\nclear\npoint size 1\ndraw arrays GL_POINTS 0 1\npoint size 4\ndraw arrays GL_POINTS 1 1\npoint size 3\ndraw arrays GL_POINTS 2 1\npoint size 4\ndraw arrays GL_POINTS 3 1\n" +
   "probe rect rgba (18, 18, 4, 4) (1.0, 0.5, 0.0, 1.0)\nprobe rect rgba (39, 39, 3, 3) (1.0, 0.5, 0.0, 1.0)\nprobe rect rgba (48, 12, 4, 4) (1.0, 0.5, 0.0, 1.0)\n" +
   probe(10, 10, P) + "\n" + probe(11, 10, (0, 0, 0, 1)) + "\n" + probe(22, 20, (0, 0, 0, 1)) + "\n" + probe(38, 40, (0, 0, 0, 1)))

cs("program_point_size", "result.pointsize written by the vertex program (PROGRAM_POINT_SIZE enabled): sizes 2, 5, 8 taken from the vertex data.",
   "NV_vertex_program4 result.pointsize; OpenGL 3.3 (VERTEX_PROGRAM_POINT_SIZE)",
   None, "clear color 0.0 0.0 0.0 1.0\nclear\nenable GL_PROGRAM_POINT_SIZE\ndraw arrays GL_POINTS 0 3\n" +
   "probe rect rgba (11, 11, 2, 2) (1.0, 1.0, 1.0, 1.0)\nprobe rect rgba (30, 30, 5, 5) (1.0, 1.0, 1.0, 1.0)\nprobe rect rgba (44, 12, 8, 8) (1.0, 1.0, 1.0, 1.0)\n" +
   probe(13, 12, (0, 0, 0, 1)) + "\n" + probe(35, 32, (0, 0, 0, 1)),
   nvvp="""!!NVvp5.0
MOV result.position, vertex.attrib[0];
MOV result.pointsize.x, vertex.attrib[1].x;
MOV result.color, 1.0;
END""", nvfp=FPC,
   glvs="""#version 450
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 ps;
out vec4 c;
void main() { gl_Position = pos; gl_PointSize = ps.x; c = vec4(1.0); }""",
   vdata="0/float/4 1/float/4\n%r %r 0.0 1.0  2.0 0.0 0.0 0.0\n%r %r 0.0 1.0  5.0 0.0 0.0 0.0\n%r %r 0.0 1.0  8.0 0.0 0.0 0.0" % (n(12), n(12), n(32.5), n(32.5), n(48), n(16)))

# parameter-driven rect scenes
VPP = """!!NVvp5.0
MOV result.position, vertex.position;
MOV result.position.z, program.env[0].x;
MOV result.color, program.env[1];
END"""
VSP = """#version 450
layout(location = 0) in vec4 piglit_vertex;
uniform float z;
uniform vec4 col;
out vec4 c;
void main() { gl_Position = vec4(piglit_vertex.xy, z, 1.0); c = col; }"""
def setp(z, col):
    return "NV: parameter env_vp 0 (%r, 0.0, 0.0, 0.0)\nNV: parameter env_vp 1 (%s)\nGL: uniform float z %r\nGL: uniform vec4 col %s" % (
        z, ", ".join(repr(float(v)) for v in col), z, " ".join(repr(float(v)) for v in col))
def rect(z, col, x, y, w, h):
    return setp(z, col) + "\ndraw rect %r %r %r %r" % (n(x), n(y), w/32.0, h/32.0)
def ps(name, what, spec, test, **kw):
    cs(name, what, spec, None, test, nvvp=VPP, glvs=VSP, **kw)

RED = (1, 0, 0, 1); GREEN = (0, 1, 0, 1); BLUE = (0, 0, 1, 1); WHITE = (1, 1, 1, 1); BLACK = (0, 0, 0, 1)
ps("depth_funcs", "Depth test with LESS, GREATER, EQUAL and ALWAYS on overlapping rectangles at different depths.",
   "OpenGL 4.1.6 depth buffer test; 2.13.1 depth range mapping z_w = (z_ndc + 1)/2",
   "clear color 0.0 0.0 0.0 1.0\nclear depth 1.0\nclear\nenable GL_DEPTH_TEST\ndepthfunc GL_LESS\n" +
   rect(0.0, RED, 8, 8, 40, 40) + "\n" + rect(0.5, GREEN, 24, 24, 32, 32) + "\n" + rect(-0.5, BLUE, 40, 8, 16, 16) + "\n" +
   "depthfunc GL_GREATER\n" + rect(0.25, WHITE, 0, 40, 16, 16) + "\n" +
   "depthfunc GL_EQUAL\n" + rect(0.0, (1, 1, 0, 1), 4, 4, 12, 12) + "\n" +
   "depthfunc GL_ALWAYS\n" + rect(0.9, (0, 1, 1, 1), 56, 56, 8, 8) + "\n" +
   "\n".join([probe(16, 30, RED), probe(30, 30, RED), probe(52, 52, GREEN), probe(44, 12, BLUE), probe(10, 44, WHITE),
              probe(2, 50, BLACK), probe(10, 10, (1, 1, 0, 1)), probe(6, 6, BLACK), probe(60, 60, (0, 1, 1, 1))]) +
   "\nprobe depth 16 30 0.5\nprobe depth 52 52 0.75\nprobe depth 44 12 0.25")

ps("depth_mask_off", "DEPTHMASK off: a near rectangle passes the test but does not write depth, so a later farther one still draws over it.",
   "OpenGL 4.2.2 DepthMask; 4.1.6 depth test",
   "clear color 0.0 0.0 0.0 1.0\nclear depth 1.0\nclear\nenable GL_DEPTH_TEST\ndepthfunc GL_LESS\ndepthmask off\n" +
   rect(-0.5, RED, 8, 8, 32, 32) + "\ndepthmask on\n" + rect(0.5, GREEN, 24, 24, 32, 32) + "\n" +
   "\n".join([probe(12, 12, RED), probe(30, 30, GREEN), probe(50, 50, GREEN)]) + "\nprobe depth 12 12 1.0\nprobe depth 30 30 0.75")

ps("stencil_ops", "Stencil INCR/DECR/REPLACE/INVERT with overlapping rectangles, then EQUAL tests reveal the stencil counts.",
   "OpenGL 4.1.5 stencil test and stencil operations",
   "clear color 0.0 0.0 0.0 1.0\nclear stencil 0\nclear\nenable GL_STENCIL_TEST\nstencil func GL_ALWAYS 0 255\nstencil op GL_KEEP GL_KEEP GL_INCR\n" +
   rect(0.0, (0.1, 0.1, 0.1, 1), 4, 4, 40, 40) + "\n" + rect(0.0, (0.1, 0.1, 0.1, 1), 20, 20, 40, 40) + "\n" +
   "stencil op GL_KEEP GL_KEEP GL_REPLACE\nstencil func GL_ALWAYS 7 255\n" + rect(0.0, (0.1, 0.1, 0.1, 1), 48, 0, 16, 12) + "\n" +
   "stencil op GL_KEEP GL_KEEP GL_INVERT\nstencil func GL_ALWAYS 0 255\n" + rect(0.0, (0.1, 0.1, 0.1, 1), 0, 52, 12, 12) + "\n" +
   "stencil op GL_KEEP GL_KEEP GL_KEEP\nstencil func GL_EQUAL 1 255\n" + rect(0.0, RED, 0, 0, 64, 64) + "\n" +
   "stencil func GL_EQUAL 2 255\n" + rect(0.0, GREEN, 0, 0, 64, 64) + "\n" +
   "stencil func GL_EQUAL 7 255\n" + rect(0.0, BLUE, 0, 0, 64, 64) + "\n" +
   "stencil func GL_EQUAL 255 255\n" + rect(0.0, WHITE, 0, 0, 64, 64) + "\n" +
   "\n".join([probe(8, 8, RED), probe(30, 30, GREEN), probe(55, 55, RED), probe(56, 4, BLUE), probe(4, 60, WHITE), probe(60, 30, (0, 0, 0, 1)) if False else probe(62, 30, BLACK), probe(2, 40, (0.1, 0.1, 0.1, 1)) if False else probe(45, 10, (0, 0, 0, 1))]) +
   "\nprobe stencil 8 8 1\nprobe stencil 30 30 2\nprobe stencil 56 4 7\nprobe stencil 4 60 255")

ps("stencil_masks", "Stencil function masks: REF/MASK compare only the masked bits (EQUAL 4 under mask 4 passes on 12); GREATER compares the full values.",
   "OpenGL 4.1.5 stencil test (masked comparison), 4.2.2 StencilMask via the func mask",
   "clear color 0.0 0.0 0.0 1.0\nclear stencil 12\nclear\nenable GL_STENCIL_TEST\nstencil func GL_EQUAL 4 4\nstencil op GL_KEEP GL_KEEP GL_INCR\n" +
   rect(0.0, RED, 0, 0, 32, 64) + "\nstencil func GL_GREATER 16 255\n" + rect(0.0, GREEN, 32, 0, 32, 32) + "\n" +
   "stencil func GL_EQUAL 13 255\nstencil op GL_KEEP GL_KEEP GL_KEEP\n" + rect(0.0, BLUE, 0, 32, 64, 32) + "\n" +
   "\n".join([probe(10, 10, RED), probe(40, 10, GREEN), probe(10, 50, BLUE), probe(50, 50, BLACK)]) + "\nprobe stencil 10 10 13\nprobe stencil 40 10 13\nprobe stencil 50 50 12")

def blend_scene(name, what, spec, setup, src, dst_clear, expect):
    ps(name, what, spec, "clear color %s\nclear\n" % " ".join(repr(float(v)) for v in dst_clear) + setup + "\nenable GL_BLEND\n" +
       rect(0.0, src, 8, 8, 48, 48) + "\n" + probe(32, 32, expect) + "\n" + probe(2, 2, dst_clear), tol=1,
       why="blending of exact 8-bit values; rounding of the blend result")
blend_scene("blend_src_alpha", "SRC_ALPHA / ONE_MINUS_SRC_ALPHA blending of a 25% opaque colour over a coloured background.",
            "OpenGL 4.1.8 blending (BlendFunc)", "blend func GL_SRC_ALPHA GL_ONE_MINUS_SRC_ALPHA",
            (1.0, 0.6, 0.2, 0.25), (0.2, 0.4, 0.8, 1.0), (0.25*1+0.75*.2, .25*.6+.75*.4, .25*.2+.75*.8, .25*.25+.75*1))
blend_scene("blend_separate_funcs", "BlendFuncSeparate: colour ONE/ONE (additive), alpha ZERO/SRC_ALPHA.",
            "OpenGL 4.1.8 BlendFuncSeparate", "blend func GL_ONE GL_ONE GL_ZERO GL_SRC_ALPHA",
            (0.25, 0.5, 0.125, 0.5), (0.5, 0.25, 0.5, 0.8), (0.75, 0.75, 0.625, 0.4))
blend_scene("blend_equation_subtract", "Blend equations FUNC_REVERSE_SUBTRACT for colour and MAX for alpha.",
            "OpenGL 4.1.8 BlendEquationSeparate (FUNC_REVERSE_SUBTRACT, MAX)",
            "blend func GL_ONE GL_ONE\nblend equation GL_FUNC_REVERSE_SUBTRACT GL_MAX",
            (0.25, 0.5, 0.75, 0.3), (0.5, 0.75, 0.5, 0.6), (0.25, 0.25, 0.0, 0.6))
blend_scene("blend_min_max", "Blend equation MIN for colour (factors ignored) and FUNC_SUBTRACT for alpha.",
            "OpenGL 4.1.8 BlendEquationSeparate (MIN ignores the factors, FUNC_SUBTRACT)",
            "blend func GL_ONE GL_ONE\nblend equation GL_MIN GL_FUNC_SUBTRACT",
            (0.25, 0.8, 0.5, 0.9), (0.5, 0.4, 0.5, 0.4), (0.25, 0.4, 0.5, 0.5))
blend_scene("blend_constant_color", "CONSTANT_COLOR / ONE_MINUS_CONSTANT_ALPHA with a blend colour.",
            "OpenGL 4.1.8 BlendColor, CONSTANT_COLOR, ONE_MINUS_CONSTANT_ALPHA",
            "blend color 0.5 0.25 1.0 0.75\nblend func GL_CONSTANT_COLOR GL_ONE_MINUS_CONSTANT_ALPHA",
            (0.8, 0.8, 0.4, 1.0), (0.4, 0.8, 0.4, 1.0), (0.4+0.1, 0.2+0.2, 0.4+0.1, 0.75+0.25))

ps("color_mask", "ColorMask: red and alpha writes disabled for the second rectangle.",
   "OpenGL 4.2.2 ColorMask",
   "clear color 0.0 0.0 0.0 0.5\nclear\n" + rect(0.0, (0.2, 0.2, 0.2, 0.2), 0, 0, 64, 32) + "\ncolor mask 0 1 1 0\n" + rect(0.0, (1, 1, 1, 1), 16, 16, 32, 32) +
   "\ncolor mask 1 1 1 1\n" + "\n".join([probe(8, 8, (.2, .2, .2, .2)), probe(30, 24, (.2, 1, 1, .2)), probe(30, 40, (0, 1, 1, .5)), probe(60, 60, (0, 0, 0, .5))]))

ps("scissor_viewport", "Scissor test and a non-default viewport: the rectangle is mapped into the viewport and clipped by the scissor box.",
   "OpenGL 2.13.1 viewport transformation; 4.1.2 scissor test",
   "clear color 0.0 0.0 0.0 1.0\nclear\nviewport 16 8 32 48\nenable GL_SCISSOR_TEST\nscissor 20 0 64 40\n" + rect(0.0, GREEN, 0, 0, 64, 64) +
   "\ndisable GL_SCISSOR_TEST\nviewport 0 0 64 64\n" + "\n".join([probe(30, 20, GREEN), probe(18, 20, BLACK), probe(30, 45, BLACK), probe(50, 20, BLACK), probe(20, 8, GREEN), probe(47, 39, GREEN)]))

crow = []
def tri_rows(pts, col): return [(x, y, col) for (x, y) in pts]
ccw = [(4.0, 4.0), (28.0, 4.0), (4.0, 28.0)]
cw = [(36.0, 4.0), (36.0, 28.0), (60.0, 4.0)]
ccw2 = [(4.0, 36.0), (28.0, 36.0), (4.0, 60.0)]
cw2 = [(36.0, 36.0), (36.0, 60.0), (60.0, 36.0)]
cs("cull_face_frontface", "Face culling: first CULL_FACE BACK with CCW front (the clockwise triangle disappears), then FRONT with front face CW for the upper pair.",
   "OpenGL 3.5.1 polygon facing (signed area), CullFace, FrontFace",
   tri_rows(ccw, RED) + tri_rows(cw, GREEN) + tri_rows(ccw2, BLUE) + tri_rows(cw2, WHITE),
   "clear color 0.0 0.0 0.0 1.0\nclear\nenable GL_CULL_FACE\ncull face GL_BACK\ndraw arrays GL_TRIANGLES 0 6\nfrontface cw\ncull face GL_FRONT\ndraw arrays GL_TRIANGLES 6 6\n" +
   "\n".join([probe(8, 8, RED), probe(40, 8, BLACK), probe(8, 40, BLUE), probe(40, 40, BLACK)]))

ps("polygon_offset_fill", "Polygon offset (factor 0, units -4) lets a coplanar second rectangle pass a LESS depth test; without it the test fails.",
   "OpenGL 3.5.5 depth offset (POLYGON_OFFSET_FILL, units r = minimum resolvable difference)",
   "clear color 0.0 0.0 0.0 1.0\nclear depth 1.0\nclear\nenable GL_DEPTH_TEST\ndepthfunc GL_LESS\n" + rect(0.25, RED, 0, 0, 64, 64) + "\n" +
   rect(0.25, GREEN, 0, 0, 32, 64) + "\nenable GL_POLYGON_OFFSET_FILL\npolygon offset 0 -4\n" + rect(0.25, BLUE, 32, 0, 32, 64) + "\n" +
   "\n".join([probe(16, 32, RED), probe(48, 32, BLUE)]))

FL = [(8.0, 8.0, RED), (56.0, 8.0, GREEN), (32.0, 56.0, BLUE)]
cs("flat_shading_provoking", "SHADE_MODEL FLAT flat-shades the primary colour from the provoking vertex: last vertex by default (blue), first vertex after `provoking vertex first` (red).",
   "OpenGL 2.19 flatshading (ShadeModel, Table 2.15 provoking vertex), ARB_provoking_vertex",
   FL + [(x, y + 0, col) for (x, y, col) in []],
   "clear color 0.0 0.0 0.0 1.0\nclear\nshade model flat\nviewport 0 0 32 64\ndraw arrays GL_TRIANGLES 0 3\nprovoking vertex first\nviewport 32 0 32 64\ndraw arrays GL_TRIANGLES 0 3\nprovoking vertex last\nviewport 0 0 64 64\n" +
   "\n".join([probe(16, 20, BLUE), probe(48, 20, RED)]),
   glvs="""#version 450 compatibility
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
void main() { gl_Position = pos; gl_FrontColor = col; }""",
   glfs="""#version 450 compatibility
void main() { gl_FragColor = gl_Color; }""")

NP = [(-1.0, -1.0, 0.0, 1.0, 0.0), (1.0, -1.0, 0.0, 1.0, 1.0), (-3.0, 3.0, 0.0, 3.0, 0.0), (3.0, 3.0, 0.0, 3.0, 1.0)]
scene(R, "noperspective_vs_perspective", "The same value written to two attributes, interpolated perspective-correctly (left half, red) and with NOPERSPECTIVE (right half, green) on a quad with w = 1 .. 3 (one binding may not carry two interpolation modes).",
      "NV_fragment_program4 NOPERSPECTIVE attribute modifier; OpenGL 3.5.1 (perspective-correct vs linear interpolation)", 2, 0, "smooth values; 8-bit rounding",
      [("vertex program", "!!NVvp5.0\nMOV result.position, vertex.attrib[0];\nMOV result.attrib[0], vertex.attrib[1];\nMOV result.attrib[1], vertex.attrib[1];\nEND"),
       ("fragment program", """!!NVfp5.0
ATTRIB a = fragment.attrib[0];
NOPERSPECTIVE ATTRIB b = fragment.attrib[1];
TEMP r;
SLT r.x, fragment.position.x, 32.0;
MUL r.x, r.x, a.x;
SGE r.y, fragment.position.x, 32.0;
MUL r.y, r.y, b.x;
MOV r.zw, {0.0, 0.0, 0.0, 1.0};
MOV result.color, r;
END""")],
      [("vertex shader", "#version 450\nlayout(location = 0) in vec4 pos;\nlayout(location = 1) in vec4 v;\nout vec4 a;\nnoperspective out vec4 b;\nvoid main() { gl_Position = pos; a = v; b = v; }"),
       ("fragment shader", "#version 450\nin vec4 a;\nnoperspective in vec4 b;\nout vec4 color;\nvoid main() { color = vec4(gl_FragCoord.x < 32.0 ? a.x : 0.0, gl_FragCoord.x >= 32.0 ? b.x : 0.0, 0.0, 1.0); }")],
      "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_TRIANGLE_STRIP 0 4\n" +
      "\n".join(probe(x, y, (((x+.5)/64 if x < 32 else 0), (0 if x < 32 else (x+.5)/64), 0, 1)) for (x, y) in [(5, 3), (60, 3)]),
      vdata="0/float/4 1/float/4\n" + "\n".join("%r %r %r %r  %r 0.0 0.0 0.0" % r for r in NP))

ps("polygon_mode_line", "POLYGON_MODE LINE for front and back faces: a rectangle drawn as its outline (triangle strip edges, incl. the diagonal).",
   "OpenGL 3.5.4 polygon mode (edges rasterized as lines)",
   "clear color 0.0 0.0 0.0 1.0\nclear\npolygon mode GL_FRONT_AND_BACK GL_LINE\n" + rect(0.0, GREEN, 8.5, 8.5, 47, 47) + "\npolygon mode GL_FRONT_AND_BACK GL_FILL\n" +
   "\n".join([probe(30, 8, GREEN), probe(8, 30, GREEN), probe(30, 33, GREEN), probe(20, 40, BLACK), probe(40, 20, BLACK)]),
   pixels=6, why="edge lines: corner pixels depend on the diamond-exit tie choice")

cs("clip_distance", "result.clip[0] from the vertex program with CLIP_DISTANCE0 enabled: the triangle is clipped where x + 0.25*y < 0.2 (distance interpolated linearly).",
   "NV_vertex_program4 result.clip[n]; OpenGL 2.20 clipping with clip distances",
   None, "clear color 0.0 0.0 0.0 1.0\nclear\nenable GL_CLIP_DISTANCE0\ndraw arrays GL_TRIANGLE_STRIP 0 4\ndisable GL_CLIP_DISTANCE0\n" +
   "\n".join(probe(x, y, (0.2, 0.9, 0.4, 1) if n(x+.5) + 0.25*n(y+.5) >= 0.2 else BLACK) for (x, y) in [(50, 10), (20, 30), (45, 50), (38, 2), (30, 60)]),
   pixels=0, why="clip edge is where the interpolated distance crosses 0; the PNG checks the edge",
   nvvp="""!!NVvp5.0
TEMP d;
MOV result.position, vertex.attrib[0];
MAD d.x, vertex.attrib[0].y, 0.25, vertex.attrib[0].x;
ADD result.clip[0].x, d.x, -0.2;
MOV result.color, {0.2, 0.9, 0.4, 1.0};
END""",
   glvs="""#version 450
layout(location = 0) in vec4 pos;
out vec4 c;
void main() { gl_Position = pos; gl_ClipDistance[0] = pos.x + 0.25 * pos.y - 0.2; c = vec4(0.2, 0.9, 0.4, 1.0); }""",
   vdata="0/float/4\n-1.0 -1.0 0.0 1.0\n1.0 -1.0 0.0 1.0\n-1.0 1.0 0.0 1.0\n1.0 1.0 0.0 1.0")

cs("depth_clamp", "DEPTH_CLAMP: a rectangle beyond the far plane (z_ndc = 1.5) is not clipped but its depth clamps to 1.0; without depth clamp it disappears.",
   "ARB_depth_clamp / OpenGL 2.20 (clipping against near/far disabled), 2.13.1 depth clamping",
   None, "clear color 0.0 0.0 0.0 1.0\nclear depth 1.0\nclear\nenable GL_DEPTH_TEST\ndepthfunc GL_LEQUAL\nenable GL_DEPTH_CLAMP\n" + setp(1.5, GREEN) + "\ndraw rect -1 -1 1 2\ndisable GL_DEPTH_CLAMP\n" + setp(1.5, RED) + "\ndraw rect 0 -1 1 2\n" +
   probe(16, 32, GREEN) + "\n" + probe(48, 32, BLACK) + "\nprobe depth 16 32 1.0", nvvp=VPP, glvs=VSP)

cs("primitive_restart", "PRIMITIVE_RESTART with the default restart index 0 splits an indexed triangle strip into two separate strips (vertex 0 is an unused dummy).",
   "OpenGL 2.8 primitive restart (PrimitiveRestartIndex)",
   [(32, 32, WHITE), (4, 4, RED), (28, 4, RED), (4, 28, RED), (28, 28, RED), (36, 36, BLUE), (60, 36, BLUE), (36, 60, BLUE), (60, 60, BLUE)],
   "clear color 0.0 0.0 0.0 1.0\nclear\nenable GL_PRIMITIVE_RESTART\ndraw elements GL_TRIANGLE_STRIP 9\ndisable GL_PRIMITIVE_RESTART\n" +
   "\n".join([probe(10, 10, RED), probe(50, 50, BLUE), probe(32, 32, BLACK), probe(50, 10, BLACK), probe(10, 50, BLACK)]),
   elements="1 2 3 4 0 5 6 7 8")

cs("two_sided_color", "VERTEX_PROGRAM_TWO_SIDE: back-facing triangles take result.color.back, front-facing ones result.color.",
   "NV_vertex_program4 result.color.back; OpenGL 2.19.1 two-sided colour selection (VERTEX_PROGRAM_TWO_SIDE)",
   [(4, 4, RED), (60, 4, RED), (4, 28, RED), (4, 36, RED), (4, 60, RED), (60, 36, RED)],
   "clear color 0.0 0.0 0.0 1.0\nclear\nenable GL_VERTEX_PROGRAM_TWO_SIDE\ndraw arrays GL_TRIANGLES 0 6\ndisable GL_VERTEX_PROGRAM_TWO_SIDE\n" +
   probe(10, 10, (1, 0.5, 0, 1)) + "\n" + probe(10, 50, (0, 0.5, 1, 1)),
   nvvp="""!!NVvp5.0
MOV result.position, vertex.attrib[0];
MOV result.color, {1.0, 0.5, 0.0, 1.0};
MOV result.color.back, {0.0, 0.5, 1.0, 1.0};
END""",
   glvs="""#version 450 compatibility
layout(location = 0) in vec4 pos;
void main() { gl_Position = pos; gl_FrontColor = vec4(1.0, 0.5, 0.0, 1.0); gl_BackColor = vec4(0.0, 0.5, 1.0, 1.0); }""",
   glfs="#version 450 compatibility\nvoid main() { gl_FragColor = gl_Color; }")

cs("fragment_depth_output", "result.depth written by the fragment program (z = s) decides a LESS depth test against a flat rectangle at depth 0.5.",
   "NV_fragment_program4 result.depth (z component); OpenGL 4.1.6 depth test",
   None, "clear color 0.0 0.0 0.0 1.0\nclear depth 1.0\nclear\nenable GL_DEPTH_TEST\ndepthfunc GL_LESS\n" + setp(0.0, BLUE) + "\ndraw rect -1 -1 2 2\n" +
   "NV: parameter env_vp 1 (1.0, 1.0, 0.0, 1.0)\nGL: uniform vec4 col 1.0 1.0 0.0 1.0\nGL: uniform int wdepth 1\nNV: parameter env_fp 0 (1.0, 0.0, 0.0, 0.0)\ndraw rect -1 -1 2 2\n" +
   probe(10, 30, (1, 1, 0, 1)) + "\n" + probe(54, 30, BLUE) + "\nprobe depth 10 30 0.1640625",
   nvvp=VPP, glvs=VSP, nvfp="""!!NVfp5.0
TEMP d;
MUL d.z, fragment.position.x, 0.015625;
MOV d.w, program.env[0].x;
MOV result.color, fragment.color;
CMP result.depth.z, -d.w, d.z, fragment.position.z;
END""", glfs="""#version 450
in vec4 c;
uniform int wdepth;
out vec4 color;
void main() { color = c; gl_FragDepth = wdepth != 0 ? gl_FragCoord.x * 0.015625 : gl_FragCoord.z; }""")

cs("primitive_id_fragment", "primitive.id in the fragment program (no geometry program): the index of each triangle in the draw becomes its colour.",
   "NV_fragment_program4 primitive.id (counted by the rasterizer per primitive since the draw began)",
   [(2, 2, RED), (30, 2, RED), (2, 30, RED), (30, 2, RED), (30, 30, RED), (2, 30, RED),
    (34, 34, RED), (62, 34, RED), (34, 62, RED), (62, 34, RED), (62, 62, RED), (34, 62, RED)],
   "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_TRIANGLES 0 12\n" +
   "\n".join([probe(6, 6, (0, 0, 1, 1)), probe(26, 26, (0.25, 0, 1, 1)), probe(38, 38, (0.5, 0, 1, 1)), probe(58, 58, (0.75, 0, 1, 1))]),
   nvfp="""!!NVfp5.0
INT TEMP id;
TEMP f;
MOV.S id.x, primitive.id;
I2F f.x, id.x;
MUL result.color.x, f.x, 0.25;
MOV result.color.yzw, {0.0, 0.0, 1.0, 1.0};
END""", glfs="""#version 450
in vec4 c;
out vec4 color;
void main() { color = vec4(float(gl_PrimitiveID) * 0.25, 0.0, 1.0, 1.0); }""")

ps("occlusion_query_depth", "Occlusion query (SAMPLES_PASSED since the last clear): a 32x32 rectangle (1024 samples) and a farther 32x32 one overlapping it by 16x16 (256 samples fail the LESS test): 1792 samples pass.",
   "OpenGL 4.1.7 occlusion queries (SAMPLES_PASSED counts fragments passing the depth test)",
   "clear color 0.0 0.0 0.0 1.0\nclear depth 1.0\nclear\nenable GL_DEPTH_TEST\ndepthfunc GL_LESS\n" + rect(0.0, RED, 0, 0, 32, 32) + "\n" + rect(0.5, GREEN, 16, 16, 32, 32) + "\n" +
   "probe samples passed 1792\n" + probe(8, 8, RED) + "\n" + probe(20, 20, RED) + "\n" + probe(40, 40, GREEN))

cs("point_sprite_coord", "Point sprites: with POINT_SPRITE enabled, fragment.pointcoord runs from 0 to 1 across a 16-pixel point, t from the top (POINT_SPRITE_COORD_ORIGIN = UPPER_LEFT).",
   "NV_gpu_program5 fragment.pointcoord; OpenGL 3.3.1 point sprites (COORD_ORIGIN UPPER_LEFT)",
   None, "clear color 0.0 0.0 0.0 1.0\nclear\nenable GL_POINT_SPRITE\npoint size 16\ndraw arrays GL_POINTS 0 2\ndisable GL_POINT_SPRITE\n" +
   "\n".join(probe(x, y, ((x + .5 - cx + 8) / 16, 1 - (y + .5 - cy + 8) / 16, 0, 1)) for (x, y, cx, cy) in [(8, 8, 16, 16), (23, 23, 16, 16), (12, 20, 16, 16), (40, 33, 44, 40), (50, 45, 44, 40)]) + "\n" +
   probe(30, 30, BLACK),
   nvvp="!!NVvp5.0\nMOV result.position, vertex.attrib[0];\nEND",
   nvfp="!!NVfp5.0\nMOV result.color, {0.0, 0.0, 0.0, 1.0};\nMOV result.color.xy, fragment.pointcoord;\nEND",
   glvs="#version 450\nlayout(location = 0) in vec4 pos;\nvoid main() { gl_Position = pos; }",
   glfs="#version 450\nout vec4 color;\nvoid main() { color = vec4(gl_PointCoord, 0.0, 1.0); }",
   tol=2, why="coordinates at pixel centres; 8-bit rounding",
   vdata="0/float/4\n%r %r 0.0 1.0\n%r %r 0.0 1.0" % (n(16), n(16), n(44), n(40)))

cs("kil_no_depth_stencil_write", "Killed fragments update neither depth nor stencil: pass 1 (KIL where x < 32) writes depth 0.5 and stencil 1 only on the right; pass 2 (farther, stencil EQUAL 0) then shows only on the left.",
   "NV_fragment_program4 KIL (killed fragments are discarded before per-fragment operations); OpenGL 4.1.5, 4.1.6",
   None, "clear color 0.0 0.0 0.0 1.0\nclear depth 1.0\nclear stencil 0\nclear\nenable GL_DEPTH_TEST\ndepthfunc GL_LESS\nenable GL_STENCIL_TEST\nstencil func GL_ALWAYS 1 255\nstencil op GL_KEEP GL_KEEP GL_REPLACE\n" +
   "NV: parameter env_fp 0 (0.0, 0.0, 0.0, 0.0)\nGL: uniform float pass 0.0\n" + rect(0.0, RED, 0, 0, 64, 64) + "\n" +
   "stencil func GL_EQUAL 0 255\nNV: parameter env_fp 0 (100.0, 0.0, 0.0, 0.0)\nGL: uniform float pass 100.0\n" + rect(0.5, GREEN, 0, 0, 64, 64) + "\n" +
   probe(16, 32, GREEN) + "\n" + probe(48, 32, RED) + "\nprobe depth 16 32 0.75\nprobe depth 48 32 0.5\nprobe stencil 16 32 0\nprobe stencil 48 32 1",
   nvvp=VPP, glvs=VSP, nvfp="""!!NVfp5.0
TEMP t;
SUB t.x, fragment.position.x, 32.0;
ADD t.x, t.x, program.env[0].x;
KIL t.x;
MOV result.color, fragment.color;
END""", glfs="""#version 450
in vec4 c;
uniform float pass;
out vec4 color;
void main() { if (gl_FragCoord.x - 32.0 + pass < 0.0) discard; color = c; }""")

cs("draw_elements_basevertex", "DrawElementsBaseVertex: the same 6 indices drawn with base vertex 0 (red quad, left) and 4 (blue quad, right).",
   "OpenGL 2.8.3 DrawElementsBaseVertex (basevertex added to each index)",
   [(4, 8, RED), (28, 8, RED), (4, 56, RED), (28, 56, RED), (36, 8, BLUE), (60, 8, BLUE), (36, 56, BLUE), (60, 56, BLUE)],
   "clear color 0.0 0.0 0.0 1.0\nclear\ndraw elements GL_TRIANGLES 6 0\ndraw elements GL_TRIANGLES 6 4\n" +
   "\n".join([probe(16, 32, RED), probe(48, 32, BLUE), probe(32, 32, BLACK), probe(16, 60, BLACK)]),
   elements="0 1 2 2 1 3")

def clip_rows(verts):
    return "0/float/4 1/float/4\n" + "\n".join("%r %r %r %r  %s" % (x, y, z, w, " ".join(repr(float(c)) for c in col)) for (x, y, z, w, col) in verts)
NEAR = [(-0.8, -0.8, 0.0, 1.0, RED), (0.8, -0.8, 0.0, 1.0, GREEN), (0.0, 0.8, -3.0, 1.0, BLUE)]
def near_probe(x, y):
    px, py = n(x + .5), n(y + .5)
    d = (-0.8 - 0.0) * (-0.8 - 0.8) - (0.8 - 0.0) * (-0.8 - 0.8)
    (x0, y0), (x1, y1), (x2, y2) = (-0.8, -0.8), (0.8, -0.8), (0.0, 0.8)
    den = (y1 - y2) * (x0 - x2) + (x2 - x1) * (y0 - y2)
    l0 = ((y1 - y2) * (px - x2) + (x2 - x1) * (py - y2)) / den
    l1 = ((y2 - y0) * (px - x2) + (x0 - x2) * (py - y2)) / den
    l2 = 1 - l0 - l1
    z = -3.0 * l2
    if z < -1.0: return probe(x, y, BLACK)
    return probe(x, y, (l0, l1, l2, 1))
cs("clip_near_plane", "A triangle whose top vertex lies in front of the near plane (z = -3w) is clipped at z = -w: the top third disappears and the colours of the remaining part are those of the original triangle (w = 1, linear).",
   "OpenGL 2.20 primitive clipping (near plane of the clip volume, attributes interpolated at the new vertices)",
   None, "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_TRIANGLES 0 3\n" + "\n".join(near_probe(x, y) for (x, y) in [(20, 10), (32, 20), (44, 10), (32, 40), (32, 50)]),
   vdata=clip_rows(NEAR), tol=2, pixels=0, why="interpolated colours; the clip edge is a horizontal line between pixel rows")

NEGW = [(-0.6, -0.6, 0.0, 1.0, RED), (0.6, -0.6, 0.0, 1.0, GREEN), (0.0, -0.3, 0.0, -0.5, BLUE)]
def inv3(m):
    a, b, c = m[0]; d, e, f = m[1]; g, h, i = m[2]
    det = a*(e*i-f*h) - b*(d*i-f*g) + c*(d*h-e*g)
    return [[(e*i-f*h)/det, (c*h-b*i)/det, (b*f-c*e)/det], [(f*g-d*i)/det, (a*i-c*g)/det, (c*d-a*f)/det], [(d*h-e*g)/det, (b*g-a*h)/det, (a*e-b*d)/det]]
def homog_probe(x, y, verts):
    # The points of the homogeneous triangle seen through pixel (x, y) with w > 0: solve
    # for barycentrics (a, b, c) up to a positive scale; covered iff all are positive.
    mi = inv3([[v[0] for v in verts], [v[1] for v in verts], [v[3] for v in verts]])
    p = (n(x + .5), n(y + .5), 1.0)
    u = [sum(mi[r][k] * p[k] for k in range(3)) for r in range(3)]
    if not all(t > 0 for t in u): return probe(x, y, BLACK)
    s = sum(u)
    return probe(x, y, tuple(sum(u[j] / s * verts[j][4][k] for j in range(3)) for k in range(4)))
cs("clip_negative_w", "A vertex with negative w (behind the eye): only the part of the triangle with w > 0 is visible; it projects to a wedge below y = -0.6 that widens towards the bottom edge, with perspective-correct colours (no 'external triangle').",
   "OpenGL 2.20 primitive clipping (clip volume -w <= x, y, z <= w excludes w <= 0), 3.5.1 perspective-correct interpolation",
   None, "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_TRIANGLES 0 3\n" + "\n".join(homog_probe(x, y, NEGW) for (x, y) in [(32, 2), (20, 5), (50, 3), (32, 30), (32, 60), (4, 2)]),
   vdata=clip_rows(NEGW), tol=2, pixels=4, why="perspective-correct colours near w = 0; a few edge pixels may round differently")

HUGE = [(-1000.0, -1000.0, 0.0, 1.0, (0.0, 0.0, 0.5, 1.0)), (3000.0, -1000.0, 0.0, 1.0, (1.0, 0.0, 0.5, 1.0)), (-1000.0, 3000.0, 0.0, 1.0, (0.0, 1.0, 0.5, 1.0))]
def huge_probe(x, y):
    px, py = n(x + .5), n(y + .5)
    return probe(x, y, ((px + 1000) / 4000, (py + 1000) / 4000, 0.5, 1))
cs("huge_triangle", "A triangle 2000 times larger than the viewport (clipping or guard band): the whole window is covered and the colour gradient across it is the tiny exact slice of the original interpolation.",
   "OpenGL 2.20 clipping; 3.5.1 attribute interpolation (results must not depend on how the implementation clips)",
   None, "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_TRIANGLES 0 3\n" + "\n".join(huge_probe(x, y) for (x, y) in [(0, 0), (63, 0), (0, 63), (63, 63), (32, 32)]),
   vdata=clip_rows(HUGE), tol=2, why="colours vary by less than 1/255 over the window; 8-bit rounding")

ps("stencil_depth_fail_paths", "All three stencil-op paths: with depth cleared to 0.5, the left rectangle fails the depth test (dpfail: INCR_WRAP 5 -> 6), the right one passes (dppass: DECR_WRAP 5 -> 4), and a NEVER stencil test on the top strip takes sfail (INVERT: 5 -> 250).",
   "OpenGL 4.1.5 stencil test (sfail / dpfail / dppass operations, INCR_WRAP, DECR_WRAP, INVERT)",
   "clear color 0.0 0.0 0.0 1.0\nclear depth 0.5\nclear stencil 5\nclear\nenable GL_DEPTH_TEST\ndepthfunc GL_LESS\nenable GL_STENCIL_TEST\n"
   "stencil func GL_ALWAYS 0 255\nstencil op GL_KEEP GL_INCR_WRAP GL_DECR_WRAP\n" + rect(0.5, RED, 0, 0, 32, 48) + "\n" + rect(-0.5, GREEN, 32, 0, 32, 48) + "\n" +
   "stencil func GL_NEVER 0 255\nstencil op GL_INVERT GL_KEEP GL_KEEP\n" + rect(-0.5, BLUE, 0, 48, 64, 16) + "\n" +
   "\n".join([probe(16, 24, BLACK), probe(48, 24, GREEN), probe(32, 56, BLACK)]) +
   "\nprobe stencil 16 24 6\nprobe stencil 48 24 4\nprobe stencil 16 56 250\nprobe stencil 48 56 250")

ps("scissored_masked_clear", "Clear honours the scissor box and the colour mask: after a full red clear, a green clear with scissor (16, 16, 32, 32) and colour mask (0, 1, 1, 1) only changes green/blue/alpha inside the box.",
   "OpenGL 4.2.3 Clear (affected by the pixel ownership, scissor test and write masks)",
   "clear color 1.0 0.0 0.0 1.0\nclear\nenable GL_SCISSOR_TEST\nscissor 16 16 32 32\ncolor mask 0 1 1 1\nclear color 0.0 1.0 0.5 0.25\nclear\ncolor mask 1 1 1 1\ndisable GL_SCISSOR_TEST\n" +
   "\n".join([probe(8, 8, (1, 0, 0, 1)), probe(32, 32, (1, 1, .5, .25)), probe(47, 47, (1, 1, .5, .25)), probe(48, 48, (1, 0, 0, 1))]))

blend_scene("blend_dst_alpha", "DST_ALPHA / ONE_MINUS_DST_ALPHA blending against a destination alpha of 0.25 from the clear colour.",
            "OpenGL 4.1.8 blending (destination alpha factors)", "blend func GL_DST_ALPHA GL_ONE_MINUS_DST_ALPHA",
            (1.0, 0.4, 0.8, 1.0), (0.2, 0.8, 0.4, 0.25), (0.25*1 + 0.75*0.2, 0.25*0.4 + 0.75*0.8, 0.25*0.8 + 0.75*0.4, 0.25*1 + 0.75*0.25))

E = (0.125, 0.125, 0.125, 0.125)
ctr = (32.5, 32.5)
ring = [(8.5, 32.5), (8.5, 8.5), (32.5, 8.5), (56.5, 8.5), (56.5, 32.5), (56.5, 56.5), (32.5, 56.5), (8.5, 56.5)]
fan = []
for i in range(8):
    a = ring[i]; b = ring[(i + 1) % 8]
    fan += [(ctr[0], ctr[1], E), (a[0], a[1], E), (b[0], b[1], E)]
cs("fill_fan_shared_edges", "Eight triangles around a pixel centre with horizontal, vertical and diagonal shared edges through pixel centres, additive blending: every covered pixel, the centre included, is hit exactly once (0.125).",
   "OpenGL 3.5.1 polygon rasterization (a fragment on a shared edge is produced for exactly one of the polygons)",
   fan, "clear color 0.0 0.0 0.0 0.0\nclear\nenable GL_BLEND\nblend func GL_ONE GL_ONE\ndraw arrays GL_TRIANGLES 0 24\n" +
   "\n".join(probe(x, y, E) for (x, y) in [(32, 32), (20, 32), (44, 32), (32, 20), (32, 44), (20, 20), (44, 44), (20, 44), (44, 20), (12, 30)]),
   why="exact; outer edges through pixel centres follow the fill convention (llvmpipe's) and are checked by the PNG")

def quad_rows(x0, y0, x1, y1, col):
    return [(x0, y0, col), (x1, y0, col), (x0, y1, col), (x0, y1, col), (x1, y0, col), (x1, y1, col)]
own = quad_rows(4.5, 4.5, 32.5, 32.5, RED) + quad_rows(32.5, 4.5, 60.5, 32.5, GREEN) + quad_rows(4.5, 32.5, 32.5, 60.5, BLUE) + quad_rows(32.5, 32.5, 60.5, 60.5, WHITE)
cs("fill_rule_ownership", "Four rectangles meeting on the pixel-centre lines x = 32.5 and y = 32.5 (and bounded by others at 4.5 and 60.5): which rectangle owns the pixels on a shared edge is the fill convention glemu shares with llvmpipe (top-left rule in the framebuffer-object orientation).",
   "OpenGL 3.5.1 (ownership of pixels on shared edges is implementation-defined but must be consistent); glemu DESIGN: llvmpipe's convention",
   own, "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_TRIANGLES 0 24\n" +
   "\n".join(probe(x, y, c) for (x, y, c) in [(16, 16, RED), (48, 16, GREEN), (16, 48, BLUE), (48, 48, WHITE)]),
   why="the ownership of the centre row/column and of the outer rows/columns must match the reference exactly")

scene(R, "flat_shading_fixed_function", "No programs at all: fixed-function vertex and fragment stages with SHADE_MODEL FLAT take the colour of the provoking (last) vertex for each triangle.",
      "OpenGL 2.19 flatshading (Table 2.15: last vertex of an independent triangle); fixed-function pipeline", 1, 0, "flat colours",
      [], [], "clear color 0.0 0.0 0.0 1.0\nclear\nshade model flat\ndraw arrays GL_TRIANGLES 0 6\nshade model smooth\n" +
      "\n".join([probe(8, 16, BLUE), probe(56, 48, GREEN)]),
      vdata="vertex/float/4 color/float/4\n" + "\n".join("%r %r 0.0 1.0  %s" % (n(x), n(y), " ".join(repr(float(c)) for c in col)) for (x, y, col) in
                   [(2, 2, RED), (62, 2, GREEN), (2, 62, BLUE), (62, 2, RED), (62, 62, BLUE), (2, 62, GREEN)]),
      nv_req=(), gl_req=(), self_twin=True)

CL = [(0, 0, (2.0, -1.0, 0.5, 1.0)), (64, 0, (0.0, 1.0, 0.5, 1.0)), (0, 64, (0.0, 1.0, 0.5, 1.0)), (64, 64, (2.0, -1.0, 0.5, 1.0))]
def clamp_probe(x, y):
    # Clamped per vertex first: red (1, 0, 0, 0, ...) and green (0, 1, 1, 0) are interpolated.
    px, py = x + .5, y + .5
    if px + py <= 64:
        l1, l2 = px / 64, py / 64; l0 = 1 - l1 - l2
        w = [(l0, 0), (l1, 1), (l2, 2)]
    else:
        l1 = 1 - py / 64; l2 = 1 - px / 64; l3 = 1 - l1 - l2
        w = [(l1, 1), (l2, 2), (l3, 3)]
    cl = [tuple(min(1.0, max(0.0, c)) for c in CL[i][2]) for i in range(4)]
    return probe(x, y, tuple(sum(a * cl[i][k] for a, i in w) for k in range(4)))
cs("vertex_color_clamp", "Vertex colour clamping: result.color values of 2 and -1 are clamped to [0, 1] per vertex before interpolation (CLAMP_VERTEX_COLOR is TRUE by default), so halfway from a (2, -1) corner to the opposite green corners the colour is about (0.5, 0.5), not the (1, 0) that interpolating unclamped values and clamping afterwards gives.",
   "ARB_vertex_program 2.14.7 (colour clamping applied as primitives are assembled); ARB_color_buffer_float CLAMP_VERTEX_COLOR default TRUE",
   [(x, y, c) for (x, y, c) in [CL[0], CL[1], CL[2], CL[1], CL[3], CL[2]]],
   "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_TRIANGLES 0 6\n" + "\n".join(clamp_probe(x, y) for (x, y) in [(31, 31), (10, 20), (50, 40), (5, 5)]),
   glvs="""#version 450 compatibility
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
void main() { gl_Position = pos; gl_FrontColor = col; }""",
   glfs="#version 450 compatibility\nvoid main() { gl_FragColor = gl_Color; }", tol=2, why="interpolated colours; 8-bit rounding")
