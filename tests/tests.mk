# tests/tests.mk - extra build rules for `make test` (included by the Makefile).

# the x86-64 front-end's unit test: tools/front/x86.c and Zydis
$(B)/test_x86: tests/unit/test_x86.c tools/front/x86.c tools/front/x86.h tools/front/bintrace_feed.c tools/front/bintrace.h \
               edan.h $(wildcard tests/unit/*.h) | $(B)/deps.ok
	$(CC) $(WARN) $(CFLAGS) -I. -Itests/unit -o $@ $< tools/front/x86.c tools/front/bintrace_feed.c -lZydis -lm

# libFuzzer harnesses under ASan and UBSan, each run by tests/fuzz/test_fuzz_NAME.sh:
# fuzz_rv the RISC-V front-end, fuzz_bintrace the binary trace reader and the
# engine's three ways of feeding (each links the tools/ .c files of its LINK_SRCS).
$(B)/fuzz_%: tests/fuzz/fuzz_%.c edan.h $(TOOLS_H) | $(B)/deps.ok
	clang -std=c99 -g -O1 -Wall -Wextra -pedantic -fsanitize=fuzzer,address,undefined \
	      -fno-sanitize-recover=undefined -I. -o $@.tmp $< $(LINK_SRCS) -lz -lm && mv $@.tmp $@
$(B)/fuzz_bintrace: LINK_SRCS := $(BINTRACE_SRCS)
$(B)/fuzz_bintrace: $(BINTRACE_SRCS)
EXTRA_TESTS += $(B)/fuzz_rv $(B)/fuzz_bintrace

# seeds of many CHECK stretches for fuzz_bintrace
$(B)/seed_bintrace: tests/fuzz/seed_bintrace.c edan.h tools/front/bintrace.h $(BINTRACE_SRCS) | $(B)/deps.ok
	$(CC) $(WARN) $(CFLAGS) -I. -o $@ $< $(BINTRACE_SRCS) -lz -lm
EXTRA_TESTS += $(B)/seed_bintrace

# probe --numa on emulated NUMA machines (qemu TCG, Debian's cloud kernel,
# cached under build/numa/); tests/cmd/test_numa.sh, also run by `make test`.
.PHONY: test-numa
test-numa: $(B)/deps.ok
	bash tests/cmd/test_numa.sh

# make test and make run on a fresh Debian 12 (debootstrap, chroot; root and
# the package mirror needed); tests/fresh_machine.sh. Not part of make test.
.PHONY: test-fresh
test-fresh:
	bash tests/fresh_machine.sh

# the profile loader and the result-file readers (rank, plot, roofline),
# each under ASan and UBSan; fuzz_results links the subcommands' code
$(B)/fuzz_results: tests/fuzz/fuzz_results.c $(filter-out tools/cmd/edan.c,$(EDAN_SRCS)) $(TOOLS_H) edan.h | $(B)/deps.ok
	clang -std=c99 -g -O1 -Wall -Wextra -pedantic -fsanitize=fuzzer,address,undefined \
	      -fno-sanitize-recover=undefined -I. -o $@.tmp $< $(filter-out tools/cmd/edan.c,$(EDAN_SRCS)) \
	      -lZydis -ldw -lelf -liberty -lz -lm && mv $@.tmp $@
EXTRA_TESTS += $(B)/fuzz_profile $(B)/fuzz_results

# `make fuzz`: every fuzzer for FUZZ_SECONDS (default 300) each
.PHONY: fuzz
fuzz: $(B)/fuzz_rv $(B)/fuzz_bintrace $(B)/fuzz_profile $(B)/fuzz_results all
	@for f in rv bintrace profile results; do FUZZ_SECONDS=$${FUZZ_SECONDS:-300} bash tests/fuzz/test_fuzz_$$f.sh || exit 1; done

# `make same-outputs [REV=commit]`: every subcommand's outputs on the example
# kernels and the shipped profiles, byte for byte, against REV's build
# (default HEAD); tests/same_outputs.sh. For changes that promise the same
# behaviour. Not part of make test.
.PHONY: same-outputs
same-outputs: all
	bash tests/same_outputs.sh $(or $(REV),HEAD)
