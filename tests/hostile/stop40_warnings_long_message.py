# expect: ForbiddenError
# a message of 50,000 characters, matched against every filter
import warnings
warnings.warn("w" * 50_000)
