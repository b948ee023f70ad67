"""Generators as tutorials write them: a data iterator, send(), yield from with a return value."""
import torch
import random

def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = list(range(num_examples))
    random.shuffle(indices)
    for i in range(0, num_examples, batch_size):
        batch_indices = torch.tensor(indices[i: min(i + batch_size, num_examples)])
        yield features[batch_indices], labels[batch_indices]

X = torch.randn(10, 2)
y = torch.randn(10)
for a, b in data_iter(4, X, y):
    print(a.shape, b.shape)

def countdown(n):
    while n > 0:
        got = yield n
        if got:
            print("got", got)
        n -= 1
    return "done"

g = countdown(3)
print(next(g), g.send("hi"), list(g))

def chain(*its):
    for it in its:
        yield from it
    yield "end"

print(list(chain([1, 2], (3,), countdown(2))))

def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b
        if a > 50:
            return

print(list(fib()), sum(x * x for x in fib()))
def outer():
    r = yield from countdown(1)
    yield r
print(list(outer()))
