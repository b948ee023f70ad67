# expect: LimitError
# nn.Transformer makes its attention modules inside torch: each is checked all the same
import torch
model = torch.nn.Transformer(
    d_model=4, nhead=1, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=4
)
src = torch.ones(3, 1, 4)
tgt = torch.ones(3000, 1, 4)
print(model(src, tgt).shape)
