# expect: LimitError
# a pre-hook of the program, registered after the check, hands forward other inputs
import torch
mha = torch.nn.MultiheadAttention(4, 1)
big = torch.ones(3000, 1, 4)


def swap(module, args):
    return (big, big, big)


mha.register_forward_pre_hook(swap)
out, _ = mha(torch.ones(2, 1, 4), torch.ones(2, 1, 4), torch.ones(2, 1, 4), need_weights=False)
print(out.shape)
