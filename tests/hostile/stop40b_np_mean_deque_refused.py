# expect: ValueError
# false refusal: np.mean of a deque of scores (the DQN tutorials' `np.mean(scores_window)`) ran before the operand checks and is now refused as "not a list"; once a deque is read like a list, the mean prints and the program ends with its own ValueError
import numpy as np
from collections import deque
scores = deque(maxlen=100)
for i in range(5):
    scores.append(float(i))
print(np.mean(scores))
raise ValueError("reached the end: np.mean(deque) worked")
