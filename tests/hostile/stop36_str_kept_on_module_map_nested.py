# expect: LimitError
# str kept on a Module is its checked value, which numpy now reads as a dtype: called
# through map it must still be the bounded str(), not the real one (a nested list shared
# a thousand times writes millions of characters)
import torch.nn as nn


class Holder(nn.Module):
    def __init__(self):
        super().__init__()
        self.text = str


row = [0] * 1000
nested = [row] * 1000
shown = list(map(Holder().text, [nested]))
print(len(shown[0]))
