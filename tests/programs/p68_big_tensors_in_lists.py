# A tensor of more rows than a loop may take, kept whole in a list, a deque and a set:
# storing it iterates nothing (extending a list with it would make a tensor per row).
import collections
import torch
big = torch.arange(200000, dtype=torch.float32)
kept = []
kept.append(big)
kept.insert(0, big[:3])
queue = collections.deque()
queue.appendleft(big)
seen = set()
seen.add(big)
print(len(kept), kept[1].shape, kept[0], queue[0].shape, len(seen))
w = torch.ones(200000, requires_grad=True)
batches = []
batches.append(w * 2)
loss = batches[0].sum()
loss.backward()
print(loss.item(), w.grad[:3])
