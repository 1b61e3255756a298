"""Small seeded training loops for the backend's tests and bench/train.py:
sklearn's 8x8 digits (bundled with scikit-learn, nothing downloaded) and a
small CNN with the layers people train (conv, BatchNorm, ReLU, max pool,
linear)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass

import torch
import torch.nn as nn


def digits(train: int = 1400) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """(x_train, y_train, x_test, y_test): 1797 images 1x8x8 scaled to [0, 1],
    shuffled with a fixed seed; the first `train` for training."""
    from sklearn.datasets import load_digits

    data = load_digits()
    x = torch.tensor(data.images, dtype=torch.get_default_dtype()).unsqueeze(1) / 16.0
    y = torch.tensor(data.target, dtype=torch.int64)
    order = torch.randperm(len(y), generator=torch.Generator().manual_seed(0))
    x, y = x[order], y[order]
    return x[:train], y[:train], x[train:], y[train:]


class DigitsCNN(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),  # 16x4x4
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),  # 32x2x2
        )
        self.head = nn.Linear(32 * 2 * 2, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x).flatten(1))


@dataclass
class Run:
    losses: list[float]
    model: nn.Module
    batches: list[int]


def train(model: nn.Module, compile: Callable[[nn.Module], Callable], steps: int = 100, batch: int = 64, lr: float = 0.05, train_size: int = 1400) -> Run:
    """`steps` SGD steps (momentum 0.9) over the digits' training set in
    order, epoch after epoch; the last batch of each epoch is partial
    (1400 = 21 * 64 + 56).  `model` is copied; the copy is trained through
    `compile(copy)`."""
    x, y, _, _ = digits(train_size)
    model = copy.deepcopy(model)
    model.train()
    step = compile(model)
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    losses, batches = [], []
    i = 0
    for _ in range(steps):
        if i >= len(y):
            i = 0
        xb, yb = x[i : i + batch], y[i : i + batch]
        i += batch
        opt.zero_grad()
        loss = nn.functional.cross_entropy(step(xb), yb)
        loss.backward()
        opt.step()
        losses.append(loss.item())
        batches.append(len(yb))
    return Run(losses, model, batches)


def accuracy(model: nn.Module, forward: Callable, train_size: int = 1400) -> float:
    """Test-set accuracy in percent, in eval mode without gradients."""
    _, _, x, y = digits(train_size)
    model.eval()
    with torch.no_grad():
        return 100.0 * (forward(x).argmax(1) == y).float().mean().item()
