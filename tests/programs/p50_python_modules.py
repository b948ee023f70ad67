# Python's random, itertools, functools and collections as tutorials use them, seeded
import random
import itertools
import functools
import collections
from collections import defaultdict, Counter, deque, OrderedDict, namedtuple
import torch

random.seed(42)
xs = [random.uniform(-1, 1) for _ in range(5)]
print([round(x, 4) for x in xs], random.randint(1, 6), random.choice("abc"))
words = ["a", "b", "a", "c", "b", "a"]
random.shuffle(words)
print(words, random.sample(range(10), 3), random.choices([1, 2, 3], k=4))
counts = Counter(words)
print(counts.most_common(2), counts["a"])
groups = defaultdict(list)
for i, w in enumerate("abcab"):
    groups[w].append(i)
print(dict(groups))
q = deque([1, 2, 3], maxlen=3)
q.append(4)
q.appendleft(0)
print(list(q), q.maxlen)
od = OrderedDict(a=1, b=2)
od.move_to_end("a")
print(list(od.keys()))
Point = namedtuple("Point", "x y")
p = Point(1, 2)
print(p.x + p.y, p._asdict(), p)
print(list(itertools.chain([1, 2], [3])), list(itertools.islice(itertools.count(), 5)))
print(list(itertools.product([0, 1], repeat=2)), list(itertools.combinations(range(4), 2))[:3])
print([list(g) for k, g in itertools.groupby("aabbbc")], list(itertools.accumulate([1, 2, 3])))
print(functools.reduce(lambda a, b: a * b, [1, 2, 3, 4]))
add3 = functools.partial(torch.add, torch.tensor(3.0))
print(add3(torch.tensor(1.0)))


@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


print(fib(30))
print(sorted([3, 1, 2], key=functools.cmp_to_key(lambda a, b: b - a)))
print(sum(itertools.islice(itertools.cycle([1, 2]), 7)))
