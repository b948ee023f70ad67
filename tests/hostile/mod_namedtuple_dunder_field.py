# expect: ValueError
from collections import namedtuple
P = namedtuple('P', ['__class__'])
