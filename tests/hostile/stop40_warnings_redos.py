# expect: ForbiddenError
# a backtracking message pattern: Python would match every warning against it in C
import warnings
warnings.filterwarnings("ignore", message="(a+)+$")
warnings.warn("a" * 40 + "!")
