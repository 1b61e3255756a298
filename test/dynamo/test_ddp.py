"""DistributedDataParallel (gloo, two processes) around a model compiled
with the backend trains to the losses of one process with the whole batch:
the mean of the two ranks' losses on their halves is the whole batch's loss
(cross-entropy's mean over equal halves), and DDP's averaged gradients are
the whole batch's, so the trajectories agree to float32 rounding."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def test_ddp_two_processes_train_like_one_with_the_whole_batch():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE.parents[1]), str(HERE), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, str(HERE / "ddp_train.py"), "--steps", "8"], capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    ranks = np.array(result["ranks"])
    whole = np.array(result["whole"])
    assert ranks.shape == (2, 8)
    np.testing.assert_allclose(ranks.mean(0), whole, rtol=1e-4, atol=1e-5)
    assert np.abs(ranks[0] - ranks[1]).min() > 1e-4  # the ranks saw different halves
    assert len(set(whole.round(5))) == len(whole)  # the weights moved every step
