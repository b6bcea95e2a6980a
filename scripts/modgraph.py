#!/usr/bin/env python3
"""Module graph of one crate, from the paths its code names (`use crate::a::{b, c}`,
`super::x::f(..)`, `crate::y::T`); #[cfg(test)] modules are left out.

usage: python3 modgraph.py CRATE/src [DEPTH]
DEPTH 2 (default) shows modules one level below the crate root (exec::alu). Prints each
module's dependencies, then every import cycle (strongly connected group)."""
import os, re, sys
from collections import defaultdict

root = sys.argv[1].rstrip('/')
depth = int(sys.argv[2]) if len(sys.argv) > 2 else 2

def module_of(path):
    rel = os.path.relpath(path, root)[:-3].split(os.sep)
    return rel[:-1] if rel[-1] in ('mod', 'lib', 'main') else rel

def is_module(parts):
    p = os.path.join(root, *parts)
    return bool(parts) and (os.path.isdir(p) or os.path.isfile(p + '.rs'))

def expand(s):
    """a::{b, c::{d, e}} -> [a::b, a::c::d, a::c::e]"""
    s = s.replace(' ', '').replace('\n', '')
    m = re.match(r'^([\w:]*?)\{(.*)\}$', s)
    if not m:
        return [s]
    prefix, inner = m.group(1), m.group(2)
    parts, lvl, cur = [], 0, ''
    for ch in inner:
        if ch == ',' and lvl == 0:
            parts.append(cur); cur = ''
            continue
        lvl += ch == '{'; lvl -= ch == '}'
        cur += ch
    parts.append(cur)
    return [x for p in parts if p for x in expand(prefix + p)]

edges, nodes = defaultdict(set), set()
for d, _, files in os.walk(root):
    for f in sorted(files):
        if not f.endswith('.rs'):
            continue
        p = os.path.join(d, f)
        mod = module_of(p)
        # a file `foo.rs` that is the module `foo`: its `super` is its parent
        here = mod
        me = '::'.join(mod[:depth]) or 'crate'
        nodes.add(me)
        text = open(p, encoding='utf-8').read()
        text = re.split(r'#\[cfg\(test\)\]\s*(?:pub(?:\(crate\))?\s+)?mod\s+\w+\s*\{', text)[0]
        text = re.sub(r'//[^\n]*', '', text)
        paths = []
        for m in re.finditer(r'\buse\s+([^;]+);', text):
            paths += expand(m.group(1))
        paths += re.findall(r'\b(?:crate|super)(?:::\w+)+', text)
        for path in paths:
            segs = [s for s in re.split(r'::', path.split(' as ')[0]) if s]
            if not segs or segs[0] not in ('crate', 'super', 'self'):
                continue
            if segs[0] == 'crate':
                base, rest = [], segs[1:]
            else:
                base = list(here)
                rest = segs
                while rest and rest[0] in ('super', 'self'):
                    if rest[0] == 'super':
                        base = base[:-1]
                    rest = rest[1:]
            target = base + rest
            # the longest prefix that is a module, cut to depth
            while target and not is_module(target):
                target = target[:-1]
            t = '::'.join(target[:depth]) or 'crate'
            if t != me:
                edges[me].add(t); nodes.add(t)

index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]
def strong(v):
    index[v] = low[v] = counter[0]; counter[0] += 1; stack.append(v); on.add(v)
    for w in sorted(edges[v]):
        if w not in index:
            strong(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        sccs.append(sorted(comp))
sys.setrecursionlimit(10000)
for v in sorted(nodes):
    if v not in index:
        strong(v)
for v in sorted(nodes):
    print(f"{v} -> {', '.join(sorted(edges[v])) or '-'}")
cycles = [c for c in sccs if len(c) > 1]
print(f"import cycles: {len(cycles)}")
for c in cycles:
    print("  {" + ", ".join(c) + "}")
