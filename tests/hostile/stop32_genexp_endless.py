# expect: LimitError
# sum() reads an endless generator expression: its loop meets the iteration limit
import itertools

print(sum(x for x in itertools.count()))
