# expect: LimitError|ForbiddenError
x = 'a'
print(f"{x!r:>{10**9}}")
