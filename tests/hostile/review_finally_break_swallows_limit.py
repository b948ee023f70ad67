# expect: LimitError
def down(n):
    return down(n + 1)


for i in range(3):
    try:
        down(0)
    finally:
        break
print("swallowed")
