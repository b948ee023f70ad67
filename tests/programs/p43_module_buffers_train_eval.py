import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 6), nn.Linear(6, 3)])
        self.drop = nn.Dropout(0.5)
        self.scale = nn.Parameter(torch.ones(1))

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(self.layers) - 1:
                x = self.drop(F.relu(x))
        return x * self.scale


torch.manual_seed(0)
clf = Classifier()
xb = torch.randn(7, 4)
yb = torch.randint(0, 3, (7,))
clf.train()
loss = F.cross_entropy(clf(xb), yb)
loss.backward()
print(loss)
print(clf.scale.grad)
clf.eval()
print(clf.training, clf(xb).argmax(dim=1))
clf.zero_grad()
print(clf.scale.grad)
