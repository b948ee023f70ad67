# expect: ForbiddenError
# the walrus operator hidden inside an f-string replacement field
x = 5
print(f"{(y := x * 2)}")
