/* The swap search of Sosic and Gu (1991; their QS4) for one solution of the empty n x n board:
 * the C yardstick of benchmarks/bench_localsearch.py, written for this project, the same method
 * as nqueens_cp/searches/localsearch_kernel.py (greedy start with up to 64 draws per row from the
 * unused columns, uint8 diagonal counts, a queue of attacked rows repaired by random swaps that
 * lower the collisions, xorshift64 draws). Prints the columns, one line, like `nqueens-cp solve`.
 *
 *   cc -O3 -march=native -o sosic_gu sosic_gu.c && ./sosic_gu N [SEED] > answer.txt
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ATTEMPTS 64

static uint64_t rng;

static inline int64_t below(int64_t bound) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (int64_t)(((rng >> 32) * (uint64_t)bound) >> 32);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s N [SEED]\n", argv[0]);
        return 2;
    }
    int64_t n = atoll(argv[1]);
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 0;
    if (n < 4) {
        fprintf(stderr, "n must be >= 4\n");
        return 2;
    }
    int32_t *cols = malloc(n * sizeof *cols);
    uint8_t *up = calloc(2 * n, 1), *down = calloc(2 * n, 1);
    int64_t qcap = n < (1 << 20) ? n : (1 << 20);
    int32_t *queue = malloc(qcap * sizeof *queue);
    for (uint64_t restart = 0;; restart++) {
        uint64_t z = seed * 0x9E3779B97F4A7C15ULL + restart * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        rng = (z ^ (z >> 31)) ? (z ^ (z >> 31)) : 0x2545F4914F6CDD1DULL;
        memset(up, 0, 2 * n);
        memset(down, 0, 2 * n);
        for (int64_t k = 0; k < n; k++) cols[k] = (int32_t)k;
        int64_t collisions = 0, queued = 0;
        for (int64_t k = 0; k < n; k++) {
            int64_t pick = k;
            for (int a = 0; a < ATTEMPTS; a++) {
                pick = k + below(n - k);
                int64_t c = cols[pick];
                if (!up[k + c] && !down[k - c + n - 1]) break;
            }
            int32_t c = cols[pick];
            cols[pick] = cols[k];
            cols[k] = c;
            int added = (up[k + c] > 0) + (down[k - c + n - 1] > 0);
            up[k + c]++;
            down[k - c + n - 1]++;
            if (added) {
                collisions += added;
                if (queued < qcap) queue[queued++] = (int32_t)k;
            }
        }
        int64_t steps = 0, max_steps = 1000 + 100 * n;
        while (collisions > 0 && queued > 0 && steps < max_steps) {
            int64_t k = queue[queued - 1], c = cols[k];
            if (up[k + c] <= 1 && down[k - c + n - 1] <= 1) { queued--; continue; }
            steps++;
            int64_t j = below(n);
            if (j == k) continue;
            int64_t c2 = cols[j];
            int delta = -(up[k + c] > 1) - (down[k - c + n - 1] > 1);
            up[k + c]--; down[k - c + n - 1]--;
            delta -= (up[j + c2] > 1) + (down[j - c2 + n - 1] > 1);
            up[j + c2]--; down[j - c2 + n - 1]--;
            delta += (up[k + c2] > 0) + (down[k - c2 + n - 1] > 0);
            up[k + c2]++; down[k - c2 + n - 1]++;
            delta += (up[j + c] > 0) + (down[j - c + n - 1] > 0);
            up[j + c]++; down[j - c + n - 1]++;
            if (delta < 0) {
                cols[k] = (int32_t)c2;
                cols[j] = (int32_t)c;
                collisions += delta;
                if (up[k + c2] <= 1 && down[k - c2 + n - 1] <= 1) queued--;
                if ((up[j + c] > 1 || down[j - c + n - 1] > 1) && queued < qcap) queue[queued++] = (int32_t)j;
            } else {
                up[k + c2]--; down[k - c2 + n - 1]--; up[j + c]--; down[j - c + n - 1]--;
                up[k + c]++; down[k - c + n - 1]++; up[j + c2]++; down[j - c2 + n - 1]++;
            }
        }
        if (collisions == 0) break;
    }
    /* the answer: decimal columns, space-separated, written through one buffer */
    size_t size = 1 << 20, used = 0;
    char *buffer = malloc(size + 16);
    for (int64_t k = 0; k < n; k++) {
        char digits[16];
        int length = 0;
        uint32_t v = (uint32_t)cols[k];
        do { digits[length++] = (char)('0' + v % 10); v /= 10; } while (v);
        while (length) buffer[used++] = digits[--length];
        buffer[used++] = k + 1 < n ? ' ' : '\n';
        if (used >= size) { fwrite(buffer, 1, used, stdout); used = 0; }
    }
    fwrite(buffer, 1, used, stdout);
    return 0;
}
