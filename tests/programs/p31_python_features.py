import torch

names = ["a", "b", "c"]
vals = {n: torch.tensor(float(i + 1), requires_grad=True) for i, n in enumerate(names)}
squares = [v ** 2 for v in vals.values()]
total = sum(squares)
total.backward()
for n, v in zip(names, vals.values()):
    print(f"{n}: value={v.item()} grad={v.grad.item():.1f}")
pairs = [(i, j) for i in range(3) for j in range(i) if (i + j) % 2 == 1]
print(pairs)
first, *rest = [1, 2, 3, 4]
(p, q), r = (5, 6), 7
print(first, rest, p, q, r)
d = {"lr": 0.1, "epochs": 3}
d["momentum"] = 0.9
print(sorted(d.keys()), d.get("lr"), "epochs" in d, len(d))
fn = lambda t, k=2: t * k
print(fn(torch.tensor([1.0, 2.0])), fn(3, k=4))
s = {x % 3 for x in range(10)}
print(sorted(s), max(3, 7), min([4, 1, 9]), abs(-2), round(3.14159, 2))
print("{} + {} = {}".format(1, 2, 1 + 2), "%d items, %.2f each" % (3, 1.5))
text = ", ".join(str(i) for i in range(5))
print(text, text.upper(), text.split(", ")[:2])
i = 0
while i < 10:
    i += 3
    if i == 6:
        continue
    print("i", i)
else:
    print("loop done")
print(list(reversed([1, 2, 3])), list(range(10, 0, -3)), isinstance(total, torch.Tensor))
