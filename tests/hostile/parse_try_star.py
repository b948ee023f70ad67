# expect: ForbiddenError
# except* (TryStar, Python 3.11): a try kind missing from the allowlist tables
try:
    raise ValueError("x")
except* ValueError:
    print("caught")
