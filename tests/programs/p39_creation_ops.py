import torch

torch.manual_seed(0)
print(torch.zeros(2, 3), torch.ones(2), torch.full((2, 2), 7.0), torch.eye(3))
print(torch.arange(5), torch.arange(1, 2, 0.25), torch.linspace(0, 1, 5))
print(torch.rand(2, 2), torch.randn(3), torch.randint(0, 10, (4,)), torch.randperm(5))
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(torch.zeros_like(x), torch.ones_like(x), torch.randn_like(x), torch.empty(2, 2).shape)
print(torch.normal(0.0, 1.0, size=(3,)), torch.tensor(3).item(), torch.tensor([]).shape)
print(x.new_zeros(3), x.new_ones(2), x.new_tensor([9.0]), torch.empty_like(x).shape)
print(torch.tril(torch.ones(3, 3)), torch.triu(torch.ones(3, 3), diagonal=1))
