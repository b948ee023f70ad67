# `class X(object):` is `class X:` (the older tutorials' spelling), and a program that
# binds the name `object` itself gets what it bound, as in CPython.
import torch
from torch import nn


class Dictionary(object):
    def __init__(self):
        self.word2idx = {}
        self.idx2word = []

    def add_word(self, word):
        if word not in self.word2idx:
            self.idx2word.append(word)
            self.word2idx[word] = len(self.idx2word) - 1
        return self.word2idx[word]

    def __len__(self):
        return len(self.idx2word)


class Corpus(object):
    def __init__(self, text):
        super(Corpus, self).__init__()
        self.dictionary = Dictionary()
        self.ids = torch.tensor([self.dictionary.add_word(w) for w in text.split()])


c = Corpus("the cat sat on the mat the end")
print(len(c.dictionary), c.ids, isinstance(c.dictionary, Dictionary))


class Counted(Dictionary, object):
    pass


print(len(Counted()), type(Counted()).__name__)


def build(object):
    # The parameter named `object` is the base here: a Module.
    class Net(object):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(2, 1)

        def forward(self, x):
            return self.fc(x)

    return Net


torch.manual_seed(0)
Net = build(nn.Module)
net = Net()
x = torch.ones(3, 2)
net(x).sum().backward()
print(isinstance(net, nn.Module), net.fc.weight.grad)

object = Dictionary


class Vocabulary(object):  # the program's own `object`: a Dictionary
    def size(self):
        return len(self)


v = Vocabulary()
v.add_word("a")
print(v.size(), isinstance(v, Dictionary))
del object


class Plain(object):
    pass


print(isinstance(Plain(), Dictionary))
