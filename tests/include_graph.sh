#!/usr/bin/env bash
# tests/include_graph.sh - the project's own includes (#include "...") of
# edan.h, tools/ and probes/: no cycle, no header that includes a .c, and
# probes/ takes from tools/ only its leaf utilities (tools/common/: files.h,
# jsonw.h, opt.h, suggest.h), which include nothing of tools/ but each other. Prints each
# violation; exit 1 when there is one.
cd "$(dirname "$0")/.."
python3 - <<'PY'
import os, re, sys
files = ['edan.h'] + sorted(os.path.join(d, f) for d, _, fs in os.walk('tools') for f in fs if f.endswith(('.c', '.h'))) \
      + sorted('probes/' + f for f in os.listdir('probes') if f.endswith(('.c', '.h')))
leaf = {'tools/common/' + f for f in os.listdir('tools/common') if f.endswith('.h')}
edges, bad = {}, []
for f in files:
    out = []
    for line in open(f, encoding='utf-8', errors='replace'):
        m = re.match(r'#\s*include\s+"([^"]+)"', line)
        if not m:
            continue
        inc = os.path.normpath(os.path.join(os.path.dirname(f), m.group(1)))
        if not os.path.exists(inc):
            inc = os.path.normpath(m.group(1))      # -I. : from the top
        out.append(inc)
        if inc.endswith('.c'):
            bad.append('%s includes %s, a .c file' % (f, inc))
        if f.startswith('probes/') and inc.startswith('tools/') and inc not in leaf:
            bad.append('%s includes %s: probes/ takes only %s from tools/' % (f, inc, ', '.join(sorted(leaf))))
        if f in leaf and inc.startswith('tools/') and inc not in leaf:
            bad.append('%s is a leaf utility but includes %s' % (f, inc))
    edges[f] = out
state = {}
def visit(f, path):
    state[f] = 1
    for g in edges.get(f, []):
        if state.get(g) == 1:
            bad.append('include cycle: ' + ' -> '.join(path[path.index(g):] + [g]))
        elif not state.get(g):
            visit(g, path + [g])
    state[f] = 2
for f in files:
    if not state.get(f):
        visit(f, [f])
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
