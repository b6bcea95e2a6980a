from gen import *
from raster import n
import math
TS = "tessellation"
SPEC = "NV_tessellation_program5 (TCP VERTICES_OUT, result.patch.tessouter/tessinner, TEP TESS_MODE/TESS_SPACING/TESS_VERTEX_ORDER, vertex.tesscoord); ARB_tessellation_shader 2.X.2 primitive generation"
FPA = "!!NVfp5.0\nMOV result.color, fragment.attrib[0];\nEND"
FSA = "#version 450\nin vec4 col;\nout vec4 color;\nvoid main() { color = col; }"
VPA = "!!NVvp5.0\nMOV result.position, vertex.attrib[0];\nMOV result.attrib[0], vertex.attrib[1];\nEND"
VSA = "#version 450\nlayout(location = 0) in vec4 pos;\nlayout(location = 1) in vec4 vc;\nout vec4 vcol;\nvoid main() { gl_Position = pos; vcol = vc; }"

def tcp(nout, outer, inner, extra=""):
    lines = ["!!NVtcp5.0", "VERTICES_OUT %d;" % nout, "ATTRIB ipos = vertex.position;", "ATTRIB icol = vertex.attrib[0];", "INT TEMP id;",
             "MOV.S id.x, primitive.invocation.x;", "MOV result.position, ipos[id.x];", "MOV result.attrib[0], icol[id.x];"]
    for i, v in enumerate(outer): lines.append("MOV result.patch.tessouter[%d].x, %s;" % (i, v))
    for i, v in enumerate(inner): lines.append("MOV result.patch.tessinner[%d].x, %s;" % (i, v))
    if extra: lines.append(extra)
    lines.append("END")
    return "\n".join(lines)
def tcs(nout, outer, inner, extra=""):
    s = ["#version 450", "layout(vertices = %d) out;" % nout, "in vec4 vcol[];", "out vec4 tcol[];"]
    if "patch out" in extra: s.append(extra.split("|")[0])
    s += ["void main() {", "  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;", "  tcol[gl_InvocationID] = vcol[gl_InvocationID];"]
    for i, v in enumerate(outer): s.append("  gl_TessLevelOuter[%d] = %s;" % (i, v))
    for i, v in enumerate(inner): s.append("  gl_TessLevelInner[%d] = %s;" % (i, v))
    if "|" in extra: s.append(extra.split("|")[1])
    s.append("}")
    return "\n".join(s)
TEP_TRI = """TEMP p, c;
MUL p, vertex[0].position, vertex.tesscoord.x;
MAD p, vertex[1].position, vertex.tesscoord.y, p;
MAD result.position, vertex[2].position, vertex.tesscoord.z, p;
MOV c.xyz, vertex.tesscoord;
MOV c.w, 1.0;
MOV result.attrib[0], c;"""
TES_TRI = """  vec3 t = gl_TessCoord;
  gl_Position = gl_in[0].gl_Position * t.x + gl_in[1].gl_Position * t.y + gl_in[2].gl_Position * t.z;
  col = vec4(t, 1.0);"""
TEP_QUAD = """TEMP a, b;
LRP a, vertex.tesscoord.x, vertex[1].position, vertex[0].position;
LRP b, vertex.tesscoord.x, vertex[2].position, vertex[3].position;
LRP result.position, vertex.tesscoord.y, b, a;
MOV a, {0.0, 0.0, 0.5, 1.0};
MOV a.xy, vertex.tesscoord;
MOV result.attrib[0], a;"""
TES_QUAD = """  vec2 t = gl_TessCoord.xy;
  gl_Position = mix(mix(gl_in[0].gl_Position, gl_in[1].gl_Position, t.x), mix(gl_in[3].gl_Position, gl_in[2].gl_Position, t.x), t.y);
  col = vec4(t, 0.5, 1.0);"""
def tep(mode, spacing, order, body, point=False):
    h = ["!!NVtep5.0", "TESS_MODE %s;" % mode, "TESS_SPACING %s;" % spacing, "TESS_VERTEX_ORDER %s;" % order]
    if point: h.append("TESS_POINT_MODE;")
    return "\n".join(h) + "\n" + body + "\nEND"
def tes(mode, spacing, order, body, point=False, decl=""):
    m = {"TRIANGLES": "triangles", "QUADS": "quads", "ISOLINES": "isolines"}[mode]
    sp = {"EQUAL": "equal_spacing", "FRACTIONAL_ODD": "fractional_odd_spacing", "FRACTIONAL_EVEN": "fractional_even_spacing"}[spacing]
    lay = "layout(%s, %s, %s%s) in;" % (m, sp, order.lower(), ", point_mode" if point else "")
    return "#version 450\n%s\nin vec4 tcol[];\nout vec4 col;\n%s\nvoid main() {\n%s\n}" % (lay, decl, body)
TRI_V = "0/float/4 1/float/4\n-0.875 -0.875 0.0 1.0  1 0 0 1\n0.875 -0.875 0.0 1.0  0 1 0 1\n0.0 0.875 0.0 1.0  0 0 1 1"
QUAD_V = "0/float/4 1/float/4\n-0.875 -0.875 0.0 1.0  1 0 0 1\n0.875 -0.875 0.0 1.0  0 1 0 1\n0.875 0.875 0.0 1.0  0 0 1 1\n-0.875 0.875 0.0 1.0  1 1 1 1"
def tess_scene(name, what, nv_progs, gl_progs, vdata, test, tol=2, pixels=0, why="interpolated colours; 8-bit rounding", spec=SPEC):
    scene(TS, name, what, spec, tol, pixels, why, nv_progs, gl_progs, test, vdata=vdata,
          nv_req=("GL_NV_gpu_program5", "GL_NV_tessellation_program5", "GL_NV_transform_feedback"))

def std(name, what, mode, spacing, order, outer, inner, nverts, tep_body, tes_body, vdata, draw_test, point=False, tes_decl="", **kw):
    tess_scene(name, what,
               [("vertex program", VPA), ("tess control program", tcp(nverts, outer, inner)),
                ("tess eval program", tep(mode, spacing, order, tep_body, point)), ("fragment program", FPA)],
               [("vertex shader", VSA), ("tessellation control shader", tcs(nverts, outer, inner)),
                ("tessellation evaluation shader", tes(mode, spacing, order, tes_body, point, tes_decl)), ("fragment shader", FSA)],
               vdata, draw_test, **kw)

def xfb_wrap(prim, draw, count):
    return ("NV: xfb attribs result.position\nGL: xfb varyings gl_Position\nxfb buffer 0 65536\nbegin transform feedback %s\n%s\nend transform feedback\n"
            "probe primitives generated %d\nprobe primitives written %d" % (prim, draw, count, count))
def tri_probe(x, y, tri=((-0.875, -0.875), (0.875, -0.875), (0.0, 0.875))):
    px = n(x + .5); py = n(y + .5)
    (x0, y0), (x1, y1), (x2, y2) = tri
    d = (y1 - y2) * (x0 - x2) + (x2 - x1) * (y0 - y2)
    a = ((y1 - y2) * (px - x2) + (x2 - x1) * (py - y2)) / d
    b = ((y2 - y0) * (px - x2) + (x0 - x2) * (py - y2)) / d
    return probe(x, y, (a, b, 1 - a - b, 1))

std("tess_tri_equal_fill", "Triangle domain, EQUAL spacing, all levels 4: filled; colour = tess coordinate (u,v,w), which is linear over the flat patch; transform feedback counts the 24 generated triangles (outer ring 4+4+4 + 3*2, inner ring to the centre 3*2).",
    "TRIANGLES", "EQUAL", "CCW", ["4.0"]*3, ["4.0"], 3, TEP_TRI, TES_TRI, TRI_V,
    "clear color 0.0 0.0 0.0 1.0\nclear\npatch parameter vertices 3\n" + xfb_wrap("GL_TRIANGLES", "draw arrays GL_PATCHES 0 3", 24) + "\n" +
    "\n".join(tri_probe(x, y) for (x, y) in [(20, 10), (32, 30), (44, 10), (32, 45)]))

std("tess_tri_wireframe_levels", "Triangle domain, EQUAL spacing, outer levels 2, 3, 4 and inner level 3, drawn as lines (POLYGON_MODE LINE): the edge subdivisions and inner rings are visible.",
    "TRIANGLES", "EQUAL", "CCW", ["2.0", "3.0", "4.0"], ["3.0"], 3, TEP_TRI, TES_TRI, TRI_V,
    "clear color 0.0 0.0 0.0 1.0\nclear\npolygon mode GL_FRONT_AND_BACK GL_LINE\npatch parameter vertices 3\n" + xfb_wrap("GL_TRIANGLES", "draw arrays GL_PATCHES 0 3", 13),
    tol=3, pixels=24, why="the spec leaves the triangulation between rings partly to the implementation (Mesa: D3D11-style); edge subdivision points are exact")

def quad_probe(x, y): 
    u = (n(x + .5) + 0.875) / 1.75; v = (n(y + .5) + 0.875) / 1.75
    return probe(x, y, (u, v, 0.5, 1))
std("tess_quad_levels_fill", "Quad domain with different outer levels (2, 3, 4, 5) and inner levels (3, 4), EQUAL spacing, filled with colour (u, v); xfb counts 24 triangles (outer strips (2+2)+(3+1)+(4+2)+(5+1), inner 1x2 quads = 4).",
    "QUADS", "EQUAL", "CCW", ["2.0", "3.0", "4.0", "5.0"], ["3.0", "4.0"], 4, TEP_QUAD, TES_QUAD, QUAD_V,
    "clear color 0.0 0.0 0.0 1.0\nclear\npatch parameter vertices 4\n" + xfb_wrap("GL_TRIANGLES", "draw arrays GL_PATCHES 0 4", 24) + "\n" +
    "\n".join(quad_probe(x, y) for (x, y) in [(10, 10), (32, 32), (50, 20), (20, 50)]))

std("tess_quad_wireframe_equal", "Quad domain, all levels 3, EQUAL spacing, drawn as lines: a regular 3x3 grid of quads split into triangles.",
    "QUADS", "EQUAL", "CCW", ["3.0"]*4, ["3.0", "3.0"], 4, TEP_QUAD, TES_QUAD, QUAD_V,
    "clear color 0.0 0.0 0.0 1.0\nclear\npolygon mode GL_FRONT_AND_BACK GL_LINE\npatch parameter vertices 4\ndraw arrays GL_PATCHES 0 4",
    tol=3, pixels=24, why="the diagonal direction of each quad's split is implementation-dependent; grid lines are exact")

std("tess_fractional_odd_fill", "Quad domain with FRACTIONAL_ODD spacing, levels 3.5 / 2.5: filled with colour (u, v), which is linear whatever the fractional segment lengths are, so the image is exact.",
    "QUADS", "FRACTIONAL_ODD", "CW", ["3.5", "2.5", "3.5", "2.5"], ["3.5", "2.5"], 4, TEP_QUAD, TES_QUAD, QUAD_V,
    "clear color 0.0 0.0 0.0 1.0\nclear\npatch parameter vertices 4\ndraw arrays GL_PATCHES 0 4\n" + "\n".join(quad_probe(x, y) for (x, y) in [(10, 10), (32, 32), (50, 20)]))

ISO_TEP = """TEMP a, b;
LRP a, vertex.tesscoord.x, vertex[1].position, vertex[0].position;
LRP b, vertex.tesscoord.x, vertex[2].position, vertex[3].position;
LRP result.position, vertex.tesscoord.y, b, a;
MOV a, {1.0, 1.0, 0.0, 1.0};
MOV a.y, vertex.tesscoord.x;
MOV result.attrib[0], a;"""
ISO_TES = """  vec2 t = gl_TessCoord.xy;
  gl_Position = mix(mix(gl_in[0].gl_Position, gl_in[1].gl_Position, t.x), mix(gl_in[3].gl_Position, gl_in[2].gl_Position, t.x), t.y);
  col = vec4(1.0, t.x, 0.0, 1.0);"""
ISO_V = "0/float/4 1/float/4\n-0.9 -0.9 0.0 1.0  1 0 0 1\n0.9 -0.9 0.0 1.0  0 1 0 1\n0.9 0.9 0.0 1.0  0 0 1 1\n-0.9 0.9 0.0 1.0  1 1 1 1"
def iso_y(k, n_lines): return -0.9 + 1.8 * k / n_lines
std("tess_isolines", "ISOLINES domain: outer[0] = 4 lines at v = 0, 1/4, 2/4, 3/4 (none at v = 1), outer[1] = 8 segments each; xfb counts 32 line segments.",
    "ISOLINES", "EQUAL", "CCW", ["4.0", "8.0"], [], 4, ISO_TEP, ISO_TES, ISO_V,
    "clear color 0.0 0.0 0.0 1.0\nclear\npatch parameter vertices 4\n" + xfb_wrap("GL_LINES", "draw arrays GL_PATCHES 0 4", 32) + "\n" +
    probe(32, int((iso_y(0, 4) + 1) * 32), (1, (32.5 - 3.2) / 57.6, 0, 1)).replace("probe rgba", "probe rgba") + "\n" + probe(32, 60, (0, 0, 0, 1)),
    tol=3, pixels=8, why="line endpoints (diamond exit) and colour rounding along lines")

PT_TEP = TEP_TRI + "\nMOV result.pointsize.x, 3.0;"
std("tess_point_mode", "TESS_POINT_MODE: each distinct tessellated vertex of a triangle patch (levels 3) becomes a point; 12 points generated (9 on the outer ring, 3 on the inner triangle).",
    "TRIANGLES", "EQUAL", "CCW", ["3.0"]*3, ["3.0"], 3, TEP_TRI, TES_TRI, TRI_V,
    "clear color 0.0 0.0 0.0 1.0\nclear\npoint size 2\npatch parameter vertices 3\n" + xfb_wrap("GL_POINTS", "draw arrays GL_PATCHES 0 3", 12), point=True,
    tol=2, pixels=0, why="point positions are exact tessellation coordinates; size 2 keeps the corner points (on pixel corners) free of coverage ties")

# per-patch attribute and primitive id
PP_TCP = """!!NVtcp5.0
VERTICES_OUT 3;
ATTRIB ipos = vertex.position;
INT TEMP id;
TEMP c;
MOV.S id.x, primitive.invocation.x;
MOV result.position, ipos[id.x];
MOV.S id.y, primitive.id.x;
I2F c.x, id.y;
SEQ c.xyz, c.x, {0.0, 1.0, 2.0, 0.0};
MOV c.w, 1.0;
MOV result.patch.attrib[0], c;
MOV result.patch.tessouter[0].x, 2.0;
MOV result.patch.tessouter[1].x, 2.0;
MOV result.patch.tessouter[2].x, 2.0;
MOV result.patch.tessinner[0].x, 2.0;
END"""
PP_TEP = """!!NVtep5.0
TESS_MODE TRIANGLES;
TESS_SPACING EQUAL;
TESS_VERTEX_ORDER CCW;
TEMP p;
MUL p, vertex[0].position, vertex.tesscoord.x;
MAD p, vertex[1].position, vertex.tesscoord.y, p;
MAD result.position, vertex[2].position, vertex.tesscoord.z, p;
MOV result.attrib[0], primitive.patch.attrib[0];
END"""
PP_TCS = """#version 450
layout(vertices = 3) out;
patch out vec4 pcol;
void main() {
  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
  pcol = vec4(gl_PrimitiveID == 0, gl_PrimitiveID == 1, gl_PrimitiveID == 2, 1.0);
  gl_TessLevelOuter[0] = 2.0; gl_TessLevelOuter[1] = 2.0; gl_TessLevelOuter[2] = 2.0;
  gl_TessLevelInner[0] = 2.0;
}"""
PP_TES = """#version 450
layout(triangles, equal_spacing, ccw) in;
patch in vec4 pcol;
out vec4 col;
void main() {
  vec3 t = gl_TessCoord;
  gl_Position = gl_in[0].gl_Position * t.x + gl_in[1].gl_Position * t.y + gl_in[2].gl_Position * t.z;
  col = pcol;
}"""
tess_scene("tess_patch_attrib_primitive_id", "Per-patch outputs: the TCP writes result.patch.attrib[0] from primitive.id (patch 0 red, 1 green, 2 blue) and the TEP reads primitive.patch.attrib[0].",
           [("vertex program", "!!NVvp5.0\nMOV result.position, vertex.attrib[0];\nEND"), ("tess control program", PP_TCP), ("tess eval program", PP_TEP), ("fragment program", FPA)],
           [("vertex shader", "#version 450\nlayout(location = 0) in vec4 pos;\nvoid main() { gl_Position = pos; }"), ("tessellation control shader", PP_TCS),
            ("tessellation evaluation shader", PP_TES), ("fragment shader", FSA)],
           "0/float/4\n-1.0 -1.0 0.0 1.0\n-0.4 -1.0 0.0 1.0\n-0.7 0.0 0.0 1.0\n-0.3 -1.0 0.0 1.0\n0.3 -1.0 0.0 1.0\n0.0 0.0 0.0 1.0\n0.4 -1.0 0.0 1.0\n1.0 -1.0 0.0 1.0\n0.7 0.0 0.0 1.0",
           "clear color 0.0 0.0 0.0 1.0\nclear\npatch parameter vertices 3\ndraw arrays GL_PATCHES 0 9\n" +
           "\n".join([probe(9, 8, (1, 0, 0, 1)), probe(32, 8, (0, 1, 0, 1)), probe(54, 8, (0, 0, 1, 1)), probe(32, 50, (0, 0, 0, 1))]),
           tol=1, why="flat colours", spec=SPEC + "; primitive.id, primitive.patch.attrib / result.patch.attrib")

# levels computed per patch; outer level 0 discards
LV_TCP = """!!NVtcp5.0
VERTICES_OUT 4;
ATTRIB ipos = vertex.position;
ATTRIB icol = vertex.attrib[0];
INT TEMP id;
TEMP l;
MOV.S id.x, primitive.invocation.x;
MOV result.position, ipos[id.x];
MOV result.attrib[0], icol[id.x];
MOV.S id.y, primitive.id.x;
I2F l.x, id.y;
MUL l.x, l.x, 2.0;
MOV result.patch.tessouter[0].x, l.x;
MOV result.patch.tessouter[1].x, 3.0;
MOV result.patch.tessouter[2].x, 3.0;
MOV result.patch.tessouter[3].x, 3.0;
MOV result.patch.tessinner[0].x, 3.0;
MOV result.patch.tessinner[1].x, 3.0;
END"""
LV_TCS = """#version 450
layout(vertices = 4) out;
in vec4 vcol[];
out vec4 tcol[];
void main() {
  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
  tcol[gl_InvocationID] = vcol[gl_InvocationID];
  gl_TessLevelOuter[0] = float(gl_PrimitiveID) * 2.0;
  gl_TessLevelOuter[1] = 3.0; gl_TessLevelOuter[2] = 3.0; gl_TessLevelOuter[3] = 3.0;
  gl_TessLevelInner[0] = 3.0; gl_TessLevelInner[1] = 3.0;
}"""
tess_scene("tess_outer_zero_discards", "An outer level of 0 discards the patch: patch 0 (outer[0] = 0) produces nothing, patch 1 (outer[0] = 2) is drawn; xfb counts only patch 1's 17 triangles.",
           [("vertex program", VPA), ("tess control program", LV_TCP), ("tess eval program", tep("QUADS", "EQUAL", "CCW", TEP_QUAD)), ("fragment program", FPA)],
           [("vertex shader", VSA), ("tessellation control shader", LV_TCS), ("tessellation evaluation shader", tes("QUADS", "EQUAL", "CCW", TES_QUAD)), ("fragment shader", FSA)],
           "0/float/4 1/float/4\n-1.0 -1.0 0.0 1.0  0 0 0 1\n-0.1 -1.0 0.0 1.0  0 0 0 1\n-0.1 1.0 0.0 1.0  0 0 0 1\n-1.0 1.0 0.0 1.0  0 0 0 1\n" +
           "0.1 -1.0 0.0 1.0  0 0 0 1\n1.0 -1.0 0.0 1.0  0 0 0 1\n1.0 1.0 0.0 1.0  0 0 0 1\n0.1 1.0 0.0 1.0  0 0 0 1",
           "clear color 0.0 0.0 0.0 1.0\nclear\npatch parameter vertices 4\n" + xfb_wrap("GL_TRIANGLES", "draw arrays GL_PATCHES 0 8", 17) + "\n" +
           probe(15, 32, (0, 0, 0, 1)) + "\n" + probe(48, 32, ((48.5/32 - 1 - 0.1) / 0.9, 0.5, 0.5, 1)),
           why="interpolated colours; 8-bit rounding", spec=SPEC + "; ARB_tessellation_shader (patch discarded when an outer level is <= 0)")

tess_scene("tess_no_tcp_default_levels", "A tessellation evaluation program without a control program: the default levels from PatchParameterfv (outer 3, inner 2) tessellate the triangle patch; xfb counts 9 triangles (inner level 2 collapses to the centre point).",
           [("vertex program", VPA), ("tess eval program", tep("TRIANGLES", "EQUAL", "CCW", TEP_TRI)), ("fragment program", FPA)],
           [("vertex shader", VSA.replace("vcol", "tcol_unused").replace("out vec4 tcol_unused;", "out vec4 tcol;").replace("tcol_unused = vc", "tcol = vc")),
            ("tessellation evaluation shader", tes("TRIANGLES", "EQUAL", "CCW", TES_TRI)), ("fragment shader", FSA)],
           TRI_V, "clear color 0.0 0.0 0.0 1.0\nclear\npatch parameter vertices 3\npatch parameter default level outer 3 3 3 3\npatch parameter default level inner 2 2\n" +
           xfb_wrap("GL_TRIANGLES", "draw arrays GL_PATCHES 0 3", 9) + "\n" + "\n".join(tri_probe(x, y) for (x, y) in [(20, 10), (32, 30), (44, 10)]),
           spec=SPEC + "; ARB_tessellation_shader (default levels without a control stage)")

DISP_TEP = """TEMP a, b, t;
LRP a, vertex.tesscoord.x, vertex[1].position, vertex[0].position;
LRP b, vertex.tesscoord.x, vertex[2].position, vertex[3].position;
LRP result.position, vertex.tesscoord.y, b, a;
MAD t, vertex.tesscoord.xyxy, 0.75, 0.125;
MOV t.w, 0.0;
TXL result.attrib[0], t, texture[0], 2D;"""
DISP_TES = """  vec2 t = gl_TessCoord.xy;
  gl_Position = mix(mix(gl_in[0].gl_Position, gl_in[1].gl_Position, t.x), mix(gl_in[3].gl_Position, gl_in[2].gl_Position, t.x), t.y);
  col = textureLod(tex0, t * 0.75 + 0.125, 0.0);"""
def disp_probe(x, y):
    u = (n(x + .5) + 0.875) / 1.75; v = (n(y + .5) + 0.875) / 1.75
    return probe(x, y, (u, v, 0.5, 1))
std("tess_eval_texture_fetch", "A tessellation evaluation program fetches the 4x4 ramp texture (TXL) at texel-centre-aligned coordinates 0.125 + 0.75 (u, v), where the bilinear ramp is linear, so the colour is (u, v, 0.5) whatever the triangulation.",
    "QUADS", "EQUAL", "CCW", ["4.0"]*4, ["4.0", "4.0"], 4, DISP_TEP,
    DISP_TES, QUAD_V,
    "clear color 0.0 0.0 0.0 1.0\nclear\ntexture ramp 0 (4, 4)\npatch parameter vertices 4\ndraw arrays GL_PATCHES 0 4\n" + "\n".join(disp_probe(x, y) for (x, y) in [(10, 10), (32, 32), (50, 20), (20, 50)]),
    tes_decl="layout(binding = 0) uniform sampler2D tex0;")

FACE_FP = """!!NVfp5.0
TEMP f;
MOV f, fragment.facing.x;
CMP result.color, f, {0.0, 0.0, 1.0, 1.0}, {1.0, 0.0, 0.0, 1.0};
END"""
FACE_FS = "#version 450\nin vec4 col;\nout vec4 color;\nvoid main() { color = gl_FrontFacing ? vec4(1.0, 0.0, 0.0, 1.0) : vec4(0.0, 0.0, 1.0, 1.0); }"
tess_scene("tess_vertex_order_cw", "TESS_VERTEX_ORDER CW: the generated triangles are clockwise in (u, v, w) space; this evaluation program maps the domain to the screen without mirroring it, so every triangle is back-facing (blue by fragment.facing), where CCW would give front-facing red.",
           [("vertex program", VPA), ("tess control program", tcp(3, ["3.0"] * 3, ["3.0"])), ("tess eval program", tep("TRIANGLES", "EQUAL", "CW", TEP_TRI)), ("fragment program", FACE_FP)],
           [("vertex shader", VSA), ("tessellation control shader", tcs(3, ["3.0"] * 3, ["3.0"])), ("tessellation evaluation shader", tes("TRIANGLES", "EQUAL", "CW", TES_TRI)), ("fragment shader", FACE_FS)],
           TRI_V, "clear color 0.0 0.0 0.0 1.0\nclear\npatch parameter vertices 3\ndraw arrays GL_PATCHES 0 3\n" + "\n".join(probe(x, y, (0, 0, 1, 1)) for (x, y) in [(20, 10), (32, 30), (44, 10)]) + "\n" + probe(4, 60, (0, 0, 0, 1)),
           tol=1, why="flat colours", spec=SPEC + "; ARB_tessellation_shader (vertex order cw/ccw in (u, v, w) space, Figure X.1)")

LVA_TCP = """!!NVtcp5.0
VERTICES_OUT 3;
ATTRIB ipos = vertex.position;
ATTRIB icol = vertex.attrib[0];
INT TEMP id;
TEMP l;
MOV.S id.x, primitive.invocation.x;
MOV result.position, ipos[id.x];
MOV result.attrib[0], icol[id.x];
MOV l, vertex[0].attrib[0].w;
MOV result.patch.tessouter[0].x, l.x;
MOV result.patch.tessouter[1].x, l.x;
MOV result.patch.tessouter[2].x, l.x;
MOV result.patch.tessinner[0].x, l.x;
END"""
LVA_TCS = """#version 450
layout(vertices = 3) out;
in vec4 vcol[];
out vec4 tcol[];
void main() {
  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
  tcol[gl_InvocationID] = vcol[gl_InvocationID];
  float l = vcol[0].w;
  gl_TessLevelOuter[0] = l; gl_TessLevelOuter[1] = l; gl_TessLevelOuter[2] = l;
  gl_TessLevelInner[0] = l;
}"""
tess_scene("tess_levels_from_attrib", "Tessellation levels computed per patch from vertex data (attribute w of the patch's first vertex): levels 2 and 3 give 6 + 13 = 19 triangles, counted by transform feedback; drawn as lines.",
           [("vertex program", VPA), ("tess control program", LVA_TCP), ("tess eval program", tep("TRIANGLES", "EQUAL", "CCW", TEP_TRI)), ("fragment program", FPA)],
           [("vertex shader", VSA), ("tessellation control shader", LVA_TCS), ("tessellation evaluation shader", tes("TRIANGLES", "EQUAL", "CCW", TES_TRI)), ("fragment shader", FSA)],
           "0/float/4 1/float/4\n-0.95 -0.9 0.0 1.0  1 0 0 2\n-0.05 -0.9 0.0 1.0  0 1 0 2\n-0.5 0.6 0.0 1.0  0 0 1 2\n0.05 -0.9 0.0 1.0  1 0 0 3\n0.95 -0.9 0.0 1.0  0 1 0 3\n0.5 0.6 0.0 1.0  0 0 1 3",
           "clear color 0.0 0.0 0.0 1.0\nclear\npolygon mode GL_FRONT_AND_BACK GL_LINE\npatch parameter vertices 3\n" + xfb_wrap("GL_TRIANGLES", "draw arrays GL_PATCHES 0 6", 19),
           tol=3, pixels=24, why="wireframe: the triangulation between rings is partly implementation-defined; the counts are exact")
