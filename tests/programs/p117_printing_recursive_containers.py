# A container that holds itself prints with [...] or {...} where it recurs, as CPython
# writes it (the print's size check once walked it forever, until the time limit); one
# shared many times is still counted each time it is written.
d = {}
d["x"] = d
print(d)
l = []
l.append(l)
print(l, [l, l])
pair = [[1, 2]] * 3
print(pair, {"a": [d, l]})
