"""The kernel math: the op builder, the per-dim relation, channel roles, device profiles, the request, outputs and tiles."""
