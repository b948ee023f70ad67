# expect: LimitError
# in eval mode without grad an encoder layer computes attention in one native call and
# never calls its self_attn module: the layer itself is checked
import torch
layer = torch.nn.TransformerEncoderLayer(d_model=4, nhead=1, dim_feedforward=4, batch_first=True)
layer.eval()
with torch.no_grad():
    y = layer(torch.ones(1, 60000, 4))
print(y.shape)
