# EDAN: `make` builds ./edan and ./probe; `make test` runs every test
# (`make test T=core` one: tests/unit/test_core.c or .sh); `make check` the unit
# tests with only a C compiler; `make bench` the benchmarks;
# `make install PREFIX=...`.
CC      ?= cc
CFLAGS  ?= -O2 -g
WARN    := -std=c99 -Wall -Wextra -pedantic
PREFIX  ?= /usr/local
B       := build

# tools/ by stage (README.md, "How the code is laid out"): trace/ runs the
# program (launcher, QEMU plugin), front/ decodes instructions and trace files,
# report/ makes reports and charts, cmd/ the subcommands, common/ what probe
# shares too.
TOOLS_H    := $(wildcard tools/*/*.h)
EDAN_SRCS  := $(filter-out tools/trace/plugin%.c tools/trace/preload.c,$(wildcard tools/*/*.c))
PROBE_SRCS := $(wildcard probes/*.c) tools/common/files.c
TEST_SRCS  := $(wildcard tests/unit/test_*.c)
# the binary trace's writer, reader and feeding (tools/front/bintrace.h),
# linked into the tests and fuzzers that use them (LINK_SRCS)
BINTRACE_SRCS := $(wildcard tools/front/bintrace_*.c)
TESTS      := $(patsubst tests/unit/%.c,$(B)/%,$(TEST_SRCS))

# hwloc's flags are asked for when probe links: the packages may be installed
# by deps.ok in this very make run.
PROBE_LIBS := $$(pkg-config --libs hwloc 2>/dev/null || echo -lhwloc) -lnuma -lmemkind -lpapi -lpthread -lm

.PHONY: all deps test check bench install clean run FORCE
all: $(B)/deps.ok edan probe

# A sum of the sources edan and its QEMU plugin are built from: both take it
# (EDAN_ENGINE_SUM, tools/cmd/cli.h), and the plugin refuses to run for an
# edan built from others. $(B)/engine.sum changes only when the sum does, so
# that both are built again then, and only then.
ENGINE_SUM := $(shell cat edan.h $(sort $(wildcard tools/*/*.c tools/*/*.h)) | cksum | cut -d' ' -f1)
$(B)/engine.sum: FORCE
	@mkdir -p $(B)
	@echo $(ENGINE_SUM) | cmp -s - $@ || { echo $(ENGINE_SUM) > $@.tmp && mv $@.tmp $@; }

$(B)/deps.ok: tools/deps.sh
	@mkdir -p $(B)
	bash tools/deps.sh
	@touch $@
deps: $(B)/deps.ok

edan: $(EDAN_SRCS) $(TOOLS_H) edan.h $(B)/engine.sum | $(B)/deps.ok
	$(CC) $(WARN) $(CFLAGS) -DEDAN_ENGINE_SUM=$(ENGINE_SUM)u -I. -o $@ $(EDAN_SRCS) -lZydis -ldw -lelf -liberty -lz -lm -lpthread

probe: $(PROBE_SRCS) $(wildcard probes/*.h) tools/common/files.h tools/common/jsonw.h tools/common/opt.h tools/common/suggest.h edan.h | $(B)/deps.ok
	$(CC) $(WARN) -D_GNU_SOURCE $(CFLAGS) -I. -o $@ $(PROBE_SRCS) $(PROBE_LIBS)

# (test_flow and test_files include their tools/ .c files whole; a test
# that links tools/ .c files names them in LINK_SRCS)
$(B)/test_%: tests/unit/test_%.c edan.h $(wildcard tests/unit/*.h) $(TOOLS_H) tools/trace/flow.c tools/common/files.c | $(B)/deps.ok
	$(CC) $(WARN) $(CFLAGS) -I. -Itests/unit -o $@ $< $(LINK_SRCS) -lz -lm
$(B)/test_trace_format: LINK_SRCS := $(BINTRACE_SRCS)
$(B)/test_trace_format: $(BINTRACE_SRCS)
$(B)/test_jobs_wide: tests/unit/test_jobs.c

-include tests/tests.mk
-include examples/examples.mk

# `make test T=NAME` builds what test_NAME needs and nothing else: a unit
# test its program; a script (tests/cmd, tests/fuzz) the tools, the example
# programs and the build/ programs it names, a fuzz script its fuzzer.
ifeq ($(T),)
TEST_NEEDS := all $(TESTS) $(EXTRA_TESTS)
else
T_SCRIPT   := $(wildcard tests/cmd/test_$(T).sh tests/fuzz/test_$(T).sh)
TEST_NEEDS := $(if $(wildcard tests/unit/test_$(T).c),$(B)/test_$(T)) \
              $(if $(T_SCRIPT),all $(filter-out $(B)/fuzz_% $(B)/seed_%,$(EXTRA_TESTS)) \
                $(addprefix $(B)/,$(shell grep -oh 'build/[a-z0-9_]*' $(T_SCRIPT) | sed 's|build/||' | \
                  grep -E '^(test|fuzz|seed)_' | sort -u))) \
              $(if $(wildcard tests/fuzz/test_$(T).sh),$(B)/$(T))
endif
# `make test` builds what the tests need two jobs at a time (-jN on the
# command line wins); the tests run with the MAKEFLAGS of a plain make, so
# that the makes they start themselves see no jobserver.
ifneq ($(filter test,$(MAKECMDGOALS)),)
MAKEFLAGS += -j2
endif
test: $(TEST_NEEDS)
	@MAKEFLAGS= bash tests/run.sh $(filter $(TESTS),$(TEST_NEEDS))

# The code's shape (tests/funclen.sh, tests/include_graph.sh,
# tests/private_names.sh), then the unit
# tests (the model, the RISC-V front-end, the profile loader and the hybrid
# model) with only a C compiler (and bash, python3): no root, no Debian packages. The
# binary trace's test needs zlib.h; without it, it is a counted skip. The
# x86-64 front-end's needs Zydis: `make test` runs it.
CHECK_TESTS := $(filter-out test_trace_format test_x86,$(patsubst tests/unit/%.c,%,$(TEST_SRCS)))
check:
	@bash tests/funclen.sh && bash tests/include_graph.sh && bash tests/private_names.sh && \
	  echo "code shape: no function over 150 lines, no include cycle, no private name of edan.h outside it"
	@mkdir -p $(B)/check
	@for t in $(CHECK_TESTS); do \
	  $(CC) $(WARN) $(CFLAGS) -I. -Itests/unit -o $(B)/check/$$t tests/unit/$$t.c -lm || exit 1; done
	@if printf '#include <zlib.h>\n' | $(CC) -E -x c - >/dev/null 2>&1; then \
	  $(CC) $(WARN) $(CFLAGS) -I. -Itests/unit -o $(B)/check/test_trace_format tests/unit/test_trace_format.c \
	    $(BINTRACE_SRCS) -lz -lm && \
	  bash tests/run.sh --programs-only $(addprefix $(B)/check/,$(CHECK_TESTS) test_trace_format); \
	else bash tests/run.sh --programs-only --skip "test_trace_format: zlib.h not installed (zlib1g-dev)" \
	  $(addprefix $(B)/check/,$(CHECK_TESTS)); fi

bench: all
	@bash tests/bench/bench.sh

# From machine to verdict: probe this machine, trace and analyse the example
# kernels with its profile, write a report directory (REPORT=dir).
run: all examples
	@python3 tools/run.py $(REPORT)

install: all
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
	    $(DESTDIR)$(PREFIX)/lib/edan $(DESTDIR)$(PREFIX)/share/man/man1 \
	    $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 edan.h tools/trace/edan_trace.h $(DESTDIR)$(PREFIX)/include/
	install -m 755 edan probe $(DESTDIR)$(PREFIX)/bin/
	install -m 755 $(B)/edan-plugin.so $(B)/edan-preload.so $(DESTDIR)$(PREFIX)/lib/edan/
	install -m 644 tools/edan.1 probes/probe.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 tools/edan.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/edan
	install -m 644 tools/edan.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/probe
	sed -e 's|@PREFIX@|$(PREFIX)|' tools/edan.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/edan.pc

clean:
	rm -rf $(B) edan probe
