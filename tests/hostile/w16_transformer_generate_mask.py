# expect: ForbiddenError
# a square mask of any size, made in torch: not among the admitted members
import torch
mask = torch.nn.Transformer.generate_square_subsequent_mask(100000)
print(mask.shape)
