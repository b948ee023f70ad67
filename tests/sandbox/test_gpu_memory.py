"""zero_free_blocks: the blocks torch's caching allocator holds free on a GPU are zeroed,
so that the next job in a GPU worker is not handed the last job's values. Skipped where
torch sees no CUDA device."""

from __future__ import annotations

import pytest
import torch

from gradtrace.sandbox import gpu_memory

pytestmark = [
    pytest.mark.cuda,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device"),
]

SIZE = 1 << 20  # elements: a block of the allocator's large pool


def _freed_block_with(value: float) -> int:
    marked = torch.full((SIZE,), value, device="cuda")
    address = marked.data_ptr()
    del marked
    return address


def test_the_allocator_hands_a_freed_block_back_unwritten() -> None:
    """Why the zeroing exists: without it, the next tensor of that size is the old one."""
    address = _freed_block_with(31337.0)
    again = torch.empty(SIZE, device="cuda")
    assert again.data_ptr() == address
    assert bool((again == 31337.0).all())


def test_zeroed_free_blocks_hold_zeros() -> None:
    address = _freed_block_with(31337.0)
    assert any(start <= address < start + size for start, size in gpu_memory.free_blocks(0))
    zeroed = gpu_memory.zero_free_blocks("cuda")
    assert zeroed >= SIZE * 4
    again = torch.empty(SIZE, device="cuda")
    assert again.data_ptr() == address
    assert int(again.count_nonzero()) == 0


def test_live_tensors_are_left_alone() -> None:
    live = torch.full((SIZE,), 7.0, device="cuda")
    _freed_block_with(31337.0)
    gpu_memory.zero_free_blocks("cuda")
    assert bool((live == 7.0).all())
