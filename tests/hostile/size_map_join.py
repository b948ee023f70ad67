# expect: LimitError
# ",".join through map(): the join pre-check keys on call syntax, and the list result is checked only for its length
parts = ["x" * 50000] * 100
out = list(map(",".join, [parts]))
print(len(out[0]))
