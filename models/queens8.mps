* N-Queens as a 0-1 integer program, written by nqueens-cp (`nqueens-cp export N --format lp|mps`)
* n = 8; pre-placed queens (row:col) = none
* blocked squares (row:col) = none
* x<i> = 1 when a queen stands on square i (full board: x<r*8 + c + 1> is (r, c), 0-based; a reduced board numbers its open squares row by row)
* rows and columns: exactly one; diagonals: at most one. Run: highs FILE
NAME nqueens
ROWS
 N obj
 E row_0
 E row_1
 E row_2
 E row_3
 E row_4
 E row_5
 E row_6
 E row_7
 E col_0
 E col_1
 E col_2
 E col_3
 E col_4
 E col_5
 E col_6
 E col_7
 L up_1
 L up_2
 L up_3
 L up_4
 L up_5
 L up_6
 L up_7
 L up_8
 L up_9
 L up_10
 L up_11
 L up_12
 L up_13
 L down_m6
 L down_m5
 L down_m4
 L down_m3
 L down_m2
 L down_m1
 L down_0
 L down_1
 L down_2
 L down_3
 L down_4
 L down_5
 L down_6
COLUMNS
 x1 row_0 1
 x1 col_0 1
 x1 down_0 1
 x2 row_0 1
 x2 col_1 1
 x2 up_1 1
 x2 down_m1 1
 x3 row_0 1
 x3 col_2 1
 x3 up_2 1
 x3 down_m2 1
 x4 row_0 1
 x4 col_3 1
 x4 up_3 1
 x4 down_m3 1
 x5 row_0 1
 x5 col_4 1
 x5 up_4 1
 x5 down_m4 1
 x6 row_0 1
 x6 col_5 1
 x6 up_5 1
 x6 down_m5 1
 x7 row_0 1
 x7 col_6 1
 x7 up_6 1
 x7 down_m6 1
 x8 row_0 1
 x8 col_7 1
 x8 up_7 1
 x9 row_1 1
 x9 col_0 1
 x9 up_1 1
 x9 down_1 1
 x10 row_1 1
 x10 col_1 1
 x10 up_2 1
 x10 down_0 1
 x11 row_1 1
 x11 col_2 1
 x11 up_3 1
 x11 down_m1 1
 x12 row_1 1
 x12 col_3 1
 x12 up_4 1
 x12 down_m2 1
 x13 row_1 1
 x13 col_4 1
 x13 up_5 1
 x13 down_m3 1
 x14 row_1 1
 x14 col_5 1
 x14 up_6 1
 x14 down_m4 1
 x15 row_1 1
 x15 col_6 1
 x15 up_7 1
 x15 down_m5 1
 x16 row_1 1
 x16 col_7 1
 x16 up_8 1
 x16 down_m6 1
 x17 row_2 1
 x17 col_0 1
 x17 up_2 1
 x17 down_2 1
 x18 row_2 1
 x18 col_1 1
 x18 up_3 1
 x18 down_1 1
 x19 row_2 1
 x19 col_2 1
 x19 up_4 1
 x19 down_0 1
 x20 row_2 1
 x20 col_3 1
 x20 up_5 1
 x20 down_m1 1
 x21 row_2 1
 x21 col_4 1
 x21 up_6 1
 x21 down_m2 1
 x22 row_2 1
 x22 col_5 1
 x22 up_7 1
 x22 down_m3 1
 x23 row_2 1
 x23 col_6 1
 x23 up_8 1
 x23 down_m4 1
 x24 row_2 1
 x24 col_7 1
 x24 up_9 1
 x24 down_m5 1
 x25 row_3 1
 x25 col_0 1
 x25 up_3 1
 x25 down_3 1
 x26 row_3 1
 x26 col_1 1
 x26 up_4 1
 x26 down_2 1
 x27 row_3 1
 x27 col_2 1
 x27 up_5 1
 x27 down_1 1
 x28 row_3 1
 x28 col_3 1
 x28 up_6 1
 x28 down_0 1
 x29 row_3 1
 x29 col_4 1
 x29 up_7 1
 x29 down_m1 1
 x30 row_3 1
 x30 col_5 1
 x30 up_8 1
 x30 down_m2 1
 x31 row_3 1
 x31 col_6 1
 x31 up_9 1
 x31 down_m3 1
 x32 row_3 1
 x32 col_7 1
 x32 up_10 1
 x32 down_m4 1
 x33 row_4 1
 x33 col_0 1
 x33 up_4 1
 x33 down_4 1
 x34 row_4 1
 x34 col_1 1
 x34 up_5 1
 x34 down_3 1
 x35 row_4 1
 x35 col_2 1
 x35 up_6 1
 x35 down_2 1
 x36 row_4 1
 x36 col_3 1
 x36 up_7 1
 x36 down_1 1
 x37 row_4 1
 x37 col_4 1
 x37 up_8 1
 x37 down_0 1
 x38 row_4 1
 x38 col_5 1
 x38 up_9 1
 x38 down_m1 1
 x39 row_4 1
 x39 col_6 1
 x39 up_10 1
 x39 down_m2 1
 x40 row_4 1
 x40 col_7 1
 x40 up_11 1
 x40 down_m3 1
 x41 row_5 1
 x41 col_0 1
 x41 up_5 1
 x41 down_5 1
 x42 row_5 1
 x42 col_1 1
 x42 up_6 1
 x42 down_4 1
 x43 row_5 1
 x43 col_2 1
 x43 up_7 1
 x43 down_3 1
 x44 row_5 1
 x44 col_3 1
 x44 up_8 1
 x44 down_2 1
 x45 row_5 1
 x45 col_4 1
 x45 up_9 1
 x45 down_1 1
 x46 row_5 1
 x46 col_5 1
 x46 up_10 1
 x46 down_0 1
 x47 row_5 1
 x47 col_6 1
 x47 up_11 1
 x47 down_m1 1
 x48 row_5 1
 x48 col_7 1
 x48 up_12 1
 x48 down_m2 1
 x49 row_6 1
 x49 col_0 1
 x49 up_6 1
 x49 down_6 1
 x50 row_6 1
 x50 col_1 1
 x50 up_7 1
 x50 down_5 1
 x51 row_6 1
 x51 col_2 1
 x51 up_8 1
 x51 down_4 1
 x52 row_6 1
 x52 col_3 1
 x52 up_9 1
 x52 down_3 1
 x53 row_6 1
 x53 col_4 1
 x53 up_10 1
 x53 down_2 1
 x54 row_6 1
 x54 col_5 1
 x54 up_11 1
 x54 down_1 1
 x55 row_6 1
 x55 col_6 1
 x55 up_12 1
 x55 down_0 1
 x56 row_6 1
 x56 col_7 1
 x56 up_13 1
 x56 down_m1 1
 x57 row_7 1
 x57 col_0 1
 x57 up_7 1
 x58 row_7 1
 x58 col_1 1
 x58 up_8 1
 x58 down_6 1
 x59 row_7 1
 x59 col_2 1
 x59 up_9 1
 x59 down_5 1
 x60 row_7 1
 x60 col_3 1
 x60 up_10 1
 x60 down_4 1
 x61 row_7 1
 x61 col_4 1
 x61 up_11 1
 x61 down_3 1
 x62 row_7 1
 x62 col_5 1
 x62 up_12 1
 x62 down_2 1
 x63 row_7 1
 x63 col_6 1
 x63 up_13 1
 x63 down_1 1
 x64 row_7 1
 x64 col_7 1
 x64 down_0 1
RHS
 RHS row_0 1
 RHS row_1 1
 RHS row_2 1
 RHS row_3 1
 RHS row_4 1
 RHS row_5 1
 RHS row_6 1
 RHS row_7 1
 RHS col_0 1
 RHS col_1 1
 RHS col_2 1
 RHS col_3 1
 RHS col_4 1
 RHS col_5 1
 RHS col_6 1
 RHS col_7 1
 RHS up_1 1
 RHS up_2 1
 RHS up_3 1
 RHS up_4 1
 RHS up_5 1
 RHS up_6 1
 RHS up_7 1
 RHS up_8 1
 RHS up_9 1
 RHS up_10 1
 RHS up_11 1
 RHS up_12 1
 RHS up_13 1
 RHS down_m6 1
 RHS down_m5 1
 RHS down_m4 1
 RHS down_m3 1
 RHS down_m2 1
 RHS down_m1 1
 RHS down_0 1
 RHS down_1 1
 RHS down_2 1
 RHS down_3 1
 RHS down_4 1
 RHS down_5 1
 RHS down_6 1
BOUNDS
 BV BND x1
 BV BND x2
 BV BND x3
 BV BND x4
 BV BND x5
 BV BND x6
 BV BND x7
 BV BND x8
 BV BND x9
 BV BND x10
 BV BND x11
 BV BND x12
 BV BND x13
 BV BND x14
 BV BND x15
 BV BND x16
 BV BND x17
 BV BND x18
 BV BND x19
 BV BND x20
 BV BND x21
 BV BND x22
 BV BND x23
 BV BND x24
 BV BND x25
 BV BND x26
 BV BND x27
 BV BND x28
 BV BND x29
 BV BND x30
 BV BND x31
 BV BND x32
 BV BND x33
 BV BND x34
 BV BND x35
 BV BND x36
 BV BND x37
 BV BND x38
 BV BND x39
 BV BND x40
 BV BND x41
 BV BND x42
 BV BND x43
 BV BND x44
 BV BND x45
 BV BND x46
 BV BND x47
 BV BND x48
 BV BND x49
 BV BND x50
 BV BND x51
 BV BND x52
 BV BND x53
 BV BND x54
 BV BND x55
 BV BND x56
 BV BND x57
 BV BND x58
 BV BND x59
 BV BND x60
 BV BND x61
 BV BND x62
 BV BND x63
 BV BND x64
ENDATA
