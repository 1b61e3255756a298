"""DistributedDataParallel around a model compiled with the convopt backend:
two processes (gloo, torch.multiprocessing spawn) each train on half of
every batch; prints a JSON line with each rank's losses and, from one
process on the whole batch, the reference losses.

    python test/dynamo/ddp_train.py [--steps N]
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import socket
import sys
import tempfile

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn

BATCH = 32


def make_model() -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(), nn.AvgPool2d(2), nn.Flatten(), nn.Linear(8 * 2 * 2, 10))


def batches(steps: int):
    sys.path.insert(0, os.path.dirname(__file__))
    from training import digits

    x, y, _, _ = digits()
    return [(x[i * BATCH : (i + 1) * BATCH], y[i * BATCH : (i + 1) * BATCH]) for i in range(steps)]


def train(model: nn.Module, data, rank: int = 0, world: int = 1) -> list[float]:
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    losses = []
    for x, y in data:
        share = len(y) // world
        xb, yb = x[rank * share : (rank + 1) * share], y[rank * share : (rank + 1) * share]
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def compiled(model: nn.Module):
    import convopt.dynamo as cd

    return torch.compile(model, backend=cd.backend)


def worker(rank: int, world: int, port: int, steps: int, out: str) -> None:
    torch.set_num_threads(1)
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=world)
    try:
        model = nn.parallel.DistributedDataParallel(make_model())
        losses = train(compiled(model), batches(steps), rank, world)
        with open(f"{out}.{rank}", "w") as f:
            json.dump(losses, f)
    finally:
        dist.destroy_process_group()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "losses")
        mp.spawn(worker, args=(2, free_port(), args.steps, out), nprocs=2, join=True)
        ranks = [json.load(open(f"{out}.{r}")) for r in range(2)]
    torch.set_num_threads(1)
    whole = train(compiled(copy.deepcopy(make_model())), batches(args.steps))
    print(json.dumps({"ranks": ranks, "whole": whole}))


if __name__ == "__main__":
    main()
