"""The comparison harness: run configurations in worker processes, cross-validate, record.

Modules, in the order data flows through them:

* ``configs``     - a configuration is a backend plus options (``sat:encoding=pairwise``);
* ``tasks``       - what a run asks of a backend (all solutions, the first one, ...);
* ``worker``      - inside a worker process: time the backend, check and fingerprint its answers
                  (:mod:`nqueens_cp.core.fingerprint`);
* ``runner``      - one worker process per run, timeouts, crashes, skipping after a timeout;
* ``validation``  - the cross-validation of one board size's runs, as ``Check`` records;
* ``results``     - the immutable data model, versioned JSON and CSV;
* ``environment`` - where the comparison ran;
* ``comparison``  - the whole comparison: plan, run, validate, checkpoint, interruption.
"""
