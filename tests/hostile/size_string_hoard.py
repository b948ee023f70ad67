# expect: LimitError
# no total memory budget for strings: 5,000 distinct 100k strings (500 MB) kept alive in a list
keep = []
for i in range(5000):
    keep.append(str(i).ljust(100000))
print(len(keep))
