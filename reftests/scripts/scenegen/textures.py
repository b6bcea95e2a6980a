from gen import *
import math
T = "textures"
S4 = "NV_gpu_program4 2.X.8.Z"
def tdecl(*units_types):
    return "\n".join("layout(binding = %d) uniform %s tex%d;" % (u, ty, u) for (u, ty) in units_types)
RGBW = lambda i, j, w, h: [(1, 0, 0, 1), (0, 1, 0, 1), (0, 0, 1, 1), (1, 1, 1, 1)][(1 if i >= w//2 else 0) + (2 if j >= h//2 else 0)]

fs(T, "tex_nearest_rgbw", "TEX on a 2D texture with NEAREST filtering: the piglit rgbw pattern, quadrants red/green/blue/white.",
   S4 + " TEX; 2.X.4.4 texture access; OpenGL 3.8.8 NEAREST",
   "TEX result.color, fragment.texcoord[0], texture[0], 2D;",
   "color = texture(tex0, tc.xy);",
   "\n".join(probe(x, y, RGBW(x, y, 64, 64)) for (x, y) in [(10, 10), (50, 10), (10, 50), (50, 50)]),
   tol=1, why="NEAREST, no texel-coordinate ties (8 texels over 64 pixels)", decls=tdecl((0, "sampler2D")),
   test_pre="texture rgbw 0 (8, 8)")

def ramp_lin(u, n):
    u = u * n - 0.5
    i0 = math.floor(u); a = u - i0
    return ((1-a) * (i0 % n) + a * ((i0+1) % n)) / (n-1)
def ramp_probe(x, y, s0, ss, t0, ts, n=8):
    s = s0 + ss*(x+.5)/64; t = t0 + ts*(y+.5)/64
    return probe(x, y, (ramp_lin(s, n), ramp_lin(t, n), .5, 1))
fs(T, "tex_linear_ramp_repeat", "Bilinear filtering of the 8x8 ramp texture (REPEAT wrap) over texture coordinates -0.25..1.25: wraps blend texel 7 with texel 0.",
   "OpenGL 3.8.8 LINEAR filtering (eq. 3.23-3.25), REPEAT wrap; NV_gpu_program4 TEX",
   "TEX result.color, fragment.texcoord[0], texture[0], 2D;",
   "color = texture(tex0, tc.xy);",
   "\n".join(ramp_probe(x, y, -.25, 1.5, -.25, 1.5) for (x, y) in [(1, 1), (10, 50), (31, 31), (45, 20), (62, 62), (63, 5)]),
   decls=tdecl((0, "sampler2D")), test_pre="texture ramp 0 (8, 8)", draw="draw rect tex -1 -1 2 2 -0.25 -0.25 1.5 1.5",
   why="bilinear weights are multiples of 1/16 here; 8-bit rounding")

def wrap(u, n, mode):
    i = math.floor(u * n)
    if mode == "repeat": return i % n
    if mode == "mirrored_repeat":
        p = i % (2*n)
        return p if p < n else 2*n - 1 - p
    if mode == "clamp_to_edge": return min(max(i, 0), n-1)
    return i if 0 <= i < n else None
def wrap_probe(x, y, x0, y0, mode, border):
    s = -1 + 3*(x - x0 + .5)/32; t = -1 + 3*(y - y0 + .5)/32
    i = wrap(s, 4, mode); j = wrap(t, 4, mode)
    if i is None or j is None: return probe(x, y, border)
    return probe(x, y, RGBW(i, j, 4, 4))
modes = ["repeat", "mirrored_repeat", "clamp_to_edge", "clamp_to_border"]
quads = [(-1, -1), (0, -1), (-1, 0), (0, 0)]
pre = ["texture rgbw 0 (4, 4)", "texparameter 2D border_color (0.5, 0.25, 0.75, 1.0)"]
pr = []
for m, (qx, qy) in zip(modes, quads):
    pre += ["texparameter 2D wrap_s %s" % m, "texparameter 2D wrap_t %s" % m,
            "draw rect tex %d %d 1 1 -1 -1 3 3" % (qx, qy)]
    x0 = (qx + 1) * 32; y0 = (qy + 1) * 32
    pr += [wrap_probe(x0 + dx, y0 + dy, x0, y0, m, (.5, .25, .75, 1)) for (dx, dy) in [(1, 1), (6, 20), (14, 14), (20, 3), (30, 30), (25, 12)]]
fs(T, "tex_wrap_modes", "REPEAT, MIRRORED_REPEAT, CLAMP_TO_EDGE and CLAMP_TO_BORDER (with a border colour) on a 4x4 NEAREST texture over coordinates -1..2, one quadrant each.",
   "OpenGL 3.8.7 texture wrap modes, border colour; NV_gpu_program4 TEX",
   "TEX result.color, fragment.texcoord[0], texture[0], 2D;",
   "color = texture(tex0, tc.xy);", "\n".join(pr), tol=1, why="NEAREST with no ties: texel coordinate steps of 3/8",
   decls=tdecl((0, "sampler2D")), test_pre="\n".join(pre[:-1]), draw=pre[-1])

MIP = [(1, 0, 0, 1), (0, 1, 0, 1), (0, 0, 1, 1), (1, 1, 1, 1)]
fs(T, "tex_txl_miptree", "TXL with an explicit LOD (0..3 by column) on the piglit miptree: red, green, blue, white levels.",
   S4 + " TXL; OpenGL 3.8.9 mipmapping (NEAREST_MIPMAP_NEAREST)",
   """TEMP c;
MOV c, fragment.texcoord[0];
MUL c.w, c.x, 4.0;
FLR c.w, c.w;
TXL result.color, c, texture[0], 2D;""",
   "color = textureLod(tex0, tc.xy, floor(tc.x * 4.0));",
   "\n".join(probe(8 + 16*k, 30, MIP[k]) for k in range(4)), tol=1, why="solid levels",
   decls=tdecl((0, "sampler2D")), test_pre="texture miptree 0")

pr = []; dr = []
for n, k in enumerate([1.5, 3, 6, 12]):
    dr.append("draw rect tex %g -1 0.5 2 0 0 %g %g" % (-1 + 0.5*n, k, 4*k))
    pr.append(probe(8 + 16*n, 32, MIP[n]))
fs(T, "tex_mip_select_scale", "Implicit LOD from derivatives: four 16-pixel columns with texture-coordinate scales giving rho = 0.75, 1.5, 3, 6 select miptree levels 0, 1, 2, 3 (NEAREST_MIPMAP_NEAREST).",
   "OpenGL 3.8.9 (scale factor rho, lambda = log2(rho), level selection for NEAREST_MIPMAP_NEAREST); NV_gpu_program4 TEX",
   "TEX result.color, fragment.texcoord[0], texture[0], 2D;",
   "color = texture(tex0, tc.xy);", "\n".join(pr), tol=1, why="solid levels; lambda is at least 0.08 from a level switch",
   decls=tdecl((0, "sampler2D")), test_pre="texture miptree 0\n" + "\n".join(dr[:-1]), draw=dr[-1])

fs(T, "tex_txb_bias", "TXB: the LOD bias from the w coordinate (0..3 by column) on a 1:1 mapped miptree selects levels 0..3.",
   S4 + " TXB; OpenGL 3.8.9 bias added to lambda",
   """TEMP c;
MOV c, fragment.texcoord[0];
MUL c.w, fragment.position.x, 0.0625;
FLR c.w, c.w;
ADD c.w, c.w, 0.2;
TXB result.color, c, texture[0], 2D;""",
   "color = texture(tex0, tc.xy, floor(gl_FragCoord.x * 0.0625) + 0.2);",
   "\n".join(probe(2 + 16*k, 2, MIP[k]) for k in range(4)), tol=1, why="solid levels",
   decls=tdecl((0, "sampler2D")), test_pre="texture miptree 0", draw="draw rect tex -1 -1 2 2 0 0 8 8")

fs(T, "tex_txd_gradients", "TXD: explicit partial derivatives (scaled by column) select miptree levels 0..3, independent of the real screen derivatives.",
   S4 + " TXD; OpenGL 3.8.9 rho from the supplied partials",
   """TEMP c, dx, dy;
MOV c, fragment.texcoord[0];
MUL c.w, c.x, 4.0;
FLR c.w, c.w;
EX2 c.z, c.w;
MUL dx, {0.0625, 0.0, 0.0, 0.0}, c.z;
MUL dy, {0.0, 0.0625, 0.0, 0.0}, c.z;
MUL dx, dx, 1.5;
MUL dy, dy, 1.5;
MOV c.zw, 0.0;
TXD result.color, c, dx, dy, texture[0], 2D;""",
   """float k = exp2(floor(tc.x * 4.0)) * 1.5;
color = textureGrad(tex0, tc.xy, vec2(0.0625 * k, 0.0), vec2(0.0, 0.0625 * k));""",
   "\n".join(probe(8 + 16*k, 30, MIP[min(k+0, 3)] if False else MIP[[0, 1, 2, 3][k]]) for k in range(4)), tol=1,
   why="solid levels; rho = 0.75, 1.5, 3, 6 texels",
   decls=tdecl((0, "sampler2D")), test_pre="texture miptree 0")

fs(T, "tex_linear_mipmap_linear", "Trilinear filtering between solid miptree levels with TXL at fractional LODs: the level blend weights are the LOD fraction.",
   "OpenGL 3.8.9 LINEAR_MIPMAP_LINEAR (eq. 3.29); NV_gpu_program4 TXL",
   """TEMP c;
MOV c, fragment.texcoord[0];
MUL c.w, c.x, 3.0;
TXL result.color, c, texture[0], 2D;""",
   "color = textureLod(tex0, tc.xy, tc.x * 3.0);",
   probes_fn(lambda s, t: (lambda l: tuple((1-(l-math.floor(l)))*MIP[math.floor(l)][c] + (l-math.floor(l))*MIP[min(3, math.floor(l)+1)][c] for c in range(4)))(3*s),
             [(5, 5), (16, 40), (30, 20), (40, 60), (55, 33)]),
   decls=tdecl((0, "sampler2D")), test_pre="texture miptree 0\ntexparameter 2D min linear_mipmap_linear\ntexparameter 2D mag linear",
   why="the level weight is quantized differently by implementations (llvmpipe: 8 bits); 8-bit rounding", tol=3)

fs(T, "tex_base_max_level_lod", "BASE_LEVEL / MAX_LEVEL / MIN_LOD clamp the levels TXL may use: base level 1 (green) up to max level 2 (blue), min LOD 1.5.",
   "OpenGL 3.8.9 TEXTURE_BASE_LEVEL, TEXTURE_MAX_LEVEL, TEXTURE_MIN_LOD; NV_gpu_program4 TXL",
   """TEMP c;
MOV c, fragment.texcoord[0];
MUL c.w, c.x, 4.0;
FLR c.w, c.w;
TXL result.color, c, texture[0], 2D;""",
   "color = textureLod(tex0, tc.xy, floor(tc.x * 4.0));",
   "\n".join(probe(8 + 16*k, 30, [MIP[2], MIP[2], MIP[2], MIP[2]][k]) for k in range(4)), tol=1, why="solid levels",
   decls=tdecl((0, "sampler2D")), test_pre="texture miptree 0\ntexparameter 2D base_level 1\ntexparameter 2D max_level 2\ntexparameter 2D min_lod 1.5")

# receding plane (perspective) with a mipmapped checker PNG
import zlib, struct as st
def write_png(path, w, h, fn):
    raw = b"".join(b"\x00" + b"".join(bytes(fn(x, h - 1 - y)) for x in range(w)) for y in range(h))
    def chunk(t, d): return st.pack(">I", len(d)) + t + d + st.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", st.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    open(path, "wb").write(data)
import os
os.makedirs(ROOT + "/textures", exist_ok=True)
write_png(ROOT + "/textures/checker64.png", 64, 64,
          lambda x, y: (230, 60, 20, 255) if ((x // 8) + (y // 8)) % 2 == 0 else (20, 90, 230, 255))
PLANE = "0/float/4 1/float/4\n-1.0 -1.0 0.0 1.0  0.0 0.0 0.0 1.0\n1.0 -1.0 0.0 1.0  4.0 0.0 0.0 1.0\n-1.0 3.0 0.0 4.0  0.0 8.0 0.0 1.0\n1.0 3.0 0.0 4.0  4.0 8.0 0.0 1.0"
def plane_scene(name, what, spec, extra, tol, pixels, why):
    scene(T, name, what, spec, tol, pixels, why,
          [("vertex program", "!!NVvp5.0\nMOV result.position, vertex.attrib[0];\nMOV result.texcoord[0], vertex.attrib[1];\nEND"),
           ("fragment program", "!!NVfp5.0\nTEX result.color, fragment.texcoord[0], texture[0], 2D;\nEND")],
          [("vertex shader", "#version 450\nlayout(location = 0) in vec4 pos;\nlayout(location = 1) in vec4 tci;\nout vec4 tc;\nvoid main() { gl_Position = pos; tc = tci; }"),
           ("fragment shader", wrap_fs("color = texture(tex0, tc.xy);", tdecl((0, "sampler2D"))))],
          "clear color 0.0 0.0 0.0 1.0\nclear\ntexture png 0 checker64.png mipmap\ntexparameter 2D wrap_s repeat\ntexparameter 2D wrap_t repeat\n" + extra + "draw arrays GL_TRIANGLE_STRIP 0 4",
          vdata=PLANE)
plane_scene("tex_trilinear_receding_plane", "Trilinear (LINEAR_MIPMAP_LINEAR) filtering of a checker texture on a plane receding in perspective: LOD grows with distance, far squares blur to the average.",
            "OpenGL 3.8.9 (lambda from perspective-correct derivatives, LINEAR_MIPMAP_LINEAR); mipmaps from glGenerateMipmap-style 2x2 box filtering",
            "", 10, 200, "LOD approximations and the mip generation filter differ between implementations; the near rows must match closely")
plane_scene("tex_anisotropic_plane", "Anisotropic filtering (TEXTURE_MAX_ANISOTROPY 8) of the receding checker plane: far squares stay sharper along x than with trilinear filtering.",
            "EXT_texture_filter_anisotropic (implementation-dependent footprint; glemu's EWA filter is described in textures/src/aniso.rs); OpenGL 4.6 8.14",
            "texparameter 2D max_anisotropy 8\n", 3, 16, "glemu and llvmpipe run the same elliptical weighted average, in f32 both; 8-bit rounding of the weighted sums and derivative rounding at a few mip-level switches (measured: max 1/255; trilinear filtering misses by up to 72/255 on 1780 pixels)")

CUBE = [(1, 0, 0, 1), (0, 1, 1, 1), (0, 1, 0, 1), (1, 0, 1, 1), (0, 0, 1, 1), (1, 1, 0, 1)]
fs(T, "tex_cube_faces", "TEX CUBE: a 3x2 grid of cells, each looking along one major axis (+X,-X,+Y,-Y,+Z,-Z) with a small in-face offset, shows the six face colours.",
   "OpenGL 3.8.6 cube map face selection (Table 3.20); NV_gpu_program4 TEX CUBE",
   """PARAM dirs[6] = { {1.0, 0.0, 0.0, 0.0}, {-1.0, 0.0, 0.0, 0.0}, {0.0, 1.0, 0.0, 0.0},
                    {0.0, -1.0, 0.0, 0.0}, {0.0, 0.0, 1.0, 0.0}, {0.0, 0.0, -1.0, 0.0} };
TEMP c, d, f;
INT TEMP i;
MUL c.xy, fragment.position, {0.046875, 0.03125, 0.0, 0.0};
FLR f.xy, c;
MAD f.z, f.y, 3.0, f.x;
FLR.S i.x, f.z;
FRC c.xy, c;
SUB c.xy, c, 0.5;
MUL c.xy, c, 0.6;
MOV d, dirs[i.x];
ADD d.xyz, d, c.xyxy;
TEX result.color, d, texture[0], CUBE;""",
   """const vec3 dirs[6] = vec3[6](vec3(1, 0, 0), vec3(-1, 0, 0), vec3(0, 1, 0), vec3(0, -1, 0), vec3(0, 0, 1), vec3(0, 0, -1));
vec2 c = gl_FragCoord.xy * vec2(0.046875, 0.03125);
vec2 f = floor(c);
int i = int(f.y * 3.0 + f.x);
vec2 o = (fract(c) - 0.5) * 0.6;
vec3 d = dirs[i] + vec3(o, o.x);
color = texture(tex0, d);""",
   "\n".join(probe(int(10 + 21.33*(k % 3)), 16 + 32*(k//3), CUBE[k]) for k in range(6)), tol=1, why="solid faces",
   decls=tdecl((0, "samplerCube")), test_pre="texture cube 0 (4)")

def cube_face(d):
    ax = max(range(3), key=lambda a: abs(d[a]))
    return CUBE[2*ax + (0 if d[ax] > 0 else 1)]
fs(T, "tex_cube_seams", "Cube map face selection across seams: directions (3s - 1.5, 3t - 1.45, 1) sweep from +Z into +X, -X, +Y and -Y (the 0.05 shift keeps pixel centres off the |x| = |y| diagonals, where the face choice is implementation-defined).",
   "OpenGL 3.8.6 cube map face selection by the largest-magnitude coordinate; NV_gpu_program4 TEX CUBE",
   """TEMP d;
MAD d.xy, fragment.texcoord[0], 3.0, {-1.5, -1.45, 0.0, 0.0};
MOV d.z, 1.0;
TEX result.color, d, texture[0], CUBE;""",
   "color = texture(tex0, vec3(tc.xy * 3.0 - vec2(1.5, 1.45), 1.0));",
   "\n".join(probe(x, y, cube_face((3*(x+.5)/64-1.5, 3*(y+.5)/64-1.45, 1))) for (x, y) in [(32, 32), (60, 30), (3, 30), (30, 61), (30, 2), (52, 50), (50, 58), (13, 8)]),
   tol=1, why="NEAREST on solid faces; no pixel centre lies on |x| = |y| or |x| = 1 or |y| = 1",
   decls=tdecl((0, "samplerCube")), test_pre="texture cube 0 (4)")

LAY = [(1, 0, 0, 1), (0, 1, 0, 1), (0, 0, 1, 1), (1, 1, 1, 1), (1, 1, 0, 1), (1, 0, 1, 1), (0, 1, 1, 1), (.5, .5, .5, 1)]
fs(T, "tex_array2d_layers", "ARRAY2D: the layer coordinate (r) selects one of 8 solid layers by column; layer values are rounded to the nearest integer (x.4 -> x).",
   "EXT_texture_array; NV_gpu_program4 2.X.4.4 (array layer = round(coord), clamped)",
   """TEMP c;
MOV c, fragment.texcoord[0];
MUL c.z, c.x, 8.0;
FLR c.z, c.z;
ADD c.z, c.z, 0.4;
TEX result.color, c, texture[0], ARRAY2D;""",
   "color = texture(tex0, vec3(tc.xy, floor(tc.x * 8.0) + 0.4));",
   "\n".join(probe(4 + 8*k, 20, LAY[k]) for k in range(8)), tol=1, why="solid layers",
   decls=tdecl((0, "sampler2DArray")), test_pre="texture layers 0 2DArray (4, 4, 8)")

fs(T, "tex_array1d_layers", "ARRAY1D: the second coordinate selects the layer (rows); a layer index past the end clamps to the last layer.",
   "EXT_texture_array (1D array textures, layer clamping); NV_gpu_program4 TEX ARRAY1D",
   """TEMP c;
MOV c, fragment.texcoord[0];
MUL c.y, c.y, 8.0;
FLR c.y, c.y;
ADD c.y, c.y, -1.0;
TEX result.color, c, texture[0], ARRAY1D;""",
   "color = texture(tex0, vec2(tc.x, floor(tc.y * 8.0) - 1.0));",
   "\n".join(probe(20, 4 + 8*k, LAY[max(0, min(5, k-1))]) for k in range(8)), tol=1, why="solid layers",
   decls=tdecl((0, "sampler1DArray")), test_pre="texture layers 0 1DArray (4, 1, 6)")

RGBW3 = [[(1, 0, 0, 1), (0, 1, 0, 1), (0, 0, 1, 1), (1, 1, 1, 1)], [(1, 1, 0, 1), (1, 0, 1, 1), (0, 1, 1, 1), (0, 0, 0, 1)]]
fs(T, "tex_3d_rgbw", "3D texture (piglit rgbw 3D, 2x2x2 NEAREST): left half samples slice 0, right half slice 1.",
   "OpenGL 3.8 3D textures (EXT_texture3D); NV_gpu_program4 TEX 3D",
   """TEMP c;
MUL c.xy, fragment.texcoord[0], 2.0;
FRC c.xy, c;
SGE c.z, fragment.texcoord[0].x, 0.5;
MAD c.z, c.z, 0.5, 0.25;
TEX result.color, c, texture[0], 3D;""",
   """vec2 c = fract(tc.xy * 2.0);
color = texture(tex0, vec3(c, tc.x >= 0.5 ? 0.75 : 0.25));""",
   "\n".join(probe(x, y, RGBW3[x // 32][((x % 32) // 16) + 2*((y % 32) // 16)]) for (x, y) in [(5, 5), (20, 5), (5, 20), (20, 20), (40, 40), (60, 40), (40, 60), (60, 60)]),
   tol=1, why="NEAREST, no ties", decls=tdecl((0, "sampler3D")), test_pre="texture rgbw 3D 0")

def ramp_tex(i, j, n): return (i/(n-1), j/(n-1), .5, 1)
def gather_probe(x, y, comp, n=4, off=None):
    s = (x + .5)/64; t = (y + .5)/64
    u = s*n - .5; v = t*n - .5
    i0 = math.floor(u); j0 = math.floor(v)
    offs = off or [(0, 1), (1, 1), (1, 0), (0, 0)]
    vals = []
    for (di, dj) in offs:
        i = min(max(i0 + di, 0), n-1); j = min(max(j0 + dj, 0), n-1)
        vals.append(ramp_tex(i, j, n)[comp])
    return probe(x, y, vals)
fs(T, "tex_txg_component_select", "TXG with component selection (texture[0].y): gathers the green (row) value of the 4 bilinear texels of the 4x4 ramp, in the order (i0,j1) (i1,j1) (i1,j0) (i0,j0).",
   "NV_gpu_program5 2.X.8.Z TXG (component select via <texImageUnitComp>); ARB_texture_gather",
   "TXG result.color, fragment.texcoord[0], texture[0].y, 2D;",
   "color = textureGather(tex0, tc.xy, 1);",
   "\n".join(gather_probe(x, y, 1) for (x, y) in [(3, 3), (20, 20), (31, 45), (50, 10), (60, 60)]) + "\n" +
   "\n".join(gather_probe(x, y, 0).replace("probe", "probe") for (x, y) in []),
   tol=1, why="texel values only", decls=tdecl((0, "sampler2D")),
   test_pre="texture ramp 0 (4, 4)\ntexparameter 2D wrap_s clamp_to_edge\ntexparameter 2D wrap_t clamp_to_edge")

OFFS = [(-1, 0), (2, 1), (0, -2), (1, 1)]
fs(T, "tex_txgo_offsets", "TXGO: four independent per-texel offsets (x offsets and y offsets in two integer vectors) on the red channel of the 4x4 ramp.",
   "NV_gpu_program5 2.X.8.Z TXGO; ARB_gpu_shader5 textureGatherOffsets",
   """INT TEMP ox, oy;
MOV.S ox, {-1, 2, 0, 1};
MOV.S oy, {0, 1, -2, 1};
TXGO result.color, fragment.texcoord[0], ox, oy, texture[0].x, 2D;""",
   "color = textureGatherOffsets(tex0, tc.xy, ivec2[4](ivec2(-1, 0), ivec2(2, 1), ivec2(0, -2), ivec2(1, 1)), 0);",
   "\n".join(gather_probe(x, y, 0, off=OFFS).replace("probe", "probe") for (x, y) in [(3, 3), (20, 20), (31, 45), (50, 10), (60, 60)]),
   tol=1, why="texel values only", decls=tdecl((0, "sampler2D")),
   test_pre="texture ramp 0 (4, 4)\ntexparameter 2D wrap_s clamp_to_edge\ntexparameter 2D wrap_t clamp_to_edge")

def rgbw8(i, j):
    i = min(max(i, 0), 7); j = min(max(j, 0), 7)
    return RGBW(i, j, 8, 8)
fs(T, "tex_txf_offset", "TXF (texel fetch by integer coordinates and LOD) with a constant texel offset (1, -1): the rgbw quadrants shift by one texel.",
   S4 + " TXF; 2.X.4.4 texel offsets (texOffset grammar)",
   """INT TEMP i;
TEMP f;
MUL f, fragment.position, 0.125;
FLR.S i, f;
MOV.S i.zw, 0;
TXF result.color, i, texture[0], 2D, (1, -1);""",
   "color = texelFetchOffset(tex0, ivec2(floor(gl_FragCoord.xy * 0.125)), 0, ivec2(1, -1));",
   "\n".join(probe(x, y, rgbw8(x//8 + 1, y//8 - 1)) for (x, y) in [(20, 36), (28, 36), (20, 44), (28, 44), (4, 60), (52, 12)]) + "\n" + probe(60, 4, (0, 0, 0, 1)),
   tol=1, why="texel fetch, exact; the rectangle only covers pixels whose offset fetch is inside the texture (out-of-range TXF is undefined)",
   decls=tdecl((0, "sampler2D")), test_pre="texture rgbw 0 (8, 8)", draw="draw rect -1 -0.75 1.75 1.75")

fs(T, "tex_shadow2d_compare", "SHADOW2D depth comparison (GREATER, INTENSITY): reference r = t against the depth ramp depth = i/15 gives a diagonal 0/1 split.",
   "ARB_shadow / OpenGL 3.8.14 texture comparison; ARB_fragment_program_shadow; NV_gpu_program4 TEX SHADOW2D (reference in z)",
   """TEMP c;
MOV c, fragment.texcoord[0];
MOV c.z, c.y;
TEX result.color, c, texture[0], SHADOW2D;""",
   "float v = texture(tex0, vec3(tc.xy, tc.y));\ncolor = vec4(v);",
   "\n".join(probe(x, y, [1.0 if (y+.5)/64 > math.floor((x+.5)/4)/15 else 0.0]*4) for (x, y) in [(3, 30), (30, 50), (30, 10), (60, 62), (60, 30), (45, 50)]),
   tol=1, why="compare results are 0 or 1; NEAREST; no ties", decls=tdecl((0, "sampler2DShadow")),
   test_pre="texture shadow2D 0 (16, 16)\ntexparameter 2D min nearest\ntexparameter 2D mag nearest")

fs(T, "tex_txq_size", "TXQ: the size of level 0 and level 2 of the miptree and of an 8x4 texture, as colours (size / 16).",
   S4 + " TXQ",
   """INT TEMP q0, q2, q1;
TEMP f, g;
TXQ q0, 0, texture[0], 2D;
TXQ q2, 2, texture[0], 2D;
TXQ q1, 0, texture[1], 2D;
I2F f.xy, q0;
I2F f.z, q2.x;
I2F f.w, q1.y;
I2F g.x, q1.x;
MAD f.x, f.x, 0.5, g.x;
MUL result.color, f, 0.0625;""",
   """ivec2 q0 = textureSize(tex0, 0);
ivec2 q2 = textureSize(tex0, 2);
ivec2 q1 = textureSize(tex1, 0);
color = vec4(float(q0.x) * 0.5 + float(q1.x), float(q0.y), float(q2.x), float(q1.y)) * 0.0625;""",
   probe(32, 32, (12/16, 8/16, 2/16, 4/16)), tol=1, why="exact", decls=tdecl((0, "sampler2D"), (1, "sampler2D")),
   test_pre="texture miptree 0\ntexture rgbw 1 (8, 4)")

fs(T, "tex_txp_projective", "TXP divides (s,t,r) by q: texture coordinates scaled by q = 1 + s still sample the rgbw quadrants at (s,t).",
   S4 + " TXP",
   """TEMP c;
ADD c.w, fragment.texcoord[0].x, 1.0;
MUL c.xyz, fragment.texcoord[0], c.w;
TXP result.color, c, texture[0], 2D;""",
   "float q = tc.x + 1.0;\ncolor = textureProj(tex0, vec4(tc.xyz * q, q));",
   "\n".join(probe(x, y, RGBW(x, y, 64, 64)) for (x, y) in [(10, 10), (50, 10), (10, 50), (50, 50)]),
   tol=1, why="NEAREST, probes away from texel edges", decls=tdecl((0, "sampler2D")),
   test_pre="texture rgbw 0 (8, 8)", pixels=0)

fs(T, "tex_swizzle_param", "TEXTURE_SWIZZLE_R/G/B/A applied to the rgbw texture: r<-b, g<-r, b<-one, a<-g.",
   "ARB_texture_swizzle / OpenGL 3.8.13 texture swizzle; NV_gpu_program4 TEX",
   "TEX result.color, fragment.texcoord[0], texture[0], 2D;",
   "color = texture(tex0, tc.xy);",
   "\n".join(probe(x, y, (lambda c: (c[2], c[0], 1, c[1]))(RGBW(x, y, 64, 64))) for (x, y) in [(10, 10), (50, 10), (10, 50), (50, 50)]),
   tol=1, why="NEAREST", decls=tdecl((0, "sampler2D")),
   test_pre="texture rgbw 0 (8, 8)\ntexparameter 2D swizzle_r blue\ntexparameter 2D swizzle_g red\ntexparameter 2D swizzle_b one\ntexparameter 2D swizzle_a green")

fs(T, "tex_shadowrect_compare", "SHADOWRECT: unnormalized (texel) coordinates into the 16x8 piglit depth-ramp rectangle texture, reference r = t (GREATER, INTENSITY).",
   "ARB_texture_rectangle; ARB_shadow; NV_gpu_program4 Table X.17 (SHADOWRECT: s, t unnormalized, reference in z)",
   """TEMP c;
MUL c.xy, fragment.texcoord[0], {16.0, 8.0, 0.0, 0.0};
MOV c.z, fragment.texcoord[0].y;
TEX result.color, c, texture[0], SHADOWRECT;""",
   "float v = texture(tex0, vec3(tc.xy * vec2(16.0, 8.0), tc.y));\ncolor = vec4(v);",
   "\n".join(probe(x, y, [1.0 if (y+.5)/64 > math.floor((x+.5)/4)/15 else 0.0]*4) for (x, y) in [(3, 30), (30, 50), (30, 10), (60, 62), (60, 30)]),
   tol=1, why="compare results 0 or 1; NEAREST; no ties", decls=tdecl((0, "sampler2DRectShadow")),
   test_pre="texture shadowRect 0 (16, 8)\ntexparameter Rect min nearest\ntexparameter Rect mag nearest",
   nv_req=("GL_NV_gpu_program5", "GL_ARB_texture_rectangle"))

fs(T, "tex_shadow1d_compare", "SHADOW1D: the 1D depth ramp (depth = i/15) compared with reference r = t (in z), GREATER, INTENSITY.",
   "ARB_shadow; NV_gpu_program4 Table X.17 (SHADOW1D: s in x, reference in z)",
   """TEMP c;
MOV c, fragment.texcoord[0];
MOV c.z, c.y;
TEX result.color, c, texture[0], SHADOW1D;""",
   "float v = texture(tex0, vec3(tc.x, 0.0, tc.y));\ncolor = vec4(v);",
   "\n".join(probe(x, y, [1.0 if (y+.5)/64 > math.floor((x+.5)/4)/15 else 0.0]*4) for (x, y) in [(3, 30), (30, 50), (30, 10), (60, 62), (60, 30)]),
   tol=1, why="compare results 0 or 1; NEAREST; no ties", decls=tdecl((0, "sampler1DShadow")),
   test_pre="texture shadow1D 0 (16)\ntexparameter 1D min nearest\ntexparameter 1D mag nearest")

def rgbw3_lin(x, y):
    qx, qy = x // 32, y // 32
    w = ((x % 32) + .5) / 32
    a = RGBW3[0][qx + 2*qy]; b = RGBW3[1][qx + 2*qy]
    return tuple((1 - w) * a[k] + w * b[k] for k in range(4))
fs(T, "tex_3d_linear_slices", "3D LINEAR filtering between the two slices of the piglit rgbw 3D texture: s, t at texel centres per quadrant, r sweeping from slice 0's centre to slice 1's within each quadrant.",
   "OpenGL 3.8.8 LINEAR filtering of 3D textures (trilinear weights in i, j, k); NV_gpu_program4 TEX 3D",
   """TEMP c, q;
MUL q.xy, fragment.position, 0.03125;
FLR c.xy, q;
MAD c.xy, c, 0.5, 0.25;
FRC q.x, q.x;
MAD c.z, q.x, 0.5, 0.25;
TEX result.color, c, texture[0], 3D;""",
   """vec2 q = gl_FragCoord.xy * 0.03125;
vec2 c = floor(q) * 0.5 + 0.25;
color = texture(tex0, vec3(c, fract(q.x) * 0.5 + 0.25));""",
   "\n".join(probe(x, y, rgbw3_lin(x, y)) for (x, y) in [(2, 5), (16, 20), (40, 10), (60, 50), (20, 40), (33, 33)]),
   tol=2, why="interpolation weights (x + 0.5)/32 are exact; 8-bit rounding", decls=tdecl((0, "sampler3D")),
   test_pre="texture rgbw 3D 0\ntexparameter 3D min linear\ntexparameter 3D mag linear")

C0 = (0.0, 0.0, 1.0, 1.0); C1 = (1.0, 1.0, 0.0, 1.0); BORDER = (1.0, 0.0, 0.0, 1.0)
def checker_texel(i, j):
    if not (0 <= i < 4 and 0 <= j < 4): return BORDER
    return C0 if ((i // 2) + (j // 2)) % 2 == 0 else C1
def border_lin(x, y):
    s = -0.25 + 1.5 * (x + .5) / 64; t = -0.25 + 1.5 * (y + .5) / 64
    u = s * 4 - .5; v = t * 4 - .5
    i0 = math.floor(u); j0 = math.floor(v); a = u - i0; b = v - j0
    out = []
    for k in range(4):
        out.append((1-a)*(1-b)*checker_texel(i0, j0)[k] + a*(1-b)*checker_texel(i0+1, j0)[k] +
                   (1-a)*b*checker_texel(i0, j0+1)[k] + a*b*checker_texel(i0+1, j0+1)[k])
    return tuple(out)
fs(T, "tex_border_linear", "LINEAR filtering with CLAMP_TO_BORDER: near the edges the 4x4 checkerboard blends with the red border colour; coordinates run from -0.25 to 1.25.",
   "OpenGL 3.8.7 CLAMP_TO_BORDER (border texels in the LINEAR footprint), 3.8.8 LINEAR",
   "TEX result.color, fragment.texcoord[0], texture[0], 2D;",
   "color = texture(tex0, tc.xy);",
   "\n".join(probe(x, y, border_lin(x, y)) for (x, y) in [(1, 1), (3, 30), (20, 20), (32, 63), (50, 10), (62, 40)]),
   tol=2, why="bilinear weights are multiples of 1/64 here; 8-bit rounding", decls=tdecl((0, "sampler2D")),
   test_pre="texture checkerboard 0 0 (4, 4) (0.0, 0.0, 1.0, 1.0) (1.0, 1.0, 0.0, 1.0)\ntexparameter 2D min linear\ntexparameter 2D mag linear",
   draw="draw rect tex -1 -1 2 2 -0.25 -0.25 1.5 1.5")

fs(T, "tex_lod_bias_param", "TEXTURE_LOD_BIAS (per texture) adds to the computed LOD: a 1:1 mapped miptree with bias 1.2 samples level 1 (green), and TXB adds its own bias on top in the right half (level 3, white).",
   "OpenGL 3.8.9 (lambda' = log2(rho) + TEXTURE_LOD_BIAS + bias from the program); NV_gpu_program4 TEX, TXB",
   """TEMP c, b;
SGE b.x, fragment.position.x, 32.0;
MOV c, fragment.texcoord[0];
MUL c.w, b.x, 2.0;
TXB result.color, c, texture[0], 2D;""",
   "color = texture(tex0, tc.xy, gl_FragCoord.x >= 32.0 ? 2.0 : 0.0);",
   probe(10, 10, (0, 1, 0, 1)) + "\n" + probe(50, 50, (1, 1, 1, 1)), tol=1, why="solid levels",
   decls=tdecl((0, "sampler2D")), test_pre="texture miptree 0\ntexparameter 2D lod_bias 1.2", draw="draw rect tex -1 -1 2 2 0 0 8 8")

fs(T, "tex_shadow_depth_mode_lequal", "Depth-texture comparison with COMPARE_FUNC LEQUAL and DEPTH_TEXTURE_MODE LUMINANCE: the result r = (ref <= depth) is returned as (r, r, r, 1).",
   "ARB_shadow (TEXTURE_COMPARE_FUNC LEQUAL), ARB_depth_texture (DEPTH_TEXTURE_MODE LUMINANCE); NV_gpu_program4 TEX SHADOW2D",
   """TEMP c;
MOV c, fragment.texcoord[0];
MOV c.z, c.y;
TEX result.color, c, texture[0], SHADOW2D;""",
   "float v = texture(tex0, vec3(tc.xy, tc.y));\ncolor = vec4(v, v, v, 1.0);",
   "\n".join(probe(x, y, [1.0 if (y+.5)/64 <= math.floor((x+.5)/4)/15 else 0.0]*3 + [1.0]) for (x, y) in [(3, 30), (30, 50), (30, 10), (60, 62), (60, 30)]),
   tol=1, why="compare results 0 or 1; NEAREST; no ties", decls=tdecl((0, "sampler2DShadow")),
   test_pre="texture shadow2D 0 (16, 16)\ntexparameter 2D min nearest\ntexparameter 2D mag nearest\ntexparameter 2D compare_func lequal\ntexparameter 2D depth_mode luminance")

RGBW1 = [(1, 0, 0, 1), (0, 1, 0, 1), (0, 0, 1, 1), (1, 1, 1, 1)]
fs(T, "tex_1d_rgbw", "TEX 1D on the piglit 4-texel 1D rgbw texture (red, green, blue, white), NEAREST.",
   "OpenGL 3.8 1D textures; NV_gpu_program4 TEX 1D (s in x)",
   "TEX result.color, fragment.texcoord[0], texture[0], 1D;",
   "color = texture(tex0, tc.x);",
   "\n".join(probe(8 + 16*k, 30, RGBW1[k]) for k in range(4)), tol=1, why="NEAREST, no ties (4 texels over 64 pixels)",
   decls=tdecl((0, "sampler1D")), test_pre="texture rgbw 1D 0")

fs(T, "tex_txf_miptree_lod", "TXF with an explicit level in w (0..3 by column) fetches texel (0, 0) of each miptree level: red, green, blue, white.",
   S4 + " TXF (w = level of detail)",
   """INT TEMP i;
TEMP c;
MUL c.x, fragment.position.x, 0.0625;
FLR.S i.w, c.x;
MOV.S i.xyz, 0;
TXF result.color, i, texture[0], 2D;""",
   "color = texelFetch(tex0, ivec2(0, 0), int(floor(gl_FragCoord.x * 0.0625)));",
   "\n".join(probe(8 + 16*k, 30, MIP[k]) for k in range(4)), tol=1, why="texel fetch, exact",
   decls=tdecl((0, "sampler2D")), test_pre="texture miptree 0")

def var_off_probe(x, y):
    ox = x // 16 - 2; oy = y // 16 - 2
    i = min(max(math.floor((x + .5) / 64 * 8) + ox, 0), 7)
    j = min(max(math.floor((y + .5) / 64 * 8) + oy, 0), 7)
    return probe(x, y, RGBW(i, j, 8, 8))
fs(T, "tex_variable_offset", "NV_gpu_program5 texel offsets from a register (offset(o)): each 16x16 block uses offset (x/16 - 2, y/16 - 2) on the 8x8 rgbw texture (NEAREST, CLAMP_TO_EDGE), shifting the quadrant boundaries per block.",
   "NV_gpu_program5 2.X.4.4 (<texOffsetVar>: offsets taken from a vector operand, added to the texel coordinates before wrapping)",
   """INT TEMP o;
TEMP f;
MUL f.xy, fragment.position, 0.0625;
FLR.S o.xy, f;
ADD.S o.xy, o, -2;
MOV.S o.zw, 0;
TEX result.color, fragment.texcoord[0], texture[0], 2D, offset(o);""",
   """vec2 o = floor(gl_FragCoord.xy * 0.0625) - 2.0;
color = texture(tex0, tc.xy + o / 8.0);""",
   "\n".join(var_off_probe(x, y) for (x, y) in [(3, 3), (20, 40), (36, 20), (50, 50), (30, 30), (60, 10), (10, 60)]),
   tol=1, why="NEAREST; the twin moves the coordinate by offset/size, equivalent for NEAREST; no ties", decls=tdecl((0, "sampler2D")),
   test_pre="texture rgbw 0 (8, 8)")

QBL, QBR, QTL, QTR = (1.0, 1.0, 0.0, 1.0), (0.0, 1.0, 1.0, 1.0), (1.0, 0.0, 1.0, 1.0), (0.5, 0.5, 0.5, 1.0)
def quads_probe(x, y):
    u = (-0.25 + 1.5 * (x + .5) / 64) * 8; v = (-0.25 + 1.5 * (y + .5) / 64) * 8
    if not (0 <= u < 8 and 0 <= v < 8): return probe(x, y, (1, 0, 0, 1))
    tc, tr = int(u // 2), int(v // 2)
    c = (QBL if tc % 2 == 0 else QBR) if tr % 2 == 0 else (QTL if tc % 2 == 0 else QTR)
    return probe(x, y, c)
fs(T, "tex_quads_border", "The piglit quads pattern (8x8, 2x2-texel tiles: even tile rows alternate bl/br, odd rows tl/tr) sampled NEAREST over coordinates -0.25..1.25, with its CLAMP_TO_BORDER red border around it.",
   "OpenGL 3.8.7 CLAMP_TO_BORDER with NEAREST; NV_gpu_program4 TEX",
   "TEX result.color, fragment.texcoord[0], texture[0], 2D;",
   "color = texture(tex0, tc.xy);",
   "\n".join(quads_probe(x, y) for (x, y) in [(2, 2), (12, 12), (20, 12), (12, 20), (20, 20), (40, 33), (62, 62), (33, 61)]),
   tol=1, why="NEAREST, no ties (texel coordinate steps of 3/16)", decls=tdecl((0, "sampler2D")),
   test_pre="texture quads 0 0 (8, 8) (2, 2) (1.0, 1.0, 0.0, 1.0) (0.0, 1.0, 1.0, 1.0) (1.0, 0.0, 1.0, 1.0) (0.5, 0.5, 0.5, 1.0)",
   draw="draw rect tex -1 -1 2 2 -0.25 -0.25 1.5 1.5")

MF = [("nearest_mipmap_nearest", MIP[1]), ("linear_mipmap_nearest", MIP[1]),
      ("nearest_mipmap_linear", tuple(0.75 * MIP[1][k] + 0.25 * MIP[2][k] for k in range(4))),
      ("linear_mipmap_linear", tuple(0.75 * MIP[1][k] + 0.25 * MIP[2][k] for k in range(4)))]
pre = ["texture miptree 0"]
for k, (f, _) in enumerate(MF):
    pre += ["texparameter 2D min %s" % f, "draw rect %g -1 0.5 2" % (-1 + 0.5 * k)]
fs(T, "tex_mip_filters", "The four mipmapped minification filters at LOD 1.25 (TXL) on the solid-level miptree, one per column: *_MIPMAP_NEAREST pick level 1 (green), *_MIPMAP_LINEAR blend levels 1 and 2 by 0.25 (green/blue).",
   "OpenGL 3.8.9 minification filters (level selection for MIPMAP_NEAREST, level interpolation for MIPMAP_LINEAR); NV_gpu_program4 TXL",
   """TEMP c;
MOV c, fragment.texcoord[0];
MOV c.w, 1.25;
TXL result.color, c, texture[0], 2D;""",
   "color = textureLod(tex0, tc.xy, 1.25);",
   "\n".join(probe(8 + 16 * k, 30, col) for k, (_, col) in enumerate(MF)), tol=1, why="solid levels; the level weight 0.25 is exact",
   decls=tdecl((0, "sampler2D")), test_pre="\n".join(pre[:-1]), draw=pre[-1])

fs(T, "tex_txf_array_3d", "TXF on an ARRAY2D texture (layer in z, by column: 8 solid layers) in the bottom half, and TXF on the 2x2x2 rgbw 3D texture with the constant offset (1, 0, 1) from texel (0, j, 0) in the top half (j by column: magenta, black).",
   S4 + " TXF (ARRAY2D: i, j, layer, lod; 3D: i, j, k, lod; 3-component texel offsets for 3D)",
   """INT TEMP i, k;
TEMP f, a, b;
MUL f.x, fragment.position.x, 0.125;
FLR.S i.z, f.x;
MOV.S i.xyw, 0;
TXF a, i, texture[0], ARRAY2D;
MUL f.y, fragment.position.x, 0.03125;
FLR.S k.y, f.y;
MOV.S k.xzw, 0;
TXF b, k, texture[1], 3D, (1, 0, 1);
SGE f.z, fragment.position.y, 32.0;
LRP result.color, f.z, b, a;""",
   """vec4 a = texelFetch(tex0, ivec3(0, 0, int(floor(gl_FragCoord.x * 0.125))), 0);
vec4 b = texelFetchOffset(tex1, ivec3(0, int(floor(gl_FragCoord.x * 0.03125)), 0), 0, ivec3(1, 0, 1));
color = gl_FragCoord.y >= 32.0 ? b : a;""",
   "\n".join(probe(4 + 8 * k, 10, LAY[k]) for k in range(8)) + "\n" + probe(10, 50, RGBW3[1][1]) + "\n" + probe(50, 50, RGBW3[1][3]),
   tol=1, why="texel fetches, exact", decls=tdecl((0, "sampler2DArray"), (1, "sampler3D")),
   test_pre="texture layers 0 2DArray (4, 4, 8)\ntexture rgbw 3D 1")
