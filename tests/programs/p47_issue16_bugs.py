# Four things tutorials do that used to fail: tensors made under inference_mode, an
# in-place change of a leaf's element under no_grad, a loop whose dead tensors would
# together pass the element budget (only one of them is alive), and builtin types in
# isinstance.
import torch

with torch.inference_mode():
    a = torch.ones(3)
    b = a * 2
print(b, b.is_inference())

w = torch.ones(3, requires_grad=True)
with torch.no_grad():
    w[0] *= 1.0001
print(w)
loss = (w * w).sum()
loss.backward()
print(w.grad)

x = torch.ones(1000, 1000)
for i in range(11):
    y = x * 2
print(y.sum())

print(isinstance([1], list), isinstance((1,), tuple), isinstance({}, dict), isinstance({1}, set))
print(isinstance(2.0, (int, float)), isinstance("a", list), isinstance(frozenset(), frozenset))
