# A generator function put under a grad mode in the other ways torch takes: called as
# `torch.no_grad()(gen)` rather than written as a decorator, `@torch.no_grad` without
# parentheses, two modes stacked, and @torch.set_grad_enabled(False). torch wraps each such generator so that every step
# runs in the mode (outermost applied last, so entered first). (stop38b: gradtrace ran
# these steps in the caller's mode: only a single @no_grad/@enable_grad/@inference_mode
# directly on the generator function was honoured.)
import torch


def probe():
    yield torch.is_grad_enabled()
    yield torch.is_inference_mode_enabled()


plain_no_grad = torch.no_grad()(probe)
plain_inference = torch.inference_mode()(probe)
print(list(plain_no_grad()), list(plain_inference()), torch.is_grad_enabled())


@torch.no_grad
def bare():
    yield torch.is_grad_enabled()


print(list(bare()), torch.is_grad_enabled())


@torch.inference_mode()
@torch.no_grad()
def stacked():
    yield torch.is_grad_enabled()
    yield torch.is_inference_mode_enabled()
    yield torch.ones(2).is_inference()


print(list(stacked()), torch.is_inference_mode_enabled())


@torch.set_grad_enabled(False)
def disabled():
    w = torch.ones(2, requires_grad=True)
    yield torch.is_grad_enabled()
    yield (w * 2).requires_grad


print(torch.is_grad_enabled(), list(disabled()), torch.is_grad_enabled())
