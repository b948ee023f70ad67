# expect: ValueError
# the Mersenne Twister takes 32-bit seeds: numpy refuses 2**40 itself
import numpy as np
print(np.random.RandomState(2**40).random_sample())
