# Timing lines as deeplearning-models and minGPT write them: time.time() around an epoch,
# printed in minutes (the numbers themselves differ between runs; these round to 0.0)
import time
from time import perf_counter

import torch

start_time = time.time()
t0 = perf_counter()
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    loss = model(torch.ones(4, 3)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("Epoch: %03d | Time elapsed: %.1f min" % (epoch + 1, (time.time() - start_time) / 60))
tnow = time.time()
print("iter_dt %.1fs" % ((tnow - start_time) * 0), perf_counter() - t0 >= 0)
time.sleep(0.001)
print("Total Training Time: %.1f min" % ((time.time() - start_time) / 60))
print(type(time.time()).__name__, type(time.time_ns()).__name__, time.time() > 1.7e9)
