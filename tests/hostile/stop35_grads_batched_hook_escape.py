# expect: ForbiddenError
# autograd.grad(is_grads_batched=True) runs the pass under torch's older vmap, batched by
# grad_outputs' first dimension: a hook kept a gradient of shape [1] holding 1,000 rows,
# and k * torch.ones(250_000) made 250,000,000 elements (1 GB) past the size checks; the
# pass's own batched gradients then stopped the trace from being written (a crash)
import torch

x = torch.randn(1, requires_grad=True)
y = x * 2
kept = []
y.register_hook(lambda g: kept.append(g))
torch.autograd.grad(y.sum(), x, grad_outputs=torch.ones(1000), is_grads_batched=True)
k = kept[0]
print(k.shape)
z = k * torch.ones(250_000)
print(z.shape, z.numel())
