# expect: LimitError
# `break` in finally swallows the recursion-depth LimitError of a runaway recursion
def down(n):
    return down(n + 1)
for i in range(3):
    try:
        down(0)
    finally:
        break
print("recursion limit swallowed")
