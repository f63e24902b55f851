# tests/tests.mk - extra build rules for `make test` (included by the Makefile).

# libFuzzer harness of the RISC-V front-end under ASan and UBSan; run by
# tests/test_fuzz_rv.sh.
$(B)/fuzz_rv: tests/fuzz_rv.c edan.h | $(B)/deps.ok
	clang -std=c99 -g -O1 -Wall -Wextra -pedantic -fsanitize=fuzzer,address,undefined \
	      -fno-sanitize-recover=undefined -I. -o $@.tmp $< -lz -lm && mv $@.tmp $@
EXTRA_TESTS += $(B)/fuzz_rv

# libFuzzer harness of the binary trace reader and the engine's three ways of
# feeding; run by tests/test_fuzz_bintrace.sh.
$(B)/fuzz_bintrace: tests/fuzz_bintrace.c tools/bintrace.h edan.h | $(B)/deps.ok
	clang -std=c99 -g -O1 -Wall -Wextra -pedantic -fsanitize=fuzzer,address,undefined \
	      -fno-sanitize-recover=undefined -I. -o $@.tmp $< -lz -lm && mv $@.tmp $@
EXTRA_TESTS += $(B)/fuzz_bintrace

# probe --numa on emulated NUMA machines (qemu TCG, Debian's cloud kernel,
# cached under build/numa/); tests/test_numa.sh, also run by `make test`.
.PHONY: test-numa
test-numa: $(B)/deps.ok
	bash tests/test_numa.sh
