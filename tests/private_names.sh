#!/usr/bin/env bash
# tests/private_names.sh - every use of edan.h's private names outside it: an
# edan__ name, or an EDAN__ one that edan.h has, in the C and C++ sources of
# tools/, probes/, tests/ and examples/, as "file:line: name"; exit 1 when
# one is found. What the project's programs take from edan.h is its API (the
# edan_ names), as any other program's. A white-box test may look inside:
# WHITE_BOX lists each, with what it needs there.
cd "$(dirname "$0")/.."
python3 - <<'PY'
import os, re, sys
own = set(re.findall(r'\bEDAN__\w+', open('edan.h', encoding='utf-8', errors='replace').read()))
WHITE_BOX = {
    # the hand-over buffer's bound, on its own counters, with the engine's threads held back
    'tests/unit/test_jobs.c',
    # whether the windowed schedule's times are packed or widened (the context's wpk)
    'tests/unit/test_window_wide.c',
}
bad = 0
for top in ('tools', 'probes', 'tests', 'examples'):
    for d, _, files in sorted(os.walk(top)):
        for f in sorted(files):
            if not f.endswith(('.c', '.h', '.cpp', '.cc', '.hpp')):
                continue
            path = os.path.join(d, f)
            if path in WHITE_BOX:
                continue
            for n, line in enumerate(open(path, encoding='utf-8', errors='replace'), 1):
                for name in re.findall(r'\b(?:edan|EDAN)__\w+', line):
                    if name.startswith('edan__') or name in own:
                        print('%s:%d: %s' % (path, n, name))
                        bad = 1
sys.exit(bad)
PY
