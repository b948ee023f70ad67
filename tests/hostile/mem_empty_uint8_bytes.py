# expect: ForbiddenError|KeyError
# uninitialised uint8 memory after a program string was freed: look for its bytes ("SECRET")
import torch
secret = "SECRET" * 2000
del secret
y = torch.empty(12000, dtype=torch.uint8)
pat = torch.tensor([83, 69, 67, 82, 69, 84], dtype=torch.uint8)
hits = (y.unfold(0, 6, 1) == pat).all(1).sum()
assert int(hits) == 0, "freed string bytes visible"
assert int(y.count_nonzero()) == 0, "uninitialised memory is visible"
raise KeyError("clean")
