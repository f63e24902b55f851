/* test_jobs again, with the windowed schedule's packed times widened early
   in each run (EDAN_WINDOW_PACK_LIMIT; test_window_wide.c): on the
   schedules' thread, between the blocks handed to it, as on the caller's. */
#define EDAN_WINDOW_PACK_LIMIT 20000
#include "test_jobs.c"
