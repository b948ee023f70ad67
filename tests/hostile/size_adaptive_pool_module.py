# expect: LimitError
# nn.AdaptiveAvgPool2d(3000) picks the output size directly: 9M elements from one input number
import torch
y = torch.nn.AdaptiveAvgPool2d(3000)(torch.ones(1, 1, 1, 1))
print(y.numel())
