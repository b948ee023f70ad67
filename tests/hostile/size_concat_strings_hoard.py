# expect: LimitError
# 3,000 distinct 100k strings made by concatenation (300 MB): each string is within string_chars and nothing is repeated; memory_mb bounds them
s = "x" * 99990
keep = [s + str(i) for i in range(3000)]
print(len(keep))
