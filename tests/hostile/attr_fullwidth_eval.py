# expect: ForbiddenError
ｅｖａｌ("print(1)")
