# expect: LimitError
# time.sleep past the job's wall time: refused at once, not a worker held asleep
import time

time.sleep(3600)
