"""The shared vocabulary every other package speaks: the instance and its solutions, the
exceptions, the board's symmetries, the independent checker, the published counts (OEIS), result
fingerprints, argument checks, and boards drawn as SVG."""
