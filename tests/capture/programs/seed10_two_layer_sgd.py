# Seed 002, part 7 (shared/programs/seeds/10): a two-layer network trained by hand,
# two epochs here; `loss` is the third forward pass, whose graph is captured.
import torch

torch.manual_seed(0)
data_size, D_input, D_output, D_hidden = 100, 13, 1, 50
X = torch.randn(data_size, D_input)
y = torch.randn(data_size, D_output)
w1 = torch.randn(D_input, D_hidden, requires_grad=True)
w2 = torch.randn(D_hidden, D_output, requires_grad=True)

lr = 1e-5
epoch = 2
for i in range(epoch):
    # forward
    h = torch.mm(X, w1)
    h_relu = h.clamp(min=0)
    y_pred = torch.mm(h_relu, w2)
    loss = (y_pred - y).pow(2).sum()
    print('epoch: {} loss: {}'.format(i, loss.item()))
    # backward
    loss.backward()
    w1.data -= lr * w1.grad.data
    w2.data -= lr * w2.grad.data
    w1.grad.data.zero_()
    w2.grad.data.zero_()
h = torch.mm(X, w1)
h_relu = h.clamp(min=0)
y_pred = torch.mm(h_relu, w2)
loss = (y_pred - y).pow(2).sum()
