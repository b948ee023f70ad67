# expect: RuntimeError|ValueError|LinAlgError
# validate_args=False with a negative-definite matrix: torch's Cholesky refuses it; the error is reported under torch's private class name _LinAlgError (not matchable, not the public torch.linalg.LinAlgError)
import torch
from torch.distributions import MultivariateNormal
d = MultivariateNormal(torch.zeros(3), -torch.eye(3), validate_args=False)
print(d.sample())
