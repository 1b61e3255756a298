"""Calling a compiled module from PyTorch with as few copies as IREE allows.

On the CPU drivers (local-task, local-sync) a contiguous CPU tensor is handed to IREE
without a copy: its memory is imported as a HAL buffer
(`HalAllocator.import_host_allocation`), and each result goes back to torch
without a copy through DLPack (`HalDevice.create_dlpack_capsule` ->
`torch.from_dlpack`).  The import keeps the memory alive only as long as
the Python `HalBuffer` object, not as long as IREE uses the buffer, so
`Module.__call__` holds every argument's array until the results are
torch tensors; a result that is an argument's memory (a graph returning an
input, which IREE does not copy) is cloned, so that it does not alias a
temporary or a tensor the optimizer updates in place.
Other drivers (the GPU ones) copy inputs in (`asdevicearray`) and results
out (`to_host`)."""

from __future__ import annotations

import functools
from typing import Any

import iree.runtime as rt
import numpy as np
import torch

_ELEMENT = {
    torch.float32: rt.HalElementType.FLOAT_32,
    torch.float64: rt.HalElementType.FLOAT_64,
    torch.float16: rt.HalElementType.FLOAT_16,
    torch.bfloat16: rt.HalElementType.BFLOAT_16,
    torch.int64: rt.HalElementType.SINT_64,
    torch.int32: rt.HalElementType.SINT_32,
    torch.int16: rt.HalElementType.SINT_16,
    torch.int8: rt.HalElementType.SINT_8,
    torch.uint8: rt.HalElementType.UINT_8,
    torch.bool: rt.HalElementType.BOOL_8,
}
_MEMORY = int(rt.MemoryType.DEVICE_LOCAL | rt.MemoryType.HOST_VISIBLE)
_USAGE = int(rt.BufferUsage.DEFAULT)
_ALIGN = 64  # IREE's CPU buffers are 64-byte aligned; torch's allocations are too
_DL_CPU = 1  # DLPack's kDLCPU


@functools.cache
def _instance() -> rt.VmInstance:
    return rt.VmInstance()


@functools.cache
def _device(driver: str) -> rt.HalDevice:
    return rt.get_driver(driver).create_default_device()


class Module:
    """A loaded module's `main`, callable with torch tensors (and ints/floats)."""

    def __init__(self, vmfb: bytes, driver: str):
        self.device = _device(driver)
        self.host = driver in ("local-task", "local-sync")
        instance = _instance()
        self.vm_module = rt.VmModule.copy_buffer(instance, vmfb)
        self.context = rt.VmContext(instance, [rt.create_hal_module(instance, self.device), self.vm_module])
        self.main = self.vm_module.lookup_function("main")
        self.allocator = self.device.allocator

    def __call__(self, args: list) -> list:
        arg_list = rt.VmVariantList(len(args))
        held: list = []  # the arrays IREE reads, alive until the call returns
        for a in args:
            if isinstance(a, torch.Tensor):
                arg_list.push_ref(self._buffer_view(a, held))
            elif isinstance(a, bool) or not isinstance(a, (int, float)):
                raise TypeError(f"convopt backend: cannot pass a {type(a).__name__} to a compiled graph")
            elif isinstance(a, int):
                arg_list.push_int(a)
            else:
                arg_list.push_float(a)
        results = rt.VmVariantList(1)
        self.context.invoke(self.main, arg_list, results)
        outs = [self._result(results, i) for i in range(len(results))]
        if held:
            inputs = {a.ctypes.data for a in held}
            outs = [o.clone() if isinstance(o, torch.Tensor) and o.data_ptr() in inputs else o for o in outs]
        return outs

    def _result(self, results: Any, i: int) -> Any:
        """A tensor, or an int (a size the graph computed, an i64)."""
        value = results.get_variant(i)
        if isinstance(value, int):
            return value
        return self._tensor(rt.HalBufferView.__iree_vm_cast__(results.get_as_ref(i)))

    def _buffer_view(self, t: torch.Tensor, held: list) -> Any:
        t = t.detach()
        element = _ELEMENT.get(t.dtype)
        if element is None:
            raise TypeError(f"convopt backend: no IREE element type for {t.dtype}")
        if t.device.type != "cpu":
            t = t.cpu()
        if not t.is_contiguous():
            t = t.contiguous()
        array = _numpy(t)
        if self.host and t.numel() > 0 and t.data_ptr() % _ALIGN == 0:
            held.append(array)
            buffer = self.allocator.import_host_allocation(array, memory_type=_MEMORY, allowed_usage=_USAGE)
            return rt.HalBufferView(buffer, list(t.shape), element)
        return rt.asdevicearray(self.device, array, element_type=element)._buffer_view

    def _tensor(self, view: Any) -> torch.Tensor:
        if self.host:
            return torch.from_dlpack(self.device.create_dlpack_capsule(view, _DL_CPU, 0))
        return torch.from_numpy(rt.DeviceArray(self.device, view).to_host())


def _numpy(t: torch.Tensor) -> np.ndarray:
    """The tensor's memory as a numpy array, without a copy (bf16 as int16 bits)."""
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy()
    return t.numpy()


__all__ = ["Module"]
