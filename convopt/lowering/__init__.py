"""Lowering torch convolutions to linalg, in three layers (bottom up):
kernel/ (the kernel math and the requests), forms/ (the forms a kernel is
emitted in, and the choice among them), patterns/ (reading torch ops, the
rewrite patterns and the passes that call the kernels)."""
