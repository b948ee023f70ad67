# expect: LimitError
# raise ValueError(*1000 strings of 100k): str(exc) is a 100 MB error message, past every output limit
parts = ["x" * 100000] * 1000
raise ValueError(*parts)
