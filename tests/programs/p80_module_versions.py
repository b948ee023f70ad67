# torch.__version__ and np.__version__ as tutorials read them: printed, split, compared
import numpy as np
import torch

print("PyTorch version:", torch.__version__)
print("NumPy version:", np.__version__)
major, minor = (int(part) for part in torch.__version__.split(".")[:2])
print(major >= 2, minor >= 0, torch.__version__ >= "1.0")
print(getattr(torch, "__version__") == torch.__version__, hasattr(np, "__version__"))
print(torch.__version__.startswith(str(major)), len(np.__version__.split(".")) >= 2)
if torch.__version__ < "0.4":
    print("old")
else:
    print("f-string:", f"{torch.__version__}"[:1] == str(major))
