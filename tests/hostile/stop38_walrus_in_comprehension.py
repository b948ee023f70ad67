# expect: ForbiddenError
# := in a comprehension binds in the enclosing function in CPython, which the evaluator's
# comprehension scope does not share: refused, not run with a different meaning
last = [(seen := i) for i in range(3)]
print(seen)
