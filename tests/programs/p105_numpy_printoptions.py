# np.set_printoptions as tutorials use it (precision and suppress for readable arrays,
# threshold and edgeitems for long ones, positional too), the float modes, signs and nan
# strings, the legacy format, and the defaults set again.
import numpy as np
import torch
np.set_printoptions(precision=3, suppress=True)
a = np.array([1.234567, 1e-9, 123456.789])
print(a)
np.set_printoptions(4, 10, 2, 60)
print(np.arange(20) / 7)
np.set_printoptions(precision=2, floatmode="fixed", sign="+", nanstr="NaN", infstr="Inf")
print(np.array([1.0, np.nan, np.inf, -2.5]))
print(np.get_printoptions()["precision"])
np.set_printoptions(legacy="1.13")
print(np.array([0.5, 1.0]))
np.set_printoptions(legacy=False, precision=8, threshold=1000, edgeitems=3, linewidth=75, suppress=False, floatmode="maxprec", sign="-", nanstr="nan", infstr="inf")
print(np.array([1/3]))
x = torch.tensor(np.array([1.5, 2.5]), requires_grad=True)
(x * 2).sum().backward()
print(x.grad.numpy())
