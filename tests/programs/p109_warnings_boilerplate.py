# The boilerplate at the top of notebooks and scripts: warnings silenced by category and
# by message, a block with its own filters, the program's own warnings, and warning
# classes caught as exceptions. What it prints is the same; the trace's warnings panel
# follows the filters.
import warnings
warnings.filterwarnings("ignore")
warnings.filterwarnings("ignore", category=UserWarning)
warnings.simplefilter(action="ignore", category=FutureWarning)
warnings.filterwarnings("ignore", message=r"The \.grad attribute")
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(3, 1)
x = torch.randn(4, 3)
h = model(x)
loss = h.pow(2).mean()
loss.backward()
print(h.grad, model.weight.grad.shape)
with warnings.catch_warnings():
    warnings.simplefilter("always")
    warnings.warn("learning rate is high", RuntimeWarning)
    warnings.warn(UserWarning("a warning object"))
for cls in (Warning, UserWarning, DeprecationWarning, FutureWarning, RuntimeWarning):
    try:
        raise cls("raised")
    except Warning as e:
        print(type(e).__name__, e, isinstance(e, Exception))
warnings.resetwarnings()
print(round(loss.item(), 4))
