# expect: LimitError
def down(n):
    return down(n + 1)


try:
    try:
        down(0)
    finally:
        raise ValueError("replaced")
except ValueError:
    print("swallowed")
