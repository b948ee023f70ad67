# copy.deepcopy as training code uses it: DQN's target network (a frozen copy of the
# policy, synced from it), early stopping's best weights (a deep copy of the state dict,
# loaded back), a config object copied and changed apart, a leaf tensor copied, and a
# model of conv, batch norm, LSTM and transformer layers with a forward hook, copied whole.
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
policy = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
target = copy.deepcopy(policy)
print(target, target[0].weight is policy[0].weight, torch.equal(target[0].weight, policy[0].weight))
best = copy.deepcopy(policy.state_dict())
opt = torch.optim.SGD(policy.parameters(), lr=0.5)
x = torch.randn(5, 3)
loss = (policy(x) - target(x).detach()).pow(2).sum() + policy(x).sum()
loss.backward()
opt.step()
print(torch.equal(best["0.weight"], policy[0].weight), list(best))
policy.load_state_dict(best)
print(torch.equal(target[0].weight, policy[0].weight))
class Cfg:
    def __init__(self):
        self.lr = 0.1
        self.layers = [1, 2, {"a": (3, 4)}]
c = Cfg()
d = copy.deepcopy(c)
d.layers[2]["a"] = 5
print(c.layers, d.layers, type(d).__name__, d.lr)
t = torch.ones(2, requires_grad=True)
u = copy.deepcopy(t)
print(u.requires_grad, u is t, u.grad_fn)
try:
    copy.deepcopy(t * 2)
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
nested = copy.deepcopy([policy, policy])
print(nested[0] is nested[1])

torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3)
        self.bn = nn.BatchNorm2d(2)
        self.rnn = nn.LSTM(4, 3, batch_first=True)
        self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8, batch_first=True), 2)
        self.scale = 0.5
        self.names = ["a", "b"]
        self.act = F.relu
    def forward(self, img, seq):
        a = self.act(self.bn(self.conv(img))).mean()
        out, _ = self.rnn(self.enc(seq))
        return a + out.sum() * self.scale

net = Net()
seen = []
net.conv.register_forward_hook(lambda m, i, o: seen.append(o.shape))
twin = copy.deepcopy(net)
img, seq = torch.randn(2, 1, 5, 5), torch.randn(2, 3, 4)
net.eval(); twin.eval()
print(torch.allclose(net(img, seq), twin(img, seq)), len(seen), twin.scale, twin.names, twin.act is net.act)
twin.train()
loss = twin(img, seq)
loss.backward()
print(twin.conv.weight.grad is not None, net.conv.weight.grad)
opt = torch.optim.Adam(net.parameters())
try:
    copy.deepcopy(3)
except Exception as e:
    print(type(e).__name__)
print(copy.deepcopy({"w": torch.ones(2), "n": 3, "t": (1, [2])}))
f = lambda v: v + 1
print(copy.deepcopy(f) is f, copy.deepcopy(F.relu) is F.relu)
