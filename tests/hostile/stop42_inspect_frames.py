# expect: AttributeError|ForbiddenError
# inspect here is signatures only: no frames, no source, no members of live objects.
import inspect
frame = inspect.currentframe()
print(frame.f_back.f_globals)
