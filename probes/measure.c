/* probes/measure.c - clocks and statistics of every probe (numa.c's too),
   and the team of pinned threads that runs the CARM probes' multi-threaded
   measurements (numa.c runs its own jobs: their buffers are placed on a
   chosen node and checked page by page). */
#include "probe.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

double probe_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

uint64_t probe_tsc(void) { return __rdtsc(); }

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

void probe_stats_of(const double *v, int n, probe_stats *s)
{
    double tmp[1024];
    int i;
    memset(s, 0, sizeof *s);
    if (n <= 0) return;
    if (n > 1024) n = 1024;
    for (i = 0; i < n; i++) tmp[i] = v[i];
    qsort(tmp, (size_t)n, sizeof *tmp, cmp_double);
    s->min = tmp[0];
    s->max = tmp[n - 1];
    s->median = n % 2 ? tmp[n / 2] : 0.5 * (tmp[n / 2 - 1] + tmp[n / 2]);
    s->reps = n;
    s->spread = s->median > 0 ? (s->max - s->min) / s->median : 0;
    {
        double a = 0.25 * (n - 1), b = 0.75 * (n - 1);
        int ia = (int)a, ib = (int)b;
        s->q1 = tmp[ia] + (ia + 1 < n ? (a - ia) * (tmp[ia + 1] - tmp[ia]) : 0);
        s->q3 = tmp[ib] + (ib + 1 < n ? (b - ib) * (tmp[ib + 1] - tmp[ib]) : 0);
    }
    s->quartile_spread = s->median > 0 ? (s->q3 - s->q1) / s->median : 0;
    s->runs = 1;
}

int probe_stats_unstable(const probe_stats *s)
{
    return s->reps >= 3 && s->quartile_spread > PROBE_UNSTABLE;
}

typedef struct worker_arg { struct probe_team *team; int tid; } worker_arg;
struct probe_team {
    const probe_topo *topo;
    int n;
    size_t buf_bytes;
    char *buf[PROBE_MAX_THREADS];
    pthread_t th[PROBE_MAX_THREADS];
    pthread_barrier_t go, start, done;
    /* the current job, written by thread 0 between barriers */
    probe_job job;
    void *arg;
    int quit, stop, failed, own0;
    double t_start, t_end[PROBE_MAX_THREADS];
    worker_arg wa[PROBE_MAX_THREADS];
};


/* The repetition loop every thread runs: rendezvous, run, rendezvous;
   thread 0 times it and decides when to stop (others read `stop` after
   the next rendezvous). */
static void team_rep(probe_team *tm, int tid)
{
    pthread_barrier_wait(&tm->start);
    if (tid == 0) tm->t_start = probe_now();
    pthread_barrier_wait(&tm->start);
    tm->job(tid, tm->n, tm->arg, tm->buf[tid]);
    tm->t_end[tid] = probe_now();
    pthread_barrier_wait(&tm->done);
}

static void *worker(void *p)
{
    worker_arg *wa = (worker_arg *)p;
    probe_team *tm = wa->team;
    int tid = wa->tid;
    if (probe_bind_core(tm->topo, tid)) tm->failed = 1;
    tm->buf[tid] = (char *)probe_alloc(tm->buf_bytes);
    if (tm->buf[tid]) memset(tm->buf[tid], 1, tm->buf_bytes);   /* first touch by the owner */
    else tm->failed = 1;
    pthread_barrier_wait(&tm->go);
    for (;;) {
        pthread_barrier_wait(&tm->go);
        if (tm->quit) break;
        for (;;) {
            pthread_barrier_wait(&tm->start);   /* thread 0 has set stop */
            if (tm->stop) break;
            team_rep(tm, tid);
        }
    }
    return NULL;
}

probe_team *probe_team_create(const probe_topo *t, int nthreads, size_t buf_bytes)
{
    return probe_team_create_with(t, nthreads, buf_bytes, NULL);
}

probe_team *probe_team_create_with(const probe_topo *t, int nthreads, size_t buf_bytes, char *buf0)
{
    probe_team *tm = (probe_team *)calloc(1, sizeof *tm);
    int i;
    if (!tm) return NULL;
    if (nthreads < 1) nthreads = 1;
    if (nthreads > (int)t->cores) nthreads = (int)t->cores;
    tm->topo = t;
    tm->n = nthreads;
    tm->buf_bytes = buf_bytes;
    pthread_barrier_init(&tm->go, NULL, (unsigned)nthreads);
    pthread_barrier_init(&tm->start, NULL, (unsigned)nthreads);
    pthread_barrier_init(&tm->done, NULL, (unsigned)nthreads);
    if (probe_bind_core(t, 0)) tm->failed = 1;
    for (i = 1; i < nthreads; i++) {
        tm->wa[i].team = tm;
        tm->wa[i].tid = i;
        pthread_create(&tm->th[i], NULL, worker, &tm->wa[i]);
    }
    tm->own0 = !buf0;
    tm->buf[0] = buf0 ? buf0 : (char *)probe_alloc(buf_bytes);
    if (!tm->buf[0]) tm->failed = 1;
    else if (!buf0) memset(tm->buf[0], 1, buf_bytes);
    pthread_barrier_wait(&tm->go);
    if (tm->failed) { probe_team_destroy(tm); return NULL; }
    return tm;
}

void probe_team_destroy(probe_team *tm)
{
    int i;
    if (!tm) return;
    tm->quit = 1;
    if (tm->n > 1) pthread_barrier_wait(&tm->go);
    for (i = 1; i < tm->n; i++) pthread_join(tm->th[i], NULL);
    for (i = tm->own0 ? 0 : 1; i < tm->n; i++) probe_free(tm->buf[i], tm->buf_bytes);
    pthread_barrier_destroy(&tm->go);
    pthread_barrier_destroy(&tm->start);
    pthread_barrier_destroy(&tm->done);
    free(tm);
}

int probe_team_size(const probe_team *tm) { return tm->n; }
char *probe_team_buf(probe_team *tm, int tid) { return tm->buf[tid]; }

const char *const probe_stop_name[PROBE_STOP_COUNT] = {"settled", "max_reps", "deadline"};

/* Settled: the best five repetitions (all, when fewer) agree within
   o->settle (relative). */
static int settled(const double *secs, int n, const probe_opts *o)
{
    double tmp[1024];
    int i;
    if (n > 1024) n = 1024;
    for (i = 0; i < n; i++) tmp[i] = secs[i];
    qsort(tmp, (size_t)n, sizeof *tmp, cmp_double);
    return (tmp[4 < n - 1 ? 4 : n - 1] - tmp[0]) / tmp[0] <= o->settle;
}

int probe_more_reps(const double *secs, int n, const probe_opts *o, int *why)
{
    int floor = o->floor_reps > 0 ? o->floor_reps : 3;
    if (n < floor) return 1;
    if (n >= o->max_reps || n >= 1024) { *why = PROBE_STOP_MAX_REPS; return 0; }
    if (o->deadline > 0 && probe_now() >= o->deadline) { *why = PROBE_STOP_DEADLINE; return 0; }
    if (n < o->min_reps) return 1;
    if (secs && settled(secs, n, o)) { *why = PROBE_STOP_SETTLED; return 0; }
    return 1;
}

int probe_team_measure(probe_team *tm, probe_job job, void *arg, const probe_opts *o,
                       double *secs, int *nsecs)
{
    int n = 0, warm = 1, i, why = PROBE_STOP_MAX_REPS;
    tm->job = job;
    tm->arg = arg;
    /* stop is cleared only after the rendezvous: a worker may still be
       reading the previous measurement's stop until it reaches `go` */
    if (tm->n > 1) pthread_barrier_wait(&tm->go);
    tm->stop = 0;
    for (;;) {
        if (tm->n > 1) pthread_barrier_wait(&tm->start);
        if (tm->stop) break;
        team_rep(tm, 0);
        {
            double end = tm->t_end[0];
            for (i = 1; i < tm->n; i++) if (tm->t_end[i] > end) end = tm->t_end[i];
            if (warm) warm = 0;             /* the first repetition warms up, untimed */
            else secs[n++] = end - tm->t_start;
        }
        if (n && !probe_more_reps(secs, n, o, &why)) tm->stop = 1;
    }
    *nsecs = n;
    return why;
}
