# expect: LimitError
# the walk pops the last item first and skips what it has seen: 60 chains of 98 lists, each ending in the next, listed in reverse; the walk sees each at depth 1 (nesting <= 100), deepcopy goes through all (5,880 deep) and the program catches its RecursionError
import copy
prev = []
chains = []
for j in range(60):
    c = [prev]
    for i in range(97):
        c = [c]
    chains.append(c)
    prev = c
chains.reverse()
try:
    y = copy.deepcopy(chains)
    print("copied")
except Exception as e:
    print("caught", type(e).__name__)
print("after")
