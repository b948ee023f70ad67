# expect: ForbiddenError
# other tqdm submodules and helpers are not stand-ins
from tqdm.contrib import tenumerate
