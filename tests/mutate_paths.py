#!/usr/bin/env python3
# tests/mutate_paths.py - changes one rule in one feeding path of edan.h at a
# time (each mutation below) and runs tests/unit/test_paths.c against the
# changed header: every mutation must be CAUGHT. A mutation whose text is no
# longer in edan.h is listed as SKIP (the code moved: update it). Exit 1 when
# one is missed or skipped.
import os, subprocess, sys, tempfile
os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
work = tempfile.mkdtemp()
bad = 0
muts=[
 ("block plain depth", "            d = edan__depth(d, 1);\n            if (Fm > Tinf) Tinf = Fm;", "            d = edan__depth(d, 0);\n            if (Fm > Tinf) Tinf = Fm;"),
 ("multi depth", "        md = edan__depth(md, is_mem);", "        md = edan__depth(md, 0);"),
 ("lean fast word writer", "        edan__join_word(e, 1, 0, &S, &md);\n", "\n"),
 ("block K word writer", "                else edan__join_word(e, K, k, &S[k], &d[k]);", "                else if (k) edan__join_word(e, K, k, &S[k], &d[k]);"),
 ("general feed preds", "            edan__preds_join(&ps, k, &S, &md, &best);\n        }\n        if (fw) {", "        }\n        if (fw) {"),
 ("block cross reg", "        ctx->th.cross += x;", "        ctx->th.cross += 0;"),
 ("block cross shared writer", "        if (x && ctx->multi_dst && b->live_sets_len) x -= edan__block_shared_writers(ctx, b, 1);",
  "        if (0) x -= edan__block_shared_writers(ctx, b, 1);"),
 ("block third term join", "                edan__join(&S, &d, F[t[2].slot] + t[2].c, md[t[2].slot]);\n                for (te", "                for (te"),
 ("block term join", "                for (te = t + st->nt, t += 3; t < te; t++) edan__join(&S, &d, F[t->slot] + t->c, md[t->slot]);", "                for (te = t + st->nt, t += 3; t < te; t++) {}"),
 ("multi fill dep", "                    if ((r = edan__fill_dep(ctx, g, &ctx->multi_fill[q], vid, pv, np, &S, &md, &best)) != EDAN_OK)\n                        return r;", "                    {}"),
 ("multi fill at its end", "                    if ((r = edan__fill_dep(ctx, g, &ctx->multi_fill[q], vid, pv, np, &Fend, &mdend, &fbest)) != EDAN_OK)", "                    if ((r = edan__fill_dep(ctx, g, &ctx->multi_fill[q], vid, pv, np, &S, &md, &fbest)) != EDAN_OK)"),
 ("feed fill at its end", "            md0 = *md;\n            *md = edan__depth(*md, 1);\n            if (Fend > *F) {", "            md0 = *md;\n            *md = edan__depth(*md, 1);\n            if (Fend > *F + 1000) {"),
 ("block forwarded start", "    edan__join(&S, &d, EDAN__FW_S(fw)[0], EDAN__FW_MD(fw, 1)[0]);", "    edan__join(&S, &d, EDAN__FW_S(fw)[0] + 200, EDAN__FW_MD(fw, 1)[0]);"),
 ("block forwarded store's start", "            edan__fw_put1(ctx, N0 + st->idx + 1, addrs[st->idx], st->size, (int)st->stack, S, d);", "            edan__fw_put1(ctx, N0 + st->idx + 1, addrs[st->idx], st->size, (int)st->stack, S + 1, d);"),
 ("block K forwarded depth", "                if (fw) edan__join(&S[k], &d[k], EDAN__FW_S(fw)[k], EDAN__FW_MD(fw, K)[k]);", "                if (fw) edan__join(&S[k], &d[k], EDAN__FW_S(fw)[k], EDAN__FW_MD(fw, K)[k] + 1);"),
 ("feed forwarded store start", "        EDAN__FW_S(e)[k] = Sv[k];", "        EDAN__FW_S(e)[k] = Sv[k] + 1;"),
 ("block outs md", "edan__set_reg_writer(ctx->reg_vid, F, md, o->reg, N0 + o->writer + 1, &Fo, &md[o->slot], 1);", "edan__set_reg_writer(ctx->reg_vid, F, md, o->reg, N0 + o->writer + 1, &Fo, &md[0], 1);"),
]
src = open('edan.h').read()
for name, a, b in muts:
    if src.count(a) != 1:
        print("SKIP", name + ": its text is not in edan.h once")
        bad = 1
        continue
    with open(os.path.join(work, 'edan.h'), 'w') as f:
        f.write(src.replace(a, b))
    exe = os.path.join(work, 't')
    r = subprocess.run(['cc', '-std=c99', '-O1', '-I' + work, '-Itests/unit', '-o', exe, 'tests/unit/test_paths.c', '-lm'],
                       capture_output=True, text=True)
    if r.returncode:
        print("SKIP", name + ": does not compile:", r.stderr[:200])
        bad = 1
        continue
    r = subprocess.run([exe], capture_output=True, text=True)
    last = (r.stdout.strip().splitlines() or [''])[-1]
    print("CAUGHT" if r.returncode else "MISSED", name, "|", last)
    bad |= r.returncode == 0
sys.exit(1 if bad else 0)
