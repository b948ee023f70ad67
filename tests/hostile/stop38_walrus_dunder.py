# expect: ForbiddenError
# := binds a name as an assignment does: the same checks on the name
(__builtins__ := {"open": print})
