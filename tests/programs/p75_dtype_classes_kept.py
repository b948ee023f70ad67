# numpy's scalar types and str kept on a Module, in a dict and in a list, then read back
# as dtypes: the program holds its checked value of each class, which numpy must still
# read as the dtype the class names.
import numpy as np
import torch
from torch import nn


class Scaler(nn.Module):
    def __init__(self, dtype=np.float32):
        super().__init__()
        self.np_dtype = dtype
        self.kind = torch.float64
        self.weight = nn.Parameter(torch.tensor([1.5, -0.5]))

    def forward(self, x):
        table = np.arange(4, dtype=self.np_dtype).reshape(2, 2)
        scale = torch.from_numpy(np.ones(2, self.np_dtype) * 2)
        return (x @ torch.from_numpy(table) + scale) * self.weight


model = Scaler()
x = torch.tensor([[1.0, 2.0]])
out = model(x)
loss = out.pow(2).sum()
loss.backward()
print(out, loss.item())
print(model.weight.grad)

dtypes = {"f64": np.float64, "i32": np.int32, "text": str}
kinds = [np.float32, np.int64]
a = np.array([1, 2, 3], dtype=dtypes["f64"])
b = np.zeros(2, dtype=kinds[1])
c = np.array([1.5, 2.5]).astype(dtypes["i32"])
d = np.array([1, 2], dtype=dtypes["text"])
print(a.dtype, b.dtype, c.dtype, c, d.dtype, d)
print(model.np_dtype.__name__, np.float32 is model.np_dtype, isinstance(model.kind, torch.dtype))
