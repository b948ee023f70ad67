# Source: github.com/pytorch/tutorials (BSD-3-Clause), beginner_source/former_torchies/tensor_tutorial.py.
# Changed: the prose (docstring, full-line comments) dropped. (torch.empty stays: what it
# makes is filled before it is printed.)

import torch
a = torch.empty(5, 7, dtype=torch.float)


a = torch.randn(5, 7, dtype=torch.double)
print(a)
print(a.size())


a.fill_(3.5)

b = a.add(4.0)

print(a, b)


b = a[0, 3]  # select 1st row, 4th column from a


b = a[:, 3:5]  # selects all rows, 4th column and  5th column from a



x = torch.ones(5, 5)
print(x)


z = torch.empty(5, 2)
z[:, 0] = 10
z[:, 1] = 100
print(z)

x.index_add_(1, torch.tensor([4, 0], dtype=torch.long), z)
print(x)


a = torch.ones(5)
print(a)


b = a.numpy()
print(b)

a.add_(1)
print(a)
print(b) 	# see how the numpy array changed in value



import numpy as np
a = np.ones(5)
b = torch.from_numpy(a)
np.add(a, 1, out=a)
print(a)
print(b)  # see how changing the np array changed the torch Tensor automatically


if torch.cuda.is_available():

    a = torch.full((10,), 3, device=torch.device("cuda"))
    print(type(a))
    b = a.to(torch.device("cpu"))
