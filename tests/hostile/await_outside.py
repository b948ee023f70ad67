# expect: SyntaxError|ForbiddenError
await x
