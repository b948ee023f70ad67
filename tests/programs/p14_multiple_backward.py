import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
for step in range(3):
    loss = (w * (step + 1)).pow(2).sum()
    loss.backward()
    print(step, w.grad)
w.grad.zero_()
print(w.grad)
loss2 = (w ** 3).sum()
loss2.backward()
print(w.grad)
w.grad = None
print(w.grad)
