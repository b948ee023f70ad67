# expect: ValueError
# manual_seed with a NaN, and a seed past 64 bits (a no-op without CUDA) before it
import torch

torch.cuda.manual_seed(2**100)
torch.cuda.manual_seed_all(float("nan"))
