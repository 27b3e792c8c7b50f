#!/bin/sh
# Installs the external solvers the `external` tests hand the exported models to (Debian 12 packages):
#   cadical, minisat     SAT solver binaries (DIMACS CNF)
#   minizinc, flatzinc   MiniZinc, and the Gecode FlatZinc solver with its MiniZinc solver configuration
#                        (flatzinc provides fzn-gecode and /usr/share/minizinc/solvers/gecode.msc)
#   minisat+             pseudo-Boolean solver (OPB)
#   chromium             headless browser: the HTML report test opens the page in it (screenshot, DOM)
#   chromium-driver      its WebDriver, for browser tests driven from Python
#   default-jre-headless Java 17: the xcsp3 backend runs the ACE and Choco jars that pycsp3 ships
# Needs root. The tests skip when a tool is missing, except under CI (CI=true, 1, yes or on), where a skip fails (tests/ci_skips.py).
set -eu
apt-get update -qq
apt-get install -y -qq --no-install-recommends gcc cadical minisat minizinc flatzinc minisat+ chromium chromium-driver \
    default-jre-headless
minizinc --solvers | grep -q org.gecode.gecode
chromium --version
java -version
