# expect: ForbiddenError
print(chr(0xD800))
