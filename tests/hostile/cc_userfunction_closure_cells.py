# expect: ForbiddenError
# UserFunction.body is the evaluator's closure: __closure__ cells expose compiled program internals
def f():
    return 1
show = "{0.body.__closure__[0].cell_contents}".format
print(show(f)[:200])
