"""What every backend stands on: the :class:`~nqueens_cp.backends.framework.base.Backend` contract,
the registry of names, configurations (a backend with its options), the default backend of each
question, the model-size bounds, and the base of the count-only backends. The adapters themselves
are the modules of :mod:`nqueens_cp.backends`, one per backend."""
