from gen import *
import math
P = "programs"
S4 = "NV_gpu_program4 2.X.8.Z"
FP = "fragment.texcoord[0]"
GRID = [(3, 5), (17, 40), (31, 31), (45, 12), (60, 58)]

fs(P, "alu_mad_gradient", "MAD and MUL on the interpolated texture coordinate: a two-axis gradient.",
   S4 + " MAD, MUL, MOV; write masks (2.X.4.3)",
   """TEMP r;
MAD r.xy, fragment.texcoord[0], {0.75, 0.5, 0.0, 0.0}, {0.125, 0.25, 0.0, 0.0};
MUL r.z, fragment.texcoord[0].x, fragment.texcoord[0].y;
MOV r.w, 1.0;
MOV result.color, r;""",
   "color = vec4(tc.xy * vec2(0.75, 0.5) + vec2(0.125, 0.25), tc.x * tc.y, 1.0);",
   probes_fn(lambda s, t: (s*0.75+0.125, t*0.5+0.25, s*t, 1), GRID))

fs(P, "alu_dot_products", "DP2, DP2A, DP3, DPH and DP4 with swizzled operands, one per channel.",
   S4 + " DP2, DP2A, DP3, DP4, DPH; operand swizzles (2.X.4.2)",
   """TEMP r, c;
MOV c, fragment.texcoord[0];
DP2 r.x, c, {0.5, 0.25, 9.0, 9.0};
DP3 r.y, c.xyww, {0.25, 0.25, 0.25, 7.0};
DPH r.z, c.yxzz, {0.5, 0.25, 3.0, 0.125};
DP4 r.w, c.xxyw, {0.25, 0.25, 0.25, 0.125};
MUL r.w, r.w, 0.5;
DP2A r.w, c.yxzw, {0.25, 0.25, 0.0, 0.0}, r.w;
MOV result.color, r;""",
   """vec4 c = tc;
float w = 0.5 * dot(c.xxyw, vec4(0.25, 0.25, 0.25, 0.125));
color = vec4(dot(c.xy, vec2(0.5, 0.25)), dot(c.xyw, vec3(0.25)),
             dot(c.yxz, vec3(0.5, 0.25, 3.0)) + 0.125,
             dot(c.yx, vec2(0.25)) + w);""",
   probes_fn(lambda s, t: (0.5*s+0.25*t, 0.25*s+0.25*t+0.25, 0.5*t+0.25*s+0.125,
                           0.25*(s+t) + 0.5*(0.5*s+0.25*t+0.125)), GRID))

fs(P, "alu_min_max_cmp", "MIN, MAX and CMP (per-component select on the sign of the first operand).",
   S4 + " MIN, MAX, CMP",
   """TEMP r, c, d;
MOV c, fragment.texcoord[0];
MIN r.x, c.x, c.y;
MAX r.y, c.x, c.y;
SUB d, c, 0.5;
CMP r.z, d.x, 0.25, 0.75;
CMP r.w, d.y, 0.0, 1.0;
MOV result.color.xyz, r;
MOV result.color.w, 1.0;""",
   """color = vec4(min(tc.x, tc.y), max(tc.x, tc.y), tc.x - 0.5 < 0.0 ? 0.25 : 0.75, 1.0);""",
   probes_fn(lambda s, t: (min(s, t), max(s, t), 0.25 if s < 0.5 else 0.75, 1), GRID))

def flr(v): return math.floor(v)
fs(P, "alu_floor_frac_ceil", "FLR, FRC, CEIL, ROUND and TRUNC of a ramp from -2 to 2 (negative fractions per FRC's definition).",
   S4 + " FLR, FRC, CEIL, ROUND, TRUNC",
   """TEMP a, r;
MAD a, fragment.texcoord[0], 4.0, -2.0;
FLR r.x, a.x;
CEIL r.y, a.x;
TRUNC r.z, a.x;
ROUND r.w, a.y;
MAD r, r, 0.125, 0.5;
FRC a.z, a.x;
MAD r.xy, a.z, 0.25, r;
MOV result.color, r;""",
   """vec2 a = tc.xy * 4.0 - 2.0;
vec4 r = vec4(floor(a.x), ceil(a.x), trunc(a.x), roundEven(a.y)) * 0.125 + 0.5;
r.xy += fract(a.x) * 0.25;
color = r;""",
   probes_fn(lambda s, t: (flr(4*s-2)*0.125+0.5+(4*s-2-flr(4*s-2))*0.25,
                           math.ceil(4*s-2)*0.125+0.5+(4*s-2-flr(4*s-2))*0.25,
                           math.trunc(4*s-2)*0.125+0.5, round(4*t-2)*0.125+0.5),
             [(3, 3), (20, 20), (35, 10), (50, 60), (62, 40), (9, 55)]))

fs(P, "alu_ex2_lg2_pow", "EX2, LG2 and POW (scalar ops replicated) on a ramp.",
   S4 + " EX2, LG2, POW; scalar operands (2.X.4.2)",
   """TEMP r, a;
MOV a, fragment.texcoord[0];
SUB r.x, a.x, 1.0;
EX2 r.x, r.x;
ADD r.y, a.y, 1.0;
LG2 r.y, r.y;
POW r.z, a.x, 2.2;
MOV r.w, 1.0;
MOV result.color, r;""",
   "color = vec4(exp2(tc.x - 1.0), log2(tc.y + 1.0), pow(tc.x, 2.2), 1.0);",
   probes_fn(lambda s, t: (2**(s-1), math.log2(t+1), s**2.2, 1), GRID),
   tol=2, why="EX2/LG2/POW are approximations (NV_gpu_program4: at least 22 bits); 8-bit rounding")

fs(P, "alu_rcp_rsq_div", "RCP, RSQ (of |x|) and DIV by a scalar.",
   S4 + " RCP, RSQ, DIV; absolute value operand |x| (2.X.4.2)",
   """TEMP r, a;
ADD a, fragment.texcoord[0], 1.0;
RCP r.x, a.x;
MOV a.z, -a.y;
RSQ r.y, |a.z|;
DIV r.zw, fragment.texcoord[0].xxyx, a.x;
MOV r.w, 1.0;
MOV result.color, r;""",
   "vec2 a = tc.xy + 1.0;\ncolor = vec4(1.0 / a.x, inversesqrt(a.y), tc.y / a.x, 1.0);",
   probes_fn(lambda s, t: (1/(s+1), 1/math.sqrt(t+1), t/(s+1), 1), GRID))

fs(P, "alu_sin_cos_scs", "SIN and COS (with range reduction) and SCS of an angle ramp, mapped to [0,1].",
   S4 + " SIN, COS, SCS",
   """TEMP r, a, q;
MAD a.x, fragment.texcoord[0].x, 12.566371, -6.2831853;
SIN r.x, a.x;
COS r.y, a.x;
MAD a.y, fragment.texcoord[0].y, 3.1415927, -1.5707963;
SCS q.xy, a.y;
MAD r.xyz, r.xyyy, 0.5, 0.5;
MAD r.z, q.y, 0.5, 0.5;
MAD r.w, q.x, 0.5, 0.5;
MOV result.color, r;""",
   """float a = tc.x * 12.566371 - 6.2831853;
float b = tc.y * 3.1415927 - 1.5707963;
color = vec4(sin(a), cos(a), sin(b), cos(b)) * 0.5 + 0.5;""",
   probes_fn(lambda s, t: (math.sin(s*4*math.pi-2*math.pi)*.5+.5, math.cos(s*4*math.pi-2*math.pi)*.5+.5,
                           math.sin(t*math.pi-math.pi/2)*.5+.5, math.cos(t*math.pi-math.pi/2)*.5+.5), GRID),
   why="SIN/COS/SCS are approximations; 8-bit rounding")

fs(P, "alu_lrp_sat_ssat", "LRP, and the SAT / SSAT clamping modifiers on out-of-range results.",
   S4 + " LRP; 2.X.4.1 clamping modifiers SAT and SSAT",
   """TEMP r, a;
MAD a, fragment.texcoord[0], 3.0, -1.0;
LRP r.x, fragment.texcoord[0].x, {0.9}, {0.1};
MOV.SAT r.y, a.x;
MOV.SSAT r.z, a.y;
MAD r.z, r.z, 0.5, 0.5;
ADD_SAT r.w, a.y, 0.25;
MOV result.color, r;""",
   """vec2 a = tc.xy * 3.0 - 1.0;
color = vec4(mix(0.1, 0.9, tc.x), clamp(a.x, 0.0, 1.0), clamp(a.y, -1.0, 1.0) * 0.5 + 0.5, clamp(a.y + 0.25, 0.0, 1.0));""",
   "\n".join(probe(x, y, (lambda s, t: (0.1+0.8*s, clamp01(3*s-1), max(-1, min(1, 3*t-1))*.5+.5, 1.0))((x+.5)/64, (y+.5)/64))
             for (x, y) in [(3, 5), (17, 40), (31, 31), (45, 12), (60, 58)]).replace(" 1.0000\n", " X\n") if False else
   probes_fn(lambda s, t: (0.1+0.8*s, clamp01(3*s-1), max(-1, min(1, 3*t-1))*.5+.5, clamp01(3*t-1+0.25)), GRID))

fs(P, "alu_set_on_compare", "SLT, SGE, SEQ, SNE, SGT, SLE, SFL, STR with float results 1.0/0.0, combined into colours.",
   S4 + " SLT, SGE, SEQ, SNE, SGT, SLE, SFL, STR (TRUE = 1.0 for floats)",
   """TEMP r, a, b, k;
FLR a, fragment.texcoord[0].xyxy;
MUL a, fragment.texcoord[0], 4.0;
FLR a, a;
SLT r.x, a.x, a.y;
SGE r.y, a.x, a.y;
SEQ k.x, a.x, a.y;
SNE k.y, a.x, 2.0;
SGT k.z, a.x, 1.0;
SLE k.w, a.y, 1.0;
DP4 r.z, k, 0.25;
SFL b, a, a;
STR b.y, a.x, a.y;
MAD r.w, b.x, 0.5, b.y;
MOV result.color, r;""",
   """vec2 a = floor(tc.xy * 4.0);
vec4 k = vec4(a.x == a.y, a.x != 2.0, a.x > 1.0, a.y <= 1.0);
color = vec4(a.x < a.y, a.x >= a.y, dot(k, vec4(0.25)), 1.0);""",
   probes_fn(lambda s, t: ((1.0 if flr(4*s) < flr(4*t) else 0.0), (1.0 if flr(4*s) >= flr(4*t) else 0.0),
                           0.25*((flr(4*s) == flr(4*t)) + (flr(4*s) != 2) + (flr(4*s) > 1) + (flr(4*t) <= 1)), 1),
             [(3, 3), (20, 3), (40, 25), (50, 60), (8, 40), (30, 50)]), tol=1, why="exact 0/0.25/.../1 values")

fs(P, "alu_negate_abs_swizzle", "Operand negation, absolute value |x|, -|x|, swizzles and scalar selectors.",
   S4 + " 2.X.4.2 operand modifiers (negate, absolute value, swizzle, scalar suffix)",
   """TEMP a, r;
MAD a, fragment.texcoord[0], 2.0, -1.0;
ADD r.x, |a.x|, 0.0;
ADD r.y, -|a.y|, 1.0;
ADD r.z, -a.x, a.y;
MAD r.z, r.z, 0.25, 0.5;
MOV r.w, a.wzyx;
MOV result.color, r;""",
   """vec4 a = tc * 2.0 - 1.0;
color = vec4(abs(a.x), 1.0 - abs(a.y), (a.y - a.x) * 0.25 + 0.5, a.x);""",
   probes_fn(lambda s, t: (abs(2*s-1), 1-abs(2*t-1), ((2*t-1)-(2*s-1))*.25+.5, 2*s-1), GRID),
   why="smooth values; alpha = a.x through the .wzyx swizzle (w takes the 4th selector)")

fs(P, "alu_lit_dst_xpd", "LIT (lighting coefficients with the specular power clamp), DST and XPD.",
   S4 + " LIT, DST, XPD",
   """TEMP a, l, d, x;
MOV a.x, fragment.texcoord[0].x;
MAD a.y, fragment.texcoord[0].y, 2.0, -1.0;
MOV a.w, 4.0;
MOV a.z, 0.0;
LIT l, a.yxzw;
MOV x, {0.0, 0.0, 1.0, 0.0};
XPD x.xyz, x, fragment.texcoord[0];
DST d, {1.0, 0.5, 0.5, 1.0}, {1.0, 0.25, 1.0, 0.75};
MOV result.color.x, l.y;
MOV result.color.y, l.z;
MAD result.color.z, x.x, -1.0, d.y;
MOV result.color.w, d.w;""",
   """float nl = tc.y * 2.0 - 1.0;
float nh = tc.x;
float diff = max(nl, 0.0);
float spec = nl > 0.0 ? pow(max(nh, 0.0), 4.0) : 0.0;
vec3 x = cross(vec3(0.0, 0.0, 1.0), tc.xyz);
color = vec4(diff, spec, -x.x + 0.5 * 0.25, 0.75);""",
   probes_fn(lambda s, t: (max(2*t-1, 0), (s**4 if 2*t-1 > 0 else 0), t + 0.125, 0.75), GRID),
   why="POW inside LIT is approximate; 8-bit rounding")

fs(P, "alu_ssg_rcc_x2d", "SSG (sign), RCC (clamped reciprocal) and X2D (2D transform).",
   S4 + " SSG, RCC, X2D",
   """TEMP a, r;
MAD a, fragment.texcoord[0], 2.0, -1.0;
SSG r.x, a.x;
MAD r.x, r.x, 0.25, 0.5;
ADD a.z, fragment.texcoord[0].y, 1.0;
RCC r.y, a.z;
X2D r.zw, {0.25, 0.5, 0.0, 0.0}, fragment.texcoord[0].xyxy, {0.5, 0.25, 0.25, 0.5};
MOV result.color, r;""",
   """float a = tc.x * 2.0 - 1.0;
vec2 x2 = vec2(0.25 + tc.x * 0.5 + tc.y * 0.25, 0.5 + tc.x * 0.25 + tc.y * 0.5);
color = vec4(sign(a) * 0.25 + 0.5, 1.0 / (tc.y + 1.0), x2);""",
   probes_fn(lambda s, t: ((1 if s > .5 else -1)*.25+.5, 1/(t+1), .25+.5*s+.25*t, .5+.25*s+.5*t), GRID))

fs(P, "alu_nrm_rfl", "NRM (3-component normalize) and RFL (reflection vector).",
   S4 + " NRM, RFL",
   """TEMP a, n, r;
MAD a.xyz, fragment.texcoord[0].xyyy, {2.0, 2.0, 0.0, 0.0}, {-1.0, -1.0, 1.0, 0.0};
NRM n.xyz, a;
RFL r.xyz, {0.0, 0.0, 1.0, 0.0}, a;
MAD result.color.xyz, n, 0.5, 0.5;
MAD result.color.w, r.z, 0.25, 0.5;""",
   """vec3 a = vec3(tc.xy * 2.0 - 1.0, 1.0);
vec3 n = normalize(a);
vec3 axis = vec3(0.0, 0.0, 1.0);
vec3 r = 2.0 * dot(axis, a) / dot(axis, axis) * axis - a;
color = vec4(n * 0.5 + 0.5, r.z * 0.25 + 0.5);""",
   probes_fn(lambda s, t: tuple([c/math.sqrt((2*s-1)**2+(2*t-1)**2+1)*.5+.5 for c in (2*s-1, 2*t-1, 1)]) + (0.75,), GRID),
   why="NRM uses an approximate reciprocal square root; 8-bit rounding")

fs(P, "alu_writemask_condwrite", "Conditional writes with condition codes: MOVC updates CC0, later MOVs write only where GT/LT/EQ hold (per component, swizzled CC).",
   S4 + " 2.X.4.3 condition code write masks (Table X.16), CC update modifier",
   """TEMP a, r;
SUB a, fragment.texcoord[0], 0.5;
MOV r, {0.2, 0.2, 0.2, 1.0};
MOVC a.xy, a;
MOV r.x (GT.x), 1.0;
MOV r.y (LT.y), 0.8;
MOV r.z (GT.yyyy), 0.6;
MOV r.z (EQ.x), 0.0;
MOV result.color, r;""",
   """vec2 a = tc.xy - 0.5;
vec4 r = vec4(0.2, 0.2, 0.2, 1.0);
if (a.x > 0.0) r.x = 1.0;
if (a.y < 0.0) r.y = 0.8;
if (a.y > 0.0) r.z = 0.6;
if (a.x == 0.0) r.z = 0.0;
color = r;""",
   probes_fn(lambda s, t: ((1 if s > .5 else .2), (.8 if t < .5 else .2), (.6 if t > .5 else .2), 1),
             [(5, 5), (50, 5), (5, 50), (50, 50), (31, 33), (33, 31)]), tol=1, why="flat colours per quadrant, exact")

fs(P, "cc_update_cc1_swizzle", "CC1 updates (the C1 opcode suffix) and tests of CC1 with swizzles; CC0 left untouched.",
   S4 + " 2.X.4.1 Table X.15 suffixes (C1), 2.X.4.3 (GE1, NE1)",
   """TEMP a, r;
MUL a, fragment.texcoord[0], 4.0;
FLR a, a;
SUBC1 a.xy, a, 2.0;
MOV r, {0.0, 0.0, 0.0, 1.0};
MOV r.x (GE1.x), 1.0;
MOV r.y (NE1.y), 0.5;
MOV r.z (GE1.xxyw), 0.75;
MOV result.color, r;""",
   """vec2 a = floor(tc.xy * 4.0) - 2.0;
vec4 r = vec4(0.0, 0.0, 0.0, 1.0);
if (a.x >= 0.0) r.x = 1.0;
if (a.y != 0.0) r.y = 0.5;
if (a.y >= 0.0) r.z = 0.75;
color = r;""",
   probes_fn(lambda s, t: ((1 if flr(4*s) >= 2 else 0), (.5 if flr(4*t) != 2 else 0), (.75 if flr(4*t) >= 2 else 0), 1),
             [(5, 5), (40, 5), (5, 40), (40, 40), (60, 60), (20, 60)]), tol=1, why="flat colours, exact")

fs(P, "flow_if_else", "IF/ELSE/ENDIF on condition codes, nested one level, selecting colours per region.",
   S4 + " IF, ELSE, ENDIF; 2.X.4.3 condition tests",
   """TEMP a, r;
SUB a, fragment.texcoord[0], 0.5;
MOVC a.xy, a;
IF GT.x;
  MOVC a.y, a.y;
  IF GT.y;
    MOV r, {1.0, 0.0, 0.0, 1.0};
  ELSE;
    MOV r, {0.0, 1.0, 0.0, 1.0};
  ENDIF;
ELSE;
  MOV r, {0.0, 0.0, 1.0, 1.0};
  IF LT.y;
    MOV r.x, 0.5;
  ENDIF;
ENDIF;
MOV result.color, r;""",
   """vec2 a = tc.xy - 0.5;
vec4 r;
if (a.x > 0.0) { r = a.y > 0.0 ? vec4(1, 0, 0, 1) : vec4(0, 1, 0, 1); }
else { r = vec4(0, 0, 1, 1); if (a.y < 0.0) r.x = 0.5; }
color = r;""",
   "\n".join([probe(50, 50, (1, 0, 0, 1)), probe(50, 10, (0, 1, 0, 1)), probe(10, 50, (0, 0, 1, 1)), probe(10, 10, (.5, 0, 1, 1))]),
   tol=1, why="flat colours, exact")

fs(P, "flow_rep_brk", "REP with a computed (floored) loop count and a conditional BRK: the count of iterations becomes grey levels.",
   S4 + " REP (loop count = floor of the operand), ENDREP, BRK",
   """TEMP a, acc, k;
MUL a, fragment.texcoord[0], 8.0;
MOV acc, 0.0;
MOV k, 0.0;
REP a.x;
  ADD acc.x, acc.x, 0.125;
  ADD k.x, k.x, 1.0;
  SGEC k.y, k.x, a.y;
  BRK (NE.y);
ENDREP;
MOV result.color, acc.x;
MOV result.color.w, 1.0;""",
   """float n = floor(tc.x * 8.0);
float lim = tc.y * 8.0;
float acc = 0.0, k = 0.0;
for (int i = 0; i < int(n); i++) {
  acc += 0.125; k += 1.0;
  if (k >= lim) break;
}
color = vec4(vec3(acc), 1.0);""",
   probes_fn(lambda s, t: ((lambda n, lim: [min(n, max(1, math.ceil(lim))) * .125 if n > 0 else 0]*3 + [1])(flr(8*s), 8*t)),
             [(3, 30), (12, 60), (30, 5), (45, 40), (60, 20), (60, 60)]), tol=1, why="exact multiples of 1/8")

fs(P, "flow_rep_cont_nested", "Nested REP loops with CONT skipping odd iterations of the inner loop.",
   S4 + " REP/ENDREP nesting, CONT",
   """TEMP a, acc, i, j, t;
MUL a, fragment.texcoord[0], 4.0;
FLR a, a;
ADD a, a, 1.0;
MOV acc, 0.0;
MOV i, 0.0;
REP a.x;
  ADD i.x, i.x, 1.0;
  MOV j.x, 0.0;
  REP a.y;
    ADD j.x, j.x, 1.0;
    MUL t.x, j.x, 0.5;
    FRC t.x, t.x;
    MOVC t.x, t.x;
    CONT (NE.x);
    ADD acc.x, acc.x, 0.0625;
  ENDREP;
  ADD acc.y, acc.y, 0.25;
ENDREP;
MOV result.color, acc;
MOV result.color.w, 1.0;""",
   """vec2 a = floor(tc.xy * 4.0) + 1.0;
vec2 acc = vec2(0.0);
for (int i = 0; i < int(a.x); i++) {
  for (int j = 1; j <= int(a.y); j++) {
    if ((j & 1) != 0) continue;
    acc.x += 0.0625;
  }
  acc.y += 0.25;
}
color = vec4(acc, 0.0, 1.0);""",
   probes_fn(lambda s, t: ((flr(4*s)+1)*((flr(4*t)+1)//2)*0.0625, (flr(4*s)+1)*.25, 0, 1),
             [(5, 5), (20, 40), (40, 20), (60, 60), (50, 30), (10, 60)]), tol=1, why="exact multiples of 1/16")

fs(P, "flow_cal_ret", "Subroutines: CAL to labels, a nested CAL, a conditional RET and a conditional CAL.",
   S4 + " CAL, RET (call stack, conditional forms), instruction labels",
   """TEMP a, r;
MOV a, fragment.texcoord[0];
MOV r, {0.0, 0.0, 0.0, 1.0};
CAL red;
SUBC a.z, a.y, 0.5;
CAL blue (GT.z);
MOV result.color, r;
RET;
red:
  MUL r.x, a.x, 0.5;
  CAL half;
  SUBC a.w, a.x, 0.5;
  RET (LT.w);
  ADD r.x, r.x, 0.25;
  RET;
half:
  MOV r.y, 0.5;
  RET;
blue:
  MOV r.z, 1.0;
  RET;""",
   """vec4 r = vec4(0.0, 0.5, 0.0, 1.0);
r.x = tc.x * 0.5;
if (tc.x - 0.5 >= 0.0) r.x += 0.25;
if (tc.y - 0.5 > 0.0) r.z = 1.0;
color = r;""",
   probes_fn(lambda s, t: (s*.5 + (.25 if s >= .5 else 0), .5, (1 if t > .5 else 0), 1), GRID))

fs(P, "flow_kil_cc", "KIL with a condition-code test and KIL with a vector operand (kills if any component < 0).",
   "NV_fragment_program4 KIL; NV_gpu_program4 2.X.8.Z KIL",
   """TEMP a;
SUBC a, fragment.texcoord[0], 0.75;
KIL GT.x;
SUB a, fragment.texcoord[0].y, 0.25;
KIL a;
MOV result.color, {0.25, 0.75, 1.0, 1.0};""",
   """if (tc.x - 0.75 > 0.0) discard;
if (tc.y - 0.25 < 0.0) discard;
color = vec4(0.25, 0.75, 1.0, 1.0);""",
   "\n".join([probe(10, 50, (.25, .75, 1, 1)), probe(60, 50, (0, 0, 0, 1)), probe(10, 5, (0, 0, 0, 1)),
              "probe rect rgba (0, 16, 48, 48) (0.25, 0.75, 1.0, 1.0)", "probe rect rgba (48, 0, 16, 64) (0.0, 0.0, 0.0, 1.0)"]),
   tol=1, why="flat colours; KIL edges fall between pixel centres")

IGRID = [(3, 5), (17, 40), (31, 31), (45, 12), (60, 58), (9, 50)]
def ip(fn, pts=IGRID):
    return "\n".join(probe(x, y, fn(x, y)) for (x, y) in pts)

fs(P, "int_arith", "Signed integer MUL, ADD, MOD, DIV, SUB, ABS on the pixel's integer coordinates (FLR.S of fragment.position), converted back with I2F.",
   S4 + " FLR (integer result), MUL/ADD/SUB/ABS .S, MOD, DIV, I2F; 2.X.3.1 INT TEMP typing",
   """INT TEMP i, r;
TEMP f;
FLR.S i, fragment.position;
MUL.S r.x, i.x, 3;
ADD.S r.x, r.x, i.y;
MOD.S r.x, r.x, 64;
MUL.S r.y, i.x, i.y;
DIV.S r.y, r.y, 16;
SUB.S r.z, i.x, i.y;
ABS.S r.z, r.z;
MAD.S r.w, i.y, 4, -3;
MAX.S r.w, r.w, 0;
I2F f, r;
MUL result.color, f, {0.015625, 0.00390625, 0.015625, 0.00390625};""",
   """ivec2 i = ivec2(floor(gl_FragCoord.xy));
ivec4 r;
r.x = (i.x * 3 + i.y) % 64;
r.y = (i.x * i.y) / 16;
r.z = abs(i.x - i.y);
r.w = max(i.y * 4 - 3, 0);
color = vec4(r) * vec4(0.015625, 0.00390625, 0.015625, 0.00390625);""",
   ip(lambda x, y: (((3*x+y) % 64)/64, ((x*y)//16)/256, abs(x-y)/64, max(4*y-3, 0)/256)),
   tol=1, why="integer arithmetic, exact")

fs(P, "int_shift_unsigned", "SHL/SHR for signed (arithmetic) and unsigned (logical) types, unsigned wrap-around, UINT TEMP.",
   S4 + " SHL, SHR (signed fill), .U arithmetic wrap, I2F.U",
   """TEMP i;
INT TEMP s;
UINT TEMP u;
TEMP f;
FLR.S i, fragment.position;
SUB.S s.x, i.x, 32;
SHR.S s.x, s.x, 2;
ADD.S s.x, s.x, 8;
SHL.S s.y, i.y, 2;
MOV.U u.x, i.x;
SUB.U u.x, u.x, 32;
SHR.U u.x, u.x, 26;
SHL.U u.y, i.y, 29;
SHR.U u.y, u.y, 29;
I2F.S f.xy, s;
I2F.U f.zw, u.xxxy;
MUL result.color, f, {0.0625, 0.00390625, 0.015625, 0.125};""",
   """ivec2 i = ivec2(floor(gl_FragCoord.xy));
int sx = ((i.x - 32) >> 2) + 8;
int sy = i.y << 2;
uint ux = (uint(i.x) - 32u) >> 26;
uint uy = (uint(i.y) << 29) >> 29;
color = vec4(float(sx), float(sy), float(ux), float(uy)) * vec4(0.0625, 0.00390625, 0.015625, 0.125);""",
   ip(lambda x, y: ((((x-32) >> 2)+8)/16, (y*4)/256, (((x-32) & 0xffffffff) >> 26)/64, (y & 7)/8)),
   tol=1, why="integer arithmetic, exact")

fs(P, "bit_logic", "AND, OR, XOR, NOT on unsigned integers from the pixel coordinates.",
   S4 + " AND, OR, XOR, NOT",
   """UINT TEMP i, r;
TEMP f;
FLR.U i, fragment.position;
AND.U r.x, i.x, i.y;
OR.U r.y, i.x, i.y;
XOR.U r.z, i.x, i.y;
NOT.U r.w, i.x;
AND.U r.w, r.w, 63;
I2F.U f, r;
MUL result.color, f, 0.015625;""",
   """uvec2 i = uvec2(floor(gl_FragCoord.xy));
uvec4 r = uvec4(i.x & i.y, i.x | i.y, i.x ^ i.y, (~i.x) & 63u);
color = vec4(r) * 0.015625;""",
   ip(lambda x, y: ((x & y)/64, (x | y)/64, (x ^ y)/64, ((~x) & 63)/64)), tol=1, why="exact")

fs(P, "bit_bfe_bfi", "NV_gpu_program5 bitfield extract (signed and unsigned) and bitfield insert.",
   "NV_gpu_program5 2.X.8.Z BFE, BFI",
   """TEMP i, r;
TEMP f;
FLR.S i, fragment.position;
BFE.U r.x, {3, 2, 0, 0}, i.x;
BFE.S r.y, {3, 3, 0, 0}, i.y;
ADD.S r.y, r.y, 4;
BFI.S r.z, {2, 4, 0, 0}, i.y, i.x;
BFI.U r.w, {4, 0, 0, 0}, 15, i.y;
I2F f, r;
MUL result.color, f, {0.125, 0.125, 0.015625, 0.015625};""",
   """ivec2 i = ivec2(floor(gl_FragCoord.xy));
int rx = int(bitfieldExtract(uint(i.x), 2, 3));
int ry = bitfieldExtract(i.y, 3, 3) + 4;
int rz = bitfieldInsert(i.x, i.y, 4, 2);
int rw = bitfieldInsert(i.y, 15, 0, 4);
color = vec4(rx, ry, rz, rw) * vec4(0.125, 0.125, 0.015625, 0.015625);""",
   ip(lambda x, y: (((x >> 2) & 7)/8, ((((y >> 3) & 7) ^ 4) - 4 + 4)/8, ((x & ~0x30) | ((y & 3) << 4))/64, ((y & ~15) | 15)/64)),
   tol=1, why="exact")

fs(P, "bit_count_find_reverse", "NV_gpu_program5 BTC (population count), BTFL / BTFM (find LSB/MSB of 2x - 80, incl. negative inputs: most significant zero bit) and BFR (bit reverse).",
   "NV_gpu_program5 2.X.8.Z BTC, BTFL, BTFM, BFR",
   """TEMP i, r, n;
TEMP f;
FLR.S i, fragment.position;
BTC.S r.x, i.x;
OR.S n.x, i.y, 64;
BTFL.S r.y, n.x;
MAD.S n.z, i.x, 2, -80;
BTFM.S r.z, n.z;
ADD.S r.z, r.z, 1;
BFR.U r.w, i.y;
SHR.U r.w, r.w, 26;
I2F f, r;
MUL result.color, f, {0.125, 0.125, 0.125, 0.015625};""",
   """ivec2 i = ivec2(floor(gl_FragCoord.xy));
int rx = bitCount(i.x);
int ry = findLSB(i.y | 64);
int rz = findMSB(i.x * 2 - 80) + 1;
uint rw = bitfieldReverse(uint(i.y)) >> 26;
color = vec4(rx, ry, rz, float(rw)) * vec4(0.125, 0.125, 0.125, 0.015625);""",
   ip(lambda x, y: (bin(x).count("1")/8, ((y | 64) & -(y | 64)).bit_length()-1 and (((y | 64) & -(y | 64)).bit_length()-1)/8,
                    ((2*x-80).bit_length() if 2*x-80 >= 0 else (~(2*x-80)).bit_length())/8,
                    int(format(y, '06b')[::-1], 2)/64),
      [(3, 5), (17, 40), (31, 31), (45, 12), (60, 58), (40, 50), (39, 20)]), tol=1, why="exact")

fs(P, "int_set_true_values", "Integer SLT/SEQ TRUE values: -1 for .S and all ones for .U (masked to 8 bits), float 1.0 for .F.",
   S4 + " SLT, SEQ, SGE (TRUE values by data type)",
   """TEMP i;
INT TEMP s;
UINT TEMP u;
TEMP f;
FLR.S i, fragment.position;
SLT.S s.x, i.x, i.y;
I2F.S f.x, s.x;
MOV f.x, -f.x;
SHR.S i.z, i.x, 4;
SHR.S i.w, i.y, 4;
SEQ.U u.y, i.z, i.w;
AND.U u.y, u.y, 192;
I2F.U f.y, u.y;
MUL f.y, f.y, 0.00390625;
SGE.F f.z, fragment.position.x, 31.0;
MOV f.w, 1.0;
MOV result.color, f;""",
   """ivec2 i = ivec2(floor(gl_FragCoord.xy));
int s = i.x < i.y ? -1 : 0;
uint u = ((i.x >> 4) == (i.y >> 4) ? 0xFFFFFFFFu : 0u) & 192u;
color = vec4(-float(s), float(u) * 0.00390625, gl_FragCoord.x >= 31.0 ? 1.0 : 0.0, 1.0);""",
   ip(lambda x, y: ((1 if x < y else 0), (0.75 if x >> 4 == y >> 4 else 0), (1 if x + .5 >= 31 else 0), 1),
      [(3, 5), (17, 40), (31, 31), (45, 12), (60, 58), (20, 20), (30, 2)]), tol=1, why="exact")

fs(P, "int_carry_overflow_cc", "Integer condition-code flags: carry (CF) of an unsigned add and overflow (OF) of a signed add, tested with CF/OF/NCF masks.",
   S4 + " 2.X.4.3 integer add CF/OF rules; Table X.16 CF, OF, NCF",
   """TEMP i, t;
TEMP r;
FLR.S i, fragment.position;
MOV r, {0.0, 0.0, 0.0, 1.0};
ADD.U.CC t.x, i.x, 4294967264;
ADD.S.CC1 t.y, i.y, 2147483632;
MOV r.x (CF.x), 1.0;
MOV r.y (OF1.y), 1.0;
MOV r.z (NCF.x), 0.5;
MOV result.color, r;""",
   """ivec2 i = ivec2(floor(gl_FragCoord.xy));
uint carry;
uaddCarry(uint(i.x), 4294967264u, carry);
bool of = i.y >= 16;
color = vec4(carry != 0u ? 1.0 : 0.0, of ? 1.0 : 0.0, carry == 0u ? 0.5 : 0.0, 1.0);""",
   ip(lambda x, y: ((1 if x >= 32 else 0), (1 if y >= 16 else 0), (0 if x >= 32 else .5), 1),
      [(3, 5), (17, 40), (31, 31), (45, 12), (60, 58), (32, 16), (31, 15)]), tol=1, why="exact")

fs(P, "pack_unpack", "PK2H/UP2H, PK4UB/UP4UB, PK2US/UP2US and PK4B/UP4B round trips (quantization made visible).",
   S4 + " PK2H, UP2H, PK2US, UP2US, PK4B, UP4B, PK4UB, UP4UB",
   """TEMP a, p, r, q;
MOV a, fragment.texcoord[0];
PK2H p.x, a;
UP2H r.xy, p.x;
MUL q, a, 8.0;
FLR q, q;
MUL q, q, 0.125;
PK4UB p.y, q.yxyx;
UP4UB q, p.y;
MOV r.z, q.x;
MAD a.w, a.x, 2.0, -1.0;
PK4B p.z, a.w;
UP4B q, p.z;
MAD r.w, q.x, 0.5, 0.5;
MOV result.color, r;""",
   """vec2 r = unpackHalf2x16(packHalf2x16(tc.xy));
vec4 q = floor(tc.yxyx * 8.0) * 0.125;
vec4 qq = unpackUnorm4x8(packUnorm4x8(q));
vec4 sb = unpackSnorm4x8(packSnorm4x8(vec4(tc.x * 2.0 - 1.0)));
color = vec4(r, qq.x, sb.x * 0.5 + 0.5);""",
   probes_fn(lambda s, t: (s, t, flr(8*t)/8, round((2*s-1)*127)/127*.5+.5), GRID),
   why="half/8-bit quantization is within 1/255 of the probes")

fs(P, "fp64_precision", "NV_gpu_program_fp64: ADD.F64/MUL.F64 on LONG TEMPs keep the bits a 32-bit float loses: ((1 + s*2^-30) - 1) * 2^30 = s.",
   "NV_gpu_program5 2.X.3.1 LONG variables, 2.X.4.1 F64 modifier (GL_NV_gpu_program_fp64)",
   """LONG TEMP d;
TEMP f;
MUL f.x, fragment.texcoord[0].x, 9.313225746154785e-10;
ADD.F64 d.x, f.x, 1.0;
ADD.F64 d.x, d.x, -1.0;
MUL.F64 d.x, d.x, 1073741824.0;
ADD.F32 f.y, f.x, 1.0;
ADD.F32 f.y, f.y, -1.0;
MUL.F32 f.y, f.y, 1073741824.0;
MOV result.color.x, d.x;
MOV result.color.y, f.y;
MOV result.color.zw, {0.0, 0.0, 0.5, 1.0};""",
   """double d = double(tc.x * 9.313225746154785e-10) + 1.0LF;
d = (d - 1.0LF) * 1073741824.0LF;
color = vec4(float(d), 0.0, 0.5, 1.0);""",
   probes_fn(lambda s, t: (s, 0, .5, 1), GRID), nv_req=("GL_NV_gpu_program5", "GL_NV_gpu_program_fp64"),
   why="exact up to 8-bit rounding; the float path is exactly 0")

fs(P, "fp64_div_cvt", "fp64 DIV and RCP, and CVT between F32, F64 and S32 with FLR/CEIL rounding modifiers.",
   "NV_gpu_program5 2.X.8.Z CVT (storage and rounding modifiers), DIV/RCP with F64",
   """LONG TEMP d;
INT TEMP i;
TEMP f;
CVT.F64.F32 d.x, fragment.texcoord[0].x;
ADD.F64 d.y, d.x, 1.0;
DIV.F64 d.z, d.x, d.y;
RCP.F64 d.w, d.y;
MUL.F64 d.x, d.x, 7.0;
CVT.S32.F64.FLR i.x, d.x;
CVT.S32.F64.CEIL i.y, d.x;
CVT.F32.F64 f.z, d.z;
CVT.F32.F64 f.w, d.w;
I2F f.xy, i;
MUL f.xy, f, 0.125;
MOV result.color, f;""",
   """double x = double(tc.x);
double y = x + 1.0LF;
double z = x / y;
double w = 1.0LF / y;
double x7 = x * 7.0LF;
color = vec4(float(floor(x7)) * 0.125, float(ceil(x7)) * 0.125, float(z), float(w));""",
   probes_fn(lambda s, t: (flr(7*s)/8, math.ceil(7*s)/8, s/(s+1), 1/(s+1)), GRID),
   nv_req=("GL_NV_gpu_program5", "GL_NV_gpu_program_fp64"))

fs(P, "param_array_relative", "Relative addressing of a PARAM array with an integer temporary plus a constant offset.",
   S4 + " 2.X.4.2 relative array addressing (<arrayMemRel>), 2.X.3.4 PARAM arrays",
   """PARAM pal[5] = { {1.0, 0.0, 0.0, 1.0}, {0.0, 1.0, 0.0, 1.0}, {0.0, 0.0, 1.0, 1.0},
                   {1.0, 1.0, 0.0, 1.0}, {0.5, 0.5, 0.5, 1.0} };
TEMP c;
INT TEMP i;
MUL c.x, fragment.texcoord[0].x, 4.0;
FLR.S i.x, c.x;
MOV result.color, pal[i.x + 1];""",
   """const vec4 pal[5] = vec4[5](vec4(1, 0, 0, 1), vec4(0, 1, 0, 1), vec4(0, 0, 1, 1), vec4(1, 1, 0, 1), vec4(0.5, 0.5, 0.5, 1));
int i = int(floor(tc.x * 4.0));
color = pal[i + 1];""",
   "\n".join([probe(8, 32, (0, 1, 0, 1)), probe(24, 32, (0, 0, 1, 1)), probe(40, 32, (1, 1, 0, 1)), probe(56, 32, (.5, .5, .5, 1))]),
   tol=1, why="flat colours")

fs(P, "temp_array_indexed", "A TEMP array written with absolute indices and read back with a run-time index.",
   S4 + " 2.X.3.5 temporary arrays, relative addressing of TEMP arrays",
   """TEMP arr[4];
TEMP a;
INT TEMP i;
MOV arr[0], {0.1, 0.2, 0.3, 1.0};
MUL arr[1], fragment.texcoord[0], 0.5;
MOV arr[1].w, 1.0;
MOV arr[2], {0.9, 0.1, 0.6, 1.0};
ADD arr[3], arr[0], arr[2];
MUL a.x, fragment.texcoord[0].y, 4.0;
FLR.S i.x, a.x;
MOV result.color, arr[i.x];""",
   """vec4 arr[4];
arr[0] = vec4(0.1, 0.2, 0.3, 1.0);
arr[1] = vec4(tc.xyz * 0.5, 1.0);
arr[2] = vec4(0.9, 0.1, 0.6, 1.0);
arr[3] = arr[0] + arr[2];
color = arr[int(floor(tc.y * 4.0))];""",
   ip(lambda x, y: [(.1, .2, .3, 1), ((x+.5)/128, (y+.5)/128, 0, 1), (.9, .1, .6, 1), (1, .3, .9, 1)][y//16],
      [(5, 5), (40, 10), (10, 20), (50, 28), (30, 40), (30, 60)]), tol=1)

fs(P, "params_local_env", "program.local and program.env parameters set by the scene, read directly and through PARAM aliases.",
   "ARB_fragment_program 2.14/3.11 program parameters; NV_gpu_program4 2.X.3.4 parameter bindings",
   """PARAM l0 = program.local[0];
PARAM e = program.env[3];
TEMP r;
MAD r, fragment.texcoord[0].x, l0, e;
ADD result.color, r, program.local[1];""",
   "color = tc.x * l0 + e + l1;",
   probes_fn(lambda s, t: (s*.5+.25+.1, s*.25+.25, .5, 1), GRID),
   decls="uniform vec4 l0;\nuniform vec4 l1;\nuniform vec4 e;",
   test_pre="""NV: parameter local_fp 0 (0.5, 0.25, 0.0, 0.0)
NV: parameter local_fp 1 (0.1, 0.0, 0.25, 0.5)
NV: parameter env_fp 3 (0.25, 0.25, 0.25, 0.5)
GL: uniform vec4 l0 0.5 0.25 0.0 0.0
GL: uniform vec4 l1 0.1 0.0 0.25 0.5
GL: uniform vec4 e 0.25 0.25 0.25 0.5""")

fs(P, "fragment_position", "fragment.position: window coordinates of the pixel centre (x+0.5, y+0.5), z from the depth range, w = 1/clip w.",
   "NV_fragment_program4 fragment.position; ARB_fragment_program 3.11.3.2",
   """TEMP p;
MOV p, fragment.position;
MUL result.color.xy, p, 0.015625;
MOV result.color.z, p.z;
MUL result.color.w, p.w, 0.5;""",
   "color = vec4(gl_FragCoord.xy * 0.015625, gl_FragCoord.z, gl_FragCoord.w * 0.5);",
   probes_fn(lambda s, t: (s, t, .5, .5), GRID))

VS_GLC = """#version 450 compatibility
layout(location = 0) in vec4 piglit_vertex;
out vec4 tc;
void main() { gl_Position = gl_ModelViewProjectionMatrix * piglit_vertex; tc = vec4(piglit_vertex.xy / 64.0, 0.0, 1.0); }"""
scene(P, "vp_state_matrix_mvp", "A vertex program transforming with state.matrix.mvp (ortho projection set by the scene) via DP4 rows.",
      "ARB_vertex_program 2.14.4.3 state.matrix bindings (row access); NV_gpu_program4 DP4", 2, 0, "smooth gradient",
      [("vertex program", """!!NVvp5.0
PARAM mvp[4] = { state.matrix.mvp };
DP4 result.position.x, mvp[0], vertex.position;
DP4 result.position.y, mvp[1], vertex.position;
DP4 result.position.z, mvp[2], vertex.position;
DP4 result.position.w, mvp[3], vertex.position;
MUL result.texcoord[0], vertex.position.xyzz, {0.015625, 0.015625, 0.0, 0.0};
END"""), ("fragment program", """!!NVfp5.0
MOV result.color, fragment.texcoord[0];
MOV result.color.w, 1.0;
END""")],
      [("vertex shader", VS_GLC), ("fragment shader", wrap_fs("color = vec4(tc.xy, 0.0, 1.0);"))],
      "clear color 0.0 0.0 0.0 1.0\nclear\northo\ndraw rect 8 16 48 32\n" +
      "\n".join([probe(10, 20, (10.5/64, 20.5/64, 0, 1)), probe(50, 40, (50.5/64, 40.5/64, 0, 1)),
                 probe(4, 4, (0, 0, 0, 1)), probe(60, 60, (0, 0, 0, 1))]))

scene(P, "vp_vertex_id_instance", "vertex.id and vertex.instance in an NVvp program: instanced draw of 4 triangles laid out by instance, coloured by vertex id.",
      "NV_gpu_program4 2.X.3.2 vertex.id, vertex.instance (vertex program attribute bindings)", 2, 0, "colour interpolation only",
      [("vertex program", """!!NVvp5.0
INT TEMP id;
TEMP p, c;
MOV.S id.x, vertex.id;
MOV.S id.y, vertex.instance;
I2F c.xy, id;
MUL p.x, c.y, 0.5;
ADD p.x, p.x, -1.0;
MAD result.position.x, vertex.attrib[0].x, 0.25, p.x;
MOV result.position.yzw, vertex.attrib[0];
SEQ result.color.xyz, c.x, {0.0, 1.0, 2.0, 0.0};
MUL result.color.w, c.y, 0.25;
END"""), ("fragment program", """!!NVfp5.0
MOV result.color.xyz, fragment.color;
ADD result.color.w, fragment.color.w, 0.25;
END""")],
      [("vertex shader", """#version 450
layout(location = 0) in vec4 piglit_vertex;
out vec4 col;
void main() {
  float inst = float(gl_InstanceID);
  gl_Position = vec4(piglit_vertex.x * 0.25 + inst * 0.5 - 1.0, piglit_vertex.yzw);
  col = vec4(gl_VertexID == 0, gl_VertexID == 1, gl_VertexID == 2, inst * 0.25);
}"""), ("fragment shader", """#version 450
in vec4 col;
out vec4 color;
void main() { color = vec4(col.rgb, col.a + 0.25); }""")],
      "clear color 0.0 0.0 0.0 0.0\nclear\ndraw arrays instanced GL_TRIANGLES 0 3 4\n" +
      "\n".join([probe(4 + 16 * i, 4, (1 - 4.5/16 - 4.5/64, 4.5/16, 4.5/64, .25 * i + .25)) for i in range(4)] +
                [probe(15, 60, (0, 0, 0, 0))]),
      vdata="0/float/4\n0.0 -1.0 0.0 1.0\n2.0 -1.0 0.0 1.0\n0.0 1.0 0.0 1.0", nv_req=("GL_NV_gpu_program5",))

scene(P, "fragment_facing", "fragment.facing: +1 for the counter-clockwise (front) triangle, -1 for the clockwise one.",
      "NV_fragment_program4 fragment.facing; NV_gpu_program4 CMP", 1, 0, "flat colours",
      [("vertex program", "!!NVvp5.0\nMOV result.position, vertex.attrib[0];\nEND"), ("fragment program", """!!NVfp5.0
TEMP f;
MOV f, fragment.facing.x;
CMP result.color, f, {0.0, 0.0, 1.0, 1.0}, {1.0, 0.5, 0.0, 1.0};
END""")],
      [("vertex shader", VS_GL), ("fragment shader", wrap_fs("color = gl_FrontFacing ? vec4(1.0, 0.5, 0.0, 1.0) : vec4(0.0, 0.0, 1.0, 1.0);"))],
      "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_TRIANGLES 0 6\n" +
      "\n".join([probe(8, 20, (1, .5, 0, 1)), probe(56, 44, (0, 0, 1, 1))]),
      vdata="0/float/4\n-1.0 -1.0 0.0 1.0\n0.0 -1.0 0.0 1.0\n-1.0 1.0 0.0 1.0\n1.0 -1.0 0.0 1.0\n0.0 1.0 0.0 1.0\n1.0 1.0 0.0 1.0")

scene(P, "int_attrib_flat", "Integer vertex attributes (INT ATTRIB) passed as FLAT integer attributes to the fragment program, provoking vertex = last.",
      "NV_gpu_program4 2.X.3.2 typed attributes, FLAT attribute modifier (NV_fragment_program4); NV_gpu_program4 I2F", 1, 0, "flat integer-derived colours",
      [("vertex program", """!!NVvp5.0
INT ATTRIB ia = vertex.attrib[1];
MOV result.position, vertex.attrib[0];
MOV.S result.attrib[0], ia;
END"""), ("fragment program", """!!NVfp5.0
FLAT INT ATTRIB v = fragment.attrib[0];
TEMP f;
I2F f, v;
MUL result.color, f, 0.25;
END""")],
      [("vertex shader", """#version 450
layout(location = 0) in vec4 piglit_vertex;
layout(location = 1) in ivec4 ia;
flat out ivec4 v;
void main() { gl_Position = piglit_vertex; v = ia; }"""), ("fragment shader", """#version 450
flat in ivec4 v;
out vec4 color;
void main() { color = vec4(v) * 0.25; }""")],
      "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_TRIANGLES 0 6\n" +
      "\n".join([probe(4, 30, (0, .25, .5, 1)), probe(60, 30, (1, .75, .5, .25))]),
      vdata="0/float/4 1/int/4\n-1 -1 0 1  4 4 4 4\n1 -1 0 1  3 3 3 3\n-1 1 0 1  0 1 2 4\n1 -1 0 1  0 0 0 0\n1 1 0 1  4 3 2 1\n-1 1 0 1  4 3 2 1")

fs(P, "derivatives_ddx_ddy", "DDX and DDY of functions of the interpolated coordinate: exact for a linear function (constant slope), and per-2x2-quad differences for a quadratic one.",
   "NV_fragment_program4 DDX, DDY (partial derivatives, fragment programs only)",
   """TEMP a, d;
MUL a.x, fragment.texcoord[0].x, 16.0;
MUL a.y, fragment.texcoord[0].y, fragment.texcoord[0].y;
DDX d.x, a.x;
DDY d.y, a.y;
DDY d.z, a.x;
MOV result.color.x, d.x;
MUL result.color.y, d.y, 8.0;
ADD result.color.z, d.z, 0.5;
MOV result.color.w, 1.0;""",
   """float ax = tc.x * 16.0;
float ay = tc.y * tc.y;
color = vec4(dFdx(ax), dFdy(ay) * 8.0, dFdy(ax) + 0.5, 1.0);""",
   "\n".join(probe(x, y, (0.25, 8 * ((2*(y - y % 2) + 2) / 64 / 64), 0.5, 1)) for (x, y) in [(3, 5), (17, 40), (31, 31), (45, 12), (60, 58)]),
   tol=2, why="derivatives are differences within 2x2 quads (quads start at even coordinates); 8-bit rounding")

fs(P, "int_mul_hi_sad", "Integer MUL.U.HI and MUL.S.HI (upper 32 bits of the 64-bit product), MUL.U24 and SAD (|a - b| + c) on the pixel coordinates.",
   S4 + " MUL (HI, U24 modifiers), SAD",
   """TEMP i, r, f;
FLR.S i, fragment.position;
MUL.U.HI r.x, i.x, 3000000000;
MUL.S.HI r.y, i.y, -1500000000;
MUL.U24 r.z, i.x, i.y;
SAD.S r.w, i.x, i.y, 5;
I2F.U f.x, r.x;
I2F.S f.y, r.y;
I2F.U f.zw, r;
MUL result.color, f, {0.015625, -0.03125, 0.000244140625, 0.0078125};""",
   """ivec2 i = ivec2(floor(gl_FragCoord.xy));
uint hx, lx;
umulExtended(uint(i.x), 3000000000u, hx, lx);
int hy, ly;
imulExtended(i.y, -1500000000, hy, ly);
uint z = uint(i.x * i.y);
uint w = uint(abs(i.x - i.y)) + 5u;
color = vec4(float(hx) * 0.015625, -float(hy) * 0.03125, float(z) * 0.000244140625, float(w) * 0.0078125);""",
   ip(lambda x, y: (((3000000000*x) >> 32)/64, -((y*-1500000000) >> 32)/32, x*y/4096, (abs(x-y)+5)/128)),
   tol=1, why="integer arithmetic, exact")

fs(P, "temp_array_relative_write", "Relative addressing on the destination: a REP loop writes arr[i] = (i + 1) / 4 through an integer index, then a per-pixel index reads one entry back.",
   S4 + " 2.X.4.3 (array destination with relative addressing), REP",
   """TEMP arr[4];
TEMP v, c;
INT TEMP i, j;
MOV.S i.x, 0;
MOV v, {0.25, 0.0, 0.5, 1.0};
REP 4;
  MOV arr[i.x], v;
  ADD v.x, v.x, 0.25;
  ADD.S i.x, i.x, 1;
ENDREP;
MUL c.x, fragment.texcoord[0].x, 4.0;
FLR.S j.x, c.x;
MOV result.color, arr[j.x];""",
   """vec4 arr[4];
vec4 v = vec4(0.25, 0.0, 0.5, 1.0);
for (int i = 0; i < 4; i++) { arr[i] = v; v.x += 0.25; }
color = arr[int(floor(tc.x * 4.0))];""",
   "\n".join(probe(8 + 16*k, 30, ((k+1)/4, 0, .5, 1)) for k in range(4)), tol=1, why="exact")

fs(P, "cc_nan_tests", "Condition codes of a NaN (RCP of 0 gives +INF, INF * 0 gives NaN): NAN and NE pass, LEG, EQ, GT and LT fail; a finite negative value sets LT and LEG.",
   S4 + " 2.X.4.3 (SF and ZF set for NaN; Table X.16 NAN, LEG, NE, EQ, LT)",
   """TEMP z, n, r;
MOV z.x, program.local[0].x;
RCP n.x, z.x;
MUL n.x, n.x, z.x;
SUB n.y, z.x, 0.5;
MOV r, {0.0, 0.0, 0.0, 1.0};
MOVC n.xy, n;
MOV r.x (NAN.x), 1.0;
MOV r.y (NE.x), 0.5;
MOV r.z (LEG.x), 1.0;
MOV r.z (EQ.x), 1.0;
MOV r.z (GT.x), 1.0;
MOV r.z (LT.x), 1.0;
ADD r.w (LT.y), r.w, -0.25;
ADD r.w (LEG.y), r.w, -0.25;
MOV result.color, r;""",
   """float n = (1.0 / zero) * zero;
float m = zero - 0.5;
vec4 r = vec4(0.0, 0.0, 0.0, 1.0);
if (isnan(n)) { r.x = 1.0; r.y = 0.5; } else { r.z = 1.0; }
if (m < 0.0) r.w -= 0.25;
if (!isnan(m)) r.w -= 0.25;
color = r;""",
   probe(32, 32, (1, .5, 0, .5)), decls="uniform float zero;", test_pre="NV: parameter local_fp 0 (0.0, 0.0, 0.0, 0.0)\nGL: uniform float zero 0.0",
   tol=1, why="exact")

VPB = """!!NVvp5.0
MOV result.position, vertex.attrib[0];
MUL result.texcoord[3], vertex.attrib[1], 0.5;
MOV result.color.secondary, vertex.attrib[1].yzxw;
MOV result.attrib[5], {0.25, 0.5, 0.75, 1.0};
MOV result.fogcoord.x, vertex.attrib[1].z;
END"""
FPB = """!!NVfp5.0
TEMP a;
ADD a, fragment.texcoord[3], fragment.color.secondary;
ADD a.x, a.x, fragment.attrib[5].x;
MUL a.y, a.y, fragment.attrib[5].y;
MOV a.z, fragment.fogcoord.x;
MOV a.w, 1.0;
MOV result.color, a;
END"""
scene(P, "vp_fp_bindings", "Vertex-to-fragment bindings other than colour: result.texcoord[3], result.color.secondary, result.attrib[5] and result.fogcoord read as fragment.texcoord[3], fragment.color.secondary, fragment.attrib[5], fragment.fogcoord.",
      "NV_vertex_program4 result bindings, NV_fragment_program4 fragment attribute bindings (matched by binding)", 2, 0, "interpolated values; 8-bit rounding",
      [("vertex program", VPB), ("fragment program", FPB)],
      [("vertex shader", """#version 450
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 v;
out vec4 t3;
out vec4 sec;
out vec4 a5;
out float fog;
void main() { gl_Position = pos; t3 = v * 0.5; sec = v.yzxw; a5 = vec4(0.25, 0.5, 0.75, 1.0); fog = v.z; }"""),
       ("fragment shader", """#version 450
in vec4 t3;
in vec4 sec;
in vec4 a5;
in float fog;
out vec4 color;
void main() { vec4 a = t3 + sec; a.x += a5.x; a.y *= a5.y; color = vec4(a.xy, fog, 1.0); }""")],
      "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_TRIANGLE_STRIP 0 4\n" + "\n".join(probe(x, y, (lambda vx, vy: (0.5 * vx + vy + 0.25, (0.5 * vy + 0.3) * 0.5, 0.3, 1))(0.1 + 0.8 * (x + .5) / 64, 0.1 + 0.8 * (y + .5) / 64)) for (x, y) in GRID),
      vdata="0/float/4 1/float/4\n-1.0 -1.0 0.0 1.0  0.1 0.1 0.3 1.0\n1.0 -1.0 0.0 1.0  0.9 0.1 0.3 1.0\n-1.0 1.0 0.0 1.0  0.1 0.9 0.3 1.0\n1.0 1.0 0.0 1.0  0.9 0.9 0.3 1.0")

scene(P, "vp_conventional_arrays", "A vertex program reading conventional arrays from the vertex data: vertex.color, vertex.normal, vertex.texcoord[1] and vertex.fogcoord.",
      "NV_vertex_program4 / ARB_vertex_program vertex attribute bindings (vertex.color, vertex.normal, vertex.texcoord[n], vertex.fogcoord)", 2, 0, "interpolated values; 8-bit rounding",
      [("vertex program", """!!NVvp5.0
TEMP c;
MOV result.position, vertex.position;
MAD c, vertex.normal, 0.5, 0.5;
MUL c, c, vertex.color;
ADD c.z, vertex.texcoord[1].x, vertex.fogcoord.x;
MOV c.w, 1.0;
MOV result.color, c;
END"""), ("fragment program", "!!NVfp5.0\nMOV result.color, fragment.color;\nEND")],
      [("vertex shader", """#version 450 compatibility
out vec4 c;
void main() {
  gl_Position = gl_Vertex;
  vec4 k = vec4(gl_Normal * 0.5 + 0.5, 0.5 + 0.5 * 0.0) * gl_Color;
  k.z = gl_MultiTexCoord1.x + gl_FogCoord;
  k.w = 1.0;
  c = k;
}"""), ("fragment shader", "#version 450\nin vec4 c;\nout vec4 color;\nvoid main() { color = c; }")],
      "clear color 0.0 0.0 0.0 1.0\nclear\ndraw arrays GL_TRIANGLE_STRIP 0 4\n" + probe(1, 1, (0.5 * 1.0, 0.75 * 0.8, 0.2 + 0.1, 1)),
      vdata="vertex/float/4 color/float/4 normal/float/3 texcoord1/float/4 fogcoord/float/1\n"
            "-1.0 -1.0 0.0 1.0  1.0 0.8 0.6 1.0  0.0 0.5 0.0  0.2 0.0 0.0 1.0  0.1\n"
            "1.0 -1.0 0.0 1.0  1.0 0.8 0.6 1.0  1.0 0.0 0.0  0.4 0.0 0.0 1.0  0.1\n"
            "-1.0 1.0 0.0 1.0  1.0 0.8 0.6 1.0  0.0 1.0 0.0  0.2 0.0 0.0 1.0  0.3\n"
            "1.0 1.0 0.0 1.0  1.0 0.8 0.6 1.0  0.0 0.0 1.0  0.6 0.0 0.0 1.0  0.3")

scene(P, "vp_texture_fetch", "Texture fetch in an !!NVvp5.0 vertex program: TXL of the 2x2 rgbw texture at each vertex of a 3x3 grid (texture coordinates 0, 1/3, 2/3, 1 avoid texel ties); colours interpolate across the grid.",
      "NV_gpu_program4 TXL (texture access from any program type), NV_vertex_program4", 3, 0, "colour interpolation between vertex fetches; 8-bit rounding",
      [("vertex program", """!!NVvp5.0
TEMP c;
MOV result.position, vertex.position;
MOV c, vertex.texcoord[0];
MOV c.w, 0.0;
TXL result.color, c, texture[0], 2D;
END"""), ("fragment program", "!!NVfp5.0\nMOV result.color, fragment.color;\nEND")],
      [("vertex shader", """#version 450
layout(location = 0) in vec4 piglit_vertex;
layout(location = 1) in vec4 piglit_texcoord;
layout(binding = 0) uniform sampler2D tex0;
out vec4 c;
void main() { gl_Position = piglit_vertex; c = textureLod(tex0, piglit_texcoord.xy, 0.0); }"""), ("fragment shader", "#version 450\nin vec4 c;\nout vec4 color;\nvoid main() { color = c; }")],
      "clear color 0.0 0.0 0.0 1.0\nclear\ntexture rgbw 0 (2, 2)\ndraw grid 3 3\n" +
      "\n".join(probe(x, y, c) for (x, y, c) in [(5, 5, (1, 0, 0, 1)), (58, 5, (0, 1, 0, 1)), (5, 58, (0, 0, 1, 1)), (58, 58, (1, 1, 1, 1))]))

def round_even(v):
    return round(v)
fs(P, "int_round_trunc_cvt", "Float-to-integer rounding and CVT: ROUND.S rounds x.5 to even, TRUNC.S toward zero (on (x - 32) / 2), CVT.U8.S32.SAT clamps 8x - 100 to [0, 255] while CVT.U8.S32 keeps the low 8 bits.",
   S4 + " ROUND, TRUNC (integer results); NV_gpu_program5 2.X.8.Z CVT (storage modifiers, SAT clamps, otherwise MSBs dropped)",
   """TEMP i, f, r, s, o;
FLR.S i, fragment.position;
I2F.S f.x, i.x;
ADD f.x, f.x, -32.0;
MUL f.x, f.x, 0.5;
ROUND.S r.x, f.x;
TRUNC.S r.y, f.x;
MAD.S s.x, i.x, 8, -100;
CVT.U8.S32.SAT r.z, s.x;
CVT.U8.S32 r.w, s.x;
I2F.S o.xy, r;
I2F.U o.zw, r;
ADD o.xy, o, 16.0;
MUL result.color, o, {0.03125, 0.03125, 0.00390625, 0.00390625};""",
   """ivec2 i = ivec2(floor(gl_FragCoord.xy));
float f = (float(i.x) - 32.0) * 0.5;
int rx = int(roundEven(f));
int ry = int(trunc(f));
int s = i.x * 8 - 100;
uint rz = uint(clamp(s, 0, 255));
uint rw = uint(s) & 255u;
color = vec4(float(rx + 16) * 0.03125, float(ry + 16) * 0.03125, float(rz) * 0.00390625, float(rw) * 0.00390625);""",
   "\n".join(probe(x, y, ((round_even((x - 32) / 2) + 16) / 32, (int((x - 32) / 2) + 16) / 32, min(max(8*x - 100, 0), 255) / 256, ((8*x - 100) & 255) / 256))
             for (x, y) in [(1, 5), (3, 40), (13, 31), (31, 12), (33, 58), (45, 20), (61, 7)]),
   tol=1, why="integer results, exact")

scene(P, "ff_vertex_nv_fragment", "No vertex program: the fixed-function vertex stage (PROJECTION x MODELVIEW with a pixel ortho projection, current colour, texcoord 0 passed through) feeds an !!NVfp5.0 fragment program.",
      "OpenGL 2.11-2.14 fixed-function vertex processing; NV_fragment_program4 fragment.color / fragment.texcoord bindings", 2, 0, "interpolated texture coordinates; 8-bit rounding",
      [("fragment program", """!!NVfp5.0
MUL result.color, fragment.color, fragment.texcoord[0].xyxy;
MOV result.color.w, 1.0;
END""")],
      [("vertex shader", """#version 450 compatibility
out vec4 c;
out vec4 t;
void main() { gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex; c = gl_Color; t = gl_MultiTexCoord0; }"""),
       ("fragment shader", "#version 450\nin vec4 c;\nin vec4 t;\nout vec4 color;\nvoid main() { color = vec4((c * t.xyxy).xyz, 1.0); }")],
      "clear color 0.0 0.0 0.0 1.0\nclear\northo\ncolor 1.0 0.5 0.25 1.0\ndraw rect 8 8 48 48\n" +
      "\n".join(probe(x, y, (lambda s, t: (s, 0.5 * t, 0.25 * s, 1))((x + .5 - 8) / 48, (y + .5 - 8) / 48)) for (x, y) in [(10, 10), (30, 40), (50, 20), (55, 55)]) + "\n" + probe(4, 4, (0, 0, 0, 1)))

fs(P, "flow_rep_counts", "REP loop counts: a float count is floored (2.7 -> 2 iterations), a count of 0 or a negative count skips the block, and a count from an integer register (.S) is used as is.",
   S4 + " REP (loop count = floor of the float operand; blocks with a count <= 0 are skipped)",
   """TEMP r, k;
INT TEMP n;
MOV r, {0.0, 0.0, 0.0, 1.0};
MOV k, {2.7, 0.0, -1.5, 0.0};
REP k.x;
  ADD r.x, r.x, 0.25;
ENDREP;
REP k.y;
  ADD r.y, r.y, 0.5;
ENDREP;
REP k.z;
  ADD r.y, r.y, 0.25;
ENDREP;
MOV.S n.x, 3;
REP.S n.x;
  ADD r.z, r.z, 0.25;
ENDREP;
MOV result.color, r;""",
   "color = vec4(0.5, 0.0, 0.75, 1.0);",
   probe(32, 32, (0.5, 0, 0.75, 1)), tol=1, why="exact")

fs(P, "flow_call_in_loop", "Flow-control nesting: a REP loop calls a subroutine that returns early from inside an IF (RET with a condition), and the loop breaks from inside an IF/ENDIF after the call.",
   S4 + " CAL/RET inside REP, conditional RET inside IF, BRK inside IF",
   """TEMP a, acc, i, t;
MUL a.x, fragment.texcoord[0].x, 8.0;
FLR a.x, a.x;
MOV acc, {0.0, 0.0, 0.0, 1.0};
MOV i.x, 0.0;
REP 8;
  CAL step;
  ADD i.x, i.x, 1.0;
  SGEC t.x, i.x, a.x;
  IF NE.x;
    BRK;
  ENDIF;
ENDREP;
MOV result.color, acc;
RET;
step:
  ADD acc.x, acc.x, 0.125;
  SGEC t.y, i.x, 3.0;
  IF NE.y;
    ADD acc.y, acc.y, 0.125;
    RET;
  ENDIF;
  ADD acc.z, acc.z, 0.25;
  RET;""",
   """float n = floor(tc.x * 8.0);
vec4 acc = vec4(0.0, 0.0, 0.0, 1.0);
float i = 0.0;
for (int k = 0; k < 8; k++) {
  acc.x += 0.125;
  if (i >= 3.0) acc.y += 0.125; else acc.z += 0.25;
  i += 1.0;
  if (i >= n) break;
}
color = acc;""",
   "\n".join(probe(x, 30, (lambda n: (max(1, n) * .125, max(0, max(1, n) - 3) * .125, min(max(1, n), 3) * .25, 1))(math.floor(8 * (x + .5) / 64))) for x in [2, 12, 20, 28, 36, 44, 52, 60]),
   tol=1, why="exact multiples of 1/8")

fs(P, "swz_extended", "SWZ (extended swizzle) with negation and the constant selectors 0 and 1 per component.",
   S4 + " SWZ",
   """TEMP a;
MOV a, fragment.texcoord[0];
SWZ result.color, a, -x, 1, 0, y;
ADD result.color.x, -a.x, 1.0;""",
   "color = vec4(1.0 - tc.x, 1.0, 0.0, tc.y);",
   probes_fn(lambda s, t: (1 - s, 1, 0, t), GRID))

fs(P, "cc_integer_flags", "Condition codes from integer results: SLT.S writes -1 (SF set, ZF clear) or 0 (ZF set), so NE and LT select where x < y; an unsigned SUB.U.CC that wraps sets SF from the top bit.",
   S4 + " 2.X.4.3 (integer SF = most significant bit, ZF = zero), Table X.16 NE, LT, EQ, SF",
   """TEMP i, t, r;
FLR.S i, fragment.position;
MOV r, {0.0, 0.0, 0.0, 1.0};
SLT.S.CC t.x, i.x, i.y;
MOV r.x (NE.x), 1.0;
MOV r.y (LT.x), 0.5;
MOV r.y (EQ.x), 0.25;
SUB.U.CC1 t.z, i.x, 32;
MOV r.z (SF1.z), 0.75;
MOV result.color, r;""",
   """ivec2 i = ivec2(floor(gl_FragCoord.xy));
vec4 r = vec4(0.0, 0.0, 0.0, 1.0);
if (i.x < i.y) { r.x = 1.0; r.y = 0.5; } else { r.y = 0.25; }
if (i.x < 32) r.z = 0.75;
color = r;""",
   ip(lambda x, y: ((1 if x < y else 0), (.5 if x < y else .25), (.75 if x < 32 else 0), 1), [(3, 5), (17, 40), (31, 31), (45, 12), (60, 58), (40, 50)]),
   tol=1, why="exact")

fs(P, "flow_recursive_cal", "Recursive subroutine calls: rec adds 1/8 to x on the way down, calls itself while the counter (1 to 3 by column) stays positive, and adds 1/8 to y on the way back up, so x = y = depth / 8 (call depth at most 3).",
   S4 + " CAL/RET (call stack, conditional CAL; recursion within MAX_PROGRAM_CALL_DEPTH_NV)",
   """TEMP n, acc;
MUL n.x, fragment.texcoord[0].x, 3.0;
FLR n.x, n.x;
ADD n.x, n.x, 1.0;
MOV acc, {0.0, 0.0, 0.25, 1.0};
CAL rec;
MOV result.color, acc;
RET;
rec:
  ADD acc.x, acc.x, 0.125;
  SUBC n.x, n.x, 1.0;
  CAL rec (GT.x);
  ADD acc.y, acc.y, 0.125;
  RET;""",
   """float n = floor(tc.x * 3.0) + 1.0;
color = vec4(n * 0.125, n * 0.125, 0.25, 1.0);""",
   "\n".join(probe(x, 30, ((math.floor(3 * (x + .5) / 64) + 1) * .125,) * 2 + (.25, 1)) for x in [5, 30, 60]),
   tol=1, why="exact multiples of 1/8")

scene(P, "nv4_headers_txg41", "The older dialects: !!NVvp4.0 and !!NVfp4.1 (NV_gpu_program4_1 adds TXG), with integer ops and a gather of the 4x4 ramp's red channel.",
      "NV_gpu_program4 program headers (!!NVvp4.0); NV_gpu_program4_1 (!!NVfp4.1, TXG)", 1, 0, "texel values only",
      [("vertex program", "!!NVvp4.0\nMOV result.position, vertex.position;\nMOV result.texcoord[0], vertex.texcoord[0];\nEND"),
       ("fragment program", "!!NVfp4.1\nTXG result.color, fragment.texcoord[0], texture[0], 2D;\nEND")],
      [("vertex shader", VS_GL), ("fragment shader", wrap_fs("color = textureGather(tex0, tc.xy, 0);", "layout(binding = 0) uniform sampler2D tex0;"))],
      "clear color 0.0 0.0 0.0 1.0\nclear\ntexture ramp 0 (4, 4)\ntexparameter 2D wrap_s clamp_to_edge\ntexparameter 2D wrap_t clamp_to_edge\ndraw rect -1 -1 2 2\n" +
      "\n".join(probe(x, y, (lambda i0: ((i0) / 3, (i0 + 1) / 3, (i0 + 1) / 3, i0 / 3))(min(max(math.floor((x + .5) / 16 - .5), 0), 2)) if 8 <= x < 56 else None) for (x, y) in [(20, 20), (40, 40)]),
      nv_req=("GL_NV_gpu_program4", "GL_NV_gpu_program4_1"))

scene(P, "decl_output_alias_arrays", "Declarations: OUTPUT arrays bound to result.texcoord[1..2], an ALIAS of a TEMP, and an ATTRIB array over fragment.texcoord[1..2] read with a run-time index (left half: element 0, right half: element 1).",
      S4.replace(" 2.X.8.Z", "") + " 2.X.3.2-2.X.3.5 (ATTRIB/OUTPUT arrays with binding ranges, ALIAS), 2.X.4.2 relative addressing of attribute arrays", 2, 0, "interpolated values; 8-bit rounding",
      [("vertex program", """!!NVvp5.0
OUTPUT tcs[2] = { result.texcoord[1..2] };
TEMP t;
ALIAS u = t;
MOV result.position, vertex.position;
MUL t, vertex.texcoord[0], {0.5, 0.25, 0.0, 0.0};
MOV u.zw, {0.0, 0.0, 0.75, 1.0};
MOV tcs[0], t;
MOV tcs[1], t.yxwz;
END"""), ("fragment program", """!!NVfp5.0
ATTRIB tc[] = { fragment.texcoord[1..2] };
INT TEMP i;
TEMP f;
MUL f.x, fragment.position.x, 0.03125;
FLR.S i.x, f.x;
MOV result.color, tc[i.x];
END""")],
      [("vertex shader", """#version 450
layout(location = 0) in vec4 piglit_vertex;
layout(location = 1) in vec4 piglit_texcoord;
out vec4 t1;
out vec4 t2;
void main() { gl_Position = piglit_vertex; vec4 t = vec4(piglit_texcoord.xy * vec2(0.5, 0.25), 0.75, 1.0); t1 = t; t2 = t.yxwz; }"""),
       ("fragment shader", "#version 450\nin vec4 t1;\nin vec4 t2;\nout vec4 color;\nvoid main() { color = gl_FragCoord.x < 32.0 ? t1 : t2; }")],
      "clear color 0.0 0.0 0.0 1.0\nclear\ndraw rect -1 -1 2 2\n" +
      "\n".join(probe(x, y, (lambda s, t: (0.5 * s, 0.25 * t, 0.75, 1) if x < 32 else (0.25 * t, 0.5 * s, 1, 0.75))((x + .5) / 64, (y + .5) / 64)) for (x, y) in GRID))
