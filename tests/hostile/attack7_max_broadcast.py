# expect: LimitError
# max(a, b) compares in C: a < b of these shapes is a bool tensor of 900,000,000
# elements, made before Python asks for its truth value
import torch

print(max(torch.zeros(30000, 1), torch.ones(1, 30000)))
