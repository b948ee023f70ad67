# expect: LimitError
# nn.ConvTranspose2d with stride 50 grows a 60x60 input to 2951x2951 (8.7M) inside a Module call: no pre- or post-check
import torch
up = torch.nn.ConvTranspose2d(1, 1, 1, stride=50)
y = up(torch.ones(1, 1, 60, 60))
print(y.numel())
