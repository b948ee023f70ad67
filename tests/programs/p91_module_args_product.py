# A Module of the program's own whose constructor arguments multiply past the element
# limit (784 * 500 * 15): its __init__ runs once, as in CPython, and its layers are each
# within the limit (rasbt/deeplearning-models' VAE sizes).
import torch


class VAE(torch.nn.Module):
    def __init__(self, num_features, num_hidden_1, num_latent):
        super().__init__()
        print("building", num_features, num_hidden_1, num_latent)
        self.hidden_1 = torch.nn.Linear(num_features, num_hidden_1)
        self.z_mean = torch.nn.Linear(num_hidden_1, num_latent)
        self.z_log_var = torch.nn.Linear(num_hidden_1, num_latent)
        self.linear_3 = torch.nn.Linear(num_latent, num_hidden_1)
        self.linear_4 = torch.nn.Linear(num_hidden_1, num_features)

    def forward(self, x):
        h = torch.relu(self.hidden_1(x))
        z = self.z_mean(h) + torch.exp(self.z_log_var(h) / 2) * 0.0
        return torch.sigmoid(self.linear_4(torch.relu(self.linear_3(z))))


torch.manual_seed(0)
model = VAE(784, 500, 15)
x = torch.rand(4, 784)
loss = torch.nn.functional.binary_cross_entropy(model(x), x)
loss.backward()
print(round(loss.item(), 4), sum(p.numel() for p in model.parameters()))
