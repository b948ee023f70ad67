# expect: LimitError
# xs.extend(iterator) again and again: each iterator is read through the 1,000,000-item
# cap, but the list itself was never size-checked after (18,000,000 items)
chunk = [0] * 900000
xs = []
for i in range(20):
    xs.extend(iter(chunk))
print(len(xs))
