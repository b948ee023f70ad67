# Source: github.com/d2l-ai/d2l-en (Dive into Deep Learning, sample code MIT-0), branch r0.17,
# chapter_optimization/adam.md, its PyTorch cells.
# Changed: the cells joined in order; the d2l library's pieces it uses pasted from the same
# branch (d2l/torch.py): Accumulator, linreg, squared_loss, load_array, evaluate_loss,
# get_data_ch11, train_ch11, train_concise_ch11; get_data_ch11's airfoil download
# replaced by seeded random numbers (torch.manual_seed(0) added) of the same width, n 1500
# -> 200 at every call; the Animator replaced by a list of the losses it would plot and the
# Timer dropped (0.0 sec/epoch printed); the d2l aliases written as torch calls (d2l.zeros,
# d2l.matmul, d2l.reshape, d2l.reduce_sum as torch.sum, d2l.size as .numel).
import torch
from torch import nn
from torch.utils import data

torch.manual_seed(0)  # added


class Accumulator:  #@save
    """For accumulating sums over `n` variables."""
    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def reset(self):
        self.data = [0.0] * len(self.data)

    def __getitem__(self, idx):
        return self.data[idx]


def linreg(X, w, b):  #@save
    """The linear regression model."""
    return torch.matmul(X, w) + b

def squared_loss(y_hat, y):  #@save
    """Squared loss."""
    return (y_hat - torch.reshape(y, y_hat.shape)) ** 2 / 2

def load_array(data_arrays, batch_size, is_train=True):  #@save
    """Construct a PyTorch data iterator."""
    dataset = data.TensorDataset(*data_arrays)
    return data.DataLoader(dataset, batch_size, shuffle=is_train)

def evaluate_loss(net, data_iter, loss):  #@save
    """Evaluate the loss of a model on the given dataset."""
    metric = Accumulator(2)  # Sum of losses, no. of examples
    for X, y in data_iter:
        out = net(X)
        y = torch.reshape(y, out.shape)
        l = loss(out, y)
        metric.add(torch.sum(l), l.numel())
    return metric[0] / metric[1]

def get_data_ch11(batch_size=10, n=1500):  #@save
    data = torch.randn(n, 6)  # the airfoil data (downloaded) replaced by random numbers
    data = (data - data.mean(axis=0)) / data.std(axis=0)
    data_iter = load_array((data[:n, :-1], data[:n, -1]),
                           batch_size, is_train=True)
    return data_iter, data.shape[1]-1

def train_ch11(trainer_fn, states, hyperparams, data_iter,
               feature_dim, num_epochs=2):  #@save
    # Initialization
    w = torch.normal(mean=0.0, std=0.01, size=(feature_dim, 1),
                     requires_grad=True)
    b = torch.zeros((1), requires_grad=True)
    net, loss = lambda X: linreg(X, w, b), squared_loss
    # Train
    animator_Y = []  # the Animator's record of the loss
    n = 0
    for _ in range(num_epochs):
        for X, y in data_iter:
            l = loss(net(X), y).mean()
            l.backward()
            trainer_fn([w, b], states, hyperparams)
            n += X.shape[0]
            if n % 200 == 0:
                animator_Y.append(evaluate_loss(net, data_iter, loss))
    print(f'loss: {animator_Y[-1]:.3f}, {0.0:.3f} sec/epoch')
    return 0.0, animator_Y

def train_concise_ch11(trainer_fn, hyperparams, data_iter, num_epochs=4):  #@save
    # Initialization
    net = nn.Sequential(nn.Linear(5, 1))
    def init_weights(m):
        if type(m) == nn.Linear:
            torch.nn.init.normal_(m.weight, std=0.01)
    net.apply(init_weights)

    optimizer = trainer_fn(net.parameters(), **hyperparams)
    loss = nn.MSELoss(reduction='none')
    animator_Y = []  # the Animator's record of the loss
    n = 0
    for _ in range(num_epochs):
        for X, y in data_iter:
            optimizer.zero_grad()
            out = net(X)
            y = y.reshape(out.shape)
            l = loss(out, y)
            l.mean().backward()
            optimizer.step()
            n += X.shape[0]
            if n % 200 == 0:
                # `MSELoss` computes squared error without the 1/2 factor
                animator_Y.append(evaluate_loss(net, data_iter, loss) / 2)
    print(f'loss: {animator_Y[-1]:.3f}, {0.0:.3f} sec/epoch')

def init_adam_states(feature_dim):
    v_w, v_b = torch.zeros((feature_dim, 1)), torch.zeros(1)
    s_w, s_b = torch.zeros((feature_dim, 1)), torch.zeros(1)
    return ((v_w, s_w), (v_b, s_b))

def adam(params, states, hyperparams):
    beta1, beta2, eps = 0.9, 0.999, 1e-6
    for p, (v, s) in zip(params, states):
        with torch.no_grad():
            v[:] = beta1 * v + (1 - beta1) * p.grad
            s[:] = beta2 * s + (1 - beta2) * torch.square(p.grad)
            v_bias_corr = v / (1 - beta1 ** hyperparams['t'])
            s_bias_corr = s / (1 - beta2 ** hyperparams['t'])
            p[:] -= hyperparams['lr'] * v_bias_corr / (torch.sqrt(s_bias_corr)
                                                       + eps)
        p.grad.data.zero_()
    hyperparams['t'] += 1

data_iter, feature_dim = get_data_ch11(batch_size=10, n=200)
train_ch11(adam, init_adam_states(feature_dim),
           {'lr': 0.01, 't': 1}, data_iter, feature_dim);

trainer = torch.optim.Adam
train_concise_ch11(trainer, {'lr': 0.01}, data_iter)

def yogi(params, states, hyperparams):
    beta1, beta2, eps = 0.9, 0.999, 1e-3
    for p, (v, s) in zip(params, states):
        with torch.no_grad():
            v[:] = beta1 * v + (1 - beta1) * p.grad
            s[:] = s + (1 - beta2) * torch.sign(
                torch.square(p.grad) - s) * torch.square(p.grad)
            v_bias_corr = v / (1 - beta1 ** hyperparams['t'])
            s_bias_corr = s / (1 - beta2 ** hyperparams['t'])
            p[:] -= hyperparams['lr'] * v_bias_corr / (torch.sqrt(s_bias_corr)
                                                       + eps)
        p.grad.data.zero_()
    hyperparams['t'] += 1

data_iter, feature_dim = get_data_ch11(batch_size=10, n=200)
train_ch11(yogi, init_adam_states(feature_dim),
           {'lr': 0.01, 't': 1}, data_iter, feature_dim);
