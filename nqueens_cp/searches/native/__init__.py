"""The machine-code toolchain of the counting kernel: the constellation search compiled as one C
function by numba, its calling convention, its machine code kept on disk, and the loader that runs
it through llvmlite and ctypes without importing numba."""
