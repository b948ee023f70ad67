# expect: ForbiddenError|RuntimeError
# Tensor.to("meta") (an admitted method): a tensor without data reaches the trace writer
import torch
x = torch.ones(3).to("meta")
print(x.shape)
