/* tools/trace/job.h - a rank's place in its MPI job (tools/trace/job.c). */
#ifndef EDAN_JOB_H
#define EDAN_JOB_H
#include <stddef.h>

/* A rank's place in its MPI job (tools/trace/job.c), from its launcher's
   environment: Open MPI's OMPI_COMM_WORLD_RANK/SIZE, MPICH's PMI_RANK/SIZE,
   PMIX_RANK, Slurm's SLURM_PROCID/NTASKS; rank 0 of 1 outside a job. */
typedef struct cli_job {
    long rank, size;
    char host[256];
    const char *var, *size_var;     /* the variables found, NULL outside a job */
    const char *command;            /* the command every rank of the job runs (to tell jobs apart) */
} cli_job;
/* 0, or -1 (the reason in err) when the variables do not make a rank. */
int cli_job_detect(cli_job *j, char *err, size_t errlen);
/* path with %r the rank, %h the host, %% a %; malloc'd (NULL: out of memory). */
char *cli_job_expand(const cli_job *j, const char *path);
/* 1 when path names a file of its own for each rank (has %r). */
int cli_job_per_rank(const char *path);

#endif
