# expect: ForbiddenError
# simplefilter taken as a value and called by map: the same checks
import warnings
list(map(warnings.simplefilter, ["error"]))
