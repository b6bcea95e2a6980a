from gen import *
import math, struct
MEM = "memory"
def memfs(name, what, spec, nvfp, glfs, test_pre, probes, decls, nv_req, tol=1, why="exact values", draw="draw rect -1 -1 2 2", **kw):
    fs(MEM, name, what, spec, nvfp, glfs, probes, tol=tol, why=why, decls=decls, test_pre=test_pre, nv_req=nv_req, draw=draw, **kw)
IP = [(3, 5), (17, 40), (31, 31), (45, 12), (60, 58)]
def ip(fn, pts=IP): return "\n".join(probe(x, y, fn(x, y)) for (x, y) in pts)

# bytes: 0..3 = 0x04 0x83 0x10 0xF0 (uint 0xF0108304), 4..7 int -2, 8..11 uint 0x0001FFFE, 12..19 floats 0.25 0.75
words = [0xF0108304, 0xFFFFFFFE, 0x0001FFFE]
memfs("ldc_storage_sizes", "LDC with storage modifiers U8, S8, U16, S16, S32 and F32X2 at byte offsets (aligned to their sizes) into a CBUFFER (little-endian bytes; sign extension for S8/S16): red = U8 at 1, green = U16 at 2, blue = S8 at 1, alpha = S16 at 8 minus S32 at 4, plus two floats.  Single-component loads return (v, 0, 0, 0), so each goes to the x of its own temporary.",
      "NV_parameter_buffer_object2 CBUFFER, LDC; NV_gpu_program5 2.X.4.5 storage modifiers",
      """CBUFFER cb[] = { program.buffer[0] };
TEMP u8, u16, s8, s16, s32, f, h, g, r;
LDC.U8 u8, cb[1];
LDC.S8 s8, cb[1];
LDC.U16 u16, cb[2];
LDC.S16 s16, cb[8];
LDC.S32 s32, cb[4];
LDC.F32X2 f, cb[16];
I2F.U h.x, u8.x;
I2F.U h.y, u16.x;
I2F.S h.z, s8.x;
I2F.S h.w, s16.x;
I2F.S g.x, s32.x;
MUL r.x, h.x, 0.00390625;
MUL r.y, h.y, 0.0000152587890625;
ADD r.z, h.z, 128.0;
MUL r.z, r.z, 0.0078125;
SUB r.w, h.w, g.x;
MAD r.w, r.w, 0.25, f.x;
ADD r.w, r.w, f.y;
MUL r.w, r.w, 0.5;
MOV result.color, r;""",
      """uint w0 = words[0];
uint w2 = words[2];
int u8 = int((w0 >> 8) & 0xFFu);
int s8 = int(w0 << 16) >> 24;
uint u16 = (w0 >> 16) & 0xFFFFu;
int s16 = int(w2 << 16) >> 16;
int s32 = int(words[1]);
vec2 f = vec2(uintBitsToFloat(words[4]), uintBitsToFloat(words[5]));
float w = ((float(s16) - float(s32)) * 0.25 + f.x + f.y) * 0.5;
color = vec4(float(u8) * 0.00390625, float(u16) * 0.0000152587890625, (float(s8) + 128.0) * 0.0078125, w);""",
      "parameter buffer fp 0 0 uint (%d, 4294967290, 131070)" % 0xF0108304 + "\nparameter buffer fp 0 16 float (0.25, 0.5)",
      probe(32, 32, (0x83/256, 0xF010/65536, (-125+128)/128, ((-2+6)*.25 + .25 + .5)*.5)),
      "layout(std430, binding = 0) readonly buffer CB { uint words[]; };", ("GL_NV_gpu_program5", "GL_NV_parameter_buffer_object2"))

memfs("ldc_register_offset", "LDC with a byte offset taken from an integer register (16 * column index) reads one of 4 vec4 entries per column.",
      "NV_parameter_buffer_object2 LDC with relative (register) offsets",
      """CBUFFER cb[] = { program.buffer[2] };
INT TEMP i;
TEMP c;
MUL c.x, fragment.texcoord[0].x, 4.0;
FLR.S i.x, c.x;
MUL.S i.x, i.x, 16;
LDC.F32X4 result.color, cb[i.x];""",
      "color = entries[int(floor(tc.x * 4.0))];",
      "parameter buffer fp 2 0 float (1.0, 0.0, 0.0, 1.0,  0.0, 1.0, 0.0, 1.0,  0.0, 0.0, 1.0, 1.0,  0.5, 0.5, 0.5, 1.0)",
      "\n".join(probe(8 + 16*k, 30, c) for k, c in enumerate([(1, 0, 0, 1), (0, 1, 0, 1), (0, 0, 1, 1), (.5, .5, .5, 1)])),
      "layout(std430, binding = 2) readonly buffer CB { vec4 entries[]; };", ("GL_NV_gpu_program5", "GL_NV_parameter_buffer_object2"))

memfs("buffer4_indexed", "BUFFER4 parameter-buffer variable indexed by a row number computed in the program (4-word elements).",
      "NV_parameter_buffer_object 2.X.3.6 program parameter buffers (BUFFER4, relative addressing)",
      """BUFFER4 rows[] = { program.buffer[1] };
INT TEMP i;
TEMP c;
MUL c.x, fragment.texcoord[0].y, 4.0;
FLR.S i.x, c.x;
MOV result.color, rows[i.x];""",
      "color = rows[int(floor(tc.y * 4.0))];",
      "parameter buffer fp 1 0 float (0.1, 0.2, 0.3, 1.0,  0.4, 0.5, 0.6, 1.0,  0.7, 0.8, 0.9, 1.0,  1.0, 0.0, 0.5, 1.0)",
      "\n".join(probe(30, 8 + 16*k, c) for k, c in enumerate([(.1, .2, .3, 1), (.4, .5, .6, 1), (.7, .8, .9, 1), (1, 0, .5, 1)])),
      "layout(std430, binding = 1) readonly buffer B4 { vec4 rows[]; };", ("GL_NV_gpu_program5", "GL_NV_parameter_buffer_object"))

memfs("buffer_scalar_broadcast", "BUFFER (single-word elements): a selected word is broadcast to all four components; two words combine into a colour.",
      "NV_parameter_buffer_object 2.X.3.6 (BUFFER: one word broadcast to x, y, z, w)",
      """BUFFER w[] = { program.buffer[3] };
TEMP a, b;
MOV a, w[2];
MOV b, w[5];
MUL result.color, a, {1.0, 0.5, 0.25, 0.0};
ADD result.color.w, b.x, 0.0;""",
      "color = vec4(vec3(w[2]) * vec3(1.0, 0.5, 0.25), w[5]);",
      "parameter buffer fp 3 0 float (9.0, 9.0, 0.8, 9.0, 9.0, 0.6)",
      probe(32, 32, (.8, .4, .2, .6)),
      "layout(std430, binding = 3) readonly buffer B { float w[]; };", ("GL_NV_gpu_program5", "GL_NV_parameter_buffer_object"))

scene(MEM, "buffer_vertex_stage", "A parameter buffer read in the vertex program: per-vertex offsets from a BUFFER4 indexed by vertex.id move the vertices of a triangle strip.",
      "NV_parameter_buffer_object (vertex program parameter buffers); NV_gpu_program4 vertex.id", 1, 0, "flat colour; vertex positions on exact pixel boundaries",
      [("vertex program", """!!NVvp5.0
BUFFER4 offs[] = { program.buffer[0] };
INT TEMP i;
MOV.S i.x, vertex.id.x;
ADD result.position, vertex.attrib[0], offs[i.x];
MOV result.color, {0.9, 0.6, 0.1, 1.0};
END"""), ("fragment program", "!!NVfp5.0\nMOV result.color, fragment.color;\nEND")],
      [("vertex shader", """#version 450
layout(location = 0) in vec4 pos;
layout(std430, binding = 0) readonly buffer O { vec4 offs[]; };
out vec4 c;
void main() { gl_Position = pos + offs[gl_VertexID]; c = vec4(0.9, 0.6, 0.1, 1.0); }"""), ("fragment shader", "#version 450\nin vec4 c;\nout vec4 color;\nvoid main() { color = c; }")],
      "clear color 0.0 0.0 0.0 1.0\nclear\nparameter buffer vp 0 0 float (0.25, 0.25, 0.0, 0.0,  -0.25, 0.25, 0.0, 0.0,  0.25, -0.25, 0.0, 0.0,  -0.25, -0.25, 0.0, 0.0)\ndraw arrays GL_TRIANGLE_STRIP 0 4\n" +
      "probe rect rgba (8, 8, 48, 48) (0.9, 0.6, 0.1, 1.0)\n" + probe(4, 4, (0, 0, 0, 1)) + "\n" + probe(60, 30, (0, 0, 0, 1)),
      vdata="0/float/4\n-1.0 -1.0 0.0 1.0\n1.0 -1.0 0.0 1.0\n-1.0 1.0 0.0 1.0\n1.0 1.0 0.0 1.0", nv_req=("GL_NV_gpu_program5", "GL_NV_parameter_buffer_object"))

memfs("atomic_counter_incr_decr", "NV_shader_atomic_counters: every fragment of a 16x8 rectangle increments counter 0 and decrements counter 1 (ATOMCTR INCR / DECR); the final values count the fragments.",
      "NV_shader_atomic_counters (COUNTER, ATOMCTR .INCR/.DECR, program.counter[a][b])",
      """!!NVfp5.0
OPTION NV_shader_atomic_counters;
COUNTER c0 = program.counter[0][0];
COUNTER c1 = program.counter[0][1];
TEMP t;
ATOMCTR.U.INCR t.x, c0;
ATOMCTR.U.DECR t.y, c1;
MOV result.color, {0.2, 0.4, 0.6, 1.0};
END""",
      "atomicCounterIncrement(c0);\natomicCounterDecrement(c1);\ncolor = vec4(0.2, 0.4, 0.6, 1.0);",
      "atomic counters 0 (5, 1000)", "probe atomic counter 0 0 133\nprobe atomic counter 0 1 872\n" + probe(10, 4, (.2, .4, .6, 1)) + "\n" + probe(40, 40, (0, 0, 0, 1)),
      "layout(binding = 0, offset = 0) uniform atomic_uint c0;\nlayout(binding = 0, offset = 4) uniform atomic_uint c1;",
      ("GL_NV_gpu_program5", "GL_NV_shader_atomic_counters"), draw="draw rect -1 -1 0.5 0.25")

memfs("atomic_counter_get", "ATOMCTR.GET reads a counter preset by the scene without changing it; its value drives the colour.",
      "NV_shader_atomic_counters (ATOMCTR .GET)",
      """!!NVfp5.0
OPTION NV_shader_atomic_counters;
COUNTER c[2] = { program.counter[1][0..1] };
UINT TEMP v;
TEMP f;
ATOMCTR.U.GET v.x, c[1];
I2F.U f.x, v.x;
MUL result.color, f.x, {0.01, 0.005, 0.0025, 0.0};
MOV result.color.w, 1.0;
END""",
      "float v = float(atomicCounter(c1));\ncolor = vec4(v * 0.01, v * 0.005, v * 0.0025, 1.0);",
      "atomic counters 1 (7, 80)", probe(20, 20, (.8, .4, .2, 1)) + "\nprobe atomic counter 1 1 80",
      "layout(binding = 1, offset = 4) uniform atomic_uint c1;", ("GL_NV_gpu_program5", "GL_NV_shader_atomic_counters"))

# global memory via buffer addresses
LOADP = """!!NVfp5.0
LONG TEMP a;
UINT TEMP i;
TEMP c;
PK64.U a.x, program.env[0];
MUL c.x, fragment.texcoord[0].x, 4.0;
FLR.U i.x, c.x;
MUL.U i.x, i.x, 16;
ADD.U64 a.x, a.x, i.x;
LOAD.F32X4 result.color, a.x;
END"""
memfs("load_global_f32x4", "LOAD.F32X4 from a resident buffer through its 64-bit GPU address (PK64 of the (low, high) pair from `buffer address`) plus a per-column byte offset.",
      "NV_shader_buffer_load (resident buffers, GPU addresses); NV_gpu_program5 LOAD, PK64, ADD.U64; 2.X.4.5",
      LOADP, "color = data[int(floor(tc.x * 4.0))];",
      "NV: buffer buf 64 float (1.0, 0.5, 0.0, 1.0,  0.0, 1.0, 0.5, 1.0,  0.5, 0.0, 1.0, 1.0,  0.25, 0.25, 0.25, 1.0)\nNV: buffer address env_fp 0 buf\n"
      "GL: parameter buffer fp 0 0 float (1.0, 0.5, 0.0, 1.0,  0.0, 1.0, 0.5, 1.0,  0.5, 0.0, 1.0, 1.0,  0.25, 0.25, 0.25, 1.0)",
      "\n".join(probe(8 + 16*k, 30, c) for k, c in enumerate([(1, .5, 0, 1), (0, 1, .5, 1), (.5, 0, 1, 1), (.25, .25, .25, 1)])),
      "layout(std430, binding = 0) readonly buffer D { vec4 data[]; };", ("GL_NV_gpu_program5", "GL_NV_shader_buffer_load"))

STOREP = """!!NVfp5.0
LONG TEMP a;
UINT TEMP i, v;
TEMP f, p;
PK64.U a.x, program.env[0];
FLR.U i.xy, fragment.position;
MAD.U v.x, i.y, 8, i.x;
MUL.U i.z, v.x, 4;
ADD.U64 a.x, a.x, i.z;
MOVC p.x, program.env[1].x;
IF EQ.x;
  MUL.U v.x, v.x, 3;
  STORE.U32 v.x, a.x;
  MOV result.color, {0.0, 0.0, 0.0, 1.0};
ELSE;
  LOAD.U32 v.x, a.x;
  I2F.U f.x, v.x;
  MUL result.color.x, f.x, 0.00390625;
  MOV result.color.yzw, {0.0, 0.5, 0.0, 1.0};
ENDIF;
END"""
scene(MEM, "store_then_load", "STORE.U32 of 3 * (8y + x) per pixel of an 8x8 block into a resident buffer, then a second draw (program.env[1].x = 1 selects the IF branch) LOADs each pixel's word back into red; `probe buffer` checks memory directly.",
      "NV_shader_buffer_store (STORE to resident buffers); NV_gpu_program5 STORE, LOAD, 2.X.4.5", 1, 0, "exact",
      [("vertex program", "!!NVvp5.0\nMOV result.position, vertex.position;\nEND"), ("fragment program", STOREP)],
      [("vertex shader", "#version 450\nlayout(location = 0) in vec4 piglit_vertex;\nvoid main() { gl_Position = piglit_vertex; }"),
       ("fragment shader", """#version 450
layout(std430, binding = 0) buffer D { uint data[]; };
uniform int pass;
out vec4 color;
void main() {
  uvec2 i = uvec2(floor(gl_FragCoord.xy));
  uint k = i.y * 8u + i.x;
  if (pass == 0) { data[k] = k * 3u; color = vec4(0.0, 0.0, 0.0, 1.0); }
  else { color = vec4(float(data[k]) * 0.00390625, 0.5, 0.0, 1.0); }
}""")],
      "clear color 0.0 0.0 0.0 1.0\nclear\nNV: buffer buf 256\nNV: buffer address env_fp 0 buf\nNV: parameter env_fp 1 (0.0, 0.0, 0.0, 0.0)\nGL: parameter buffer fp 0 252 uint (0)\nGL: uniform int pass 0\ndraw rect -1 -1 0.25 0.25\n"
      "NV: parameter env_fp 1 (1.0, 0.0, 0.0, 0.0)\nGL: uniform int pass 1\ndraw rect -1 -1 0.25 0.25\n" +
      "\n".join(probe(x, y, ((8*y + x)*3/256, .5, 0, 1)) for (x, y) in [(0, 0), (7, 0), (3, 5), (7, 7)]) + "\n" + probe(20, 20, (0, 0, 0, 1)) +
      "\nNV: probe buffer buf 0 uint (0, 3, 6, 9)\nNV: probe buffer buf 252 uint (189)",
      nv_req=("GL_NV_gpu_program5", "GL_NV_shader_buffer_load", "GL_NV_shader_buffer_store"))

ATOMP = """!!NVfp5.0
LONG TEMP a, b;
UINT TEMP i, r;
PK64.U a.x, program.env[0];
FLR.U i.xy, fragment.position;
ATOM.ADD.U32 r.x, 1, a.x;
ADD.U64 b.x, a.x, 4;
ATOM.MAX.U32 r.y, i.x, b.x;
ADD.U64 b.x, a.x, 8;
ATOM.MIN.U32 r.z, i.y, b.x;
ADD.U64 b.x, a.x, 12;
SHL.U i.z, 1, i.x;
ATOM.OR.U32 r.w, i.z, b.x;
ADD.U64 b.x, a.x, 16;
ATOM.CSWAP.U32 r.x, {0, 1, 0, 0}, b.x;
MOVC.U r.x, r.x;
IF EQ.x;
  ADD.U64 b.x, a.x, 20;
  ATOM.ADD.U32 r.y, 1, b.x;
ENDIF;
MOV result.color, {0.3, 0.6, 0.9, 1.0};
END"""
memfs("atom_global_ops", "ATOM on a resident buffer from every fragment of a 32x16 rectangle: ADD counts 512 fragments, MAX of x = 31, MIN of y = 0, OR of (1 << x) sets all 32 bits, and CSWAP(0 -> 1) succeeds for exactly one fragment (counted by a second ADD).",
      "NV_gpu_program5 2.X.8.Z ATOM (ADD, MIN, MAX, OR, CSWAP; returns the old value); NV_shader_buffer_store",
      ATOMP, """uvec2 i = uvec2(floor(gl_FragCoord.xy));
atomicAdd(m[0], 1u);
atomicMax(m[1], i.x);
atomicMin(m[2], i.y);
atomicOr(m[3], 1u << i.x);
if (atomicCompSwap(m[4], 0u, 1u) == 0u) atomicAdd(m[5], 1u);
color = vec4(0.3, 0.6, 0.9, 1.0);""",
      "NV: buffer buf 32 uint (0, 0, 1000, 0, 0, 0, 0, 0)\nNV: buffer address env_fp 0 buf\nGL: parameter buffer fp 0 0 uint (0, 0, 1000, 0, 0, 0, 0, 0)",
      probe(10, 10, (.3, .6, .9, 1)) + "\n" + probe(40, 40, (0, 0, 0, 1)) + "\nNV: probe buffer buf 0 uint (512, 31, 0, 4294967295, 1, 1)",
      "layout(std430, binding = 0) buffer M { uint m[]; };", ("GL_NV_gpu_program5", "GL_NV_shader_buffer_load", "GL_NV_shader_buffer_store"),
      draw="draw rect -1 -1 1 0.5")

LOADSZ = """!!NVfp5.0
LONG TEMP a, b;
TEMP u8, s16, f2, h, r;
PK64.U a.x, program.env[0];
ADD.U64 b.x, a.x, 3;
LOAD.U8 u8, b.x;
ADD.U64 b.x, a.x, 6;
LOAD.S16 s16, b.x;
ADD.U64 b.x, a.x, 8;
LOAD.F32X2 f2, b.x;
I2F.U h.x, u8.x;
I2F.S h.y, s16.x;
MUL r.x, h.x, 0.00390625;
ADD r.y, h.y, 256.0;
MUL r.y, r.y, 0.001953125;
MOV r.zw, f2.xxxy;
MOV result.color, r;
END"""
memfs("load_global_sizes", "LOAD with U8, S16 and F32X2 storage modifiers at aligned byte offsets of a resident buffer (single-component loads return (v, 0, 0, 0)).",
      "NV_gpu_program5 LOAD, 2.X.4.5 storage modifiers and alignment; NV_shader_buffer_load",
      LOADSZ, """uint w0 = words[0];
uint w1 = words[1];
float u8 = float((w0 >> 24) & 255u);
float s16 = float(int(w1) >> 16);
color = vec4(u8 * 0.00390625, (s16 + 256.0) * 0.001953125, uintBitsToFloat(words[2]), uintBitsToFloat(words[3]));""",
      "NV: buffer buf 16 uint (%d, %d, 1048576000, 1061158912)\nNV: buffer address env_fp 0 buf\nGL: parameter buffer fp 0 0 uint (%d, %d, 1048576000, 1061158912)" % (0xC0000000, 0xFF9C0000, 0xC0000000, 0xFF9C0000),
      probe(32, 32, (0xC0 / 256, (-100 + 256) / 512, 0.25, 0.75)),
      "layout(std430, binding = 0) readonly buffer D { uint words[]; };", ("GL_NV_gpu_program5", "GL_NV_shader_buffer_load"))

scene(MEM, "store_from_vertex_program", "STORE from a vertex program: each vertex writes 3 * vertex.id + 1 to word vertex.id of a resident buffer (idempotent, so repeated vertex invocations cannot change the result); `probe buffer` checks memory, points show the draw ran.",
      "NV_shader_buffer_store (STORE in any program type); NV_gpu_program5 STORE, PK64; NV_gpu_program4 vertex.id", 1, 0, "exact point colours",
      [("vertex program", """!!NVvp5.0
LONG TEMP a;
UINT TEMP i, v;
PK64.U a.x, program.env[0];
MOV.U i.x, vertex.id.x;
MUL.U i.y, i.x, 4;
ADD.U64 a.x, a.x, i.y;
MAD.U v.x, i.x, 3, 1;
STORE.U32 v.x, a.x;
MOV result.position, vertex.attrib[0];
MOV result.color, {0.5, 1.0, 0.25, 1.0};
END"""), ("fragment program", "!!NVfp5.0\nMOV result.color, fragment.color;\nEND")],
      [("vertex shader", """#version 450
layout(location = 0) in vec4 pos;
layout(std430, binding = 0) buffer D { uint data[]; };
out vec4 c;
void main() { data[gl_VertexID] = uint(gl_VertexID) * 3u + 1u; gl_Position = pos; c = vec4(0.5, 1.0, 0.25, 1.0); }"""),
       ("fragment shader", "#version 450\nin vec4 c;\nout vec4 color;\nvoid main() { color = c; }")],
      "clear color 0.0 0.0 0.0 1.0\nclear\nNV: buffer buf 64\nNV: buffer address env_vp 0 buf\nGL: parameter buffer vp 0 60 uint (0)\npoint size 2\ndraw arrays GL_POINTS 0 4\n" +
      "probe rect rgba (7, 7, 2, 2) (0.5, 1.0, 0.25, 1.0)\nprobe rect rgba (55, 55, 2, 2) (0.5, 1.0, 0.25, 1.0)\n" + probe(32, 32, (0, 0, 0, 1)) +
      "\nNV: probe buffer buf 0 uint (1, 4, 7, 10)",
      vdata="0/float/4\n-0.75 -0.75 0.0 1.0\n0.75 -0.75 0.0 1.0\n-0.75 0.75 0.0 1.0\n0.75 0.75 0.0 1.0",
      nv_req=("GL_NV_gpu_program5", "GL_NV_shader_buffer_load", "GL_NV_shader_buffer_store"))

scene(MEM, "atomic_counter_geometry", "ATOMCTR in a geometry program with INVOCATIONS 2: each of the 2 invocations for each of 3 input points increments counter 2 once (+6), and the point is drawn by invocation 0 only.",
      "NV_shader_atomic_counters (ATOMCTR in any program type); NV_gpu_program5 INVOCATIONS (the geometry program runs exactly N times per input primitive)", 1, 0, "exact",
      [("vertex program", "!!NVvp5.0\nMOV result.position, vertex.attrib[0];\nEND"),
       ("geometry program", """!!NVgp5.0
OPTION NV_shader_atomic_counters;
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT POINTS;
VERTICES_OUT 1;
INVOCATIONS 2;
COUNTER c = program.counter[0][2];
TEMP t;
INT TEMP i;
ATOMCTR.U.INCR t.x, c;
MOV.S i.x, primitive.invocation.x;
MOVC.S i.x, i.x;
IF EQ.x;
  MOV result.position, vertex[0].position;
  MOV result.color, {1.0, 0.5, 0.0, 1.0};
  EMIT;
ENDIF;
END"""), ("fragment program", "!!NVfp5.0\nMOV result.color, fragment.color;\nEND")],
      [("vertex shader", "#version 450\nlayout(location = 0) in vec4 pos;\nvoid main() { gl_Position = pos; }"),
       ("geometry shader", """#version 450
layout(points, invocations = 2) in;
layout(points, max_vertices = 1) out;
layout(binding = 0, offset = 8) uniform atomic_uint c;
out vec4 col;
void main() {
  atomicCounterIncrement(c);
  if (gl_InvocationID == 0) { gl_Position = gl_in[0].gl_Position; col = vec4(1.0, 0.5, 0.0, 1.0); EmitVertex(); }
}"""), ("fragment shader", "#version 450\nin vec4 col;\nout vec4 color;\nvoid main() { color = col; }")],
      "clear color 0.0 0.0 0.0 1.0\nclear\natomic counters 0 (0, 0, 10)\npoint size 2\ndraw arrays GL_POINTS 0 3\nprobe atomic counter 0 2 16\n" +
      "probe rect rgba (7, 7, 2, 2) (1.0, 0.5, 0.0, 1.0)\n" + probe(32, 32, (0, 0, 0, 1)),
      vdata="0/float/4\n-0.75 -0.75 0.0 1.0\n0.75 -0.75 0.0 1.0\n0.0 0.75 0.0 1.0",
      nv_req=("GL_NV_gpu_program5", "GL_NV_shader_atomic_counters", "GL_NV_geometry_program4"))
