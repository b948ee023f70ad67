# expect: LimitError
# profile="full" sets an infinite threshold: str() of a 4-million-element tensor built
# every element's text (hundreds of MB, seconds) before its length was checked
import torch
torch.set_printoptions(profile="full")
print(len(str(torch.rand(4000000))))
