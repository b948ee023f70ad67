# expect: ForbiddenError
# the saved state inside catch_warnings (the real warnings module)
import warnings
cw = warnings.catch_warnings()
print(cw._saved)
