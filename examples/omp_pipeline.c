/* omp_pipeline: a producer and a consumer over a shared queue, in an OpenMP
   parallel region of two threads: thread 0 computes items into a ring of 64
   slots, thread 1 takes them out in order and sums them. The queue is a
   mutex and two condition variables, so a thread with nothing to do sleeps
   instead of spinning. Usage: omp_pipeline [N] */
#include "common.h"
#include <omp.h>
#include <pthread.h>

#define RING 64
struct queue {
    double item[RING];
    long head, tail;                /* items put, items taken */
    pthread_mutex_t mu;
    pthread_cond_t not_empty, not_full;
};

static void put(struct queue *q, double v)
{
    pthread_mutex_lock(&q->mu);
    while (q->head - q->tail == RING) pthread_cond_wait(&q->not_full, &q->mu);
    q->item[q->head % RING] = v;
    q->head++;
    pthread_cond_signal(&q->not_empty);
    pthread_mutex_unlock(&q->mu);
}

static double take(struct queue *q)
{
    double v;
    pthread_mutex_lock(&q->mu);
    while (q->head == q->tail) pthread_cond_wait(&q->not_empty, &q->mu);
    v = q->item[q->tail % RING];
    q->tail++;
    pthread_cond_signal(&q->not_full);
    pthread_mutex_unlock(&q->mu);
    return v;
}

EX_NOINLINE double kernel_omp_pipeline(int n, const double *in, struct queue *q)
{
    double sum = 0;
#pragma omp parallel num_threads(2)
    {
        int i, two = omp_get_num_threads() == 2;
        if (omp_get_thread_num() == 0)
            for (i = 0; i < n; i++) {
                put(q, in[i] * in[i] + 1.0);
                if (!two) sum += take(q);   /* one thread: it consumes too */
            }
        else
            for (i = 0; i < n; i++) sum += take(q);
    }
    return sum;
}

int main(int argc, char **argv)
{
    int n = ex_size(argc, argv, 4096, 1 << 26);
    double *in = ex_matrix(1, n, 1);
    static struct queue q;
    pthread_mutex_init(&q.mu, NULL);
    pthread_cond_init(&q.not_empty, NULL);
    pthread_cond_init(&q.not_full, NULL);
    printf("omp_pipeline %.6e\n", kernel_omp_pipeline(n, in, &q));
    return 0;
}
