# expect: LimitError
# range.count of a float compares it with each number in turn, in C, past every alarm
print(range(10**18).count(0.5))
