/*
 * constellations.c: N-Queens counters by start constellations, the C references of
 * benchmarks/bench_constellations.py. Written for nqueens-cp from the published description of
 * the method (Q27, NQueensFAF); no code of those projects is used.
 *
 * Every solution has one queen on each border line: row 0 (column t), row n-1 (column b),
 * column 0 (row l), column n-1 (row r); a corner queen stands on two lines. These 3 or 4 queens
 * are the solution's start constellation (t, b, l, r). One constellation per class of the 8
 * symmetries of the square is finished (the lexicographically smallest), and its completions
 * count 8, 4 or 2 times (the size of its class: 2 when a 90-degree rotation fixes it, 4 when only
 * the 180-degree one does).
 *
 * Two finishing searches, chosen by the first argument:
 *
 *   faf   the reference to beat, as the method is published: each class is finished in the
 *         orientation with the queen nearest a corner in the last row, on its right side
 *         ("jasmin"); a recursive bitboard search over rows 1..n-2 of the inner board (columns
 *         1..n-2), the diagonals of the side queens ORed into the masks when the search reaches
 *         their rows, the bottom queen's diagonals and every border column blocked from the
 *         start, and the solutions counted on row n-2.
 *   ours  the same algorithm as nqueens_cp/searches/constellations_kernel.py, line for line:
 *         the orientation of nqueens_cp.searches.constellations.search_orientation, per free
 *         row a precomputed mask of the columns the border queens block, the diagonal masks
 *         shifted by the gap between free rows, a level-synchronous search over batches of
 *         states (one branch-free pass per level gives each state its next child) and the last
 *         two rows counted branch-free (last_two). It measures compiled numba against C on
 *         identical work.
 *
 * Usage: constellations faf|ours N   prints "N total seconds" (seconds: the counting, with the
 * generation of the constellations, timed with clock_gettime; not the process start-up).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_BOARD 31

typedef struct {
    int t, b, l, r;
} Key;

static int board_n;

static int cmp_key(const Key *x, const Key *y)
{
    if (x->t != y->t) return x->t - y->t;
    if (x->b != y->b) return x->b - y->b;
    if (x->l != y->l) return x->l - y->l;
    return x->r - y->r;
}

/* The border queens of a key as squares; returns how many distinct ones (3 or 4). */
static int queens_of(Key k, int rows[4], int cols[4])
{
    int last = board_n - 1, count = 0, i, q;
    int cand_r[4] = {0, last, k.l, k.r}, cand_c[4] = {k.t, k.b, 0, last};
    for (q = 0; q < 4; q++) {
        int seen = 0;
        for (i = 0; i < count; i++)
            if (rows[i] == cand_r[q] && cols[i] == cand_c[q]) seen = 1;
        if (!seen) {
            rows[count] = cand_r[q];
            cols[count] = cand_c[q];
            count++;
        }
    }
    return count;
}

static Key key_of(int count, const int rows[4], const int cols[4])
{
    int last = board_n - 1, q;
    Key k = {-1, -1, -1, -1};
    for (q = 0; q < count; q++) {
        if (rows[q] == 0) k.t = cols[q];
        if (rows[q] == last) k.b = cols[q];
        if (cols[q] == 0) k.l = rows[q];
        if (cols[q] == last) k.r = rows[q];
    }
    return k;
}

/* Symmetry s (0..7) of the square on a square; same order as nqueens_cp.symmetry.TRANSFORMS. */
static void map_point(int s, int row, int col, int *out_row, int *out_col)
{
    int last = board_n - 1;
    switch (s) {
    case 0: *out_row = row; *out_col = col; break;
    case 1: *out_row = row; *out_col = last - col; break;
    case 2: *out_row = last - row; *out_col = col; break;
    case 3: *out_row = last - row; *out_col = last - col; break;
    case 4: *out_row = col; *out_col = row; break;
    case 5: *out_row = col; *out_col = last - row; break;
    case 6: *out_row = last - col; *out_col = row; break;
    default: *out_row = last - col; *out_col = last - row; break;
    }
}

static Key image(Key k, int s)
{
    int rows[4], cols[4], mapped_r[4], mapped_c[4], q;
    int count = queens_of(k, rows, cols);
    for (q = 0; q < count; q++)
        map_point(s, rows[q], cols[q], &mapped_r[q], &mapped_c[q]);
    return key_of(count, mapped_r, mapped_c);
}

static int is_constellation(Key k)
{
    int rows[4], cols[4], count, a, b2;
    Key back;
    count = queens_of(k, rows, cols);
    back = key_of(count, rows, cols);
    if (cmp_key(&back, &k) != 0) return 0;
    for (a = 0; a < count; a++)
        for (b2 = a + 1; b2 < count; b2++) {
            int dr = abs(rows[a] - rows[b2]), dc = abs(cols[a] - cols[b2]);
            if (dr == 0 || dc == 0 || dr == dc) return 0;
        }
    return 1;
}

static int imin(int a, int b) { return a < b ? a : b; }

/* The orientation NQueensFAF publishes: queen nearest a corner in the last row, right side. */
static Key jasmin(Key k)
{
    int last = board_n - 1, best = -1, s, found = 0;
    Key chosen = k;
    for (s = 0; s < 8; s++) {
        Key m = image(k, s);
        int bottom_distance = imin(m.b, last - m.b);
        int nearest = imin(imin(imin(m.t, last - m.t), imin(m.l, last - m.l)), imin(m.r, last - m.r));
        if (bottom_distance > nearest || m.b < last - m.b) continue; /* not nearest, or left side */
        if (!found || bottom_distance < best) {
            chosen = m;
            best = bottom_distance;
            found = 1;
        }
    }
    return chosen;
}

/* The orientation of nqueens_cp.searches.constellations.search_orientation. */
static Key ours_orientation(Key k)
{
    int last = board_n - 1, s;
    Key chosen = k;
    int have = 0;
    for (s = 0; s < 8; s++) {
        Key m = image(k, s);
        if (have) {
            int a = board_n * imin(m.b, last - m.b) - 2 * (m.l + m.r);
            int c = board_n * imin(chosen.b, last - chosen.b) - 2 * (chosen.l + chosen.r);
            if (a > c || (a == c && cmp_key(&m, &chosen) >= 0)) continue;
        }
        chosen = m;
        have = 1;
    }
    return chosen;
}

/* ---- ours: static masks, batches of states per level ----------------------------------------- */

#define BATCH 1024 /* states per level buffer, as the kernel's BATCH */

typedef struct {
    long long left, down, right, free;
} State;

static State states[MAX_BOARD][BATCH];
static int sizes[MAX_BOARD];

/* Completions of the last two free rows: l, d, r the attacks entering the first of them (at
   most two free columns there), g the gap to the last row. Branch-free. */
static inline long long last_two(long long full, long long l, long long d, long long r, long long blocked1,
                                 int g, long long blocked0)
{
    long long free = full & ~(l | d | r | blocked1);
    long long last_row = full & ~((l << g) | d | (r >> g) | blocked0);
    long long one = free & -free, other = free ^ one;
    return ((one != 0) & ((last_row & ~((one << g) | one | (one >> g))) != 0))
         + ((other != 0) & ((last_row & ~((other << g) | other | (other >> g))) != 0));
}

/* Completions of the last three free rows: free (non-empty, at most three columns) the free
   columns of the first, l, d, r the attacks entering it, g2 and g1 the gaps to the next rows. */
static inline long long last_three(long long full, long long free, long long l, long long d, long long r, int g2,
                                   long long blocked1, int g1, long long blocked0)
{
    long long first = free & -free, rest = free ^ first, second = rest & -rest, third = rest ^ second;
    long long total = last_two(full, (l | first) << g2, d | first, (r | first) >> g2, blocked1, g1, blocked0);
    if (second) total += last_two(full, (l | second) << g2, d | second, (r | second) >> g2, blocked1, g1, blocked0);
    if (third) total += last_two(full, (l | third) << g2, d | third, (r | third) >> g2, blocked1, g1, blocked0);
    return total;
}

static long long ours_count(Key k)
{
    int n = board_n, last_col = n - 1, row, q, depth = 0, t;
    long long full = (1LL << n) - 1, columns;
    long long blocked[MAX_BOARD];
    int gaps[MAX_BOARD], rows_of[MAX_BOARD];
    int qr[4] = {0, last_col, k.l, k.r}, qc[4] = {k.t, k.b, 0, last_col};
    long long count = 0;
    columns = (1LL << k.t) | (1LL << k.b) | 1LL | (1LL << last_col);
    for (row = 1; row < last_col; row++) {
        long long mask = columns;
        if (row == k.l || row == k.r) continue;
        for (q = 0; q < 4; q++) {
            int distance = abs(row - qr[q]);
            mask |= (1LL << (qc[q] + distance)) | ((1LL << qc[q]) >> distance);
        }
        rows_of[depth] = row;
        blocked[depth++] = mask & full;
    }
    for (t = 0; t + 1 < depth; t++) gaps[t] = rows_of[t + 1] - rows_of[t];
    if (depth <= 3) {
        long long free;
        if (depth == 0) return 1;
        free = full & ~blocked[0];
        if (depth == 1) return free != 0;
        if (depth == 2) return last_two(full, 0, 0, 0, blocked[0], gaps[0], blocked[1]);
        if (free == 0) return 0;
        return last_three(full, free, 0, 0, 0, gaps[0], blocked[1], gaps[1], blocked[2]);
    }
    {
        /* Level-synchronous over batches of states, as the kernel's _count_plain: a pass over a
           level gives each state one child (its lowest untried column) in the next level's
           buffer, kept when that row and the one after have a free square, and keeps the state
           while it has columns left; both lists compacted by adding 0 or 1, no branch on data. */
        int last = depth - 1, final_gap = gaps[last - 1];
        long long final_blocked = blocked[last], blocked1 = blocked[last - 1];
        states[0][0].left = states[0][0].down = states[0][0].right = 0;
        states[0][0].free = full & ~blocked[0];
        sizes[0] = states[0][0].free != 0;
        for (t = 1; t < depth; t++) sizes[t] = 0;
        t = 0;
        while (t >= 0) {
            State *level = states[t], *below;
            int size = sizes[t], gap = gaps[t], kept = 0, added, first, next_gap, i;
            long long blocked_next, blocked_after;
            if (size == 0) {
                t--;
                continue;
            }
            if (t + 2 == last) {
                long long found = 0;
                for (i = 0; i < size; i++) {
                    State s = level[i];
                    long long bit = s.free & -s.free;
                    found += last_two(full, (s.left | bit) << gap, s.down | bit, (s.right | bit) >> gap, blocked1,
                                      final_gap, final_blocked);
                    level[kept] = s;
                    level[kept].free = s.free & (s.free - 1);
                    kept += level[kept].free != 0;
                }
                count += found;
                sizes[t] = kept;
                continue;
            }
            below = states[t + 1];
            added = sizes[t + 1];
            first = size - (BATCH - added) > 0 ? size - (BATCH - added) : 0;
            kept = first;
            blocked_next = blocked[t + 1];
            next_gap = gaps[t + 1];
            blocked_after = blocked[t + 2];
            for (i = first; i < size; i++) {
                State s = level[i];
                long long bit = s.free & -s.free;
                long long left = (s.left | bit) << gap, down = s.down | bit, right = (s.right | bit) >> gap;
                long long free = full & ~(left | down | right | blocked_next);
                long long ahead = full & ~((left << next_gap) | down | (right >> next_gap) | blocked_after);
                below[added].left = left;
                below[added].down = down;
                below[added].right = right;
                below[added].free = free & -(long long)(ahead != 0);
                added += below[added].free != 0;
                level[kept] = s;
                level[kept].free = s.free & (s.free - 1);
                kept += level[kept].free != 0;
            }
            sizes[t + 1] = added;
            sizes[t] = kept;
            if (added >= BATCH / 2 || kept == 0) t++;
        }
    }
    return count;
}

/* ---- faf: recursive, border queens' diagonals inserted at the rows they reach ---------------- */

/* Per row: 1 when a side queen stands there (no choice to make), and the diagonal bits that
   enter the board on that row (the bottom queen's up-left diagonal, which reaches column 0 on
   row n-1-b, and the side queens' own diagonals on their rows). */
static int faf_skip[MAX_BOARD + 1];
static unsigned long long faf_insert_left[MAX_BOARD + 1], faf_insert_right[MAX_BOARD + 1];
static unsigned long long faf_full;
static int faf_last_row;

static long long faf_search(int row, unsigned long long left, unsigned long long down, unsigned long long right)
{
    unsigned long long free;
    long long total = 0;
    left |= faf_insert_left[row];
    right |= faf_insert_right[row];
    if (faf_skip[row])
        return faf_search(row + 1, left << 1, down, right >> 1);
    free = faf_full & ~(left | down | right);
    if (row == faf_last_row) return free != 0;
    while (free) {
        unsigned long long bit = free & -free;
        free ^= bit;
        total += faf_search(row + 1, (left | bit) << 1, down | bit, (right | bit) >> 1);
    }
    return total;
}

static long long faf_count(Key k)
{
    int n = board_n, last = n - 1, row, entry;
    unsigned long long left, right, down;
    for (row = 0; row <= last; row++) {
        faf_skip[row] = row == k.l || row == k.r;
        faf_insert_left[row] = faf_insert_right[row] = 0;
    }
    faf_full = ((1ULL << n) - 1) & ~1ULL & ~(1ULL << last); /* the inner columns */
    faf_last_row = last - 1;
    while (faf_last_row >= 1 && faf_skip[faf_last_row]) faf_last_row--;
    if (faf_last_row < 1) return 1; /* no free row: the border queens are the whole solution */
    /* side queens: their down-going diagonals start on their own rows */
    faf_insert_left[k.l] |= 1ULL;
    faf_insert_right[k.r] |= 1ULL << last;
    /* row 1 starts with the top queen's attacks, the bottom queen's column, the up-going
       diagonals of the side queens (column l-1 and last-r+1 on row 1) and the bottom queen's
       up-right diagonal (column b+last-1 on row 1, beyond the board for now) */
    left = (1ULL << k.t) << 1;
    right = (1ULL << k.t) >> 1;
    down = (1ULL << k.t) | (1ULL << k.b);
    if (k.l >= 1) right |= 1ULL << (k.l - 1);
    if (k.r >= 1) left |= 1ULL << (last - k.r + 1);
    right |= 1ULL << (k.b + last - 1);
    /* the bottom queen's up-left diagonal is on column b-(last-row): it enters on row last-b */
    entry = last - k.b;
    if (entry <= 1) left |= 1ULL << (k.b - last + 1);
    else faf_insert_left[entry] |= 1ULL;
    return faf_search(1, left, down, right);
}

/* ---- driver ---------------------------------------------------------------------------------- */

static long long count_all(int faf)
{
    int n = board_n, last = n - 1;
    long long total = 0;
    Key k;
    for (k.t = 0; k.t <= last / 2; k.t++)
        for (k.b = k.t; k.b < n - k.t; k.b++)
            for (k.l = k.t; k.l < n - k.t; k.l++)
                for (k.r = k.t; k.r < n - k.t; k.r++) {
                    int s, minimal = 1, weight;
                    Key members[8];
                    if (!is_constellation(k)) continue;
                    for (s = 0; s < 8 && minimal; s++) {
                        members[s] = image(k, s);
                        if (cmp_key(&members[s], &k) < 0) minimal = 0;
                    }
                    if (!minimal) continue;
                    if (cmp_key(&members[5], &k) == 0) weight = 2;
                    else if (cmp_key(&members[3], &k) == 0) weight = 4;
                    else weight = 8;
                    total += weight * (faf ? faf_count(jasmin(k)) : ours_count(ours_orientation(k)));
                }
    return total;
}

int main(int argc, char **argv)
{
    struct timespec t0, t1;
    long long total;
    int faf;
    if (argc != 3 || (strcmp(argv[1], "faf") != 0 && strcmp(argv[1], "ours") != 0)) {
        fprintf(stderr, "usage: %s faf|ours N\n", argv[0]);
        return 2;
    }
    faf = strcmp(argv[1], "faf") == 0;
    board_n = atoi(argv[2]);
    if (board_n < 4 || board_n > 30) {
        fprintf(stderr, "%s: need 4 <= N <= 30\n", argv[0]);
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    total = count_all(faf);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%d %lld %.6f\n", board_n, total,
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
    return 0;
}
