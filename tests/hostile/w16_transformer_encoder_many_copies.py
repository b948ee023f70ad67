# expect: LimitError
# TransformerEncoder deep-copies its layer num_layers times inside torch: 2,000 copies of
# a 3M-element layer asked for 25 GB before anything counted them, and the allocator's
# RuntimeError is one a program can catch
import torch
layer = torch.nn.TransformerEncoderLayer(d_model=512, nhead=8, dim_feedforward=2048)
try:
    encoder = torch.nn.TransformerEncoder(layer, num_layers=2000)
except RuntimeError:
    print("caught: the worker's memory was the only bound")
