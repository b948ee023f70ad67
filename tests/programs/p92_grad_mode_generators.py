# Generator functions and methods under @torch.no_grad(), @torch.enable_grad() and
# @torch.inference_mode(): each step runs in the mode, and the caller's mode is left as
# it was between steps (torch wraps such generators itself), as a data pipeline or a
# sampling loop with a decorated generator relies on.
import torch


class Sampler(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.step = torch.nn.Linear(3, 3)

    @torch.no_grad()
    def chain(self, x, n):
        for _ in range(n):
            x = torch.tanh(self.step(x))
            yield x, x.requires_grad, torch.is_grad_enabled()


@torch.no_grad()
def batches(n):
    for i in range(n):
        b = torch.full((2,), float(i), requires_grad=True) * 2
        yield b.requires_grad, torch.is_grad_enabled()


@torch.inference_mode()
def frozen():
    yield torch.is_grad_enabled(), torch.is_inference_mode_enabled()


@torch.enable_grad()
def with_grad():
    yield torch.is_grad_enabled()


torch.manual_seed(0)
model = Sampler()
start = torch.ones(3, requires_grad=True)
for x, needs_grad, enabled in model.chain(start, 3):
    print(x, needs_grad, enabled, torch.is_grad_enabled())

print(list(batches(2)), torch.is_grad_enabled())
print(list(frozen()), torch.is_inference_mode_enabled())

with torch.no_grad():
    later = with_grad()
    print(torch.is_grad_enabled())
print(next(later), torch.is_grad_enabled())

# Outside any generator, the decorated function's steps do not leak their mode.
loss = (model.step(start) ** 2).sum()
loss.backward()
print(loss, start.grad)
