# expect: LimitError
# "a".ljust through map(): a 5,000,000-character string, never checked
out = list(map("a".ljust, [5000000]))
print(len(out[0]))
