# examples/examples.mk - included by the Makefile.
#  - build/edan-plugin.so: the QEMU plugin behind `edan trace` (part of `all`);
#  - the example kernels, cross-compiled for RISC-V into build/examples/,
#    and built for this machine the way programs are built by default (the
#    host's gcc and gfortran, -O2, no -march, dynamic) into
#    build/examples-host/ with the Fortran kernel daxpy (part of `make`;
#    `make examples` builds them alone);
#  - `make rv SRC=prog.c [OUT=file] [RV_LIBS=...]`: cross-compiles your own
#    program the same way (`-O3 -g -static`, edan_trace.h on the include path).

RV_CC     ?= riscv64-linux-gnu-gcc
RV_CFLAGS ?= -O3 -g
RV_WARN   := -std=c99 -Wall -Wextra -pedantic
RV_LIBS   ?= -lm

# several threads: pthreads, and OpenMP (libgomp; RISC-V's from the cross compiler)
THREAD_EXAMPLES := threads omp_triad omp_gemm omp_reduce omp_pipeline
EX_THREAD_FLAGS := -fopenmp -pthread
EXAMPLE_NAMES := sum markers 2mm 3mm atax bicg cholesky doitgen gemm gemver gesummv mvt \
                 symm syr2k syrk trisolv trmm lu triad chase spmv walk $(THREAD_EXAMPLES)
EXAMPLE_BINS  := $(patsubst %,$(B)/examples/%,$(EXAMPLE_NAMES)) $(B)/examples/sum-dyn
# -O2 without -march: legacy SSE for every double, as distributions and
# most build systems compile (HOST_CFLAGS='-O3 -g -march=x86-64-v3' for AVX2
# and FMA, the most QEMU 7.2 runs)
HOST_CFLAGS   ?= -O2 -g
HOST_EXAMPLE_BINS := $(patsubst %,$(B)/examples-host/%,$(EXAMPLE_NAMES)) $(B)/examples-host/daxpy

QEMU_HEADER  := $(B)/qemu/qemu-plugin.h
PLUGIN       := $(B)/edan-plugin.so
# QEMU's kill() of itself, at a program's fatal signal, told to the plugin first
PRELOAD      := $(B)/edan-preload.so
# The plugin prints the report of `edan analyze`, so it links its report code.
PLUGIN_SRCS  := $(wildcard tools/trace/plugin*.c) tools/trace/flow.c tools/cmd/options.c tools/cmd/cores.c tools/report/report.c tools/report/report_json.c tools/report/report_files.c tools/report/verdict.c tools/report/hotspots.c tools/cmd/util.c tools/front/syms.c tools/common/files.c tools/front/x86.c \
               tools/front/bintrace_feed.c tools/front/bintrace_write.c

.PHONY: examples rv plugin
all: $(PLUGIN) $(PRELOAD) $(EXAMPLE_BINS) $(HOST_EXAMPLE_BINS)
plugin: $(PLUGIN) $(PRELOAD)
examples: $(EXAMPLE_BINS) $(HOST_EXAMPLE_BINS)
EXTRA_TESTS += $(PLUGIN) $(PRELOAD) $(EXAMPLE_BINS) $(HOST_EXAMPLE_BINS)

$(PRELOAD): tools/trace/preload.c | $(B)/deps.ok
	$(CC) $(WARN) $(CFLAGS) -fPIC -shared -o $@.tmp $<
	mv $@.tmp $@

$(QEMU_HEADER): tools/fetch-qemu-header.sh | $(B)/deps.ok
	bash tools/fetch-qemu-header.sh $@

# (the preload beside it, without which a crash or a stop request ends
# without a report, made whenever the plugin is)
$(PLUGIN): $(PLUGIN_SRCS) tools/cmd/cli.h tools/report/report.h tools/common/jsonw.h tools/common/files.h tools/common/suggest.h tools/front/bintrace.h tools/trace/edan_trace.h tools/front/x86.h tools/trace/flow.h tools/trace/plugin.h edan.h $(QEMU_HEADER) $(B)/engine.sum | $(B)/deps.ok $(PRELOAD)
	$(CC) $(WARN) $(CFLAGS) -DEDAN_ENGINE_SUM=$(ENGINE_SUM)u -fPIC -shared -I. -isystem $(B)/qemu -o $@.tmp $(PLUGIN_SRCS) -lZydis -ldw -lelf -liberty -lz -lm
	mv $@.tmp $@

$(B)/examples/%: examples/%.c examples/common.h tools/trace/edan_trace.h | $(B)/deps.ok
	@mkdir -p $(dir $@)
	$(RV_CC) $(RV_WARN) $(RV_CFLAGS) -static $(if $(filter $(THREAD_EXAMPLES),$*),$(EX_THREAD_FLAGS)) \
	    -Iexamples -Itools/trace -o $@ $< $(RV_LIBS)

# omp_gemm and omp_triad: gemm.c and triad.c with their EX_OMP_FOR loops
OMP_OF_SERIAL := gemm triad
$(patsubst %,$(B)/examples/omp_%,$(OMP_OF_SERIAL)): $(B)/examples/omp_%: examples/%.c examples/common.h | $(B)/deps.ok
	@mkdir -p $(dir $@)
	$(RV_CC) $(RV_WARN) $(RV_CFLAGS) -static $(EX_THREAD_FLAGS) -Iexamples -Itools/trace -o $@ $< $(RV_LIBS)
$(patsubst %,$(B)/examples-host/omp_%,$(OMP_OF_SERIAL)): $(B)/examples-host/omp_%: examples/%.c examples/common.h | $(B)/deps.ok
	@mkdir -p $(dir $@)
	$(CC) $(RV_WARN) $(HOST_CFLAGS) $(EX_THREAD_FLAGS) -Iexamples -Itools/trace -o $@ $< -lm

$(B)/examples-host/%: examples/%.c examples/common.h tools/trace/edan_trace.h | $(B)/deps.ok
	@mkdir -p $(dir $@)
	$(CC) $(RV_WARN) $(HOST_CFLAGS) $(if $(filter $(THREAD_EXAMPLES),$*),$(EX_THREAD_FLAGS)) \
	    -Iexamples -Itools/trace -o $@ $< -lm

# MPI (and MPI + OpenMP) kernels for this machine, with Debian's mpicc
# (openmpi-bin, libopenmpi-dev: tools/deps.sh installs them): run them under
# mpirun with `edan trace -o rank%r.json ...` and `edan job`
MPICC ?= mpicc
MPI_EXAMPLES := mpi_stencil mpi_cg
all examples: $(patsubst %,$(B)/examples-host/%,$(MPI_EXAMPLES))
EXTRA_TESTS += $(patsubst %,$(B)/examples-host/%,$(MPI_EXAMPLES))
$(patsubst %,$(B)/examples-host/%,$(MPI_EXAMPLES)): $(B)/examples-host/%: examples/%.c examples/common.h | $(B)/deps.ok
	@mkdir -p $(dir $@)
	$(MPICC) $(RV_WARN) $(HOST_CFLAGS) -fopenmp -Iexamples -o $@ $< -lm

# A kernel in a shared library: dgemm_ of the system BLAS (libblas-dev;
# libblas3 or libopenblas0 at run time), for --func dgemm_
all examples: $(B)/examples-host/blas_dgemm
EXTRA_TESTS += $(B)/examples-host/blas_dgemm
$(B)/examples-host/blas_dgemm: examples/blas_dgemm.c examples/common.h | $(B)/deps.ok
	@mkdir -p $(dir $@)
	$(CC) $(RV_WARN) $(HOST_CFLAGS) -Iexamples -o $@ $< -lblas -lm

# -fno-inline: the kernel stays a procedure of its own for --func (gfortran 12
# has no noinline attribute; -O3 would inline it into the program)
$(B)/examples-host/daxpy: examples/daxpy.f90 | $(B)/deps.ok
	@mkdir -p $(dir $@)
	gfortran -Wall $(HOST_CFLAGS) -fno-inline -o $@ $<

# The summation kernel dynamically linked: symbols need the load offset and
# qemu-riscv64 needs the sysroot.
$(B)/examples/sum-dyn: examples/sum.c examples/common.h | $(B)/deps.ok
	@mkdir -p $(dir $@)
	$(RV_CC) $(RV_WARN) $(RV_CFLAGS) -Iexamples -o $@ $< $(RV_LIBS)

rv: | $(B)/deps.ok
	@test -n "$(SRC)" || { echo "usage: make rv SRC=prog.c [OUT=file] [RV_LIBS=...]" >&2; exit 2; }
	@mkdir -p $(dir $(or $(OUT),$(B)/rv/$(basename $(notdir $(SRC)))))
	$(RV_CC) $(RV_CFLAGS) -static -Itools/trace -o $(or $(OUT),$(B)/rv/$(basename $(notdir $(SRC)))) $(SRC) $(RV_LIBS)
