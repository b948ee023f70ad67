# expect: AttributeError|ForbiddenError
# matplotlib's module holds use(), rcParams and pyplot only: the rest of the package stays out.
import matplotlib
print(matplotlib.colors.to_rgba("red"))
