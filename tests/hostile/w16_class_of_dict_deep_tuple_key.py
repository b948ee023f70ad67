# expect: LimitError
# {}.__class__ is Python's dict: its keys are hashed in C, so bounded first all the same
a = ()
for i in range(100000):
    a = (a,)
for i in range(100000):
    a = (a,)
D = {}.__class__
d = D([(a, 1)])
print(len(d))
