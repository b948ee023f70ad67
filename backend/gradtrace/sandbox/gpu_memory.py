"""A GPU worker's freed device memory, zeroed between jobs.

torch's caching allocator keeps the blocks a job freed and hands them, unwritten, to the
next job in the same process; CUDA zeroes memory only between processes. The language
zero-fills what a program asks for empty, but torch's own buffers that it never fully
writes can reach the trace (on the CPU, MKL-DNN's RNN workspace saved for backward did;
no such path was found on an H100, where cuDNN's RNN reserve came back clean). So after
each job every free block the allocator holds is zeroed in place: the GPU's side of what
glibc's M_PERTURB does for the CPU's heap (confine.zero_fresh_memory).
"""

from __future__ import annotations


class _DeviceBytes:
    """Device memory that torch can view without owning it (the CUDA array interface)."""

    def __init__(self, address: int, size: int) -> None:
        self.__cuda_array_interface__ = {
            "shape": (size,),
            "typestr": "|u1",
            "data": (address, False),
            "version": 3,
        }


def free_blocks(device_index: int) -> list[tuple[int, int]]:
    """(address, bytes) of every block the caching allocator holds free on the device."""
    import torch

    blocks = []
    for segment in torch.cuda.memory_snapshot():
        if segment["device"] != device_index:
            continue
        address = int(segment["address"])
        for block in segment["blocks"]:
            size = int(block["size"])
            if block["state"] == "inactive":
                blocks.append((int(block.get("address", address)), size))
            address += size  # blocks are listed in address order
    return blocks


def zero_free_blocks(device: str) -> int:
    """Zero every free block of the device's cache; the bytes zeroed."""
    import torch

    target = torch.device(device)
    index = target.index if target.index is not None else torch.cuda.current_device()
    torch.cuda.synchronize(index)  # frees that wait on a stream become free blocks
    zeroed = 0
    for address, size in free_blocks(index):
        # A view of memory torch does not own: making it takes nothing from the cache.
        torch.as_tensor(_DeviceBytes(address, size), device=f"cuda:{index}").zero_()
        zeroed += size
    torch.cuda.synchronize(index)
    return zeroed
