# expect: ForbiddenError|NotImplementedError|AttributeError|TypeError
# Counter.fromkeys from the class: CPython raises NotImplementedError; it is not dict's
import collections
print(collections.Counter.fromkeys("ab"))
