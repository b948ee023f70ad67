# expect: LimitError
# Counter.update read off the class with range(25 * 10**6): C counts 25,000,000 keys into one Counter in one call (seconds), 25x a dict's item limit (10**8 runs for 30 s)
import collections
c = collections.Counter()
collections.Counter.update(c, range(25 * 10**6))
print(len(c))
