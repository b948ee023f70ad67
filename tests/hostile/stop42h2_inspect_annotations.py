# expect: ValueError
# str() of torch's signatures: CPython writes the annotations and the return annotation ((in_features: int, ...) -> None); gradtrace silently leaves them out.
import inspect
import torch.nn as nn
if "in_features: int" in str(inspect.signature(nn.Linear)):
    raise ValueError("as CPython")
raise KeyError(str(inspect.signature(nn.Linear)))
