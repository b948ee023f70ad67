"""@dataclass as configs and small records are written: defaults, default_factory, inheritance, __post_init__, eq."""
from dataclasses import dataclass, field
import torch


@dataclass
class Config:
    lr: float
    epochs: int = 3
    sizes: list = field(default_factory=list)
    name: str = "run"


@dataclass
class Big(Config):
    depth: int = 2

    def __post_init__(self):
        self.total = self.epochs * self.depth


c = Config(0.1)
print(c, c == Config(0.1), c == Config(0.2), Config.epochs)
b = Big(0.5, depth=4)
print(b, b.total, b.sizes)


@dataclass(eq=False)
class Point:
    x: float
    y: float = 0.0

    def norm(self):
        return (self.x ** 2 + self.y ** 2) ** 0.5


p = Point(3.0, 4.0)
print(p.norm(), p, p == Point(3.0, 4.0))
try:
    Config()
except TypeError as e:
    print("TypeError", e)
try:
    hash(c)
except TypeError as e:
    print("TypeError", e)
