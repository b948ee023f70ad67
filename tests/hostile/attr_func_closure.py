# expect: ForbiddenError
def outer():
    secret = 1
    def inner():
        return secret
    return inner

print(outer().__closure__)
