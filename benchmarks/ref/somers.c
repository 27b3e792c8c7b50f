/*
 * somers.c: a Somers-style N-Queens counter, the C reference for benchmarks/bench_bitboard.py.
 *
 * In the style of Jeff Somers' classic nqueens.c: bit masks for the columns and both diagonals,
 * an explicit stack instead of recursion, the lowest free bit taken with `free & -free`, and the
 * first-row mirror trick: the queen of row 0 is tried only in the left half of the board and each
 * solution found counts twice; for odd n the middle column of row 0 is then searched with the
 * queen of row 1 in the left half only, again counting twice.
 *
 * Usage: somers N [REPEAT]   prints "N total seconds", the seconds being the best of REPEAT runs
 * of the counting alone, timed with clock_gettime(CLOCK_MONOTONIC) (no process start-up).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_BOARD 30

static long long count_from(int n, int first_row_mask, int second_row_limit_mid)
{
    int free_stack[MAX_BOARD];
    int col_stack[MAX_BOARD], pos_stack[MAX_BOARD], neg_stack[MAX_BOARD];
    int full = (1 << n) - 1;
    long long total = 0;
    int row = 0;
    int col = 0, pos = 0, neg = 0;
    int free_bits = first_row_mask;

    for (;;) {
        if (free_bits) {
            int bit = free_bits & -free_bits;
            free_bits ^= bit;
            if (row == n - 1) {
                total++;
                continue;
            }
            /* push the current row and go one row down */
            free_stack[row] = free_bits;
            col_stack[row] = col;
            pos_stack[row] = pos;
            neg_stack[row] = neg;
            col |= bit;
            pos = ((pos | bit) << 1) & full;
            neg = (neg | bit) >> 1;
            row++;
            free_bits = full & ~(col | pos | neg);
            if (row == 1 && second_row_limit_mid)
                free_bits &= (1 << (n / 2)) - 1; /* mirror trick for the middle column of row 0 */
        } else {
            if (row == 0)
                break;
            row--;
            free_bits = free_stack[row];
            col = col_stack[row];
            pos = pos_stack[row];
            neg = neg_stack[row];
        }
    }
    return total;
}

static long long somers_count(int n)
{
    long long total;
    if (n == 0)
        return 1;
    if (n == 1)
        return 1;
    /* row 0 in the left half: every solution has a mirror image with row 0 in the right half */
    total = 2 * count_from(n, (1 << (n / 2)) - 1, 0);
    if (n & 1) /* row 0 in the middle column: mirror on row 1 instead */
        total += 2 * count_from(n, 1 << (n / 2), 1);
    return total;
}

int main(int argc, char **argv)
{
    int n, repeat, i;
    long long total = 0;
    double best = -1.0;
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s N [REPEAT]\n", argv[0]);
        return 2;
    }
    n = atoi(argv[1]);
    repeat = argc == 3 ? atoi(argv[2]) : 1;
    if (n < 0 || n > MAX_BOARD || repeat < 1) {
        fprintf(stderr, "%s: need 0 <= N <= %d and REPEAT >= 1\n", argv[0], MAX_BOARD);
        return 2;
    }
    for (i = 0; i < repeat; i++) {
        struct timespec t0, t1;
        double seconds;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        total = somers_count(n);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
        if (best < 0 || seconds < best)
            best = seconds;
    }
    printf("%d %lld %.6f\n", n, total, best);
    return 0;
}
