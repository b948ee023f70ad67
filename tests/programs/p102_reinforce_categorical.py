# REINFORCE as pytorch/examples writes it (reinforcement_learning/reinforce.py): a policy
# network's softmax goes into a Categorical, an action is sampled, its log_prob kept, and
# the loss is the returns-weighted sum of -log_prob. The environment is a small bandit
# written here (no gym). Also entropy, probs, a batch of actions and enumerate_support.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

torch.manual_seed(543)


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine1 = nn.Linear(4, 16)
        self.affine2 = nn.Linear(16, 2)
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        x = F.relu(self.affine1(x))
        return F.softmax(self.affine2(x), dim=1)


policy = Policy()
optimizer = optim.Adam(policy.parameters(), lr=1e-2)
gamma = 0.99


def select_action(state):
    probs = policy(state.unsqueeze(0))
    m = Categorical(probs)
    action = m.sample()
    policy.saved_log_probs.append(m.log_prob(action))
    return action.item()


def finish_episode():
    R = 0
    returns = []
    for r in policy.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + 1e-6)
    policy_loss = [-log_prob * R for log_prob, R in zip(policy.saved_log_probs, returns)]
    optimizer.zero_grad()
    loss = torch.cat(policy_loss).sum()
    loss.backward()
    optimizer.step()
    del policy.rewards[:]
    del policy.saved_log_probs[:]
    return loss.item()


for episode in range(3):
    state = torch.randn(4)
    for t in range(5):
        action = select_action(state)
        reward = 1.0 if action == int(state[0] > 0) else 0.0
        policy.rewards.append(reward)
        state = torch.randn(4)
    print(episode, round(finish_episode(), 5))

dist = Categorical(logits=torch.tensor([[0.5, -1.0, 2.0], [0.0, 0.0, 0.0]]))
actions = dist.sample((4,))
print(actions.shape, dist.log_prob(actions).shape)
print(dist.entropy(), dist.probs, dist.enumerate_support())
print(dist.batch_shape, dist.event_shape, dist.perplexity())
