# expect: ForbiddenError
# a module pattern built to backtrack
import warnings
warnings.filterwarnings("ignore", module=".*(x|xx)*y")
