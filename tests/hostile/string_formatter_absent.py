# expect: ForbiddenError|AttributeError
import string
print(string.Formatter().format("{0.__globals__}", print))
