# expect: LimitError
from dataclasses import dataclass


@dataclass
class Box:
    inside: object


x = []
for i in range(200000):
    x = [x]
print(Box(x))
