"""operator, string and typing as tutorials use them."""

import operator
import string
from functools import reduce
from operator import attrgetter, itemgetter
from typing import Dict, List, Optional, Tuple

import torch

pairs = [("b", 2), ("a", 3), ("c", 1)]
print(sorted(pairs, key=itemgetter(1)), sorted(pairs, key=itemgetter(0, 1))[0])
print(reduce(operator.mul, [1, 2, 3, 4]), operator.add(2, 3), operator.neg(5), operator.lt(1, 2))
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = reduce(operator.add, [x * 2, x * x, x])
y.sum().backward()
print(y, x.grad, operator.getitem([10, 20], 1))
print(attrgetter("shape")(x), attrgetter("real", "imag")(3))
print(string.ascii_lowercase[:5], string.digits, len(string.punctuation), string.capwords("hi there"))


def stats(values: List[float], scale: Optional[float] = None) -> Tuple[float, float]:
    s = sum(values) * (scale or 1.0)
    return s, s / len(values)


table: Dict[str, int] = {"a": 1}
print(stats([1.0, 2.0, 3.0]), stats([1.0], 2.0), table, List[int], Optional[str])
