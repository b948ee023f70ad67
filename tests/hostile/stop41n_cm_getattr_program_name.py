# expect: TypeError|ForbiddenError
# getattr(plt.cm, name) with a program object as the name (its endswith would run).
import matplotlib.pyplot as plt


class N:
    def endswith(self, s):
        return True


print(getattr(plt.cm, N()))
