# expect: ForbiddenError|KeyError
# torch.set_default_dtype through map (no call-site check); a probe in the same program sees float64
import torch
list(map(torch.set_default_dtype, [torch.float64]))
assert torch.ones(1).dtype == torch.float32, "default dtype changed through map"
raise KeyError("clean")
