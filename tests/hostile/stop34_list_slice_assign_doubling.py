# expect: LimitError
# a[0:0] = a inserts a list into itself: a slice assignment's list was never size-checked,
# so it doubled past the 1,000,000-item limit (to the memory ceiling with more rounds)
a = [0] * 1000000
for i in range(5):
    a[0:0] = a
print(len(a))
