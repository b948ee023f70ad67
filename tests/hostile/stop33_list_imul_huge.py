# expect: LimitError
# list *= n repeats in place: checked as list * n is, before C allocates it
xs = [0.0] * 1000
xs *= 10**7
