# expect: SyntaxError
yield 1
