"""The backend's tests: torch on one thread (the machines have 2 shared
cores), Dynamo's caches reset around each test, and compiled modules in a
cache folder of this session (tests that count compiles use their own)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import torch

sys.path.insert(0, str(Path(__file__).parent))  # training.py


@pytest.fixture(scope="session", autouse=True)
def _session_cache(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("CONVOPT_CACHE_DIR", str(tmp_path_factory.mktemp("convopt-cache")))
    torch.set_num_threads(1)
    yield
    mp.undo()


@pytest.fixture(autouse=True)
def _fresh_dynamo():
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()
