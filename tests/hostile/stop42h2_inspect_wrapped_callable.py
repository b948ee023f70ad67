# expect: ValueError
# inspect.signature of callables gradtrace wraps (DataLoader, np.linspace) reads the wrapper's (dataset, *args, **kwargs): CPython names batch_size and num, gradtrace silently does not.
import inspect
import numpy as np
from torch.utils.data import DataLoader
if "batch_size" in inspect.signature(DataLoader).parameters and "num" in inspect.signature(np.linspace).parameters:
    raise ValueError("as CPython")
raise KeyError(str(inspect.signature(DataLoader)) + " " + str(inspect.signature(np.linspace)))
