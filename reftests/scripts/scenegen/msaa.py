from gen import *
from raster import vd, n, VPC, FPC, VSC, FSC, RED, GREEN, BLUE, WHITE, BLACK, setp, VPP, VSP
import math
M = "msaa"
SP = [(0.375, 0.125), (0.875, 0.375), (0.125, 0.625), (0.625, 0.875)]
def inside(tri, px, py):
    (ax, ay), (bx, by), (cx, cy) = tri
    def e(x0, y0, x1, y1): return (x1 - x0) * (py - y0) - (y1 - y0) * (px - x0)
    a = e(ax, ay, bx, by); b = e(bx, by, cx, cy); c = e(cx, cy, ax, ay)
    return (a > 0 and b > 0 and c > 0) or (a < 0 and b < 0 and c < 0)
def cov(tri, x, y): return [inside(tri, x + sx, y + sy) for (sx, sy) in SP]
def ms(name, what, spec, nv, gl, test, tol=1, pixels=0, why="resolved coverage fractions are exact multiples of 1/4", **kw):
    scene(M, name, what, spec, tol, pixels, why, nv, gl, test, samples=4, **kw)

TRI = [(2.1, 3.3), (61.7, 9.2), (20.4, 60.6)]
def edge_pixels(tri, want):
    out = []
    for y in range(64):
        for x in range(64):
            c = cov(tri, x, y)
            k = sum(c)
            if 0 < k < 4 and k == want: out.append((x, y, c))
    return out
pr = []
for k in (1, 2, 3):
    e = edge_pixels(TRI, k)
    for (x, y, c) in e[:: max(1, len(e)//3)][:3]:
        pr.append(probe(x, y, (k/4, k/4, k/4, 1)))
        s = c.index(True)
        pr.append("probe sample rgba %d %d %d (1.0, 1.0, 1.0, 1.0)" % (x, y, s))
        s = c.index(False)
        pr.append("probe sample rgba %d %d %d (0.0, 0.0, 0.0, 1.0)" % (x, y, s))
pr.append(probe(25, 25, WHITE))
ms("msaa_edge_coverage", "4x MSAA coverage of a white triangle: edge pixels resolve to k/4 grey where k samples (standard positions) are inside; individual samples are probed.",
   "OpenGL 3.5.6 multisample polygon rasterization (coverage per sample); standard 4x sample positions (0.375,0.125) (0.875,0.375) (0.125,0.625) (0.625,0.875)",
   [("vertex program", VPC), ("fragment program", FPC)], [("vertex shader", VSC), ("fragment shader", FSC)],
   "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_TRIANGLES 0 3\n" + "\n".join(pr),
   vdata=vd([(x, y, WHITE) for (x, y) in TRI]))

# centroid: attribute d = signed distance (in pixels) to the hypotenuse, positive inside.
A, B = TRI[1], TRI[2]
L = math.hypot(B[0]-A[0], B[1]-A[1])
def dist(x, y): return ((B[0]-A[0])*(y-A[1]) - (B[1]-A[1])*(x-A[0])) / L
rows = "0/float/4 1/float/4\n" + "\n".join("%r %r 0.0 1.0  %r 0.0 0.0 0.0" % (n(x), n(y), dist(x, y)) for (x, y) in TRI)
def cent_probe(x, y):
    c = cov(TRI, x, y); k = sum(c)
    r = 1.0 if (k > 0 and dist(x + .5, y + .5) < -0.01) else 0.0
    return probe(x, y, (r * k / 4, k / 4, 0, 1))
cps = []
for k in (1, 2, 3):
    e = edge_pixels(TRI, k)
    cps += [cent_probe(x, y) for (x, y, c) in e[::max(1, len(e)//4)][:4]]
ms("msaa_centroid_inside", "CENTROID interpolation keeps the attribute inside the primitive on partially covered pixels: d (signed distance to the long edge, >= 0 inside) read with CENTROID is never negative (green = coverage), while the same value interpolated at the pixel centre is negative on some edge pixels (red).",
   "NV_fragment_program4 CENTROID attribute modifier; OpenGL 3.5.6 (centroid: a point inside both the pixel and the primitive)",
   [("vertex program", "!!NVvp5.0\nMOV result.position, vertex.attrib[0];\nMOV result.attrib[0], vertex.attrib[1];\nMOV result.attrib[1], vertex.attrib[1];\nEND"),
    ("fragment program", """!!NVfp5.0
ATTRIB dc = fragment.attrib[0];
CENTROID ATTRIB dd = fragment.attrib[1];
TEMP r;
SLT r.x, dc.x, -0.01;
SGE r.y, dd.x, -0.01;
MOV r.zw, {0.0, 0.0, 0.0, 1.0};
MOV result.color, r;
END""")],
   [("vertex shader", "#version 450\nlayout(location = 0) in vec4 pos;\nlayout(location = 1) in vec4 d;\nout vec4 dc;\ncentroid out vec4 dd;\nvoid main() { gl_Position = pos; dc = d; dd = d; }"),
    ("fragment shader", "#version 450\nin vec4 dc;\ncentroid in vec4 dd;\nout vec4 color;\nvoid main() { color = vec4(dc.x < -0.01 ? 1.0 : 0.0, dd.x >= -0.01 ? 1.0 : 0.0, 0.0, 1.0); }")],
   "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_TRIANGLES 0 3\n" + "\n".join(cps), vdata=rows,
   why="exact: any centroid location inside the primitive gives the same image")

VPW = """!!NVvp5.0
MOV result.position, vertex.position;
MAD result.attrib[0], vertex.position, {32.0, 32.0, 0.0, 0.0}, {32.0, 32.0, 0.0, 1.0};
END"""
VSW = """#version 450
layout(location = 0) in vec4 piglit_vertex;
%sout vec4 wp;
void main() { gl_Position = piglit_vertex; wp = piglit_vertex * vec4(32.0, 32.0, 0.0, 0.0) + vec4(32.0, 32.0, 0.0, 1.0); }"""
def frac(v): return v - math.floor(v)
ms("msaa_sample_attrib_per_sample", "A SAMPLE attribute forces per-sample shading: f = frac(x + y + 0.125) >= 0.5 evaluated at each sample position gives 3 of 4 samples set (0.75 grey), where pixel-centre evaluation would give 0.",
   "NV_gpu_program5 SAMPLE interpolation modifier (per-sample fragment program invocation); ARB_sample_shading",
   [("vertex program", VPW), ("fragment program", """!!NVfp5.0
SAMPLE ATTRIB wp = fragment.attrib[0];
TEMP t;
ADD t.x, wp.x, wp.y;
ADD t.x, t.x, 0.125;
FRC t.x, t.x;
SGE t.x, t.x, 0.5;
MOV result.color, t.x;
MOV result.color.w, 1.0;
END""")],
   [("vertex shader", VSW % "sample "), ("fragment shader", "#version 450\nsample in vec4 wp;\nout vec4 color;\nvoid main() { color = vec4(vec3(fract(wp.x + wp.y + 0.125) >= 0.5 ? 1.0 : 0.0), 1.0); }")],
   "clear color 0.0 0.0 0.0 1.0\nclear\ndraw rect -1 -1 2 2\nprobe rect rgba (0, 0, 64, 64) (0.75, 0.75, 0.75, 1.0)\n" +
   "probe sample rgba 10 10 0 (1.0, 1.0, 1.0, 1.0)\nprobe sample rgba 10 10 1 (0.0, 0.0, 0.0, 1.0)\nprobe sample rgba 10 10 2 (1.0, 1.0, 1.0, 1.0)\nprobe sample rgba 10 10 3 (1.0, 1.0, 1.0, 1.0)")

ms("msaa_sample_shading_sampleid", "Sample shading (SAMPLE_SHADING, min 1.0) runs the fragment program per sample; fragment.sampleid colours each sample differently.",
   "ARB_sample_shading (MinSampleShading); NV_gpu_program5 fragment.sampleid",
   [("vertex program", VPW), ("fragment program", """!!NVfp5.0
INT TEMP id;
TEMP f;
MOV.S id.x, fragment.sampleid.x;
I2F f.x, id.x;
SEQ result.color.xyz, f.x, {0.0, 1.0, 2.0, 0.0};
MOV result.color.w, 1.0;
END""")],
   [("vertex shader", VSW % ""), ("fragment shader", "#version 450\nin vec4 wp;\nout vec4 color;\nvoid main() { color = vec4(gl_SampleID == 0, gl_SampleID == 1, gl_SampleID == 2, 1.0); }")],
   "clear color 0.0 0.0 0.0 1.0\nclear\nenable GL_SAMPLE_SHADING\nmin sample shading 1.0\ndraw rect -1 -1 2 2\ndisable GL_SAMPLE_SHADING\nprobe rect rgba (0, 0, 64, 64) (0.25, 0.25, 0.25, 1.0)\n" +
   "probe sample rgba 7 9 0 (1.0, 0.0, 0.0, 1.0)\nprobe sample rgba 7 9 1 (0.0, 1.0, 0.0, 1.0)\nprobe sample rgba 7 9 2 (0.0, 0.0, 1.0, 1.0)\nprobe sample rgba 7 9 3 (0.0, 0.0, 0.0, 1.0)")

ms("msaa_ipas_positions", "IPAS of the window position at sample (x + y) mod 4 reveals the standard 4x sample offsets as colours (offset.x, offset.y).",
   "NV_gpu_program5 2.X.8.Z IPAS; standard 4x sample positions",
   [("vertex program", VPW), ("fragment program", """!!NVfp5.0
ATTRIB wp = fragment.attrib[0];
UINT TEMP i;
TEMP t, c;
FLR.U i.xy, fragment.position;
ADD.U i.x, i.x, i.y;
AND.U i.x, i.x, 3;
IPAS t, wp, i.x;
FLR c, fragment.position;
SUB result.color.xy, t, c;
MOV result.color.zw, {0.0, 0.0, 0.0, 1.0};
END""")],
   [("vertex shader", VSW % ""), ("fragment shader", "#version 450\nin vec4 wp;\nout vec4 color;\nvoid main() {\n  ivec2 i = ivec2(floor(gl_FragCoord.xy));\n  vec4 t = interpolateAtSample(wp, (i.x + i.y) & 3);\n  color = vec4(t.xy - floor(gl_FragCoord.xy), 0.0, 1.0);\n}")],
   "clear color 0.0 0.0 0.0 1.0\nclear\ndraw rect -1 -1 2 2\n" + "\n".join(probe(x, y, (SP[(x+y) % 4][0], SP[(x+y) % 4][1], 0, 1)) for (x, y) in [(0, 0), (1, 0), (2, 0), (3, 0), (10, 13), (40, 33)]))

ms("msaa_ipao_offsets", "IPAO evaluates the window-position attribute at offsets from the pixel centre (multiples of 1/16): (0.25, -0.125) and (-0.4375, 0.3125).",
   "NV_gpu_program5 2.X.8.Z IPAO (offsets within the supported range and 1/16 granularity)",
   [("vertex program", VPW), ("fragment program", """!!NVfp5.0
ATTRIB wp = fragment.attrib[0];
TEMP a, b, c;
IPAO a, wp, {0.25, -0.125, 0.0, 0.0};
IPAO b, wp, {-0.4375, 0.3125, 0.0, 0.0};
FLR c, fragment.position;
SUB a, a, c;
SUB b, b, c;
MOV result.color, {0.0, 0.0, 0.0, 1.0};
MOV result.color.xy, a;
MOV result.color.z, b.x;
MUL result.color.w, b.y, 1.0;
END""")],
   [("vertex shader", VSW % ""), ("fragment shader", "#version 450\nin vec4 wp;\nout vec4 color;\nvoid main() {\n  vec2 c = floor(gl_FragCoord.xy);\n  vec2 a = interpolateAtOffset(wp, vec2(0.25, -0.125)).xy - c;\n  vec2 b = interpolateAtOffset(wp, vec2(-0.4375, 0.3125)).xy - c;\n  color = vec4(a, b);\n}")],
   "clear color 0.0 0.0 0.0 1.0\nclear\ndraw rect -1 -1 2 2\nprobe rect rgba (0, 0, 64, 64) (0.75, 0.375, 0.0625, 0.8125)",
   why="offsets are exact multiples of 1/16; 8-bit rounding")

# IPAC on edge pixels: same as centroid test but with IPAC on a plain attribute
ms("msaa_ipac_edge", "IPAC evaluates an attribute at the centroid on partially covered pixels: the signed distance d read by IPAC is never negative (green = coverage), d at the pixel centre may be (red).",
   "NV_gpu_program5 2.X.8.Z IPAC",
   [("vertex program", "!!NVvp5.0\nMOV result.position, vertex.attrib[0];\nMOV result.attrib[0], vertex.attrib[1];\nEND"),
    ("fragment program", """!!NVfp5.0
ATTRIB d = fragment.attrib[0];
TEMP r, dc;
IPAC dc, d;
SLT r.x, d.x, -0.01;
SGE r.y, dc.x, -0.01;
MOV r.zw, {0.0, 0.0, 0.0, 1.0};
MOV result.color, r;
END""")],
   [("vertex shader", "#version 450\nlayout(location = 0) in vec4 pos;\nlayout(location = 1) in vec4 dv;\nout vec4 d;\nvoid main() { gl_Position = pos; d = dv; }"),
    ("fragment shader", "#version 450\nin vec4 d;\nout vec4 color;\nvoid main() { vec4 dc = interpolateAtCentroid(d); color = vec4(d.x < -0.01 ? 1.0 : 0.0, dc.x >= -0.01 ? 1.0 : 0.0, 0.0, 1.0); }")],
   "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_TRIANGLES 0 3\n" + "\n".join(cps), vdata=rows,
   why="exact: any centroid location inside the primitive gives the same image")

ms("msaa_sample_mask", "SampleMaski 0x5 limits writes to samples 0 and 2: a full-screen green rectangle resolves to 50% over black.",
   "OpenGL 4.1.3 multisample fragment operations (SAMPLE_MASK)",
   [("vertex program", VPP), ("fragment program", FPC)], [("vertex shader", VSP), ("fragment shader", FSC)],
   "clear color 0.0 0.0 0.0 1.0\nclear\nenable GL_SAMPLE_MASK\nsample mask 5\n" + setp(0.0, GREEN) + "\ndraw rect -1 -1 2 2\nsample mask 4294967295\ndisable GL_SAMPLE_MASK\n" +
   "probe rect rgba (0, 0, 64, 64) (0.0, 0.5, 0.0, 1.0)\nprobe sample rgba 5 5 0 (0.0, 1.0, 0.0, 1.0)\nprobe sample rgba 5 5 1 (0.0, 0.0, 0.0, 1.0)\nprobe sample rgba 5 5 2 (0.0, 1.0, 0.0, 1.0)\nprobe sample rgba 5 5 3 (0.0, 0.0, 0.0, 1.0)")

def fsm_probe(x, y):
    c = cov(TRI, x, y); k = sum(c)
    return probe(x, y, (k/4 * k/4, k/4, 0, 1))
ms("msaa_fragment_samplemask", "fragment.samplemask: the covered-sample bits of each fragment; bit count / 4 in red (written on the covered samples, so it resolves to (k/4)^2), full coverage in green.",
   "NV_gpu_program5 fragment.samplemask; NV_gpu_program5 BTC",
   [("vertex program", VPC), ("fragment program", """!!NVfp5.0
INT TEMP m;
TEMP f;
MOV.S m.x, fragment.samplemask.x;
BTC.S m.x, m.x;
I2F f.x, m.x;
MUL result.color.x, f.x, 0.25;
MOV result.color.yzw, {0.0, 1.0, 0.0, 1.0};
END""")],
   [("vertex shader", VSC), ("fragment shader", "#version 450\nin vec4 c;\nout vec4 color;\nvoid main() { color = vec4(float(bitCount(gl_SampleMaskIn[0])) * 0.25, 1.0, 0.0, 1.0); }")],
   "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_TRIANGLES 0 3\n" +
   "\n".join(fsm_probe(x, y) for k in (1, 2, 3) for (x, y, c) in edge_pixels(TRI, k)[:2]) + "\n" + probe(25, 25, (1, 1, 0, 1)),
   vdata=vd([(x, y, WHITE) for (x, y) in TRI]), tol=2, why="(k/4)^2 resolves round to 8 bits")

ms("msaa_alpha_to_coverage", "SAMPLE_ALPHA_TO_COVERAGE with alpha 0, 0.5 and 1: the resolved colour is the alpha fraction of the source over black (the chosen samples are implementation-dependent; their number is not).",
   "OpenGL 4.1.3 SAMPLE_ALPHA_TO_COVERAGE (number of samples proportional to alpha)",
   [("vertex program", VPP), ("fragment program", FPC)], [("vertex shader", VSP), ("fragment shader", FSC)],
   "clear color 0.0 0.0 0.0 0.0\nclear\nenable GL_SAMPLE_ALPHA_TO_COVERAGE\n" + setp(0.0, (1, 1, 1, 0.5)) + "\ndraw rect -1 -1 1 2\n" + setp(0.0, (1, 1, 1, 1)) + "\ndraw rect 0 -1 1 1\n" +
   setp(0.0, (1, 1, 1, 0)) + "\ndraw rect 0 0 1 1\ndisable GL_SAMPLE_ALPHA_TO_COVERAGE\n" +
   "probe rect rgba (0, 0, 32, 64) (0.5, 0.5, 0.5, 0.25)\nprobe rect rgba (32, 0, 32, 32) (1.0, 1.0, 1.0, 1.0)\nprobe rect rgba (32, 32, 32, 32) (0.0, 0.0, 0.0, 0.0)",
   tol=2, why="an implementation may dither the coverage for alpha 0.5 but must cover half the samples on average; 8-bit rounding")

QA = [(-1.0, -1.0, -0.5), (1.0, -1.0, 0.5), (-1.0, 1.0, -0.5), (1.0, 1.0, 0.5)]
QB = [(-1.0, -1.0, 0.3), (1.0, -1.0, -0.3), (-1.0, 1.0, 0.3), (1.0, 1.0, -0.3)]
scene(M, "msaa_depth_intersection", "Per-sample depth testing of two intersecting planes at 4x: the intersection line is antialiased in the resolve (partial pixels mix red and blue).",
      "OpenGL 3.5.6 / 4.1.3 multisample depth (depth evaluated and tested per sample)", 1, 0, "coverage fractions are exact multiples of 1/4",
      [("vertex program", VPC), ("fragment program", FPC)], [("vertex shader", VSC), ("fragment shader", FSC)],
      "clear color 0.0 0.0 0.0 1.0\nclear depth 1.0\nclear\nenable GL_DEPTH_TEST\ndepthfunc GL_LESS\ndraw arrays GL_TRIANGLE_STRIP 0 4\ndraw arrays GL_TRIANGLE_STRIP 4 4\n" +
      probe(10, 30, RED) + "\n" + probe(54, 30, BLUE),
      vdata="0/float/4 1/float/4\n" + "\n".join("%r %r %r 1.0  1.0 0.0 0.0 1.0" % q for q in QA) + "\n" + "\n".join("%r %r %r 1.0  0.0 0.0 1.0 1.0" % q for q in QB),
      samples=4)

ms("msaa_multisample_disabled", "With MULTISAMPLE disabled on a 4x framebuffer, the triangle is rasterized at pixel centres and all 4 samples of a covered pixel are written: no antialiasing.",
   "OpenGL 3.5.6 / 3.2 (MULTISAMPLE disabled: single-sample rasterization, all samples updated)",
   [("vertex program", VPC), ("fragment program", FPC)], [("vertex shader", VSC), ("fragment shader", FSC)],
   "clear color 0.0 0.0 0.0 1.0\nclear\ndisable GL_MULTISAMPLE\ndraw arrays GL_TRIANGLES 0 3\nenable GL_MULTISAMPLE\n" +
   "\n".join(probe(x, y, WHITE if inside(TRI, x + .5, y + .5) else BLACK) for (x, y, c) in edge_pixels(TRI, 2)[:6]),
   vdata=vd([(x, y, WHITE) for (x, y) in TRI]), why="no partial pixels")

ms("msaa_samples_passed", "Occlusion query on a 4x framebuffer counts samples: a 16x16-pixel rectangle passes 1024 samples, and an 8x8 one with SampleMaski 1 adds 64 more.",
   "OpenGL 4.1.7 occlusion queries (samples, not pixels, on multisample buffers); 4.1.3 SAMPLE_MASK",
   [("vertex program", VPP), ("fragment program", FPC)], [("vertex shader", VSP), ("fragment shader", FSC)],
   "clear color 0.0 0.0 0.0 1.0\nclear\n" + setp(0.0, GREEN) + "\ndraw rect -1 -1 0.5 0.5\nenable GL_SAMPLE_MASK\nsample mask 1\n" + setp(0.0, BLUE) + "\ndraw rect 0 0 0.25 0.25\nsample mask 4294967295\ndisable GL_SAMPLE_MASK\n" +
   "probe samples passed 1088\nprobe rect rgba (0, 0, 16, 16) (0.0, 1.0, 0.0, 1.0)\nprobe rect rgba (32, 32, 8, 8) (0.0, 0.0, 0.25, 1.0)")

ms("msaa_alpha_to_one", "SAMPLE_ALPHA_TO_ONE with alpha to coverage: alpha 0.5 covers half the samples, and the written alpha becomes 1, so the resolve is (0.5, 0.5, 0.5, 0.5) over transparent black.",
   "OpenGL 4.1.3 SAMPLE_ALPHA_TO_COVERAGE and SAMPLE_ALPHA_TO_ONE",
   [("vertex program", VPP), ("fragment program", FPC)], [("vertex shader", VSP), ("fragment shader", FSC)],
   "clear color 0.0 0.0 0.0 0.0\nclear\nenable GL_SAMPLE_ALPHA_TO_COVERAGE\nenable GL_SAMPLE_ALPHA_TO_ONE\n" + setp(0.0, (1, 1, 1, 0.5)) + "\ndraw rect -1 -1 2 2\ndisable GL_SAMPLE_ALPHA_TO_ONE\ndisable GL_SAMPLE_ALPHA_TO_COVERAGE\n" +
   "probe rect rgba (0, 0, 64, 64) (0.5, 0.5, 0.5, 0.5)",
   tol=2, why="half the samples on average (implementations may dither which); 8-bit rounding")

ms("msaa_lines", "Multisampled lines (4x) are rasterized as 1-pixel-wide rectangles: a horizontal line at y = 20.25 covers sample 3 of row 19 (1/4 grey) and samples 0-2 of row 20 (3/4 grey); a vertical line at x = 44.75 covers samples 0, 1, 3 of column 44 (3/4) and sample 2 of column 45 (1/4); a diagonal line shows partial coverage along its edges.",
   "OpenGL 3.5.4 multisample line rasterization (rectangle of width w centred on the segment, coverage per sample); standard 4x sample positions",
   [("vertex program", VPC), ("fragment program", FPC)], [("vertex shader", VSC), ("fragment shader", FSC)],
   "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_LINES 0 6\n" +
   "\n".join([probe(30, 19, (.25, .25, .25, 1)), probe(30, 20, (.75, .75, .75, 1)), probe(30, 21, BLACK), probe(30, 18, BLACK),
              probe(44, 45, (.75, .75, .75, 1)), probe(45, 45, (.25, .25, .25, 1)), probe(43, 45, BLACK)]),
   vdata=vd([(4.0, 20.25, WHITE), (60.0, 20.25, WHITE), (44.75, 30.0, WHITE), (44.75, 60.0, WHITE), (6.3, 30.1, WHITE), (30.6, 58.2, WHITE)]),
   tol=1, pixels=8, why="coverage fractions are multiples of 1/4; line ends (rectangle caps) may differ by a few pixels")
