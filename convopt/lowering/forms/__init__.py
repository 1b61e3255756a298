"""The forms a kernel is emitted in (generic, matmul, named, channels-last) and the choice among them."""
