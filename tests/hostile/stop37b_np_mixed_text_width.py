# expect: LimitError
# np.array of numbers mixed with one short string: numpy makes '<U64' text (256 bytes an element for complex), but _text_bytes counts only the longest str given (1 char): 4M elements pass the 32 MiB byte check and numpy allocates 1 GB before result_array's check
import numpy as np
row = [0j] * 999 + ["a"]
rows = [row] * 4000
a = np.array(rows)
print(a.dtype, a.shape)
