import torch
import torch.nn.functional as F

x = torch.linspace(-3, 3, 9, requires_grad=True)
outs = [
    F.relu(x), F.leaky_relu(x, 0.1), F.elu(x), F.gelu(x), F.silu(x), F.softplus(x),
    F.sigmoid(x), F.tanh(x), torch.sigmoid(x), F.hardtanh(x), F.relu6(x * 3),
    F.selu(x), F.mish(x), F.logsigmoid(x), F.softsign(x),
]
total = 0
for k, o in enumerate(outs):
    total = total + o.sum() * (k + 1)
total.backward()
print(total)
print(x.grad)
print([round(o[2].item(), 4) for o in outs])
