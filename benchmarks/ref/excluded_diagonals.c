/*
 * Excluded Diagonals n-Queens (CSPLib problem 079): a bit-parallel backtracking solver written
 * from the description of the bit solver in Gent, Jefferson, Nightingale, "Complexity of n-Queens
 * Completion" (JAIR 2017): lines are filled in order, the attacked squares of the next line along
 * the other direction and both diagonals are bit masks shifted by one per line, and each line's
 * excluded squares are one more mask. It stops at the first solution. It fills COLUMNS 0, 1, ...
 * (choosing the lowest free row first) and counts a node per call of the search, as the paper's
 * solver does: its node counts equal the `nodes` column of the paper's results-shiftqueens.tsv on
 * the instances checked (benchmarks/bench_excluded_diagonals.py compares them on every run).
 * The reference that benchmarks/bench_excluded_diagonals.py measures.
 *
 *   excluded_diagonals FILE D      FILE: a CSPLib .param (n, numdiags, diags), D: use the first D
 *
 * Prints "SAT nodes seconds" then the solution (one column per row), or "UNSAT nodes seconds";
 * seconds is the CPU time of the search alone (clock_gettime, CLOCK_PROCESS_CPUTIME_ID: on a
 * shared machine CPU time depends less on the other processes than wall time), nodes the calls
 * of the search function.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_N 64

static int n;
static uint64_t full;
static uint64_t allowed[MAX_N]; /* per column: the rows not on an excluded diagonal */
static int row_of[MAX_N];
static unsigned long long nodes;

/* rows: rows taken; ld, rd: rows of this column attacked along the two diagonals. */
static int place(int col, uint64_t rows, uint64_t ld, uint64_t rd) {
    nodes++;
    if (col == n) return 1;
    uint64_t free = allowed[col] & ~(rows | ld | rd);
    while (free) {
        uint64_t bit = free & (~free + 1);
        free ^= bit;
        row_of[col] = __builtin_ctzll(bit);
        if (place(col + 1, rows | bit, ((ld | bit) << 1) & full, (rd | bit) >> 1)) return 1;
    }
    return 0;
}

static int read_ints(FILE *in, long *out, int max) {
    int count = 0, c;
    long value = 0;
    int in_number = 0;
    while ((c = fgetc(in)) != EOF) {
        if (c >= '0' && c <= '9') {
            value = value * 10 + (c - '0');
            in_number = 1;
        } else if (in_number) {
            if (count == max) return -1;
            out[count++] = value;
            value = 0;
            in_number = 0;
        }
    }
    if (in_number && count < max) out[count++] = value;
    return count;
}

int main(int argc, char **argv) {
    static long numbers[4 * MAX_N * 4 + 8];
    if (argc != 3) {
        fprintf(stderr, "usage: %s FILE D\n", argv[0]);
        return 2;
    }
    FILE *in = fopen(argv[1], "r");
    if (!in) { perror(argv[1]); return 2; }
    int count = read_ints(in, numbers, (int)(sizeof numbers / sizeof numbers[0]));
    fclose(in);
    long d = atol(argv[2]);
    if (count < 2 || numbers[0] < 1 || numbers[0] > MAX_N || d < 0 || d > numbers[1] || count < 2 + 2 * d) {
        fprintf(stderr, "%s: not an instance with %ld diagonals (n <= %d)\n", argv[1], d, MAX_N);
        return 2;
    }
    n = (int)numbers[0];
    full = n == 64 ? ~0ULL : ((1ULL << n) - 1);
    for (int c = 0; c < n; c++) allowed[c] = full;
    for (long i = 0; i < d; i++) {
        long index = numbers[2 + 2 * i], kind = numbers[3 + 2 * i];
        for (int r = 0; r < n; r++) {
            long c = kind == 1 ? index - r : r - (index - (n - 1)); /* sum: r + c; difference: r - c */
            if (c >= 0 && c < n) allowed[c] &= ~(1ULL << r);
        }
    }
    struct timespec start, stop;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start);
    int found = place(0, 0, 0, 0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &stop);
    double seconds = (double)(stop.tv_sec - start.tv_sec) + 1e-9 * (double)(stop.tv_nsec - start.tv_nsec);
    printf("%s %llu %.6f\n", found ? "SAT" : "UNSAT", nodes, seconds);
    if (found) {
        int column_of[MAX_N];
        for (int c = 0; c < n; c++) column_of[row_of[c]] = c;
        for (int r = 0; r < n; r++) printf(r ? " %d" : "%d", column_of[r]);
        printf("\n");
    }
    return 0;
}
