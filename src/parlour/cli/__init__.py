"""The ``parlour`` command line."""
