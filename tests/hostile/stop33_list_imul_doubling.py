# expect: LimitError
# doubling a list in place, again and again: each repeat counts toward the limits
xs = [0]
for i in range(64):
    xs *= 2
