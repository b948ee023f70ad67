# Source: github.com/pytorch/tutorials (BSD-3-Clause), beginner_source/examples_tensor/two_layer_net_tensor.py.
# Changed: N, D_in, H, D_out = 64, 1000, 100, 10 cut to 16, 100, 20, 10 and 500 steps to 20;
# the prose (docstring, comments) dropped.
import torch


dtype = torch.float
device = torch.device("cpu")

N, D_in, H, D_out = 16, 100, 20, 10

x = torch.randn(N, D_in, device=device, dtype=dtype)
y = torch.randn(N, D_out, device=device, dtype=dtype)

w1 = torch.randn(D_in, H, device=device, dtype=dtype)
w2 = torch.randn(H, D_out, device=device, dtype=dtype)

learning_rate = 1e-6
for t in range(20):
    h = x.mm(w1)
    h_relu = h.clamp(min=0)
    y_pred = h_relu.mm(w2)

    loss = (y_pred - y).pow(2).sum().item()
    print(t, loss)

    grad_y_pred = 2.0 * (y_pred - y)
    grad_w2 = h_relu.t().mm(grad_y_pred)
    grad_h_relu = grad_y_pred.mm(w2.t())
    grad_h = grad_h_relu.clone()
    grad_h[h < 0] = 0
    grad_w1 = x.t().mm(grad_h)

    w1 -= learning_rate * grad_w1
    w2 -= learning_rate * grad_w2
