# expect: ForbiddenError
A = type('A', (), {})
