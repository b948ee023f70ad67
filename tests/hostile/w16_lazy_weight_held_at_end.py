# expect: ValueError
# a lazy layer's weight before its first call, left in a global: writing the trace asked
# it for its version and gradtrace.run itself raised (no trace came back)
import torch
m = torch.nn.LazyLinear(3)
for p in m.parameters():
    w = p
print(w.sum())
