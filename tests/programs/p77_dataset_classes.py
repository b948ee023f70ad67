# torch.utils.data's Dataset and IterableDataset as bases of the program's classes, as
# tutorials write their datasets: imported three ways, indexed, len(), isinstance, the
# DataLoader (batches, shuffle, dict samples), random_split, a missing __getitem__.
import torch
from torch.utils.data import Dataset, DataLoader, IterableDataset
from torch.utils import data
import torch.utils.data


class Toy(Dataset):
    def __init__(self, n):
        super().__init__()
        self.x = torch.arange(float(n))

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], i * 2


class Old(data.Dataset):
    def __init__(self):
        super(Old, self).__init__()
        self._n = 3

    def __len__(self):
        return self._n

    def __getitem__(self, i):
        return {"v": torch.tensor([i, i + 1.0])}


class Third(torch.utils.data.Dataset):
    pass


ds = Toy(6)
print(len(ds), ds[2], isinstance(ds, Dataset), isinstance(ds, data.Dataset), type(ds).__name__)
print(isinstance(ds, torch.utils.data.IterableDataset))
for xb, yb in DataLoader(ds, batch_size=4):
    print(xb, yb)
torch.manual_seed(0)
print([b["v"].sum().item() for b in DataLoader(Old(), batch_size=2, shuffle=True)])
a, b = data.random_split(ds, [4, 2], generator=torch.Generator().manual_seed(1))
print(len(a), len(b))
try:
    Third()[0]
except NotImplementedError as e:
    print("NotImplementedError", e)
print(issubclass(Toy, Dataset), Dataset)


class Stream(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        for i in range(self.n):
            yield torch.tensor([float(i)])


print(isinstance(Stream(2), Dataset), isinstance(Stream(2), IterableDataset))
for batch in DataLoader(Stream(5), batch_size=2):
    print(batch)
print(list(Stream(3)))
try:

    class Bad(IterableDataset):
        pass

    Bad()
except TypeError as e:
    print("TypeError", e)


class Pairs(Dataset):
    """Its own _names and a helper method, a subclass of a subclass."""

    def __init__(self, xs):
        self._xs = xs

    def _pair(self, i):
        return self._xs[i], self._xs[i] ** 2

    def __len__(self):
        return len(self._xs)

    def __getitem__(self, i):
        return self._pair(i)


class MorePairs(Pairs):
    def __getitem__(self, i):
        x, y = super().__getitem__(i)
        return x, y + 1


w = torch.tensor([0.5], requires_grad=True)
data_x = torch.linspace(-1.0, 1.0, 8).unsqueeze(1)
loss_total = 0.0
for xb, yb in DataLoader(MorePairs(data_x), batch_size=3):
    loss = ((xb * w - yb) ** 2).mean()
    loss.backward()
    loss_total += loss.item()
print(round(loss_total, 4), w.grad, len(DataLoader(MorePairs(data_x), batch_size=3)))
print(repr(Toy(2)).split(" object")[0])
