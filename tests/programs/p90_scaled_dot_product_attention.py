# Causal self-attention written as nanoGPT writes it: feature-detected with hasattr, then
# torch's fused F.scaled_dot_product_attention, against the same attention written out.
import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)
B, T, C, H = 2, 5, 8, 2
x = torch.randn(B, T, C, requires_grad=True)
qkv = torch.nn.Linear(C, 3 * C)
q, k, v = qkv(x).split(C, dim=2)
q = q.view(B, T, H, C // H).transpose(1, 2)
k = k.view(B, T, H, C // H).transpose(1, 2)
v = v.view(B, T, H, C // H).transpose(1, 2)
flash = hasattr(F, "scaled_dot_product_attention")
y = F.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=True)
att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
mask = torch.tril(torch.ones(T, T)).view(1, 1, T, T)
att = F.softmax(att.masked_fill(mask == 0, float("-inf")), dim=-1)
manual = att @ v
print(flash, y.shape, torch.allclose(y, manual, atol=1e-6))
loss = y.transpose(1, 2).contiguous().view(B, T, C).pow(2).mean()
loss.backward()
print(round(loss.item(), 5))
