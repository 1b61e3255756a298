"""The kernels convopt-calibrate times: one gradient of one convolution
each, written as torch-mlir's FX importer writes a
`torch.aten.convolution_backward` (f32, one output_mask entry).

The set is small (it must time in about a minute on 2 cores) and chosen so
that every unit of the cost model (kernel/cost.py `Work`) is exercised by
several kernels: dense gathers, scatters and weight kernels of large and
small matmuls (strided, 1x1, 1-D, 3-D, transposed), and depthwise ones
(the channels-last named convolutions and their weight kernel).  Sizes
are those of bench/layers.json and the model suite: the constants are
fitted where the training steps spend their time (kernels of a few hundred
microseconds are dominated by per-call costs and price the matmuls wrong).
"""

from __future__ import annotations

from typing import NamedTuple


class Layer(NamedTuple):
    """A forward convolution: input [n, cin, *spatial], PyTorch's weight."""

    name: str
    n: int
    cin: int
    cout: int
    spatial: tuple[int, ...]
    kernel: tuple[int, ...]
    stride: tuple[int, ...]
    padding: tuple[int, ...]
    groups: int = 1
    transposed: bool = False
    output_padding: tuple[int, ...] = ()

    def out_spatial(self) -> tuple[int, ...]:
        """Regular: (i + 2p - (k-1) - 1) // s + 1; transposed: (i-1)*s - 2p + (k-1) + op + 1."""
        op = self.output_padding or (0,) * len(self.spatial)
        if self.transposed:
            return tuple((i - 1) * s - 2 * p + k + o for i, k, s, p, o in zip(self.spatial, self.kernel, self.stride, self.padding, op))
        return tuple((i + 2 * p - k) // s + 1 for i, k, s, p in zip(self.spatial, self.kernel, self.stride, self.padding))

    def weight_shape(self) -> tuple[int, ...]:
        lead = (self.cin, self.cout // self.groups) if self.transposed else (self.cout, self.cin // self.groups)
        return (*lead, *self.kernel)

    def shapes(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """(grad_output, input, weight) shapes: the function's arguments."""
        return (self.n, self.cout, *self.out_spatial()), (self.n, self.cin, *self.spatial), self.weight_shape()


GRADIENTS = ("grad_input", "grad_weight")


class Kernel(NamedTuple):
    layer: Layer
    gradient: str

    @property
    def name(self) -> str:
        return f"{self.layer.name} {self.gradient}"


def _both(*layers: Layer) -> tuple[Kernel, ...]:
    return tuple(Kernel(layer, g) for layer in layers for g in GRADIENTS)


KERNELS: tuple[Kernel, ...] = _both(
    Layer("resnet-3x3-s1", 2, 128, 128, (28, 28), (3, 3), (1, 1), (1, 1)),
    Layer("resnet-3x3-s2", 2, 64, 128, (56, 56), (3, 3), (2, 2), (1, 1)),
    Layer("resnet50-1x1", 2, 256, 64, (56, 56), (1, 1), (1, 1), (0, 0)),
    Layer("resnext-g32", 2, 128, 128, (28, 28), (3, 3), (1, 1), (1, 1), groups=32),
    Layer("inception-1x7", 2, 64, 64, (17, 17), (1, 7), (1, 1), (0, 3)),
    Layer("small-3x3", 2, 16, 24, (28, 28), (3, 3), (1, 1), (1, 1)),
    Layer("mobilenet-dw", 2, 144, 144, (28, 28), (3, 3), (1, 1), (1, 1), groups=144),
    Layer("mobilenet-dw-s2", 2, 96, 96, (56, 56), (3, 3), (2, 2), (1, 1), groups=96),
    Layer("efficientnet-dw5x5", 2, 120, 120, (28, 28), (5, 5), (1, 1), (2, 2), groups=120),
    Layer("c3d-3x3x3", 2, 32, 32, (8, 28, 28), (3, 3, 3), (1, 1, 1), (1, 1, 1)),
    Layer("audio-1d-s2", 2, 64, 64, (4000,), (3,), (2,), (1,)),
    Layer("unet-up", 2, 128, 64, (14, 14), (3, 3), (2, 2), (1, 1), transposed=True, output_padding=(1, 1)),
)
"""The full calibration set: 24 kernels, the sizes of bench/layers.json
(0.1-5 ms each here)."""

QUICK: tuple[Kernel, ...] = (KERNELS[0], KERNELS[13])
"""`--quick`: one dense grad_input and one depthwise weight kernel (a smoke
run; its constants fit only what they exercise, the rest stay the class's)."""


def _vt(shape: tuple[int, ...]) -> str:
    return f"!torch.vtensor<[{','.join(map(str, shape))}],f32>"


def torch_text(kernel: Kernel) -> str:
    """The kernel as a module with one function @main(grad_output, input,
    weight), as torch-mlir's FX importer writes it."""
    layer = kernel.layer
    go, x, w = (_vt(s) for s in layer.shapes())
    result = x if kernel.gradient == "grad_input" else w
    mask = ("%true, %false" if kernel.gradient == "grad_input" else "%false, %true") + ", %false"
    lines = [f"func.func @main(%go: {go}, %x: {x}, %w: {w}) -> {result} {{"]
    lists = []
    for name, values in (("stride", layer.stride), ("padding", layer.padding), ("dilation", (1,) * len(layer.stride)),
                         ("outpad", layer.output_padding or (0,) * len(layer.stride))):
        elems = []
        for i, v in enumerate(values):
            lines.append(f"  %{name}{i} = torch.constant.int {v}")
            elems.append(f"%{name}{i}")
        lines.append(f"  %{name} = torch.prim.ListConstruct {', '.join(elems)} : ({', '.join(['!torch.int'] * len(elems))}) -> !torch.list<int>")
        lists.append(f"%{name}")
    lines += [
        "  %none = torch.constant.none",
        f"  %transposed = torch.constant.bool {'true' if layer.transposed else 'false'}",
        f"  %groups = torch.constant.int {layer.groups}",
        "  %true = torch.constant.bool true",
        "  %false = torch.constant.bool false",
        f"  %mask = torch.prim.ListConstruct {mask} : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>",
        f"  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, {lists[0]}, {lists[1]}, {lists[2]}, %transposed, {lists[3]}, %groups, %mask : "
        f"{go}, {x}, {w}, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> "
        f"{x if kernel.gradient == 'grad_input' else '!torch.none'}, {w if kernel.gradient == 'grad_weight' else '!torch.none'}, !torch.none",
        f"  return %r#{0 if kernel.gradient == 'grad_input' else 1} : {result}",
        "}",
    ]
    return "\n".join(lines) + "\n"
