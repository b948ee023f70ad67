# expect: ForbiddenError
(__name__ := "not_main")
