# expect: TypeError
# a category that is not a Warning class (an object of the program's)
import warnings
class W:
    pass
warnings.filterwarnings("ignore", category=W)
