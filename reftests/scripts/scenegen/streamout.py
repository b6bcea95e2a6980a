from gen import *
from raster import n, RED, GREEN, BLUE, WHITE, BLACK
from geometry import bary_probe
X = "stream-out"
SPEC = "NV_transform_feedback (TransformFeedbackAttribsNV, interleaved/separate modes, PRIMITIVES_GENERATED / TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN); OpenGL 2.15 transform feedback"
VPX = """!!NVvp5.0
MOV result.position, vertex.attrib[0];
MOV result.attrib[0], vertex.attrib[1];
ADD result.attrib[1], vertex.attrib[0], {0.5, 0.5, 0.0, 0.0};
END"""
VSX = """#version 450
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 vc;
out vec4 col;
out vec4 extra;
void main() { gl_Position = pos; col = vc; extra = pos + vec4(0.5, 0.5, 0.0, 0.0); }"""
FPA = "!!NVfp5.0\nMOV result.color, fragment.attrib[0];\nEND"
FSA = "#version 450\nin vec4 col;\nin vec4 extra;\nout vec4 color;\nvoid main() { color = col; }"
V4 = [(-0.75, -0.75, (1, 0, 0, 1)), (0.75, -0.75, (0, 1, 0, 1)), (-0.75, 0.75, (0, 0, 1, 1)), (0.75, 0.75, (1, 1, 1, 1))]
def vdat(rows): return "0/float/4 1/float/4\n" + "\n".join("%r %r 0.0 1.0  %s" % (x, y, " ".join(repr(float(v)) for v in c)) for (x, y, c) in rows)
def rec(v, attrs=("pos", "col")):
    x, y, c = v
    out = []
    for a in attrs:
        if a == "pos": out += [x, y, 0.0, 1.0]
        elif a == "col": out += list(map(float, c))
        elif a == "extra": out += [x + .5, y + .5, 0.0, 1.0]
    return out
def pxfb(buf, off, vals): return "probe xfb %d %d (%s)" % (buf, off, ", ".join(repr(float(v)) for v in vals))
def xs(name, what, test, vdata=vdat(V4), tol=1, pixels=0, why="exact / interpolated colours", spec=SPEC, nv=None, gl=None, nv_req=("GL_NV_gpu_program5", "GL_NV_transform_feedback"), elements=None):
    scene(X, name, what, spec, tol, pixels, why, nv or [("vertex program", VPX), ("fragment program", FPA)],
          gl or [("vertex shader", VSX), ("fragment shader", FSA)], test, vdata=vdata, nv_req=nv_req, elements=elements)

order = [0, 1, 2, 2, 1, 3]
t = ["clear color 0.0 0.0 0.0 1.0", "clear", "NV: xfb attribs result.position result.attrib[0]", "GL: xfb varyings gl_Position col", "xfb buffer 0 1024",
     "begin transform feedback GL_TRIANGLES", "draw arrays GL_TRIANGLE_STRIP 0 4", "end transform feedback",
     "probe primitives generated 2", "probe primitives written 2"]
t += [pxfb(0, 8*i, rec(V4[k])) for i, k in enumerate(order)]
t += [pxfb(0, 48, [0.0]*8), bary_probe(16, 16, [((8, 8), RED), ((56, 8), GREEN), ((8, 56), BLUE)])]
xs("xfb_strip_to_triangles", "A 4-vertex TRIANGLE_STRIP captured in TRIANGLES mode: 2 independent triangles are recorded, the second with vertices (2, 1, 3) as the strip order defines; the rest of the buffer stays zero.",
   "\n".join(t), tol=2, why="interpolated colours; xfb values exact", spec=SPEC + "; OpenGL 2.6.1 triangle strip vertex order")

t = ["clear color 0.0 0.0 0.0 1.0", "clear", "NV: xfb attribs result.attrib[1] result.attrib[0]", "GL: xfb varyings extra col", "xfb separate", "xfb buffer 0 1024", "xfb buffer 1 1024",
     "begin transform feedback GL_TRIANGLES", "draw arrays GL_TRIANGLES 0 3", "end transform feedback", "probe primitives written 1"]
t += [pxfb(0, 4*i, rec(V4[i], ("extra",))) for i in range(3)] + [pxfb(1, 4*i, rec(V4[i], ("col",))) for i in range(3)]
xs("xfb_separate_buffers", "SEPARATE_ATTRIBS mode: attribute 1 goes to buffer 0 and attribute 0 to buffer 1, each tightly packed.",
   "\n".join(t), tol=2, why="interpolated colours")

t = ["clear color 0.0 0.0 0.0 1.0", "clear", "NV: xfb attribs result.position result.attrib[0]", "GL: xfb varyings gl_Position col", "xfb buffer 0 160",
     "begin transform feedback GL_TRIANGLES", "draw arrays GL_TRIANGLES 0 3", "draw arrays GL_TRIANGLES 1 3", "end transform feedback",
     "probe primitives generated 2", "probe primitives written 1"]
t += [pxfb(0, 8*i, rec(V4[i])) for i in range(3)] + [pxfb(0, 24, [0.0]*8)]
xs("xfb_overflow", "Buffer overflow: a 160-byte buffer holds 1 triangle of 96 bytes but not 2: primitives generated = 2, written = 1, and the partially fitting second triangle is not written at all.",
   "\n".join(t), tol=2, why="interpolated colours", spec=SPEC + " (a primitive is recorded only if all its vertices fit)")

t = ["clear color 0.0 0.0 0.0 1.0", "clear", "NV: xfb attribs result.position", "GL: xfb varyings gl_Position", "xfb buffer 0 1024", "enable GL_RASTERIZER_DISCARD",
     "begin transform feedback GL_TRIANGLES", "draw arrays GL_TRIANGLES 0 3", "end transform feedback", "disable GL_RASTERIZER_DISCARD",
     "probe primitives generated 1", "probe primitives written 1"] + [pxfb(0, 4*i, rec(V4[i], ("pos",))) for i in range(3)] + ["probe all rgba 0.0 0.0 0.0 1.0"]
xs("xfb_rasterizer_discard", "RASTERIZER_DISCARD: primitives are captured by transform feedback but nothing reaches the framebuffer.",
   "\n".join(t), spec=SPEC + "; RASTERIZER_DISCARD (EXT_transform_feedback / OpenGL 3.0)")

t = ["clear color 0.0 0.0 0.0 1.0", "clear", "NV: xfb attribs result.attrib[0]", "GL: xfb varyings col", "xfb buffer 0 1024",
     "begin transform feedback GL_LINES", "draw arrays GL_LINE_STRIP 0 4", "end transform feedback", "probe primitives written 3"]
lo = [0, 1, 1, 2, 2, 3]
t += [pxfb(0, 4*i, rec(V4[k], ("col",))) for i, k in enumerate(lo)]
xs("xfb_line_strip_to_lines", "A LINE_STRIP of 4 vertices captured in LINES mode records 3 independent segments (0,1) (1,2) (2,3).",
   "\n".join(t), tol=3, pixels=4, why="line endpoints; interpolated colours along lines")

t = ["clear color 0.0 0.0 0.0 1.0", "clear", "NV: xfb attribs result.position result.attrib[0]", "GL: xfb varyings gl_Position col", "xfb buffer 0 1024",
     "point size 2", "begin transform feedback GL_POINTS", "draw arrays GL_POINTS 0 2", "draw arrays GL_POINTS 3 1", "end transform feedback",
     "probe primitives generated 3", "probe primitives written 3"] + [pxfb(0, 8*i, rec(V4[k])) for i, k in enumerate([0, 1, 3])]
xs("xfb_append_across_draws", "Two draws inside one transform feedback pass append to the buffer: points 0, 1 then point 3.",
   "\n".join(t), why="points; exact")

VPT = """!!NVvp5.0
MOV result.position, vertex.attrib[0];
MOV result.attrib[0], vertex.attrib[1];
MUL result.texcoord[1], vertex.attrib[1], 0.5;
MOV result.pointsize, 3.0;
END"""
VST = """#version 450
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 vc;
out vec4 col;
out vec4 tc1;
void main() { gl_Position = pos; col = vc; tc1 = vc * 0.5; }"""
t = ["clear color 0.0 0.0 0.0 1.0", "clear", "NV: xfb attribs result.texcoord[1] result.position", "GL: xfb varyings tc1 gl_Position", "xfb buffer 0 1024",
     "point size 2", "begin transform feedback GL_POINTS", "draw arrays GL_POINTS 0 4", "end transform feedback", "probe primitives written 4"]
t += [pxfb(0, 8*i, [c*0.5 for c in V4[i][2]] + rec(V4[i], ("pos",))) for i in range(4)]
xs("xfb_texcoord_binding", "Capturing a conventional binding (result.texcoord[1]) before the position, in that order.",
   "\n".join(t), nv=[("vertex program", VPT), ("fragment program", FPA)],
   gl=[("vertex shader", VST), ("fragment shader", "#version 450\nin vec4 col;\nout vec4 color;\nvoid main() { color = col; }")],
   spec=SPEC + " (attribute names such as TEXTURE_COORD_NV with index 1)")

GPX = """!!NVgp5.0
PRIMITIVE_IN TRIANGLES;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 6;
MOV result.position, vertex[0].position;
MOV result.attrib[0], vertex[0].attrib[0];
EMIT;
MOV result.position, vertex[1].position;
MOV result.attrib[0], vertex[1].attrib[0];
EMIT;
MOV result.position, vertex[2].position;
MOV result.attrib[0], vertex[2].attrib[0];
EMIT;
ENDPRIM;
MUL result.position, vertex[0].position, {0.5, 0.5, 1.0, 1.0};
MOV result.attrib[0], {1.0, 1.0, 0.0, 1.0};
EMIT;
MUL result.position, vertex[1].position, {0.5, 0.5, 1.0, 1.0};
MOV result.attrib[0], {1.0, 1.0, 0.0, 1.0};
EMIT;
MUL result.position, vertex[2].position, {0.5, 0.5, 1.0, 1.0};
MOV result.attrib[0], {1.0, 1.0, 0.0, 1.0};
EMIT;
END"""
GSX = """#version 450
layout(triangles) in;
layout(triangle_strip, max_vertices = 6) out;
in vec4 vcol[];
out vec4 col;
void main() {
  for (int i = 0; i < 3; i++) { gl_Position = gl_in[i].gl_Position; col = vcol[i]; EmitVertex(); }
  EndPrimitive();
  for (int i = 0; i < 3; i++) { gl_Position = gl_in[i].gl_Position * vec4(0.5, 0.5, 1.0, 1.0); col = vec4(1.0, 1.0, 0.0, 1.0); EmitVertex(); }
}"""
t = ["clear color 0.0 0.0 0.0 1.0", "clear", "NV: xfb attribs result.position result.attrib[0]", "GL: xfb varyings gl_Position col", "xfb buffer 0 1024",
     "begin transform feedback GL_TRIANGLES", "draw arrays GL_TRIANGLES 0 3", "end transform feedback", "probe primitives generated 2", "probe primitives written 2"]
t += [pxfb(0, 8*i, rec(V4[i])) for i in range(3)]
t += [pxfb(0, 24 + 8*i, [V4[i][0]*.5, V4[i][1]*.5, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0]) for i in range(3)] + [probe(28, 28, (1, 1, 0, 1))]
xs("xfb_geometry_output", "Transform feedback captures the geometry program's output (the last stage before rasterization): the original triangle and a half-size yellow copy.",
   "\n".join(t), nv=[("vertex program", "!!NVvp5.0\nMOV result.position, vertex.attrib[0];\nMOV result.attrib[0], vertex.attrib[1];\nEND"), ("geometry program", GPX), ("fragment program", FPA)],
   gl=[("vertex shader", "#version 450\nlayout(location = 0) in vec4 pos;\nlayout(location = 1) in vec4 vc;\nout vec4 vcol;\nvoid main() { gl_Position = pos; vcol = vc; }"), ("geometry shader", GSX),
       ("fragment shader", "#version 450\nin vec4 col;\nout vec4 color;\nvoid main() { color = col; }")],
   nv_req=("GL_NV_gpu_program5", "GL_NV_transform_feedback", "GL_NV_geometry_program4"), tol=2, why="interpolated colours")

t = ["clear color 0.0 0.0 0.0 1.0", "clear", "NV: xfb attribs result.position result.attrib[0]", "GL: xfb varyings gl_Position col", "xfb separate",
     "xfb buffer 0 1024", "xfb buffer 1 80", "begin transform feedback GL_TRIANGLES", "draw arrays GL_TRIANGLES 0 3", "draw arrays GL_TRIANGLES 1 3", "end transform feedback",
     "probe primitives generated 2", "probe primitives written 1"]
t += [pxfb(0, 4*i, rec(V4[i], ("pos",))) for i in range(3)] + [pxfb(0, 12, [0.0]*4)]
t += [pxfb(1, 4*i, rec(V4[i], ("col",))) for i in range(3)] + [pxfb(1, 12, [0.0]*4)]
xs("xfb_separate_overflow", "SEPARATE_ATTRIBS with one short buffer: buffer 1 (80 bytes) holds one triangle's colours but not two, so the second triangle is written to neither buffer (written = 1, generated = 2).",
   "\n".join(t), tol=2, why="interpolated colours", spec=SPEC + " (a primitive is recorded only if every buffer has room for it)")

FAN = [(0.0, 0.0, (1, 1, 1, 1)), (0.75, 0.0, (1, 0, 0, 1)), (0.0, 0.75, (0, 1, 0, 1)), (-0.75, 0.0, (0, 0, 1, 1)), (0.0, -0.75, (1, 1, 0, 1))]
t = ["clear color 0.0 0.0 0.0 1.0", "clear", "NV: xfb attribs result.attrib[0]", "GL: xfb varyings col", "xfb buffer 0 1024",
     "begin transform feedback GL_TRIANGLES", "draw arrays GL_TRIANGLE_FAN 0 5", "end transform feedback", "probe primitives written 3"]
t += [pxfb(0, 4*i, rec(FAN[k], ("col",))) for i, k in enumerate([0, 1, 2, 0, 2, 3, 0, 3, 4])]
xs("xfb_fan_to_triangles", "A 5-vertex TRIANGLE_FAN captured in TRIANGLES mode records (0,1,2) (0,2,3) (0,3,4).",
   "\n".join(t), vdata=vdat(FAN), tol=2, why="interpolated colours", spec=SPEC + "; OpenGL 2.6.1 triangle fans")

VPC2 = """!!NVvp5.0
MOV result.position, vertex.attrib[0];
MOV result.attrib[0], vertex.attrib[1];
ADD result.pointsize.x, vertex.attrib[1].x, 2.0;
MOV result.clip[0].x, vertex.attrib[1].y;
END"""
VSC2 = """#version 450
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 vc;
out vec4 col;
void main() { gl_Position = pos; col = vc; gl_PointSize = vc.x + 2.0; gl_ClipDistance[0] = vc.y; }"""
t = ["clear color 0.0 0.0 0.0 1.0", "clear", "NV: xfb attribs result.pointsize result.clip[0]", "GL: xfb varyings gl_PointSize gl_ClipDistance[0]", "xfb buffer 0 1024",
     "enable GL_RASTERIZER_DISCARD", "begin transform feedback GL_POINTS", "draw arrays GL_POINTS 0 4", "end transform feedback", "disable GL_RASTERIZER_DISCARD", "probe primitives written 4"]
t += [pxfb(0, 0, [3.0, 0.0, 2.0, 1.0, 2.0, 0.0, 3.0, 1.0])]
xs("xfb_pointsize_clip", "Capturing the scalar bindings result.pointsize and result.clip[0] (one float each, in list order) from points, with RASTERIZER_DISCARD.",
   "\n".join(t), nv=[("vertex program", VPC2), ("fragment program", FPA)], gl=[("vertex shader", VSC2), ("fragment shader", FSA)],
   spec=SPEC + " (POINT_SIZE and CLIP_DISTANCE_NV attributes: one component each)", why="nothing is drawn")

t = ["clear color 0.0 0.0 0.0 1.0", "clear", "NV: xfb attribs result.attrib[0]", "GL: xfb varyings col", "xfb buffer 0 1024",
     "begin transform feedback GL_TRIANGLES", "draw elements GL_TRIANGLES 6", "end transform feedback", "probe primitives written 2"]
t += [pxfb(0, 4*i, rec(V4[k], ("col",))) for i, k in enumerate([3, 1, 2, 0, 2, 1])]
xs("xfb_indexed_draw", "Transform feedback of an indexed draw records vertices in index order (3 1 2, 0 2 1), not in buffer order.",
   "\n".join(t), tol=2, why="interpolated colours", spec=SPEC + "; OpenGL 2.8.3 DrawElements", elements="3 1 2 0 2 1")
