// Burns a given amount of CPU at a steady rate, in a process of its own: the control of
// `make bench-hook`'s "expensive requests" round. It costs the machine what the expensive requests
// cost it, without any request reaching the server, so the hook's latency beside it shows what the
// CPU contention alone does.
//
//   cpu-burn -c CORES -d SECONDS
//
// ceil(CORES) threads; in every 10 ms period each thread spins until its own CPU time has grown by
// its share of the period (CORES / threads of 10 ms), then sleeps to the period's end. A thread the
// scheduler held back catches up within its period, never beyond it. The last line is
// machine-readable:
//   BURN cores=<asked> threads=<n> seconds=<s> cpu_s=<burned>
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double share;    // of a core, per thread
static double seconds;  // how long
static const int64_t period_ns = 10 * 1000 * 1000;

static int64_t clock_ns(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void *burn(void *unused) {
    (void)unused;
    int64_t start = clock_ns(CLOCK_MONOTONIC);
    int64_t end = start + (int64_t)(seconds * 1e9);
    int64_t budget = (int64_t)(share * (double)period_ns);
    volatile uint64_t sink = 0;
    for (int64_t period = start; period < end; period += period_ns) {
        int64_t cpu_start = clock_ns(CLOCK_THREAD_CPUTIME_ID);
        int64_t next = period + period_ns;
        while (clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu_start < budget && clock_ns(CLOCK_MONOTONIC) < next) {
            for (int i = 0; i < 1000; i++) sink += (uint64_t)i * 2654435761u;
        }
        struct timespec wake = {next / 1000000000, next % 1000000000};
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &wake, NULL);
    }
    return NULL;
}

int main(int argc, char **argv) {
    double cores = 0;
    int opt;
    while ((opt = getopt(argc, argv, "c:d:")) != -1) {
        switch (opt) {
        case 'c': cores = atof(optarg); break;
        case 'd': seconds = atof(optarg); break;
        default: fprintf(stderr, "usage: cpu-burn -c CORES -d SECONDS\n"); return 2;
        }
    }
    if (!(cores > 0 && cores <= 64) || !(seconds > 0 && seconds <= 600)) {
        fprintf(stderr, "cpu-burn: CORES must be in (0, 64] and SECONDS in (0, 600]\n");
        return 2;
    }
    int threads = (int)ceil(cores);
    share = cores / threads;
    pthread_t ids[64];
    for (int i = 0; i < threads; i++) pthread_create(&ids[i], NULL, burn, NULL);
    for (int i = 0; i < threads; i++) pthread_join(ids[i], NULL);
    printf("BURN cores=%.3f threads=%d seconds=%.1f cpu_s=%.2f\n", cores, threads, seconds,
           (double)clock_ns(CLOCK_PROCESS_CPUTIME_ID) / 1e9);
    return 0;
}
