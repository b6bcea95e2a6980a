from gen import *
from raster import n, RED, GREEN, BLUE, WHITE, BLACK, vd
G = "geometry"
SPEC = "NV_geometry_program4 (PRIMITIVE_IN/PRIMITIVE_OUT/VERTICES_OUT, vertex[m] bindings, EMIT, ENDPRIM)"
VPA = "!!NVvp5.0\nMOV result.position, vertex.attrib[0];\nMOV result.attrib[0], vertex.attrib[1];\nEND"
VSA = "#version 450\nlayout(location = 0) in vec4 pos;\nlayout(location = 1) in vec4 vc;\nout vec4 vcol;\nvoid main() { gl_Position = pos; vcol = vc; }"
FPA = "!!NVfp5.0\nMOV result.color, fragment.attrib[0];\nEND"
FSA = "#version 450\nin vec4 col;\nout vec4 color;\nvoid main() { color = col; }"
def gs(name, what, gp, gls, vdata, test, tol=1, pixels=0, why="flat colours", spec=SPEC, nv_req=("GL_NV_gpu_program5", "GL_NV_geometry_program4"), fp=FPA, fsh=FSA):
    scene(G, name, what, spec, tol, pixels, why,
          [("vertex program", VPA), ("geometry program", gp), ("fragment program", fp)],
          [("vertex shader", VSA), ("geometry shader", gls), ("fragment shader", fsh)], test, vdata=vdata, nv_req=nv_req)
def bary_probe(x, y, tri):
    px, py = x + .5, y + .5
    (a, ca), (b, cb), (c, cc) = tri
    d = (b[1] - c[1]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[1] - c[1])
    l0 = ((b[1] - c[1]) * (px - c[0]) + (c[0] - b[0]) * (py - c[1])) / d
    l1 = ((c[1] - a[1]) * (px - c[0]) + (a[0] - c[0]) * (py - c[1])) / d
    l2 = 1 - l0 - l1
    return probe(x, y, tuple(l0 * ca[i] + l1 * cb[i] + l2 * cc[i] for i in range(4)))
def row(x, y, c): return "%r %r 0.0 1.0  %s" % (n(x), n(y), " ".join(repr(float(v)) for v in c))
def vdat(rows): return "0/float/4 1/float/4\n" + "\n".join(row(*r) for r in rows)

gs("gs_triangle_recolor", "A pass-through geometry program that replaces each vertex colour by its index in the input triangle (vertex 0 red, 1 green, 2 blue): interpolation shows the vertex order is preserved.",
   """!!NVgp5.0
PRIMITIVE_IN TRIANGLES;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 3;
MOV result.position, vertex[0].position;
MOV result.attrib[0], {1.0, 0.0, 0.0, 1.0};
EMIT;
MOV result.position, vertex[1].position;
MOV result.attrib[0], {0.0, 1.0, 0.0, 1.0};
EMIT;
MOV result.position, vertex[2].position;
MOV result.attrib[0], {0.0, 0.0, 1.0, 1.0};
EMIT;
END""",
   """#version 450
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
out vec4 col;
void main() {
  gl_Position = gl_in[0].gl_Position; col = vec4(1, 0, 0, 1); EmitVertex();
  gl_Position = gl_in[1].gl_Position; col = vec4(0, 1, 0, 1); EmitVertex();
  gl_Position = gl_in[2].gl_Position; col = vec4(0, 0, 1, 1); EmitVertex();
}""",
   vdat([(4, 4, WHITE), (60, 4, WHITE), (4, 60, WHITE)]),
   "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_TRIANGLES 0 3\n" + probe(4, 4, (1 - (0.5/56) * 2, 0.5/56, 0.5/56, 1)) + "\n" + probe(40, 40, BLACK),
   tol=2, why="interpolated colours; 8-bit rounding")

gs("gs_lines_to_quads", "Each input line becomes a 6-pixel-wide quad (4 vertices, TRIANGLE_STRIP) offset perpendicular in y; colours carried from the vertices.",
   """!!NVgp5.0
PRIMITIVE_IN LINES;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 4;
PARAM off = {0.0, 0.09375, 0.0, 0.0};
SUB result.position, vertex[0].position, off;
MOV result.attrib[0], vertex[0].attrib[0];
EMIT;
SUB result.position, vertex[1].position, off;
MOV result.attrib[0], vertex[1].attrib[0];
EMIT;
ADD result.position, vertex[0].position, off;
MOV result.attrib[0], vertex[0].attrib[0];
EMIT;
ADD result.position, vertex[1].position, off;
MOV result.attrib[0], vertex[1].attrib[0];
EMIT;
END""",
   """#version 450
layout(lines) in;
layout(triangle_strip, max_vertices = 4) out;
in vec4 vcol[];
out vec4 col;
void main() {
  vec4 off = vec4(0.0, 0.09375, 0.0, 0.0);
  gl_Position = gl_in[0].gl_Position - off; col = vcol[0]; EmitVertex();
  gl_Position = gl_in[1].gl_Position - off; col = vcol[1]; EmitVertex();
  gl_Position = gl_in[0].gl_Position + off; col = vcol[0]; EmitVertex();
  gl_Position = gl_in[1].gl_Position + off; col = vcol[1]; EmitVertex();
}""",
   vdat([(8, 16, RED), (56, 16, RED), (8, 44, GREEN), (56, 44, BLUE)]),
   "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_LINES 0 4\nprobe rect rgba (8, 13, 48, 6) (1.0, 0.0, 0.0, 1.0)\n" + probe(30, 20, BLACK) + "\n" + probe(30, 12, BLACK) + "\n" +
   probe(8, 44, (1 - 0.5/48, 0, 0.5/48, 1)).replace("probe rgba 8 44 0.9896 0.0000 0.0104", "probe rgba 8 44 0.0000 0.9896 0.0104"),
   tol=2, why="interpolated colours")

gs("gs_amplify_endprim", "Amplification: each input triangle is emitted three times, shifted, as three separate strips (ENDPRIM between them), coloured per copy.",
   """!!NVgp5.0
PRIMITIVE_IN TRIANGLES;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 9;
PARAM sh[3] = { {0.0, 0.0, 0.0, 0.0}, {0.6, 0.0, 0.0, 0.0}, {1.2, 0.0, 0.0, 0.0} };
PARAM cols[3] = { {1.0, 0.0, 0.0, 1.0}, {0.0, 1.0, 0.0, 1.0}, {0.0, 0.0, 1.0, 1.0} };
INT TEMP k;
MOV.S k.x, 0;
REP 3;
  ADD result.position, vertex[0].position, sh[k.x];
  MOV result.attrib[0], cols[k.x];
  EMIT;
  ADD result.position, vertex[1].position, sh[k.x];
  MOV result.attrib[0], cols[k.x];
  EMIT;
  ADD result.position, vertex[2].position, sh[k.x];
  MOV result.attrib[0], cols[k.x];
  EMIT;
  ENDPRIM;
  ADD.S k.x, k.x, 1;
ENDREP;
END""",
   """#version 450
layout(triangles) in;
layout(triangle_strip, max_vertices = 9) out;
out vec4 col;
void main() {
  vec4 cols[3] = vec4[3](vec4(1, 0, 0, 1), vec4(0, 1, 0, 1), vec4(0, 0, 1, 1));
  for (int k = 0; k < 3; k++) {
    vec4 sh = vec4(0.6 * float(k), 0.0, 0.0, 0.0);
    for (int i = 0; i < 3; i++) { gl_Position = gl_in[i].gl_Position + sh; col = cols[k]; EmitVertex(); }
    EndPrimitive();
  }
}""",
   vdat([(2, 20, WHITE), (18, 20, WHITE), (10, 44, WHITE)]),
   "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_TRIANGLES 0 3\n" + probe(10, 26, RED) + "\n" + probe(29, 26, GREEN) + "\n" + probe(48, 26, BLUE) + "\n" + probe(10, 50, BLACK),
   spec=SPEC + "; NV_gpu_program4 REP, relative PARAM addressing")

gs("gs_invocations", "INVOCATIONS 4: the geometry program runs 4 times per input point; primitive.invocation places and colours a square in each quadrant.",
   """!!NVgp5.0
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 4;
INVOCATIONS 4;
PARAM cols[4] = { {1.0, 0.0, 0.0, 1.0}, {0.0, 1.0, 0.0, 1.0}, {0.0, 0.0, 1.0, 1.0}, {1.0, 1.0, 1.0, 1.0} };
PARAM ctr[4] = { {-0.5, -0.5, 0.0, 0.0}, {0.5, -0.5, 0.0, 0.0}, {-0.5, 0.5, 0.0, 0.0}, {0.5, 0.5, 0.0, 0.0} };
INT TEMP i;
TEMP c;
MOV.S i.x, primitive.invocation.x;
ADD c, vertex[0].position, ctr[i.x];
ADD result.position, c, {-0.25, -0.25, 0.0, 0.0};
MOV result.attrib[0], cols[i.x];
EMIT;
ADD result.position, c, {0.25, -0.25, 0.0, 0.0};
MOV result.attrib[0], cols[i.x];
EMIT;
ADD result.position, c, {-0.25, 0.25, 0.0, 0.0};
MOV result.attrib[0], cols[i.x];
EMIT;
ADD result.position, c, {0.25, 0.25, 0.0, 0.0};
MOV result.attrib[0], cols[i.x];
EMIT;
END""",
   """#version 450
layout(points, invocations = 4) in;
layout(triangle_strip, max_vertices = 4) out;
out vec4 col;
void main() {
  vec4 cols[4] = vec4[4](vec4(1, 0, 0, 1), vec4(0, 1, 0, 1), vec4(0, 0, 1, 1), vec4(1, 1, 1, 1));
  vec4 ctr[4] = vec4[4](vec4(-0.5, -0.5, 0, 0), vec4(0.5, -0.5, 0, 0), vec4(-0.5, 0.5, 0, 0), vec4(0.5, 0.5, 0, 0));
  vec4 c = gl_in[0].gl_Position + ctr[gl_InvocationID];
  gl_Position = c + vec4(-0.25, -0.25, 0, 0); col = cols[gl_InvocationID]; EmitVertex();
  gl_Position = c + vec4(0.25, -0.25, 0, 0); col = cols[gl_InvocationID]; EmitVertex();
  gl_Position = c + vec4(-0.25, 0.25, 0, 0); col = cols[gl_InvocationID]; EmitVertex();
  gl_Position = c + vec4(0.25, 0.25, 0, 0); col = cols[gl_InvocationID]; EmitVertex();
}""",
   "0/float/4 1/float/4\n0.0 0.0 0.0 1.0  1 1 1 1",
   "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_POINTS 0 1\nprobe rect rgba (8, 8, 16, 16) (1.0, 0.0, 0.0, 1.0)\nprobe rect rgba (40, 8, 16, 16) (0.0, 1.0, 0.0, 1.0)\nprobe rect rgba (8, 40, 16, 16) (0.0, 0.0, 1.0, 1.0)\nprobe rect rgba (40, 40, 16, 16) (1.0, 1.0, 1.0, 1.0)\n" + probe(32, 32, BLACK),
   spec="NV_gpu_program5 INVOCATIONS, primitive.invocation (geometry programs)")

gs("gs_lines_adjacency", "LINES_ADJACENCY input: the 4 vertices of each primitive (adjacent, line, line, adjacent) are emitted as a quad with one colour per vertex slot, showing the vertex numbering.",
   """!!NVgp5.0
PRIMITIVE_IN LINES_ADJACENCY;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 4;
MOV result.position, vertex[0].position;
MOV result.attrib[0], {1.0, 0.0, 0.0, 1.0};
EMIT;
MOV result.position, vertex[1].position;
MOV result.attrib[0], {0.0, 1.0, 0.0, 1.0};
EMIT;
MOV result.position, vertex[3].position;
MOV result.attrib[0], {1.0, 1.0, 1.0, 1.0};
EMIT;
MOV result.position, vertex[2].position;
MOV result.attrib[0], {0.0, 0.0, 1.0, 1.0};
EMIT;
END""",
   """#version 450
layout(lines_adjacency) in;
layout(triangle_strip, max_vertices = 4) out;
out vec4 col;
void main() {
  gl_Position = gl_in[0].gl_Position; col = vec4(1, 0, 0, 1); EmitVertex();
  gl_Position = gl_in[1].gl_Position; col = vec4(0, 1, 0, 1); EmitVertex();
  gl_Position = gl_in[3].gl_Position; col = vec4(1, 1, 1, 1); EmitVertex();
  gl_Position = gl_in[2].gl_Position; col = vec4(0, 0, 1, 1); EmitVertex();
}""",
   vdat([(4, 4, BLACK), (60, 4, BLACK), (60, 60, BLACK), (4, 60, BLACK)]),
   "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_LINES_ADJACENCY 0 4\n" + bary_probe(40, 24, [((60, 4), GREEN), ((4, 60), WHITE), ((60, 60), BLUE)]) + "\n" + bary_probe(10, 12, [((4, 4), RED), ((60, 4), GREEN), ((4, 60), WHITE)]),
   tol=2, why="interpolated colours", spec=SPEC + "; LINES_ADJACENCY vertex numbering (NV_geometry_program4 2.X.2)")

gs("gs_triangles_adjacency", "TRIANGLES_ADJACENCY input (6 vertices): the main triangle (0, 2, 4) is emitted white and each adjacent triangle (0,1,2), (2,3,4), (4,5,0) in its own colour.",
   """!!NVgp5.0
PRIMITIVE_IN TRIANGLES_ADJACENCY;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 12;
MOV result.attrib[0], {1.0, 1.0, 1.0, 1.0};
MOV result.position, vertex[0].position;
EMIT;
MOV result.attrib[0], {1.0, 1.0, 1.0, 1.0};
MOV result.position, vertex[2].position;
EMIT;
MOV result.attrib[0], {1.0, 1.0, 1.0, 1.0};
MOV result.position, vertex[4].position;
EMIT;
ENDPRIM;
MOV result.attrib[0], {1.0, 0.0, 0.0, 1.0};
MOV result.position, vertex[0].position;
EMIT;
MOV result.attrib[0], {1.0, 0.0, 0.0, 1.0};
MOV result.position, vertex[1].position;
EMIT;
MOV result.attrib[0], {1.0, 0.0, 0.0, 1.0};
MOV result.position, vertex[2].position;
EMIT;
ENDPRIM;
MOV result.attrib[0], {0.0, 1.0, 0.0, 1.0};
MOV result.position, vertex[2].position;
EMIT;
MOV result.attrib[0], {0.0, 1.0, 0.0, 1.0};
MOV result.position, vertex[3].position;
EMIT;
MOV result.attrib[0], {0.0, 1.0, 0.0, 1.0};
MOV result.position, vertex[4].position;
EMIT;
ENDPRIM;
MOV result.attrib[0], {0.0, 0.0, 1.0, 1.0};
MOV result.position, vertex[4].position;
EMIT;
MOV result.attrib[0], {0.0, 0.0, 1.0, 1.0};
MOV result.position, vertex[5].position;
EMIT;
MOV result.attrib[0], {0.0, 0.0, 1.0, 1.0};
MOV result.position, vertex[0].position;
EMIT;
END""",
   """#version 450
layout(triangles_adjacency) in;
layout(triangle_strip, max_vertices = 12) out;
out vec4 col;
void tri(int a, int b, int c, vec4 k) {
  gl_Position = gl_in[a].gl_Position; col = k; EmitVertex();
  gl_Position = gl_in[b].gl_Position; col = k; EmitVertex();
  gl_Position = gl_in[c].gl_Position; col = k; EmitVertex();
  EndPrimitive();
}
void main() {
  tri(0, 2, 4, vec4(1, 1, 1, 1));
  tri(0, 1, 2, vec4(1, 0, 0, 1));
  tri(2, 3, 4, vec4(0, 1, 0, 1));
  tri(4, 5, 0, vec4(0, 0, 1, 1));
}""",
   vdat([(16, 16, BLACK), (32, 2, BLACK), (48, 16, BLACK), (56, 48, BLACK), (32, 48, BLACK), (8, 48, BLACK)]),
   "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_TRIANGLES_ADJACENCY 0 6\n" + "\n".join([probe(32, 26, WHITE), probe(32, 10, RED), probe(46, 36, GREEN), probe(18, 36, BLUE), probe(60, 4, BLACK)]),
   spec=SPEC + "; TRIANGLES_ADJACENCY vertex numbering")

gs("gs_primitive_id_in", "primitive.id in a geometry program counts input primitives of the draw; it colours each of 4 triangles (0, 0.25, 0.5, 0.75 red).",
   """!!NVgp5.0
PRIMITIVE_IN TRIANGLES;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 3;
INT TEMP id;
TEMP c;
MOV.S id.x, primitive.id.x;
I2F c.x, id.x;
MUL c.x, c.x, 0.25;
MOV c.yzw, {0.0, 0.0, 1.0, 1.0};
MOV result.position, vertex[0].position;
MOV result.attrib[0], c;
EMIT;
MOV result.position, vertex[1].position;
MOV result.attrib[0], c;
EMIT;
MOV result.position, vertex[2].position;
MOV result.attrib[0], c;
EMIT;
END""",
   """#version 450
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
out vec4 col;
void main() {
  vec4 c = vec4(float(gl_PrimitiveIDIn) * 0.25, 0.0, 1.0, 1.0);
  for (int i = 0; i < 3; i++) { gl_Position = gl_in[i].gl_Position; col = c; EmitVertex(); }
}""",
   vdat([(2, 2, BLACK), (30, 2, BLACK), (2, 30, BLACK), (34, 2, BLACK), (62, 2, BLACK), (34, 30, BLACK),
         (2, 34, BLACK), (30, 34, BLACK), (2, 62, BLACK), (34, 34, BLACK), (62, 34, BLACK), (34, 62, BLACK)]),
   "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_TRIANGLES 0 12\n" + "\n".join([probe(8, 8, (0, 0, 1, 1)), probe(40, 8, (.25, 0, 1, 1)), probe(8, 40, (.5, 0, 1, 1)), probe(40, 40, (.75, 0, 1, 1))]),
   spec=SPEC + "; primitive.id (geometry program input)")

gs("gs_line_strip_outline", "PRIMITIVE_OUT LINE_STRIP: each input triangle is turned into its closed outline (4 emitted vertices).",
   """!!NVgp5.0
PRIMITIVE_IN TRIANGLES;
PRIMITIVE_OUT LINE_STRIP;
VERTICES_OUT 4;
MOV result.position, vertex[0].position;
MOV result.attrib[0], vertex[0].attrib[0];
EMIT;
MOV result.position, vertex[1].position;
MOV result.attrib[0], vertex[1].attrib[0];
EMIT;
MOV result.position, vertex[2].position;
MOV result.attrib[0], vertex[2].attrib[0];
EMIT;
MOV result.position, vertex[0].position;
MOV result.attrib[0], vertex[0].attrib[0];
EMIT;
END""",
   """#version 450
layout(triangles) in;
layout(line_strip, max_vertices = 4) out;
in vec4 vcol[];
out vec4 col;
void main() {
  for (int i = 0; i < 4; i++) { gl_Position = gl_in[i % 3].gl_Position; col = vcol[i % 3]; EmitVertex(); }
}""",
   vdat([(8.5, 8.5, GREEN), (56.5, 8.5, GREEN), (32.5, 56.5, GREEN)]),
   "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_TRIANGLES 0 3\n" + probe(30, 8, GREEN) + "\n" + probe(32, 30, BLACK),
   pixels=4, why="line endpoints (diamond-exit ties)")

gs("gs_variable_emit_count", "A data-dependent number of emitted primitives: the x of input vertex 0's attribute gives how many stacked rectangles (REP with a computed count) each point produces.",
   """!!NVgp5.0
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 16;
TEMP p, c;
MOV p, vertex[0].position;
MOV c, {0.0, 0.0, 0.0, 1.0};
REP vertex[0].attrib[0].x;
  ADD c.y, c.y, 0.25;
  ADD result.position, p, {-0.1, 0.0, 0.0, 0.0};
  MOV result.attrib[0], c;
  EMIT;
  ADD result.position, p, {0.1, 0.0, 0.0, 0.0};
  MOV result.attrib[0], c;
  EMIT;
  ADD result.position, p, {-0.1, 0.3, 0.0, 0.0};
  MOV result.attrib[0], c;
  EMIT;
  ADD result.position, p, {0.1, 0.3, 0.0, 0.0};
  MOV result.attrib[0], c;
  EMIT;
  ENDPRIM;
  ADD p.y, p.y, 0.4;
ENDREP;
END""",
   """#version 450
layout(points) in;
layout(triangle_strip, max_vertices = 16) out;
in vec4 vcol[];
out vec4 col;
void main() {
  vec4 p = gl_in[0].gl_Position;
  vec4 c = vec4(0.0, 0.0, 0.0, 1.0);
  for (int i = 0; i < int(floor(vcol[0].x)); i++) {
    c.y += 0.25;
    gl_Position = p + vec4(-0.1, 0.0, 0, 0); col = c; EmitVertex();
    gl_Position = p + vec4(0.1, 0.0, 0, 0); col = c; EmitVertex();
    gl_Position = p + vec4(-0.1, 0.3, 0, 0); col = c; EmitVertex();
    gl_Position = p + vec4(0.1, 0.3, 0, 0); col = c; EmitVertex();
    EndPrimitive();
    p.y += 0.4;
  }
}""",
   "0/float/4 1/float/4\n-0.6 -0.9 0.0 1.0  1 0 0 0\n0.0 -0.9 0.0 1.0  4 0 0 0\n0.6 -0.9 0.0 1.0  2.5 0 0 0",
   "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_POINTS 0 3\n" + "\n".join([probe(13, 6, (0, .25, 0, 1)), probe(13, 19, BLACK), probe(32, 45, (0, 1, 0, 1)), probe(51, 19, (0, .5, 0, 1)), probe(51, 32, BLACK)]),
   spec=SPEC + "; NV_gpu_program4 REP count from an operand (floor)")

gs("gs_two_streams", "EMITS to two vertex streams: stream 0 (position + colour) is rasterized and captured to buffer 0; stream 1 (position * 2 in attrib[1]) is only captured, to buffer 1; per-stream queries count 3 points each.",
   """!!NVgp5.0
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT POINTS;
VERTICES_OUT 2;
MOV result.position, vertex[0].position;
MOV result.attrib[0], vertex[0].attrib[0];
EMITS 0;
MUL result.attrib[1], vertex[0].position, 2.0;
EMITS 1;
END""",
   """#version 450
layout(points) in;
layout(points, max_vertices = 2) out;
in vec4 vcol[];
layout(stream = 0) out vec4 col;
layout(stream = 1) out vec4 s1;
void main() {
  gl_Position = gl_in[0].gl_Position; col = vcol[0]; EmitStreamVertex(0); EndStreamPrimitive(0);
  s1 = gl_in[0].gl_Position * 2.0; EmitStreamVertex(1); EndStreamPrimitive(1);
}""",
   "0/float/4 1/float/4\n-0.5 -0.5 0.0 1.0  1 0 0 1\n0.0 0.25 0.0 1.0  0 1 0 1\n0.5 -0.25 0.0 1.0  0 0 1 1",
   """clear color 0.0 0.0 0.0 1.0
clear
point size 4
NV: xfb attribs result.position result.attrib[0]
NV: xfb attribs stream 1 result.attrib[1]
GL: xfb varyings gl_Position col gl_NextBuffer s1
xfb interleaved
xfb buffer 0 1024
xfb buffer 1 1024
begin transform feedback GL_POINTS
draw arrays GL_POINTS 0 3
end transform feedback
probe primitives generated 3
probe primitives written 3
probe primitives generated stream 1 3
probe primitives written stream 1 3
probe xfb 0 0 (-0.5, -0.5, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0)
probe xfb 0 16 (0.5, -0.25, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0)
probe xfb 1 0 (-1.0, -1.0, 0.0, 2.0, 0.0, 0.5, 0.0, 2.0, 1.0, -0.5, 0.0, 2.0)
probe rect rgba (14, 14, 4, 4) (1.0, 0.0, 0.0, 1.0)
probe rect rgba (30, 38, 4, 4) (0.0, 1.0, 0.0, 1.0)""",
   spec="NV_gpu_program5 EMITS (vertex streams); ARB_transform_feedback3 (streams, per-stream queries); NV_transform_feedback",
   nv_req=("GL_NV_gpu_program5", "GL_NV_transform_feedback", "GL_ARB_transform_feedback3"))

gs("gs_result_primid", "result.primid written by the geometry program (3 - primitive.id) reaches the fragment program's primitive.id.",
   """!!NVgp5.0
PRIMITIVE_IN TRIANGLES;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 3;
INT TEMP id;
MOV.S id.x, primitive.id.x;
SUB.S id.x, 3, id.x;
MOV result.position, vertex[0].position;
MOV.S result.primid.x, id.x;
EMIT;
MOV result.position, vertex[1].position;
MOV.S result.primid.x, id.x;
EMIT;
MOV result.position, vertex[2].position;
MOV.S result.primid.x, id.x;
EMIT;
END""",
   """#version 450
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
void main() {
  for (int i = 0; i < 3; i++) { gl_Position = gl_in[i].gl_Position; gl_PrimitiveID = 3 - gl_PrimitiveIDIn; EmitVertex(); }
}""",
   vdat([(2, 2, BLACK), (30, 2, BLACK), (2, 30, BLACK), (34, 2, BLACK), (62, 2, BLACK), (34, 30, BLACK),
         (2, 34, BLACK), (30, 34, BLACK), (2, 62, BLACK), (34, 34, BLACK), (62, 34, BLACK), (34, 62, BLACK)]),
   "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_TRIANGLES 0 12\n" + "\n".join([probe(8, 8, (.75, 0, 1, 1)), probe(40, 8, (.5, 0, 1, 1)), probe(8, 40, (.25, 0, 1, 1)), probe(40, 40, (0, 0, 1, 1))]),
   spec=SPEC + "; result.primid (geometry program result), fragment primitive.id",
   fp="""!!NVfp5.0
INT TEMP id;
TEMP f;
MOV.S id.x, primitive.id;
I2F f.x, id.x;
MUL result.color.x, f.x, 0.25;
MOV result.color.yzw, {0.0, 0.0, 1.0, 1.0};
END""", fsh="#version 450\nout vec4 color;\nvoid main() { color = vec4(float(gl_PrimitiveID) * 0.25, 0.0, 1.0, 1.0); }")

gs("gs_texture_fetch", "A geometry program samples a texture (TXL at the input point's coordinates, 2x2 rgbw) and emits a solid square of that colour per point.",
   """!!NVgp5.0
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 4;
TEMP c, p;
MAD c, vertex[0].position, {0.5, 0.5, 0.0, 0.0}, {0.5, 0.5, 0.0, 0.0};
TXL c, c, texture[0], 2D;
MOV p, vertex[0].position;
ADD result.position, p, {-0.25, -0.25, 0.0, 0.0};
MOV result.attrib[0], c;
EMIT;
ADD result.position, p, {0.25, -0.25, 0.0, 0.0};
MOV result.attrib[0], c;
EMIT;
ADD result.position, p, {-0.25, 0.25, 0.0, 0.0};
MOV result.attrib[0], c;
EMIT;
ADD result.position, p, {0.25, 0.25, 0.0, 0.0};
MOV result.attrib[0], c;
EMIT;
END""",
   """#version 450
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
layout(binding = 0) uniform sampler2D tex0;
out vec4 col;
void main() {
  vec4 p = gl_in[0].gl_Position;
  vec4 c = textureLod(tex0, p.xy * 0.5 + 0.5, 0.0);
  gl_Position = p + vec4(-0.25, -0.25, 0, 0); col = c; EmitVertex();
  gl_Position = p + vec4(0.25, -0.25, 0, 0); col = c; EmitVertex();
  gl_Position = p + vec4(-0.25, 0.25, 0, 0); col = c; EmitVertex();
  gl_Position = p + vec4(0.25, 0.25, 0, 0); col = c; EmitVertex();
}""",
   "0/float/4 1/float/4\n-0.5 -0.5 0.0 1.0  0 0 0 1\n0.5 -0.5 0.0 1.0  0 0 0 1\n-0.5 0.5 0.0 1.0  0 0 0 1\n0.5 0.5 0.0 1.0  0 0 0 1",
   "clear color 0.0 0.0 0.0 1.0\nclear\ntexture rgbw 0 (2, 2)\ndraw arrays GL_POINTS 0 4\n" +
   "probe rect rgba (10, 10, 12, 12) (1.0, 0.0, 0.0, 1.0)\nprobe rect rgba (42, 10, 12, 12) (0.0, 1.0, 0.0, 1.0)\nprobe rect rgba (10, 42, 12, 12) (0.0, 0.0, 1.0, 1.0)\nprobe rect rgba (42, 42, 12, 12) (1.0, 1.0, 1.0, 1.0)\n" + probe(32, 32, BLACK),
   spec=SPEC + "; NV_gpu_program4 TXL in geometry programs")

SADJ = [(-0.9, -0.5), (-0.9, 0.9), (-0.3, 0.5), (0.0, 0.9), (0.3, -0.5), (0.0, -0.9), (0.9, 0.5), (0.9, -0.9)]
gs("gs_triangle_strip_adjacency", "TRIANGLE_STRIP_ADJACENCY with 8 vertices makes 2 triangles: the geometry program draws each from vertex[0], vertex[2], vertex[4] with the colour (index of vertex[1], vertex[3], vertex[5]) / 8, so the picture shows the strip's vertex numbering (first: main 0 2 4, adjacent 1 6 3; last, odd: main 4 2 6, adjacent 0 5 7).",
   """!!NVgp5.0
PRIMITIVE_IN TRIANGLES_ADJACENCY;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 3;
TEMP c;
MOV c, {0.0, 0.0, 0.0, 1.0};
MOV c.x, vertex[1].attrib[0].x;
MOV c.y, vertex[3].attrib[0].x;
MOV c.z, vertex[5].attrib[0].x;
MOV result.position, vertex[0].position;
MOV result.attrib[0], c;
EMIT;
MOV result.position, vertex[2].position;
MOV result.attrib[0], c;
EMIT;
MOV result.position, vertex[4].position;
MOV result.attrib[0], c;
EMIT;
END""",
   """#version 450
layout(triangles_adjacency) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 vcol[];
out vec4 col;
void main() {
  vec4 c = vec4(vcol[1].x, vcol[3].x, vcol[5].x, 1.0);
  gl_Position = gl_in[0].gl_Position; col = c; EmitVertex();
  gl_Position = gl_in[2].gl_Position; col = c; EmitVertex();
  gl_Position = gl_in[4].gl_Position; col = c; EmitVertex();
}""",
   "0/float/4 1/float/4\n" + "\n".join("%r %r 0.0 1.0  %r 0 0 1" % (x, y, i / 8) for i, (x, y) in enumerate(SADJ)),
   "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_TRIANGLE_STRIP_ADJACENCY 0 8\n" +
   probe(19, 27, (1/8, 6/8, 3/8, 1)) + "\n" + probe(32, 36, (0, 5/8, 7/8, 1)),
   spec=SPEC + "; OpenGL 3.2 Table 2.4 (triangle strips with adjacency: vertex selection for first and last primitives)")

LSA = [(-0.9, -0.9), (-0.6, 0.2), (-0.2, -0.2), (0.2, 0.2), (0.6, -0.2), (0.9, 0.9)]
gs("gs_line_strip_adjacency", "LINE_STRIP_ADJACENCY with 6 vertices gives 3 primitives (i, i+1, i+2, i+3): the geometry program draws the inner segment of each as a thin quad coloured (index of vertex[0], index of vertex[3], primitive.id) / 8.",
   """!!NVgp5.0
PRIMITIVE_IN LINES_ADJACENCY;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 4;
INT TEMP id;
TEMP c, d;
MOV.S id.x, primitive.id.x;
I2F c.z, id.x;
MUL c.z, c.z, 0.125;
MOV c.x, vertex[0].attrib[0].x;
MOV c.y, vertex[3].attrib[0].x;
MOV c.w, 1.0;
MOV d, {0.0, 0.06, 0.0, 0.0};
SUB result.position, vertex[1].position, d;
MOV result.attrib[0], c;
EMIT;
SUB result.position, vertex[2].position, d;
MOV result.attrib[0], c;
EMIT;
ADD result.position, vertex[1].position, d;
MOV result.attrib[0], c;
EMIT;
ADD result.position, vertex[2].position, d;
MOV result.attrib[0], c;
EMIT;
END""",
   """#version 450
layout(lines_adjacency) in;
layout(triangle_strip, max_vertices = 4) out;
in vec4 vcol[];
out vec4 col;
void main() {
  vec4 c = vec4(vcol[0].x, vcol[3].x, float(gl_PrimitiveIDIn) * 0.125, 1.0);
  vec4 d = vec4(0.0, 0.06, 0.0, 0.0);
  gl_Position = gl_in[1].gl_Position - d; col = c; EmitVertex();
  gl_Position = gl_in[2].gl_Position - d; col = c; EmitVertex();
  gl_Position = gl_in[1].gl_Position + d; col = c; EmitVertex();
  gl_Position = gl_in[2].gl_Position + d; col = c; EmitVertex();
}""",
   "0/float/4 1/float/4\n" + "\n".join("%r %r 0.0 1.0  %r 0 0 1" % (x, y, i / 8) for i, (x, y) in enumerate(LSA)),
   "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_LINE_STRIP_ADJACENCY 0 6\n" +
   probe(19, 32, (0, 3/8, 0, 1)) + "\n" + probe(32, 32, (1/8, 4/8, 1/8, 1)) + "\n" + probe(44, 32, (2/8, 5/8, 2/8, 1)),
   spec=SPEC + "; OpenGL 3.2 2.6.1 line strips with adjacency (primitive i uses vertices i .. i+3)")
