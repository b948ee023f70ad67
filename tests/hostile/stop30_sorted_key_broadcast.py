# expect: LimitError
# sorted(items, key=...) compares the keys in C, a tuple's items in turn
import torch

keys = {"a": torch.zeros(30000, 1), "b": torch.ones(1, 30000)}
print(sorted(keys, key=lambda k: (keys[k],)))
