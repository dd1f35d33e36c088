/*
 * Times a peer solver's entry point `int SOLVE(const char *puzzle81, int limit)` over the
 * first N puzzles of a file (one 81-character puzzle per line), single thread.
 *
 * Written for shiftgrid's side-by-side benchmark (see run.sh): the peer source itself is
 * compiled from a tdoku checkout and is not part of this repository.
 *
 * Usage: driver FILE N LIMIT SECONDS
 * Prints: puzzles, solutions counted, passes, puzzles/s (best pass).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int fast_solv_9r2_solve(const char *buffer, int limit);
int make_links(void);

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s FILE N LIMIT SECONDS\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 74;
    }
    long want = atol(argv[2]);
    int limit = atoi(argv[3]);
    double seconds = atof(argv[4]);
    char (*puzzles)[82] = malloc(sizeof(*puzzles) * (size_t)want);
    char line[512];
    long n = 0;
    while (n < want && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || strlen(line) < 81) continue;
        memcpy(puzzles[n], line, 81);
        puzzles[n][81] = 0;
        n++;
    }
    fclose(f);
    make_links();
    long solutions = 0, passes = 0;
    double best = 1e30, start = now();
    do {
        double t0 = now();
        long s = 0;
        for (long i = 0; i < n; i++) s += fast_solv_9r2_solve(puzzles[i], limit);
        double dt = now() - t0;
        if (dt < best) best = dt;
        solutions = s;
        passes++;
    } while (now() - start < seconds);
    printf("%ld puzzles, %ld solutions (limit %d), %ld passes, %.0f puzzles/s (best pass)\n",
           n, solutions, limit, passes, n / best);
    return 0;
}
