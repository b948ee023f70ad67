# expect: ForbiddenError|AttributeError
# the stand-in's helpers and the real clock functions are not members
import time

time._ticks(5)
time.clock_gettime_ns(0)
