"""Helpers for testing backends, including backends from other packages (see ``backend_contract``)."""
