# nanoGPT's and minGPT's from_pretrained import transformers inside a method a small run
# never calls: CPython fails only if it runs, and so does gradtrace
import torch


class GPT(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.head = torch.nn.Linear(4, 2)

    def forward(self, x):
        return self.head(x)

    @classmethod
    def from_pretrained(cls, model_type):
        from transformers import GPT2LMHeadModel

        print("loading weights from pretrained gpt: %s" % model_type)
        return GPT2LMHeadModel.from_pretrained(model_type)


def save_plot(values):
    import matplotlib.pyplot as plt

    plt.plot(values)


def load_text(path):
    if path is None:
        return "hello"
    import os

    return os.path.basename(path)


torch.manual_seed(0)
model = GPT()
out = model(torch.ones(3, 4))
out.sum().backward()
print(out, load_text(None))
