# expect: LimitError
# one conv2d with a 280x280 kernel over 560x560: small output (79k), 6e9 MACs in one C call the alarm cannot interrupt
import torch
F = torch.nn.functional
y = F.conv2d(torch.ones(1, 1, 560, 560), torch.ones(1, 1, 280, 280))
print(y.shape)
