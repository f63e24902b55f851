#!/usr/bin/env bash
# README.md as a new user reads it: every command of its ```sh and ```console
# blocks runs, top to bottom, from the repository root after `make`, and
# exits 0 (the `make ...` lines are the build and this very test, run
# elsewhere); the output printed in a ```console block is what the command
# prints (spaces and line breaks aside). The tour writes under build/tour/
# only: nothing new appears elsewhere in the repository.
. "$(dirname "$0")/../lib.sh"
rm -rf build/tour
# Open MPI refuses root unless told; the README's reader is not root.
[ "$(id -u)" = 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_tcp_if_include=lo
before=$(git status --porcelain --untracked-files=all 2>/dev/null | grep -v '^?? build/' | sort)
python3 - README.md "$T/steps" <<'EOF'
import json, re, sys
text = open(sys.argv[1]).read()
steps = []
for kind, body in re.findall(r"```(sh|console)\n(.*?)```", text, re.S):
    lines = body.split("\n")
    if kind == "sh":
        for l in lines:
            cmd = l.strip()
            if cmd and not cmd.startswith("#") and not cmd.startswith("make"):
                steps.append({"cmd": cmd, "want": None})
    else:
        cur = None
        for l in lines:
            if l.startswith("$ "):
                cur = {"cmd": l[2:], "want": []}
                steps.append(cur)
            elif cur is not None and l.strip():
                cur["want"].append(l)
json.dump(steps, open(sys.argv[2], "w"))
print(len(steps), "commands")
EOF
n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$T/steps")
for ((i = 0; i < n; i++)); do
  cmd=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[int(sys.argv[2])]["cmd"])' "$T/steps" $i)
  want=$(python3 -c 'import json,sys; w=json.load(open(sys.argv[1]))[int(sys.argv[2])]["want"]; print(" ".join(" ".join(w).split()) if w else "")' "$T/steps" $i)
  HOME="$T/home" bash -o pipefail -c "$cmd" > "$T/out" 2> "$T/err" < /dev/null; rc=$?
  if [ $rc -ne 0 ]; then bad "README: \`$cmd\` exited $rc: $(tail -n 3 "$T/err")"; continue; fi
  if [ -n "$want" ]; then
    got=$(tr -s ' \n' '  ' < "$T/out" | sed 's/ *$//')
    [ "$got" = "$want" ] && ok "README: \`$cmd\` prints what README shows" \
      || bad "README: \`$cmd\` prints «$got», README shows «$want»"
  else
    ok "README: \`$cmd\`"
  fi
done
after=$(git status --porcelain --untracked-files=all 2>/dev/null | grep -v '^?? build/' | sort)
[ "$before" = "$after" ] && ok "the tour wrote nothing outside build/" \
  || bad "the tour left files outside build/: $(comm -13 <(echo "$before") <(echo "$after") | head -5)"
exit $fail
