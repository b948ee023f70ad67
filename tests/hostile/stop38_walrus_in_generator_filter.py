# expect: ForbiddenError
# := in a generator expression's filter, inside a lambda inside a comprehension
fs = [lambda: (k := 1) for i in range(2)]
g = sum(1 for i in range(3) if (hit := i))
