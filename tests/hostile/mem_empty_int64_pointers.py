# expect: ForbiddenError|KeyError
# uninitialised int64 memory after freeing Python objects: heap pointers of the server process
import torch
junk = [str(i) * 20 for i in range(2000)]
del junk
y = torch.empty(4096, dtype=torch.int64)
assert int((y > 2 ** 40).sum()) == 0, "heap addresses visible in uninitialised memory"
assert int(y.count_nonzero()) == 0, "uninitialised memory is visible"
raise KeyError("clean")
