# expect: ForbiddenError
# A tensor class with __torch_function__ would run program code in each tensor call plot makes.
import matplotlib.pyplot as plt
import torch
class T(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        raise SystemExit("ran")
plt.plot(torch.zeros(3).as_subclass(T))
