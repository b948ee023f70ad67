# expect: LimitError
# max() compares in C the values of a dict view: a bool tensor of 900,000,000 elements
# before torch's "ambiguous" error
import torch

shapes = {"a": torch.zeros(30000, 1), "b": torch.ones(1, 30000)}
print(max(shapes.values()))
