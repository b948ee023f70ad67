# expect: ForbiddenError|AttributeError
# the warnings module's internals: its filter list and showwarning hook
import warnings
print(warnings.filters)
