"""The forms a kernel is emitted in, each registering itself in registry.py
(generic_form, named_form over named and channels_last, matmul_forms), and
kernels.emit_kernel: the registry's choice, then its emitter.  Importing
this package imports no form (the command line reads registry.names())."""
