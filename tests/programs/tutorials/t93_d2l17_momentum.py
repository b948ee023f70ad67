# Source: github.com/d2l-ai/d2l-en (Dive into Deep Learning, sample code MIT-0), branch r0.17,
# chapter_optimization/momentum.md, its PyTorch cells.
# Changed: the cells joined in order; plotting cells (show_trace_2d, set_figsize, plt) dropped
# and d2l.show_trace_2d(f_2d, d2l.train_2d(...)) kept as train_2d(...), which prints; the d2l library's pieces it uses pasted from the same branch
# (d2l/torch.py): Accumulator, linreg, squared_loss, load_array, evaluate_loss,
# train_2d, get_data_ch11, train_ch11, train_concise_ch11; get_data_ch11's airfoil download
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

def train_2d(trainer, steps=20, f_grad=None):  #@save
    """Optimize a 2D objective function with a customized trainer."""
    # `s1` and `s2` are internal state variables that will be used later
    x1, x2, s1, s2 = -5, -2, 0, 0
    results = [(x1, x2)]
    for i in range(steps):
        if f_grad:
            x1, x2, s1, s2 = trainer(x1, x2, s1, s2, f_grad)
        else:
            x1, x2, s1, s2 = trainer(x1, x2, s1, s2)
        results.append((x1, x2))
    print(f'epoch {i + 1}, x1: {float(x1):f}, x2: {float(x2):f}')
    return results

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

eta = 0.4
def f_2d(x1, x2):
    return 0.1 * x1 ** 2 + 2 * x2 ** 2
def gd_2d(x1, x2, s1, s2):
    return (x1 - eta * 0.2 * x1, x2 - eta * 4 * x2, 0, 0)

train_2d(gd_2d)

eta = 0.6
train_2d(gd_2d)

def momentum_2d(x1, x2, v1, v2):
    v1 = beta * v1 + 0.2 * x1
    v2 = beta * v2 + 4 * x2
    return x1 - eta * v1, x2 - eta * v2, v1, v2

eta, beta = 0.6, 0.5
train_2d(momentum_2d)

eta, beta = 0.6, 0.25
train_2d(momentum_2d)

def init_momentum_states(feature_dim):
    v_w = torch.zeros((feature_dim, 1))
    v_b = torch.zeros(1)
    return (v_w, v_b)

def sgd_momentum(params, states, hyperparams):
    for p, v in zip(params, states):
        with torch.no_grad():
            v[:] = hyperparams['momentum'] * v + p.grad
            p[:] -= hyperparams['lr'] * v
        p.grad.data.zero_()

def train_momentum(lr, momentum, num_epochs=2):
    train_ch11(sgd_momentum, init_momentum_states(feature_dim),
               {'lr': lr, 'momentum': momentum}, data_iter,
               feature_dim, num_epochs)

data_iter, feature_dim = get_data_ch11(batch_size=10, n=200)
train_momentum(0.02, 0.5)

train_momentum(0.01, 0.9)

train_momentum(0.005, 0.9)

trainer = torch.optim.SGD
train_concise_ch11(trainer, {'lr': 0.005, 'momentum': 0.9}, data_iter)
