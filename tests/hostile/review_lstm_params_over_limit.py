# expect: LimitError
import torch
m = torch.nn.LSTM(10, 1500)
