# expect: LimitError
# nn.Transformer's stacks of layers are made inside torch: 200 + 200 layers of 3M elements
import torch
try:
    model = torch.nn.Transformer(num_encoder_layers=200, num_decoder_layers=200)
except RuntimeError:
    print("caught: the worker's memory was the only bound")
