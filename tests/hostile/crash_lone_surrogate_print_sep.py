# expect: ForbiddenError|ValueError|LimitError
# the surrogate arrives through print's sep argument, built with chr() arithmetic
print("a", "b", sep=chr(0xD800 + 5))
