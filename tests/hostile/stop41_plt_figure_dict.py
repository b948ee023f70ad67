# expect: ForbiddenError|AttributeError
# A figure's instance dict and class are not readable: only its methods and its axes.
import matplotlib.pyplot as plt
fig = plt.figure()
print(fig.__dict__)
print(type(fig).__init__.__globals__)
