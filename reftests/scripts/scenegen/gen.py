#!/usr/bin/env python3
"""Authoring aid that wrote the reftest scenes: for each scene described in the folder
modules (programs.py, textures.py, ...) it writes NAME.shader_test (the glemu side),
NAME.glsl.shader_test (the oracle twin) and renders NAME.png with the oracle, then runs the
twin's probes on llvmpipe.  Probe values are computed here from the formulas the spec
gives.  The committed scene files are the source of truth; use
`python3 reftests/scripts/scenegen/all.py WORD...` to rewrite the scenes whose
folder/name contains a word after changing their description here."""
import os, sys, subprocess, math, struct
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "scenes"))
SHARED = os.path.normpath(os.path.join(HERE, "..", "..", "..", "..", "shared"))
ORACLE = os.environ.get("ORACLE_BIN") or subprocess.run(
    ["sh", os.path.join(SHARED, "oracle", "where.sh")], capture_output=True, text=True).stdout.strip()
SCENES = []

def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]

def clamp01(v):
    return max(0.0, min(1.0, v))

def fmt(v):
    s = "%.4f" % v
    return s

def probe(x, y, rgba):
    return "probe rgba %d %d %s" % (x, y, " ".join(fmt(clamp01(c)) for c in rgba))

def probes_fn(fn, pts, w=64, h=64):
    out = []
    for (x, y) in pts:
        s = (x + 0.5) / w
        t = (y + 0.5) / h
        out.append(probe(x, y, fn(s, t)))
    return "\n".join(out)

VP_NV = """!!NVvp5.0
MOV result.position, vertex.position;
MOV result.texcoord[0], vertex.texcoord[0];
END"""

VS_GL = """#version 450
layout(location = 0) in vec4 piglit_vertex;
layout(location = 1) in vec4 piglit_texcoord;
out vec4 tc;
void main() { gl_Position = piglit_vertex; tc = piglit_texcoord; }"""

def wrap_fs(body, decls=""):
    return "#version 450\nin vec4 tc;\nout vec4 color;\n%s\nvoid main() {\n%s\n}" % (decls, body.strip("\n"))

def comment(text):
    return "\n".join(("# " + l).rstrip() for l in text.strip().split("\n"))

def scene(folder, name, what, spec, tol, pixels, why, nv, gl, test,
          nv_req=("GL_NV_gpu_program5",), gl_req=("GL >= 4.5", "GLSL >= 4.50"),
          size=(64, 64), samples=None, vdata=None, elements=None, self_twin=False):
    SCENES.append(dict(folder=folder, name=name, what=what, spec=spec, tol=tol,
                       pixels=pixels, why=why, nv=nv, gl=gl, test=test, nv_req=nv_req,
                       gl_req=gl_req, size=size, samples=samples, vdata=vdata,
                       elements=elements, self_twin=self_twin))

def render_sections(secs):
    out = []
    for k, v in secs:
        out.append("[%s]\n%s\n" % (k, v.strip("\n")))
    return "\n".join(out)

def build(sc, twin):
    name = sc["name"]
    lines = []
    if twin:
        kind = "ARB assembly" if any(k in ("vertex program", "fragment program") for k, _ in sc["gl"]) else "GLSL"
        lines.append(comment("Oracle twin (%s) of %s.shader_test, rendered by the oracle (Mesa\nllvmpipe) to %s.png.  Same size, samples and [test] commands; only the\nprogram lines differ." % (kind, name, name)))
    else:
        hdr = "%s: %s\nSpec: %s\nTolerance: probe png tolerance %d pixels %d -- %s" % (
            name, sc["what"].strip(), sc["spec"].strip(), sc["tol"], sc["pixels"], sc["why"].strip())
        if sc["self_twin"]:
            hdr += "\nThis scene is its own twin: Mesa runs it as it is (plain ARB programs or fixed\nfunction), so there is no %s.glsl.shader_test." % name
        lines.append(comment(hdr))
    req = list(sc["gl_req"] if twin else sc["nv_req"])
    req.append("SIZE %d %d" % sc["size"])
    if sc["samples"]:
        req.append("samples %d" % sc["samples"])
    secs = [("require", "\n".join(req))]
    progs = sc["gl"] if twin else sc["nv"]
    for k, v in progs:
        secs.append((k, v))
    if sc["vdata"]:
        secs.append(("vertex data", sc["vdata"]))
    if sc["elements"]:
        secs.append(("elements", sc["elements"]))
    tl = []
    for l in sc["test"].strip("\n").split("\n"):
        l = l.strip()
        if l.startswith("NV:"):
            if twin: continue
            l = l[3:].strip()
        elif l.startswith("GL:"):
            if not twin: continue
            l = l[3:].strip()
        tl.append(l)
    tl.append("probe png %s.png tolerance %d pixels %d" % (name, sc["tol"], sc["pixels"]))
    secs.append(("test", "\n".join(tl)))
    return "\n".join(lines) + "\n" + render_sections(secs)

def main(filters):
    bad = 0
    for sc in SCENES:
        full = "%s/%s" % (sc["folder"], sc["name"])
        if filters and not any(f in full for f in filters):
            continue
        d = os.path.join(ROOT, sc["folder"])
        os.makedirs(d, exist_ok=True)
        nvp = os.path.join(d, sc["name"] + ".shader_test")
        glp = os.path.join(d, sc["name"] + ".glsl.shader_test")
        with open(nvp, "w") as f:
            f.write(build(sc, False))
        if sc["self_twin"]:
            glp = nvp
        else:
            with open(glp, "w") as f:
                f.write(build(sc, True))
        png = os.path.join(d, sc["name"] + ".png")
        r1 = subprocess.run([ORACLE, "-q", "--ref", glp, png], capture_output=True, text=True, cwd=d)
        r2 = subprocess.run([ORACLE, "--no-png", glp], capture_output=True, text=True, cwd=d)
        res = (r2.stdout.strip().split("\n") or [""])[-1]
        ok = r1.returncode == 0 and r2.returncode == 0
        if not ok:
            bad += 1
            print("%-40s BAD\n%s%s%s%s" % (full, r1.stdout, r1.stderr, r2.stdout, r2.stderr))
        else:
            print("%-40s %s" % (full, res))
    print("done, %d bad" % bad)

def fs(folder, name, what, spec, nvfp, glfs, probes, tol=2, pixels=0, why="8-bit rounding of smooth values only",
       decls="", test_pre="", nv_req=("GL_NV_gpu_program5",), nvvp=VP_NV, draw="draw rect -1 -1 2 2", size=(64, 64), **kw):
    nvfp = nvfp.strip("\n")
    if not nvfp.startswith("!!"):
        nvfp = "!!NVfp5.0\n" + nvfp + "\nEND"
    test = "clear color 0.0 0.0 0.0 1.0\nclear\n" + test_pre.strip("\n") + "\n" + draw + "\n" + probes
    scene(folder, name, what, spec, tol, pixels, why,
          [("vertex program", nvvp), ("fragment program", nvfp)],
          [("vertex shader", VS_GL), ("fragment shader", wrap_fs(glfs, decls))],
          test, nv_req=nv_req, size=size, **kw)
