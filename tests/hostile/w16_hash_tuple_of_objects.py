# expect: AssertionError
# a tuple's hash mixes its items' hashes reversibly: an address inside one was an address out
import torch


class Box:
    pass


b = Box()
h = hash((b, torch.sin, 1))
print(h == hash((b, torch.sin, 1)))
assert hash((b,)) != hash((id(b),)), "a tuple of objects hashes by their id() numbers"
