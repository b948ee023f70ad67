# expect: ZeroDivisionError
# A printed integer past 64 bits in a series: the JSON writer takes 64-bit integers only.
print("loss", 2**64)
print("loss", 2**65)
print("loss:", 1e999)
print("loss:", 1e999)
1 / 0
