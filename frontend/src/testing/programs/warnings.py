import torch
x = torch.tensor(3.0, requires_grad=True)
y = x * 2
z = torch.tensor(y)
y.backward()
for i in range(3):
    print(y.grad)
print("done")
