# expect: ForbiddenError|ValueError|LimitError
# an error message holding a lone surrogate: the failing trace itself cannot be serialised
raise ValueError("bad " + chr(56320))
