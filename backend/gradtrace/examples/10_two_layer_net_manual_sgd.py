# title: A two-layer network trained by hand
# summary: Forward, backward, update through .data, zero the gradients: by hand.
# lesson: Each iteration builds a new graph from the same leaves w1 and w2, runs
#   backward through it, and steps the weights against their gradients. The update
#   goes through .data so autograd does not record it, and the gradients are zeroed
#   because backward adds to them. The loss falls as the weights learn.

import torch

torch.manual_seed(0)
data_size, D_input, D_output, D_hidden = 64, 13, 1, 32
X = torch.randn(data_size, D_input)
y = torch.randn(data_size, D_output)
w1 = torch.randn(D_input, D_hidden, requires_grad=True)
w2 = torch.randn(D_hidden, D_output, requires_grad=True)

lr = 1e-5
epoch = 60
for i in range(epoch):
    # forward
    h = torch.mm(X, w1)
    h_relu = h.clamp(min=0)
    y_pred = torch.mm(h_relu, w2)
    loss = (y_pred - y).pow(2).sum()
    if i % 20 == 0:
        print("epoch: {} loss: {}".format(i, loss.item()))
    # backward
    loss.backward()
    w1.data -= lr * w1.grad.data
    w2.data -= lr * w2.grad.data
    w1.grad.data.zero_()
    w2.grad.data.zero_()
print(loss.item())
