# Fails on purpose: a shape mismatch in matmul.
import torch

a = torch.ones(2, 3, requires_grad=True)
b = torch.ones(2, 3)
print("before")
c = a @ b
print("never")
