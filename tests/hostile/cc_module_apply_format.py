# expect: ForbiddenError
# Module.apply calls any callable on each submodule; str.format fields walk the module's class globals
import torch
m = torch.nn.Linear(1, 1)
out = []
m.apply(lambda mod: out.append(list(map("{0.__class__.__init__.__globals__[torch].os.environ}".format, [mod]))[0]))
print(out[0][:60])
