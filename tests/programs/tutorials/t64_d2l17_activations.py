# Source: github.com/d2l-ai/d2l-en (Dive into Deep Learning, sample code MIT-0), branch r0.17,
# chapter_multilayer-perceptrons/mlp.md, its PyTorch cells.
# Changed: the cells joined in order; the d2l.plot lines (figures of each activation and
# its gradient) dropped.
import torch

x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.relu(x)

y.backward(torch.ones_like(x), retain_graph=True)

y = torch.sigmoid(x)

# Clear out previous gradients
x.grad.data.zero_()
y.backward(torch.ones_like(x),retain_graph=True)

y = torch.tanh(x)

# Clear out previous gradients.
x.grad.data.zero_()
y.backward(torch.ones_like(x),retain_graph=True)
