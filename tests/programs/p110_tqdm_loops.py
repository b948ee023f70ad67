# tqdm as training scripts use it: trange over epochs, a bar over a DataLoader with its
# description and postfix set each step, tqdm.write between bars, a bar with a total
# updated by hand, and tqdm.auto's. The bars go to stderr under CPython and draw nothing
# here: stdout is the same.
from tqdm import tqdm, trange
from tqdm.auto import tqdm as auto_tqdm
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(8, 2), torch.randn(8, 1)), batch_size=4)
for epoch in trange(2, desc="epochs"):
    pbar = tqdm(loader, desc=f"epoch {epoch}", leave=False)
    for xb, yb in pbar:
        loss = ((model(xb) - yb) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        pbar.set_postfix(loss=loss.item())
        pbar.set_description(f"epoch {epoch} loss {loss.item():.3f}")
    tqdm.write(f"epoch {epoch} done, {pbar.n} batches, {len(pbar)} in all")
with tqdm(total=5) as bar:
    for i in range(5):
        bar.update(1)
    print(bar.n, bar.total)
print([x * 2 for x in auto_tqdm([1, 2, 3])], len(trange(4)))
