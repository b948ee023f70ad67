# expect: TypeError
# squeeze= is True or False: a program object's __bool__ is not asked.
import matplotlib.pyplot as plt
class B:
    def __bool__(self):
        raise SystemExit("ran")
plt.subplots(2, 2, squeeze=B())
