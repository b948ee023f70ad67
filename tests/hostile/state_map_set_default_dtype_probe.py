# expect: ForbiddenError|KeyError
# torch.set_default_dtype through map: allowed (as when called directly), it holds for this program, and the session restores float32 for the next
import torch
list(map(torch.set_default_dtype, [torch.float64]))
assert torch.ones(1).dtype == torch.float64, "set_default_dtype through map did not hold"
raise KeyError("clean")
