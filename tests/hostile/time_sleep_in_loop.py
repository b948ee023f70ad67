# expect: LimitError
# many short sleeps, each within the time left, add up past the wall time
import time

for i in range(1000):
    time.sleep(0.05)
