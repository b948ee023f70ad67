# The device lines and seed boilerplate of current tutorials: torch.backends.mps and
# cuDNN's switches, read back as set
import torch
import torch.backends.cudnn as cudnn

device = (
    "cuda" if torch.cuda.is_available() else "mps" if torch.backends.mps.is_available() else "cpu"
)
print(f"Using {device} device")
if torch.cuda.is_available():
    dev = torch.device("cuda")
elif torch.backends.mps.is_available() and torch.backends.mps.is_built():
    dev = torch.device("mps")
else:
    dev = torch.device("cpu")
print(dev)
print(torch.backends.cudnn.deterministic, cudnn.benchmark)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
print(cudnn.deterministic, torch.backends.cudnn.benchmark)
try:
    cudnn.benchmark = 1
except RuntimeError as e:
    print("RuntimeError:", e)
x = torch.ones(2, 3, device=dev, requires_grad=True)
(x * 2).sum().backward()
print(x.grad)
