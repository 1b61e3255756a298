"""The real-model suite's registry: small versions of real networks, their
seeded example arguments and their PyTorch-eager reference gradients.

Imported by ``generate.py`` (which traces and imports each model into the
``*.mlir`` file next to it), by ``test_models.py`` and by ``bench/models.py``.
It needs only ``torch``; nothing here imports torch_mlir or IREE.

Every model is one *training step's backward* as a function of its weights:

    main(*inputs, *params, *buffers, *grad_outs)
        -> (*grad_inputs, *grad_params, *new_buffers)

* ``inputs`` are the data batch.  Whole networks (ResNet-18, the MobileNetV2
  slice, the UNet, the audio encoder, the ConvNeXt slice, the dynamic-batch
  CNN) do not differentiate their image/waveform batch: no ``grad_inputs``,
  and their first convolution_backward has output_mask [false, true, ...].
  The two *blocks* (the 3-D video block and the ResNeXt block) stand for a
  block inside a network, whose input is an activation: their gradient of
  the input is returned too (``input_grad=True``).
* ``params`` are ``model.named_parameters()`` in order, ``buffers``
  ``model.named_buffers()`` in order, ``grad_outs`` the cotangents of the
  model's outputs.
* BatchNorm runs in **training mode** (batch statistics, as in a real
  training step); its running statistics are buffers, passed in as
  arguments and returned updated (``new_buffers``: running_mean,
  running_var, num_batches_tracked per BatchNorm, in ``named_buffers``
  order).  The gradients therefore go through the batch statistics.

``ModelSpec.arguments()`` makes the argument list (seeded: the same values
on every call), ``ModelSpec.reference(args)`` the expected results with
PyTorch eager autograd (``torch.autograd.grad`` on the eager module, not the
traced function), by default in float64 on the float32 argument values.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F

# --------------------------------------------------------------------------
# Models
# --------------------------------------------------------------------------


class BasicBlock(nn.Module):
    """torchvision's ResNet BasicBlock: 3x3 (strided) - BN - ReLU - 3x3 - BN,
    1x1 strided conv - BN on the shortcut when the shape changes."""

    def __init__(self, cin: int, cout: int, stride: int):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.downsample: Optional[nn.Sequential] = None
        if stride != 1 or cin != cout:
            self.downsample = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        identity = x if self.downsample is None else self.downsample(x)
        return F.relu(out + identity)


class ResNet18(nn.Module):
    """ResNet-18 (torchvision's layout) at reduced width: 7x7/2 stem, BN,
    ReLU, 3x3/2 max pool, 4 stages of 2 basic blocks (stages 2-4 start with
    a strided 3x3 and a 1x1/2 downsample), global average pool, linear."""

    def __init__(self, width: int = 16, num_classes: int = 10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, 7, 2, 3, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        stages = []
        cin = width
        for i, c in enumerate([width, 2 * width, 4 * width, 8 * width]):
            stages.append(nn.Sequential(BasicBlock(cin, c, 1 if i == 0 else 2), BasicBlock(c, c, 1)))
            cin = c
        self.layer1, self.layer2, self.layer3, self.layer4 = stages
        self.fc = nn.Linear(cin, num_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 3, 2, 1)
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


class InvertedResidual(nn.Module):
    """MobileNetV2's block: 1x1 expand - BN - ReLU6 (when expand > 1),
    depthwise 3x3 (stride s) - BN - ReLU6, 1x1 project - BN, residual when
    the stride is 1 and the channels match."""

    def __init__(self, cin: int, cout: int, stride: int, expand: int):
        super().__init__()
        hidden = cin * expand
        layers: list[nn.Module] = []
        if expand != 1:
            layers += [nn.Conv2d(cin, hidden, 1, bias=False), nn.BatchNorm2d(hidden), nn.ReLU6()]
        layers += [
            nn.Conv2d(hidden, hidden, 3, stride, 1, groups=hidden, bias=False), nn.BatchNorm2d(hidden), nn.ReLU6(),
            nn.Conv2d(hidden, cout, 1, bias=False), nn.BatchNorm2d(cout),
        ]
        self.conv = nn.Sequential(*layers)
        self.residual = stride == 1 and cin == cout

    def forward(self, x):
        y = self.conv(x)
        return x + y if self.residual else y


class MobileNetV2Slice(nn.Module):
    """The first layers of MobileNetV2 at reduced width: 3x3/2 stem - BN -
    ReLU6, then three inverted residuals: t=1 (no expansion), t=6 stride 2,
    t=6 stride 1 with residual."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU6())
        self.blocks = nn.Sequential(
            InvertedResidual(16, 8, 1, 1),
            InvertedResidual(8, 12, 2, 6),
            InvertedResidual(12, 12, 1, 6),
        )

    def forward(self, x):
        return self.blocks(self.stem(x))


def double_conv(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.ReLU(), nn.Conv2d(cout, cout, 3, padding=1), nn.ReLU())


class UNet(nn.Module):
    """A two-level UNet (convolutions with bias, no normalisation): encoder
    double convs and 2x2 max pools, a bottleneck, decoder ConvTranspose2d
    upsampling (2x2/2, and 3x3/2 with padding 1 and output_padding 1)
    concatenated with the encoder's skip features, a 1x1 head."""

    def __init__(self):
        super().__init__()
        self.enc1 = double_conv(3, 8)
        self.enc2 = double_conv(8, 16)
        self.mid = double_conv(16, 32)
        self.up2 = nn.ConvTranspose2d(32, 16, 2, stride=2)
        self.dec2 = double_conv(32, 16)
        self.up1 = nn.ConvTranspose2d(16, 8, 3, stride=2, padding=1, output_padding=1)
        self.dec1 = double_conv(16, 8)
        self.head = nn.Conv2d(8, 2, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(F.max_pool2d(e1, 2))
        m = self.mid(F.max_pool2d(e2, 2))
        d2 = self.dec2(torch.cat([self.up2(m), e2], dim=1))
        d1 = self.dec1(torch.cat([self.up1(d2), e1], dim=1))
        return self.head(d1)


class AudioFeatureEncoder(nn.Module):
    """wav2vec2's convolutional feature encoder ("group_norm" mode) at
    reduced width: Conv1d 10/5 - GroupNorm(C groups, C channels) - GELU, four
    Conv1d 3/2 - GELU, two Conv1d 2/2 - GELU; no conv bias, as in wav2vec2."""

    def __init__(self, channels: int = 32):
        super().__init__()
        layers: list[nn.Module] = [nn.Conv1d(1, channels, 10, 5, bias=False), nn.GroupNorm(channels, channels), nn.GELU()]
        for k in [3, 3, 3, 3, 2, 2]:
            layers += [nn.Conv1d(channels, channels, k, 2, bias=False), nn.GELU()]
        self.conv_layers = nn.Sequential(*layers)

    def forward(self, wave):
        return self.conv_layers(wave)


class VideoBlock(nn.Module):
    """A 3-D video block: Conv3d 3x3x3 - BN3d - ReLU, then an R(2+1)D-style
    factorized pair, spatial (1,3,3) stride (1,2,2) - BN3d - ReLU and
    temporal (3,1,1) - BN3d, with a 1x1x1 stride (1,2,2) projection - BN3d
    on the shortcut, add, ReLU."""

    def __init__(self, cin: int = 8, c: int = 16):
        super().__init__()
        self.conv1 = nn.Conv3d(cin, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm3d(c)
        self.spatial = nn.Conv3d(c, c, (1, 3, 3), stride=(1, 2, 2), padding=(0, 1, 1), bias=False)
        self.bn2 = nn.BatchNorm3d(c)
        self.temporal = nn.Conv3d(c, c, (3, 1, 1), padding=(1, 0, 0), bias=False)
        self.bn3 = nn.BatchNorm3d(c)
        self.proj = nn.Conv3d(c, c, 1, stride=(1, 2, 2), bias=False)
        self.bn_proj = nn.BatchNorm3d(c)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        y = self.bn3(self.temporal(F.relu(self.bn2(self.spatial(x)))))
        return F.relu(y + self.bn_proj(self.proj(x)))


class ResNeXtBlock(nn.Module):
    """ResNeXt's bottleneck with cardinality 32 (the 32x4d block): 1x1 -
    BN - ReLU, grouped 3x3 (groups 32, 4 channels per group, stride 2) - BN -
    ReLU, 1x1 - BN, 1x1/2 projection - BN on the shortcut, add, ReLU."""

    def __init__(self, cin: int = 64, width: int = 128, cout: int = 256, groups: int = 32, stride: int = 2):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, width, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.conv2 = nn.Conv2d(width, width, 3, stride, 1, groups=groups, bias=False)
        self.bn2 = nn.BatchNorm2d(width)
        self.conv3 = nn.Conv2d(width, cout, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(cout)
        self.downsample = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = F.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        return F.relu(out + self.downsample(x))


class DilatedCNN(nn.Module):
    """A small classifier traced with a dynamic batch: 3x3 - BN - ReLU,
    dilated 3x3 (dilation 2, padding 2) - BN - ReLU, 3x3/2 - BN - ReLU,
    global average pool, linear."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 16, 3, padding=2, dilation=2, bias=False)
        self.bn2 = nn.BatchNorm2d(16)
        self.conv3 = nn.Conv2d(16, 32, 3, stride=2, padding=1, bias=False)
        self.bn3 = nn.BatchNorm2d(32)
        self.fc = nn.Linear(32, 10)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.relu(self.bn2(self.conv2(x)))
        x = F.relu(self.bn3(self.conv3(x)))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


class LayerNorm2d(nn.LayerNorm):
    """LayerNorm over the channels of an NCHW tensor (ConvNeXt's
    channels-first LayerNorm): permute to NHWC, normalise, permute back."""

    def forward(self, x):
        return super().forward(x.permute(0, 2, 3, 1)).permute(0, 3, 1, 2)


class ConvNeXtBlock(nn.Module):
    """ConvNeXt's block: depthwise 7x7 (padding 3), permute to NHWC,
    LayerNorm, Linear 4x - GELU - Linear, layer scale, permute back,
    residual."""

    def __init__(self, c: int):
        super().__init__()
        self.dwconv = nn.Conv2d(c, c, 7, padding=3, groups=c)
        self.norm = nn.LayerNorm(c)
        self.pwconv1 = nn.Linear(c, 4 * c)
        self.pwconv2 = nn.Linear(4 * c, c)
        self.gamma = nn.Parameter(torch.full((c,), 0.5))

    def forward(self, x):
        y = self.dwconv(x).permute(0, 2, 3, 1)
        y = self.gamma * self.pwconv2(F.gelu(self.pwconv1(self.norm(y))))
        return x + y.permute(0, 3, 1, 2)


class ConvNeXtSlice(nn.Module):
    """The start of ConvNeXt at reduced width, run in channels-last memory
    format (as ConvNeXt is usually trained): 4x4/4 patchify stem - LayerNorm2d,
    a block, LayerNorm2d - 2x2/2 downsampling conv, a block."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 4, stride=4), LayerNorm2d(16))
        self.block1 = ConvNeXtBlock(16)
        self.down = nn.Sequential(LayerNorm2d(16), nn.Conv2d(16, 32, 2, stride=2))
        self.block2 = ConvNeXtBlock(32)

    def forward(self, x):
        return self.block2(self.down(self.block1(self.stem(x))))


class Bottleneck(nn.Module):
    """torchvision's ResNet-50 Bottleneck: 1x1 - BN - ReLU, 3x3 (stride s)
    - BN - ReLU, 1x1 (x4 expansion) - BN, 1x1/s projection - BN on the
    shortcut when the shape changes, add, ReLU."""

    def __init__(self, cin: int, width: int, stride: int, expansion: int = 4):
        super().__init__()
        cout = width * expansion
        self.conv1 = nn.Conv2d(cin, width, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.conv2 = nn.Conv2d(width, width, 3, stride, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(width)
        self.conv3 = nn.Conv2d(width, cout, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(cout)
        self.downsample: Optional[nn.Sequential] = None
        if stride != 1 or cin != cout:
            self.downsample = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = F.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        identity = x if self.downsample is None else self.downsample(x)
        return F.relu(out + identity)


class ResNet50Slim(nn.Module):
    """A ResNet-50-layout network at reduced width and depth: 7x7/2 stem -
    BN - ReLU - 3x3/2 max pool, four stages of bottlenecks (the first of
    stages 2-4 strided), global average pool, linear."""

    def __init__(self, width: int = 8, blocks: tuple[int, ...] = (1, 1, 1, 1), num_classes: int = 10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, width * 2, 7, 2, 3, bias=False), nn.BatchNorm2d(width * 2), nn.ReLU())
        layers: list[nn.Module] = []
        cin = width * 2
        for i, n in enumerate(blocks):
            w = width * 2 ** i
            for j in range(n):
                layers.append(Bottleneck(cin, w, 2 if (j == 0 and i > 0) else 1))
                cin = w * 4
        self.layers = nn.Sequential(*layers)
        self.fc = nn.Linear(cin, num_classes)

    def forward(self, x):
        x = F.max_pool2d(self.stem(x), 3, 2, 1)
        x = self.layers(x)
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


def channel_shuffle(x: torch.Tensor, groups: int) -> torch.Tensor:
    """ShuffleNet's channel shuffle: [n, g*c, h, w] -> view [n, g, c, h, w],
    swap g and c, flatten back."""
    n, c, h, w = x.shape
    return x.view(n, groups, c // groups, h, w).transpose(1, 2).reshape(n, c, h, w)


class ShuffleUnit(nn.Module):
    """ShuffleNetV2's unit.  Stride 1: split the channels in two, the second
    half through 1x1 - BN - ReLU, depthwise 3x3 - BN, 1x1 - BN - ReLU,
    concatenate with the first half, shuffle (2 groups).  Stride 2: both
    branches on the whole input (the left one depthwise 3x3/2 - BN - 1x1 -
    BN - ReLU), concatenated and shuffled."""

    def __init__(self, cin: int, cout: int, stride: int):
        super().__init__()
        self.stride = stride
        half = cout // 2
        bin_ = cin if stride == 2 else cin // 2
        self.left: Optional[nn.Sequential] = None
        if stride == 2:
            self.left = nn.Sequential(
                nn.Conv2d(cin, cin, 3, 2, 1, groups=cin, bias=False), nn.BatchNorm2d(cin),
                nn.Conv2d(cin, half, 1, bias=False), nn.BatchNorm2d(half), nn.ReLU(),
            )
        self.right = nn.Sequential(
            nn.Conv2d(bin_, half, 1, bias=False), nn.BatchNorm2d(half), nn.ReLU(),
            nn.Conv2d(half, half, 3, stride, 1, groups=half, bias=False), nn.BatchNorm2d(half),
            nn.Conv2d(half, half, 1, bias=False), nn.BatchNorm2d(half), nn.ReLU(),
        )

    def forward(self, x):
        if self.left is None:
            a, b = x.chunk(2, dim=1)
            out = torch.cat([a, self.right(b)], dim=1)
        else:
            out = torch.cat([self.left(x), self.right(x)], dim=1)
        return channel_shuffle(out, 2)


class ShuffleNetV2Slim(nn.Module):
    """ShuffleNetV2 at reduced width: 3x3/2 stem - BN - ReLU - 3x3/2 max
    pool, three stages (a stride-2 unit, then stride-1 units with channel
    split), 1x1 conv - BN - ReLU, global average pool, linear."""

    def __init__(self, widths: tuple[int, ...] = (24, 48, 96), repeats: tuple[int, ...] = (1, 2, 1), num_classes: int = 10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU())
        layers: list[nn.Module] = []
        cin = 16
        for w, r in zip(widths, repeats):
            layers.append(ShuffleUnit(cin, w, 2))
            layers += [ShuffleUnit(w, w, 1) for _ in range(r)]
            cin = w
        self.stages = nn.Sequential(*layers)
        self.head = nn.Sequential(nn.Conv2d(cin, 128, 1, bias=False), nn.BatchNorm2d(128), nn.ReLU())
        self.fc = nn.Linear(128, num_classes)

    def forward(self, x):
        x = self.head(self.stages(F.max_pool2d(self.stem(x), 3, 2, 1)))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


class SqueezeExcite(nn.Module):
    """Squeeze-and-excite: global average pool, 1x1 reduce (with bias) -
    SiLU, 1x1 expand (with bias) - sigmoid, scale the input channels."""

    def __init__(self, c: int, reduced: int):
        super().__init__()
        self.reduce = nn.Conv2d(c, reduced, 1)
        self.expand = nn.Conv2d(reduced, c, 1)

    def forward(self, x):
        s = F.adaptive_avg_pool2d(x, 1)
        return x * torch.sigmoid(self.expand(F.silu(self.reduce(s))))


class MBConv(nn.Module):
    """EfficientNet's MBConv: 1x1 expand - BN - SiLU, depthwise kxk
    (stride s) - BN - SiLU, squeeze-excite (1/4 of the block's input
    channels), 1x1 project - BN, residual when the shape allows."""

    def __init__(self, cin: int, cout: int, kernel: int, stride: int, expand: int):
        super().__init__()
        hidden = cin * expand
        self.block = nn.Sequential(
            nn.Conv2d(cin, hidden, 1, bias=False), nn.BatchNorm2d(hidden), nn.SiLU(),
            nn.Conv2d(hidden, hidden, kernel, stride, kernel // 2, groups=hidden, bias=False), nn.BatchNorm2d(hidden), nn.SiLU(),
            SqueezeExcite(hidden, max(1, cin // 4)),
            nn.Conv2d(hidden, cout, 1, bias=False), nn.BatchNorm2d(cout),
        )
        self.residual = stride == 1 and cin == cout

    def forward(self, x):
        y = self.block(x)
        return x + y if self.residual else y


class EfficientNetSlim(nn.Module):
    """EfficientNet-B0's layout at reduced width and depth: 3x3/2 stem - BN -
    SiLU, MBConv blocks with 3x3 and 5x5 depthwise kernels (strided and
    residual ones) and squeeze-excite, 1x1 head - BN - SiLU, global average
    pool, linear."""

    def __init__(self, num_classes: int = 10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1, bias=False), nn.BatchNorm2d(16), nn.SiLU())
        self.blocks = nn.Sequential(
            MBConv(16, 16, 3, 1, 1),
            MBConv(16, 24, 3, 2, 4),
            MBConv(24, 24, 3, 1, 4),
            MBConv(24, 40, 5, 2, 4),
            MBConv(40, 40, 5, 1, 4),
        )
        self.head = nn.Sequential(nn.Conv2d(40, 128, 1, bias=False), nn.BatchNorm2d(128), nn.SiLU())
        self.fc = nn.Linear(128, num_classes)

    def forward(self, x):
        x = self.head(self.blocks(self.stem(x)))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


class C3D(nn.Module):
    """C3D's layout at reduced width: 3x3x3 convolutions (padding 1, with
    bias) - ReLU, 3-D max pools (1x2x2 first, then 2x2x2), a final global
    average pool and linear."""

    def __init__(self, widths: tuple[int, ...] = (16, 32, 64, 64), num_classes: int = 10):
        super().__init__()
        self.convs = nn.ModuleList()
        cin = 3
        for w in widths:
            self.convs.append(nn.Conv3d(cin, w, 3, padding=1))
            cin = w
        self.fc = nn.Linear(cin, num_classes)

    def forward(self, x):
        for i, conv in enumerate(self.convs):
            x = F.relu(conv(x))
            if i < len(self.convs) - 1:
                x = F.max_pool3d(x, (1, 2, 2) if i == 0 else 2)
        return self.fc(torch.flatten(F.adaptive_avg_pool3d(x, 1), 1))


class R2Plus1DBlock(nn.Module):
    """R(2+1)D's residual block: two factorized convolutions, each a
    spatial (1,3,3) (stride (1,s,s)) - BN3d - ReLU then a temporal (3,1,1)
    (stride (s,1,1)) - BN3d, with a 1x1x1 stride s projection - BN3d on the
    shortcut when the shape changes, add, ReLU."""

    def __init__(self, cin: int, cout: int, mid: int, stride: int):
        super().__init__()
        def factorized(ci: int, s: int) -> nn.Sequential:
            return nn.Sequential(
                nn.Conv3d(ci, mid, (1, 3, 3), (1, s, s), (0, 1, 1), bias=False), nn.BatchNorm3d(mid), nn.ReLU(),
                nn.Conv3d(mid, cout, (3, 1, 1), (s, 1, 1), (1, 0, 0), bias=False), nn.BatchNorm3d(cout),
            )
        self.conv1 = factorized(cin, stride)
        self.conv2 = factorized(cout, 1)
        self.downsample: Optional[nn.Sequential] = None
        if stride != 1 or cin != cout:
            self.downsample = nn.Sequential(nn.Conv3d(cin, cout, 1, stride, bias=False), nn.BatchNorm3d(cout))

    def forward(self, x):
        out = self.conv2(F.relu(self.conv1(x)))
        identity = x if self.downsample is None else self.downsample(x)
        return F.relu(out + identity)


class R2Plus1D(nn.Module):
    """A factorized (2+1)-D video ResNet (R(2+1)D-18's layout at reduced
    width and depth): a (1,7,7)/(1,2,2) spatial stem - BN3d - ReLU and a
    (3,1,1) temporal stem - BN3d - ReLU, three residual blocks (the last two
    strided in time and space), global average pool, linear."""

    def __init__(self, width: int = 16, num_classes: int = 10):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv3d(3, 24, (1, 7, 7), (1, 2, 2), (0, 3, 3), bias=False), nn.BatchNorm3d(24), nn.ReLU(),
            nn.Conv3d(24, width, (3, 1, 1), 1, (1, 0, 0), bias=False), nn.BatchNorm3d(width), nn.ReLU(),
        )
        self.blocks = nn.Sequential(
            R2Plus1DBlock(width, width, width, 1),
            R2Plus1DBlock(width, width * 2, width * 2, 2),
            R2Plus1DBlock(width * 2, width * 4, width * 3, 2),
        )
        self.fc = nn.Linear(width * 4, num_classes)

    def forward(self, x):
        x = self.blocks(self.stem(x))
        return self.fc(torch.flatten(F.adaptive_avg_pool3d(x, 1), 1))


class DCGANGenerator(nn.Module):
    """DCGAN's generator at reduced width: a latent [n, z, 1, 1] through
    ConvTranspose2d 4x4 (stride 1, no padding) to 4x4, then 4x4 stride 2
    padding 1 transposed convolutions doubling the size to 32x32, BN - ReLU
    between them, tanh at the end."""

    def __init__(self, z: int = 64, width: int = 32, channels: int = 3):
        super().__init__()
        self.net = nn.Sequential(
            nn.ConvTranspose2d(z, width * 4, 4, 1, 0, bias=False), nn.BatchNorm2d(width * 4), nn.ReLU(),
            nn.ConvTranspose2d(width * 4, width * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(width * 2), nn.ReLU(),
            nn.ConvTranspose2d(width * 2, width, 4, 2, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU(),
            nn.ConvTranspose2d(width, channels, 4, 2, 1, bias=False), nn.Tanh(),
        )

    def forward(self, z):
        return self.net(z)


# --------------------------------------------------------------------------
# Average-pooling families (issue 25): DenseNet-style and Inception-style
# nets, whose backward holds avg_pool2d_backward (convopt --lower-pool-bwd).
# Kept together at the end of the models; their _register calls are at the
# end of the file.
# --------------------------------------------------------------------------


class DenseLayer(nn.Module):
    """DenseNet-BC's layer: BN - ReLU - 1x1 (4*growth) - BN - ReLU - 3x3
    (growth, padding 1); its output is concatenated to its input."""

    def __init__(self, cin: int, growth: int):
        super().__init__()
        self.bn1 = nn.BatchNorm2d(cin)
        self.conv1 = nn.Conv2d(cin, 4 * growth, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(4 * growth)
        self.conv2 = nn.Conv2d(4 * growth, growth, 3, padding=1, bias=False)

    def forward(self, x):
        y = self.conv1(F.relu(self.bn1(x)))
        return torch.cat([x, self.conv2(F.relu(self.bn2(y)))], 1)


class Transition(nn.Module):
    """DenseNet's transition: BN - ReLU - 1x1 conv halving the channels -
    2x2 average pool, stride 2."""

    def __init__(self, cin: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(cin)
        self.conv = nn.Conv2d(cin, cin // 2, 1, bias=False)
        self.pool = nn.AvgPool2d(2, 2)

    def forward(self, x):
        return self.pool(self.conv(F.relu(self.bn(x))))


class DenseNetSmall(nn.Module):
    """A DenseNet-BC (growth 12, as for CIFAR) at reduced depth: 3x3 stem,
    dense blocks of 3, 3 and 2 layers with two transitions between them,
    BN - ReLU, global 8x8 average pool (avg_pool2d, as DenseNet-BC for CIFAR
    has it), linear.  (Growth 8 with these seeds put a ReLU input 5e-7 from
    0, whose mask float32 flips: a 3.5e-2 gradient difference from the
    float64 reference in every lowering, IREE's own included.)"""

    def __init__(self, growth: int = 12):
        super().__init__()
        c = 2 * growth
        layers: list[nn.Module] = [nn.Conv2d(3, c, 3, padding=1, bias=False)]
        for i, n in enumerate((3, 3, 2)):
            for _ in range(n):
                layers.append(DenseLayer(c, growth))
                c += growth
            if i < 2:
                layers.append(Transition(c))
                c //= 2
        self.features = nn.Sequential(*layers)
        self.bn = nn.BatchNorm2d(c)
        self.fc = nn.Linear(c, 10)

    def forward(self, x):
        x = F.avg_pool2d(F.relu(self.bn(self.features(x))), 8)
        return self.fc(torch.flatten(x, 1))


class BasicConv(nn.Module):
    """Inception-v3's conv unit: conv (no bias) - BN (eps 0.001) - ReLU."""

    def __init__(self, cin: int, cout: int, kernel, stride=1, padding=0):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, kernel, stride=stride, padding=padding, bias=False)
        self.bn = nn.BatchNorm2d(cout, eps=0.001)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)))


class InceptionA(nn.Module):
    """Inception-v3's 35x35 block: 1x1 | 1x1 - 5x5 | 1x1 - 3x3 - 3x3 |
    3x3 average pool (stride 1, padding 1) - 1x1, concatenated."""

    def __init__(self, cin: int):
        super().__init__()
        self.b1 = BasicConv(cin, 16, 1)
        self.b5 = nn.Sequential(BasicConv(cin, 12, 1), BasicConv(12, 16, 5, padding=2))
        self.b3 = nn.Sequential(BasicConv(cin, 16, 1), BasicConv(16, 24, 3, padding=1), BasicConv(24, 24, 3, padding=1))
        self.bp = BasicConv(cin, 8, 1)

    def forward(self, x):
        pool = F.avg_pool2d(x, 3, stride=1, padding=1)
        return torch.cat([self.b1(x), self.b5(x), self.b3(x), self.bp(pool)], 1)


class InceptionReduction(nn.Module):
    """Inception-v3's grid reduction: 3x3 stride 2 | 1x1 - 3x3 - 3x3 stride
    2 | 3x3 max pool stride 2 (all padding 1 here, to keep 16 -> 8)."""

    def __init__(self, cin: int):
        super().__init__()
        self.b3 = BasicConv(cin, 24, 3, stride=2, padding=1)
        self.bd = nn.Sequential(BasicConv(cin, 12, 1), BasicConv(12, 16, 3, padding=1), BasicConv(16, 16, 3, stride=2, padding=1))

    def forward(self, x):
        return torch.cat([self.b3(x), self.bd(x), F.max_pool2d(x, 3, stride=2, padding=1)], 1)


class InceptionC(nn.Module):
    """Inception-v3's 17x17 block with factorized 7x7s: 1x1 | 1x1 - 1x7 -
    7x1 | 1x1 - 7x1 - 1x7 - 7x1 - 1x7 | 3x3 average pool (stride 1,
    padding 1) - 1x1."""

    def __init__(self, cin: int, c7: int = 12):
        super().__init__()
        self.b1 = BasicConv(cin, 16, 1)
        self.b7 = nn.Sequential(BasicConv(cin, c7, 1), BasicConv(c7, c7, (1, 7), padding=(0, 3)), BasicConv(c7, 16, (7, 1), padding=(3, 0)))
        self.b77 = nn.Sequential(
            BasicConv(cin, c7, 1), BasicConv(c7, c7, (7, 1), padding=(3, 0)), BasicConv(c7, c7, (1, 7), padding=(0, 3)),
            BasicConv(c7, c7, (7, 1), padding=(3, 0)), BasicConv(c7, 16, (1, 7), padding=(0, 3)),
        )
        self.bp = BasicConv(cin, 16, 1)

    def forward(self, x):
        pool = F.avg_pool2d(x, 3, stride=1, padding=1)
        return torch.cat([self.b1(x), self.b7(x), self.b77(x), self.bp(pool)], 1)


class InceptionE(nn.Module):
    """Inception-v3's 8x8 block with parallel asymmetric kernels: 1x1 |
    1x1 - (1x3 | 3x1) | 1x1 - 3x3 - (1x3 | 3x1) | 3x3 average pool (stride
    1, padding 1) - 1x1."""

    def __init__(self, cin: int):
        super().__init__()
        self.b1 = BasicConv(cin, 16, 1)
        self.b3 = BasicConv(cin, 16, 1)
        self.b3a, self.b3b = BasicConv(16, 12, (1, 3), padding=(0, 1)), BasicConv(16, 12, (3, 1), padding=(1, 0))
        self.bd = nn.Sequential(BasicConv(cin, 16, 1), BasicConv(16, 16, 3, padding=1))
        self.bda, self.bdb = BasicConv(16, 12, (1, 3), padding=(0, 1)), BasicConv(16, 12, (3, 1), padding=(1, 0))
        self.bp = BasicConv(cin, 8, 1)

    def forward(self, x):
        y3, yd = self.b3(x), self.bd(x)
        pool = F.avg_pool2d(x, 3, stride=1, padding=1)
        return torch.cat([self.b1(x), self.b3a(y3), self.b3b(y3), self.bda(yd), self.bdb(yd), self.bp(pool)], 1)


class InceptionSmall(nn.Module):
    """An Inception-v3 at reduced width: 3x3 stride 2 and 3x3 stem, an A
    block (16x16), a grid reduction (to 8x8), a C block (1x7/7x1) and an E
    block (1x3/3x1 in parallel), global 8x8 average pool, linear."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(BasicConv(3, 16, 3, stride=2, padding=1), BasicConv(16, 24, 3, padding=1))
        self.a = InceptionA(24)  # -> 64
        self.red = InceptionReduction(64)  # -> 24 + 16 + 64 = 104
        self.c = InceptionC(104)  # -> 64
        self.e = InceptionE(64)  # -> 72
        self.fc = nn.Linear(72, 10)

    def forward(self, x):
        x = self.e(self.c(self.red(self.a(self.stem(x)))))
        return self.fc(torch.flatten(F.avg_pool2d(x, 8), 1))


# --------------------------------------------------------------------------
# The registry
# --------------------------------------------------------------------------

_NORMS = (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d, nn.GroupNorm, nn.LayerNorm)
_CONVS = (nn.Conv1d, nn.Conv2d, nn.Conv3d, nn.ConvTranspose1d, nn.ConvTranspose2d, nn.ConvTranspose3d)


@dataclass(frozen=True)
class ModelSpec:
    """One model of the suite.

    name      the key in MODELS; the IR is ``<name>.mlir`` next to this file
    make      builds the eager module (called under torch.manual_seed(0))
    inputs    shapes of the data batch (batch first)
    features  the convolution features its convolution_backward ops cover
    input_grad  whether the gradient of the inputs is returned (blocks)
    dynamic_batch  traced with a symbolic batch (make_fx tracing_mode
              "symbolic", imported with symbolic shape expressions); the
              function then takes any batch size, ``run_batch`` is the one
              the test runs with (another than the traced one)
    channels_last  module and inputs in torch.channels_last memory format
    tolerance the relative tolerance (scaled by max(1, max|ref|)) and why,
              when it is not the default 1e-4
    known_failures  pipeline (test_models.PIPELINES) -> why it cannot
              build this model: a bug outside convopt, with its reproducer;
              the test expects the failure (strict), so a fix shows
    known_error  the text the failing command's stderr holds for each of
              known_failures (another failure fails the test)
    """

    name: str
    make: Callable[[], nn.Module]
    inputs: tuple[tuple[int, ...], ...]
    features: tuple[str, ...]
    input_grad: bool = False
    dynamic_batch: bool = False
    run_batch: Optional[int] = None
    channels_last: bool = False
    tolerance: float = 1e-4
    tolerance_reason: str = ""
    description: str = ""
    known_failures: tuple[tuple[str, str], ...] = ()
    known_error: str = ""

    @property
    def file(self) -> str:
        return f"{self.name}.mlir"

    def model(self) -> nn.Module:
        """The eager module in training mode, seeded: same weights every call.
        Normalisation affine parameters and running statistics get seeded
        random values (not 1/0) so that their gradients are exercised."""
        torch.manual_seed(0)
        m = self.make()
        gen = torch.Generator().manual_seed(1)
        with torch.no_grad():
            for mod in m.modules():
                if isinstance(mod, _NORMS) and getattr(mod, "weight", None) is not None:
                    mod.weight.copy_(1 + 0.2 * torch.randn(mod.weight.shape, generator=gen))
                    mod.bias.copy_(0.2 * torch.randn(mod.bias.shape, generator=gen))
                if isinstance(mod, _NORMS) and getattr(mod, "running_mean", None) is not None:
                    mod.running_mean.copy_(0.1 * torch.randn(mod.running_mean.shape, generator=gen))
                    mod.running_var.copy_(1 + 0.1 * torch.rand(mod.running_var.shape, generator=gen))
        m.train()
        if self.channels_last:
            m = m.to(memory_format=torch.channels_last)
        return m

    def conv_count(self) -> int:
        """Convolution modules, i.e. convolution_backward ops the graph must hold."""
        return sum(isinstance(mod, _CONVS) for mod in self.model().modules())

    def _fmt(self, t: torch.Tensor) -> torch.Tensor:
        if self.channels_last and t.dim() == 4:
            return t.contiguous(memory_format=torch.channels_last)
        return t

    def input_shapes(self, batch: Optional[int] = None) -> list[tuple[int, ...]]:
        return [((batch,) + s[1:]) if batch is not None else s for s in self.inputs]

    def arguments(self, batch: Optional[int] = None) -> list[torch.Tensor]:
        """The function's arguments (inputs, params, buffers, grad_outs),
        seeded; ``batch`` overrides the batch size of inputs and grad_outs."""
        m = self.model()
        gen = torch.Generator().manual_seed(2)
        inputs = [self._fmt(torch.randn(s, generator=gen)) for s in self.input_shapes(batch)]
        params = [p.detach().clone(memory_format=torch.preserve_format) for _, p in m.named_parameters()]
        buffers = [b.detach().clone() for _, b in m.named_buffers()]
        with torch.no_grad():
            outs = m(*[i.clone() for i in inputs])
        outs = outs if isinstance(outs, tuple) else (outs,)
        gen = torch.Generator().manual_seed(3)
        grad_outs = [self._fmt(torch.randn(o.shape, generator=gen)) for o in outs]
        return [*inputs, *params, *buffers, *grad_outs]

    def counts(self) -> tuple[int, int, int, int]:
        """(inputs, params, buffers, grad_outs) in the argument list."""
        m = self.model()
        n_p = len(list(m.named_parameters()))
        n_b = len(list(m.named_buffers()))
        with torch.no_grad():
            outs = m(*[torch.zeros(s) for s in self.inputs])
        n_o = len(outs) if isinstance(outs, tuple) else 1
        return len(self.inputs), n_p, n_b, n_o

    def result_names(self) -> list[str]:
        m = self.model()
        names = [f"grad_input{i}" for i in range(len(self.inputs))] if self.input_grad else []
        names += [f"grad_{n}" for n, _ in m.named_parameters()]
        names += [f"new_{n}" for n, _ in m.named_buffers()]
        return names

    def reference(self, args: list[torch.Tensor], dtype: torch.dtype = torch.float64) -> list[torch.Tensor]:
        """The function's results computed with PyTorch eager autograd on
        the eager module (training mode), in ``dtype`` (float64 by default:
        the exact answer for the float32 argument values)."""
        n_in, n_p, n_b, n_o = self.counts()
        m = self.model()
        if dtype != torch.float32:
            m = m.to(dtype)
        inputs = args[:n_in]
        params = args[n_in:n_in + n_p]
        buffers = args[n_in + n_p:n_in + n_p + n_b]
        grad_outs = args[n_in + n_p + n_b:]
        assert len(grad_outs) == n_o

        def conv(t: torch.Tensor) -> torch.Tensor:
            return self._fmt(t.to(dtype) if t.is_floating_point() else t.clone())

        with torch.no_grad():
            for (_, p), v in zip(m.named_parameters(), params):
                p.copy_(v)
            for (_, b), v in zip(m.named_buffers(), buffers):
                b.copy_(v)
        xs = [conv(x).requires_grad_(self.input_grad) for x in inputs]
        outs = m(*xs)
        outs = outs if isinstance(outs, tuple) else (outs,)
        wrt = (xs if self.input_grad else []) + [p for _, p in m.named_parameters()]
        grads = torch.autograd.grad(outs, wrt, [conv(g) for g in grad_outs])
        return [g.detach() for g in grads] + [b.detach().clone() for _, b in m.named_buffers()]


MODELS: dict[str, ModelSpec] = {}


def _register(spec: ModelSpec) -> None:
    MODELS[spec.name] = spec


_register(ModelSpec(
    name="resnet18",
    make=ResNet18,
    inputs=((2, 3, 64, 64),),
    features=("2-D", "7x7 stride 2 padding 3 stem", "3x3 stride 1 and 2", "1x1 stride 2 downsample",
              "grad_input not needed on the first conv (mask [F,T,F])", "2x2 -> 2x2 and 4x4 -> 2x2 last stage"),
    description="ResNet-18 (width 16, 2x3x64x64), BatchNorm in training mode",
))

_register(ModelSpec(
    name="mobilenet_v2_slice",
    make=MobileNetV2Slice,
    inputs=((2, 3, 32, 32),),
    features=("2-D", "depthwise 3x3 stride 1 and 2 (groups = channels)", "1x1 expand/project", "residual"),
    description="MobileNetV2 stem and 3 inverted residual blocks (2x3x32x32), ReLU6, BatchNorm in training mode",
))

_register(ModelSpec(
    name="unet",
    make=UNet,
    inputs=((2, 3, 32, 32),),
    features=("2-D", "3x3 padding 1 with bias (grad_bias)", "transposed 2x2 stride 2",
              "transposed 3x3 stride 2 padding 1 output_padding 1", "skip concatenation", "1x1 head"),
    description="two-level UNet (2x3x32x32) with ConvTranspose2d upsampling and skip concatenation",
))

_register(ModelSpec(
    name="audio_encoder",
    make=AudioFeatureEncoder,
    inputs=((2, 1, 1600),),
    features=("1-D", "kernel 10 stride 5 on 1 input channel", "kernel 3 stride 2", "kernel 2 stride 2", "no padding"),
    description="wav2vec2-style feature encoder (7 Conv1d, 32 channels, 2x1x1600), GroupNorm, GELU",
))

_register(ModelSpec(
    name="video_block",
    make=VideoBlock,
    inputs=((2, 8, 4, 16, 16),),
    features=("3-D", "3x3x3 padding 1", "(1,3,3) stride (1,2,2)", "(3,1,1) padding (1,0,0)", "1x1x1 stride (1,2,2)",
              "grad_input of the block"),
    input_grad=True,
    description="3-D video block (2x8x4x16x16): Conv3d, factorized (2+1)D pair, BatchNorm3d in training mode",
))

_register(ModelSpec(
    name="resnext_block",
    make=ResNeXtBlock,
    inputs=((2, 64, 8, 8),),
    features=("2-D", "grouped 3x3 stride 2 (groups 32, 4 channels per group)", "1x1", "1x1 stride 2 projection",
              "grad_input of the block"),
    input_grad=True,
    description="ResNeXt 32x4d bottleneck block (2x64x8x8 -> 256 channels), BatchNorm in training mode",
))

_register(ModelSpec(
    name="dynamic_batch_cnn",
    make=DilatedCNN,
    inputs=((2, 3, 16, 16),),
    features=("2-D", "dynamic batch (symbolic shapes)", "dilation 2 padding 2", "3x3 stride 2"),
    dynamic_batch=True,
    run_batch=3,
    description="small CNN with a dilated conv, traced with a symbolic batch (run with batch 3), BatchNorm in training mode",
))

_register(ModelSpec(
    name="convnext_channels_last",
    make=ConvNeXtSlice,
    inputs=((2, 3, 32, 32),),
    features=("2-D", "channels-last memory format", "4x4 stride 4 patchify", "depthwise 7x7 padding 3 with bias",
              "2x2 stride 2 downsample"),
    channels_last=True,
    description="ConvNeXt stem, two blocks and a downsampling layer in channels-last format (2x3x32x32), LayerNorm, GELU",
))

_register(ModelSpec(
    name="resnet50_slim",
    make=ResNet50Slim,
    inputs=((4, 3, 64, 64),),
    features=("2-D", "bottleneck 1x1 - 3x3 - 1x1 (x4)", "7x7 stride 2 stem", "3x3 stride 2 in the bottleneck", "1x1 stride 2 projection"),
    description="ResNet-50 layout, one bottleneck per stage (width 8, 4x3x64x64), BatchNorm in training mode",
))

_register(ModelSpec(
    name="shufflenet_v2",
    make=ShuffleNetV2Slim,
    inputs=((4, 3, 64, 64),),
    features=("2-D", "channel split and shuffle", "depthwise 3x3 stride 1 and 2", "1x1 on half the channels"),
    description="ShuffleNetV2 layout at reduced width (4x3x64x64), BatchNorm in training mode",
))

_register(ModelSpec(
    name="efficientnet_se",
    make=EfficientNetSlim,
    inputs=((4, 3, 64, 64),),
    features=("2-D", "depthwise 3x3 and 5x5 stride 1 and 2", "squeeze-and-excite 1x1 convs with bias on 1x1 images", "SiLU"),
    description="EfficientNet-B0 layout at reduced width and depth (4x3x64x64): MBConv with squeeze-excite, BatchNorm in training mode",
))

_register(ModelSpec(
    name="c3d",
    make=C3D,
    inputs=((2, 3, 8, 32, 32),),
    features=("3-D", "3x3x3 padding 1 with bias", "max pool 1x2x2 and 2x2x2"),
    description="C3D layout at reduced width (2x3x8x32x32): 3x3x3 convolutions and 3-D max pools",
))

_register(ModelSpec(
    name="r2plus1d",
    make=R2Plus1D,
    inputs=((2, 3, 4, 32, 32),),
    features=("3-D", "(1,7,7) stride (1,2,2) stem", "(1,3,3) then (3,1,1) factorized", "stride 2 in time and space",
              "1x1x1 stride 2 projection"),
    description="R(2+1)D-style factorized video ResNet (2x3x4x32x32), BatchNorm3d in training mode",
    known_failures=tuple((p, "torch-mlir's lowering of the forward (3,1,1) stride (2,1,1) convolution (which IREE's torch input and "
                             "torch-mlir's linalg stage run) is invalid IR (repro/strided_kx1x1_forward_conv.mlir); "
                             "--lower-forward-convs builds it") for p in ("iree", "torch-mlir-stages", "one-command")),
    known_error="inferred input/output operand #1",
))

_register(ModelSpec(
    name="dcgan_generator",
    make=DCGANGenerator,
    inputs=((8, 64, 1, 1),),
    features=("2-D", "transposed 4x4 stride 1 from 1x1", "transposed 4x4 stride 2 padding 1"),
    description="DCGAN generator (8x64x1x1 latent -> 8x3x32x32), BatchNorm in training mode, tanh",
))

# --------------------------------------------------------------------------
# Average-pooling families (issue 25): their training steps need
# convopt --lower-pool-bwd (avg_pool2d_backward has no lowering in torch-mlir
# or IREE).
# --------------------------------------------------------------------------

_register(ModelSpec(
    name="densenet_small",
    make=DenseNetSmall,
    inputs=((2, 3, 32, 32),),
    features=("2-D", "dense blocks (concatenation)", "1x1 bottlenecks", "3x3 padding 1",
              "transitions: 1x1 conv + 2x2 stride 2 average pool", "global 8x8 average pool"),
    description="DenseNet-BC (growth 12, blocks of 3/3/2 layers, 2x3x32x32), BatchNorm in training mode, average-pool transitions",
))

_register(ModelSpec(
    name="inception_small",
    make=InceptionSmall,
    inputs=((2, 3, 32, 32),),
    features=("2-D", "parallel branches (concatenation)", "3x3 stride 1 padding 1 average-pool branches",
              "asymmetric 1x7/7x1 and 1x3/3x1 (in parallel)", "5x5 padding 2", "3x3 stride 2 grid reduction with max pool",
              "global 8x8 average pool"),
    description="Inception-v3 at reduced width (A, reduction, C and E blocks, 2x3x32x32), BatchNorm (eps 0.001) in training mode",
))
